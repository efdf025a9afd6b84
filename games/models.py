"""Matches on the site: the match, its seats and its append-only move log (the truth).

The current engine state is a cached snapshot of replaying the log from the seed; only
`games.services` writes any of these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Ending(models.TextChoices):
        PLAYED = "played", _("Played out")
        RESIGNED = "resigned", _("Resigned")
        ABANDONED = "abandoned", _("Abandoned")
        ABORTED = "aborted", _("Aborted")
        CANCELLED = "cancelled", _("Cancelled")

    variant = models.CharField(_("game"), max_length=20)
    players = models.PositiveSmallIntegerField(_("players"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    ending = models.CharField(_("ending"), max_length=10, choices=Ending.choices, blank=True)
    invite_only = models.BooleanField(_("invitation only"), default=False)
    rated = models.BooleanField(
        _("rated"),
        default=True,
        help_text=_("Counts for ratings when every seat is a member (never with a computer seat)."),
    )
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invited"),
        blank=True,
        related_name="match_invitations",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The secret seed every shuffle of the match comes from; its hash is public from the start.
    seed = models.CharField(_("seed"), max_length=64, editable=False)
    seed_sha256 = models.CharField(_("seed hash"), max_length=64, editable=False)
    seq = models.PositiveIntegerField(
        _("sequence"), default=0, help_text=_("Bumped by every change of the match.")
    )
    moves_played = models.PositiveIntegerField(_("moves played"), default=0)
    snapshot = models.JSONField(_("snapshot"), null=True, blank=True, editable=False)
    to_move = models.JSONField(
        _("to move"), default=list, blank=True, help_text=_("Seats that may act now.")
    )
    outcome = models.JSONField(_("outcome"), null=True, blank=True)
    rematch = models.OneToOneField(
        "self",
        verbose_name=_("rematch"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_of",
        help_text=_("The match a seated member offered after this one ended."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [
            models.Index(fields=["status", "-created_at"], name="match_lobby"),
            models.Index(fields=["status", "-finished_at"], name="match_finished"),
        ]

    def __str__(self) -> str:
        return gettext("Match %(pk)s (%(game)s, %(players)d players, %(status)s)") % {
            "pk": self.pk,
            "game": self.variant,
            "players": self.players,
            "status": self.get_status_display(),
        }

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    @property
    def is_over(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.ABORTED}

    @property
    def group_name(self) -> str:
        return group_for(self.pk)


def group_for(match_id: int) -> str:
    """The channel-layer group of a match's sockets."""
    return f"match-{match_id}"


class Seat(models.Model):
    """A place at the table: a member, or the computer (user is None)."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="seats"
    )
    index = models.PositiveSmallIntegerField(_("seat number"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    is_computer = models.BooleanField(_("computer"), default=False)
    took_over = models.BooleanField(
        _("taken over"),
        default=False,
        help_text=_("The computer took this seat over from an absent member."),
    )
    team = models.PositiveSmallIntegerField(_("team"), default=0)
    level = models.CharField(
        _("level"),
        max_length=16,
        blank=True,
        help_text=_("The computer's level here; blank: the game's default."),
    )
    joined_at = models.DateTimeField(_("joined"), null=True, blank=True)
    connections = models.PositiveSmallIntegerField(_("open pages"), default=0)
    away_since = models.DateTimeField(
        _("away since"),
        null=True,
        blank=True,
        help_text=_("When the member's last open page went away."),
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
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
        return gettext("seat %(index)d of match %(match)s") % {
            "index": self.index,
            "match": self.match_id,
        }

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.is_computer

    @property
    def name(self) -> str:
        if self.user_id is not None and not self.took_over:
            return self.user.name
        if self.is_computer:
            base = self.user.name if self.user_id is not None else None
            if base:
                return gettext("Computer (for %(name)s)") % {"name": base}
            return gettext("Computer %(number)d") % {"number": self.index + 1}
        return gettext("Open seat")


class Move(models.Model):
    """One move as the engine took it. Unique per (match, seq): a move applies once."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="moves"
    )
    seq = models.PositiveIntegerField(_("sequence"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    move = models.JSONField(_("move"))
    by_computer = models.BooleanField(_("by the computer"), default=False)
    to_move_before = models.JSONField(
        _("to move before"),
        default=list,
        help_text=_("The seats that could act when this move was made."),
    )
    created_at = models.DateTimeField(_("played"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="one_move_per_seq"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} #{self.seq}: seat {self.seat} {self.move}"


from games.tournaments.models import *  # noqa: E402,F403  (club tournaments, same app)
