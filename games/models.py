"""Matches on the site: the match, its seats and its append-only move log (the truth).

The current engine state is a cached snapshot of replaying the log from the seed; only
`games.services` writes any of these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    class Ending(models.TextChoices):
        PLAYED = "played", "Played out"
        RESIGNED = "resigned", "Resigned"
        ABANDONED = "abandoned", "Abandoned"
        ABORTED = "aborted", "Aborted"
        CANCELLED = "cancelled", "Cancelled"

    variant = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    ending = models.CharField(max_length=10, choices=Ending.choices, blank=True)
    invite_only = models.BooleanField(default=False)
    rated = models.BooleanField(
        default=True,
        help_text="Counts for ratings when every seat is a member (never with a computer seat).",
    )
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="match_invitations"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The secret seed every shuffle of the match comes from; its hash is public from the start.
    seed = models.CharField(max_length=64, editable=False)
    seed_sha256 = models.CharField(max_length=64, editable=False)
    seq = models.PositiveIntegerField(default=0, help_text="Bumped by every change of the match.")
    moves_played = models.PositiveIntegerField(default=0)
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    to_move = models.JSONField(default=list, blank=True, help_text="Seats that may act now.")
    outcome = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["status", "-created_at"], name="match_lobby"),
            models.Index(fields=["status", "-finished_at"], name="match_finished"),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.variant}, {self.players} players, {self.status})"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    @property
    def is_over(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.ABORTED}

    @property
    def group_name(self) -> str:
        return f"match-{self.pk}"


class Seat(models.Model):
    """A place at the table: a member, or the computer (user is None)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    is_computer = models.BooleanField(default=False)
    took_over = models.BooleanField(
        default=False, help_text="The computer took this seat over from an absent member."
    )
    team = models.PositiveSmallIntegerField(default=0)
    level = models.CharField(
        max_length=16, blank=True, help_text="The computer's level here; blank: the game's default."
    )
    joined_at = models.DateTimeField(null=True, blank=True)
    connections = models.PositiveSmallIntegerField(default=0)
    away_since = models.DateTimeField(
        null=True, blank=True, help_text="When the member's last open page went away."
    )

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="one_seat_per_index"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_member",
            ),
        ]
        indexes = [models.Index(fields=["user", "match"], name="seat_history")]

    def __str__(self) -> str:
        return f"seat {self.index} of match {self.match_id}"

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.is_computer

    @property
    def name(self) -> str:
        if self.user_id is not None and not self.took_over:
            return self.user.name
        if self.is_computer:
            base = self.user.name if self.user_id is not None else None
            return f"Computer (for {base})" if base else f"Computer {self.index + 1}"
        return "Open seat"


class Move(models.Model):
    """One move as the engine took it. Unique per (match, seq): a move applies once."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    by_computer = models.BooleanField(default=False)
    to_move_before = models.JSONField(
        default=list, help_text="The seats that could act when this move was made."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="one_move_per_seq"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} #{self.seq}: seat {self.seat} {self.move}"


from games.tournaments.models import *  # noqa: E402,F403  (club tournaments, same app)
