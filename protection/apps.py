from typing import Any

from django.apps import AppConfig


class ProtectionConfig(AppConfig):
    name = "protection"
    verbose_name = "Player protection"

    def ready(self) -> None:
        """Record each change of a player's region (R-PROT-1), whoever saves it."""
        from django.db.models.signals import pre_save

        from accounts.models import User

        pre_save.connect(_region_changed, sender=User, dispatch_uid="protection.region_changed")


def _region_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    fields = kwargs.get("update_fields")
    if instance.pk is None or instance._state.adding or (fields is not None and "region" not in fields):
        return
    before = sender.objects.filter(pk=instance.pk).values_list("region", flat=True).first()
    if before is not None and before != instance.region:
        from protection.history import record

        record(instance, "region_changed", was=before, now=instance.region)
