"""The club member (a custom user) and the sockets that make a member count as online."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse


class User(AbstractUser):
    """A club member. `display_name` is what other members see; it falls back to the username."""

    display_name = models.CharField(
        "display name",
        max_length=50,
        blank=True,
        help_text="How other members see you at the table. Leave blank to use your username.",
    )

    class Meta:
        verbose_name = "member"
        verbose_name_plural = "members"
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="unique_member_email",
                violation_error_message="Another member already uses this email address.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.display_name or self.username

    def get_absolute_url(self) -> str:
        return reverse("profile", args=[self.username])


class Presence(models.Model):
    """One open socket of a signed-in member; `seen` is refreshed by the page's heartbeat."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="presences")
    channel_name = models.CharField(max_length=200, unique=True)
    seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.user} on {self.channel_name}"


class ApiToken(models.Model):
    """A personal token for the JSON API. Only its SHA-256 is stored; the token is shown once."""

    PREFIX = "crib_"

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, help_text="What the token is for, e.g. 'my bot'.")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=12, editable=False, help_text="The token's first letters.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…) of {self.user}"
