from typing import Any

from django.apps import AppConfig


class ProtectionConfig(AppConfig):
    name = "protection"
    verbose_name = "Player protection"

    def ready(self) -> None:
        """Answer a player's request to move (R-PROT-9, ``protection.residence``), and treat a
        region saved on the user elsewhere (the admin) as the same move, whoever saves it."""
        from django.db.models.signals import pre_save

        from accounts.models import User
        from accounts.signals import region_change_asked, region_change_waiting
        from protection import residence

        pre_save.connect(_region_changed, sender=User, dispatch_uid="protection.region_changed")
        region_change_asked.connect(residence.asked, dispatch_uid="protection.residence.asked")
        region_change_waiting.connect(residence.waiting, dispatch_uid="protection.residence.waiting")


def _region_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    fields = kwargs.get("update_fields")
    if instance.pk is None or instance._state.adding or (fields is not None and "region" not in fields):
        return
    before = sender.objects.filter(pk=instance.pk).values_list("region", flat=True).first()
    if before is not None and before != instance.region:
        from protection.residence import edited

        edited(instance.pk, was=before, region=instance.region)
