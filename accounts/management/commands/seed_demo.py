"""Create the demo users once (a staff user and a few players) and print their passwords."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import User
from accounts.personas import PLAYERS, STAFF, demo_password


class Command(BaseCommand):
    help = "Create demo users (staff: sam; players: alice, bob, carol, ...) if missing."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        created = []
        for username in STAFF + PLAYERS:
            user, is_new = User.objects.get_or_create(
                username=username,
                defaults={"display_name": username.title(), "is_staff": username in STAFF},
            )
            if is_new:
                user.is_superuser = username in STAFF
                user.set_password(demo_password(username))
                user.save()
                created.append(username)
        self.stdout.write("Demo users (username / password):")
        for username in STAFF + PLAYERS:
            role = "staff" if username in STAFF else "player"
            self.stdout.write(f"  {username:<6} {demo_password(username):<20} {role}")
        if created:
            self.stdout.write(f"Created: {', '.join(created)}")
