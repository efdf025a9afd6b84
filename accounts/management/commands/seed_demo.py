"""Load a small demo club (development only). Safe to run again: it updates, never duplicates."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User

MEMBERS = [
    # username, display name, password
    ("alice", "Alice", "alice-pegs-121"),
    ("bea", "Bea", "bea-pegs-121"),
    ("carl", "Carl", "carl-pegs-121"),
    ("dora", "Dora", "dora-pegs-121"),
    ("eddie", "Eddie", "eddie-pegs-121"),
]
DIRECTOR = ("director", "Tournament Director", "director-runs-121")


class Command(BaseCommand):
    help = "Create demo members with known passwords and a staff account (only with DEBUG on)."

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            raise CommandError("seed_demo only runs with DEBUG on: its passwords are public.")
        with transaction.atomic():
            rows = [(*m, False) for m in MEMBERS] + [(*DIRECTOR, True)]
            for username, display_name, password, staff in rows:
                user, created = User.objects.get_or_create(
                    username=username,
                    defaults={"display_name": display_name, "email": f"{username}@example.org"},
                )
                user.display_name = display_name
                user.is_staff = user.is_superuser = staff
                user.set_password(password)
                user.save()
                verb = "created" if created else "reset"
                role = " (staff, /admin/)" if staff else ""
                self.stdout.write(f"  {verb:7} {username:10} password: {password}{role}")
        self.stdout.write(self.style.SUCCESS("Demo club ready."))
