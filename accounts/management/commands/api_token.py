"""Create a personal API token for a member and print it (only the token, for scripts)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.tokens import TokenError, token_create


class Command(BaseCommand):
    help = "Create an API token for a member and print it on stdout (it is not stored anywhere)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username", help="the member the token acts for")
        parser.add_argument("--name", default="command line", help="what the token is for")

    def handle(self, *args, username: str, name: str, **options) -> None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"there is no member called {username!r}")
        if not user.is_active:
            raise CommandError(f"{username!r} is not an active member")
        try:
            token, raw = token_create(user=user, name=name)
        except TokenError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(raw)
        self.stderr.write(f"Created token {token.name!r} ({token.hint}…) for {user.username}.")
