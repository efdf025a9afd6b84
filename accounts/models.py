"""The club member (a custom user) and the sockets that make a member count as online."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A club member. `display_name` is what other members see; it falls back to the username."""

    display_name = models.CharField(
        _("display name"),
        max_length=50,
        blank=True,
        help_text=_("How other members see you at the table. Leave blank to use your username."),
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("The language of the site for you, on every device. Blank: your browser's."),
    )
    motion = models.BooleanField(
        _("table motion"),
        default=True,
        help_text=_(
            "Cards slide, pegs move and scores pop up at the table. Switched off as well when "
            "your device asks for reduced motion."
        ),
    )
    sounds = models.BooleanField(
        _("sounds"),
        default=False,
        help_text=_("A short sound when it is your turn and when you are invited to a match."),
    )

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="unique_member_email",
                violation_error_message=_("Another member already uses this email address."),
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
    name = models.CharField(max_length=60, help_text=_("What the token is for, e.g. 'my bot'."))
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(
        max_length=12, editable=False, help_text=_("The token's first letters.")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…) of {self.user}"


# -- ratings and statistics (derived data: the match history stays the truth) -----------------


class Rating(models.Model):
    """A member's Glicko-2 rating in one game at one player count, as of `last_played_at`.

    The deviation grows while a member is away; `accounts.ratings.current()` says by how much.
    Rebuilt from the history by `manage.py recompute_ratings`.
    """

    user = models.ForeignKey(
        User, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("member")
    )
    game = models.CharField(_("game"), max_length=20)
    players = models.PositiveSmallIntegerField(_("players"))
    rating = models.FloatField(_("rating"), default=1500.0)
    deviation = models.FloatField(_("deviation"), default=350.0)
    volatility = models.FloatField(_("volatility"), default=0.06)
    games = models.PositiveIntegerField(_("games"), default=0, help_text=_("Rated games played."))
    last_played_at = models.DateTimeField(_("last played"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "players"], name="one_rating_per_game"),
        ]
        indexes = [
            models.Index(fields=["game", "players", "-rating"], name="rating_board"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.game}/{self.players}: {self.rating:.0f}"


class RatingChange(models.Model):
    """One rating period of a member: a rated match, or a rated result from over the table."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    table_game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    at = models.DateTimeField()
    rating_before = models.FloatField()
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    score = models.FloatField(help_text=_("Points won against the opponents faced (1 a win)."))
    opponents = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["at", "pk"]
        indexes = [
            models.Index(fields=["user", "game", "players", "at"], name="rating_chart"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.game}/{self.players} {self.rating_before:.0f}->{self.rating:.0f}"

    @property
    def delta(self) -> float:
        return self.rating - self.rating_before


class MatchRecord(models.Model):
    """How one member's seat came out of one finished match: the rows statistics add up.

    Written when the match ends; `figures` (the game's own counts for this seat, see
    accounts.figures) is filled just after, off the request, or by recompute_ratings.
    """

    class Result(models.TextChoices):
        WON = "won", _("Won")
        LOST = "lost", _("Lost")
        DRAWN = "drawn", _("Shared")

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="match_records")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField()
    game = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()
    ended_at = models.DateTimeField()
    result = models.CharField(max_length=5, choices=Result.choices)
    ending = models.CharField(max_length=10, blank=True)
    score = models.IntegerField(default=0)
    skunks_given = models.PositiveSmallIntegerField(default=0)
    skunks_taken = models.PositiveSmallIntegerField(default=0)
    rated = models.BooleanField(default=False)
    vs_computer = models.BooleanField(default=False)
    figures = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="one_record_per_seat"),
        ]
        indexes = [
            models.Index(fields=["game", "ended_at"], name="record_activity"),
            models.Index(fields=["user", "game"], name="record_stats"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.result} match {self.match_id}"


class RatedEvent(models.Model):
    """A director's word that an event's results entered over the table count for ratings.

    Kept here (not on the tournament) so ratings need nothing of the tournament models; online
    games of every event are rated anyway, like any rated match.
    """

    tournament = models.OneToOneField(
        "games.Tournament",
        on_delete=models.CASCADE,
        related_name="rating_setting",
        verbose_name=_("tournament"),
    )
    rate_table_results = models.BooleanField(
        _("rate table results"),
        default=True,
        help_text=_("Rate results entered over the table (both sides members)."),
    )

    class Meta:
        verbose_name = _("rated event")

    def __str__(self) -> str:
        state = "rated" if self.rate_table_results else "unrated"
        return f"{self.tournament}: table results {state}"
