"""Club tournaments: the event, its entrants, rounds, pairings, games and their paper trail.

These models live in the `games` app (imported at the end of games/models.py). Only
`games.tournaments.services` writes them; the defaults are the ACC customs.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.tournaments.pairing import TIEBREAKS, Points

DEFAULT_TIEBREAKS = ",".join(TIEBREAKS)


class Tournament(models.Model):
    class Venue(models.TextChoices):
        TABLE = "table", "Over the table"
        ONLINE = "online", "Online"
        MIXED = "mixed", "Mixed"

    class Qualifying(models.TextChoices):
        SWISS = "swiss", "Rounds against new opponents"
        ROUND_ROBIN = "round_robin", "Round robin"
        DOUBLE_ROUND_ROBIN = "double_round_robin", "Double round robin"
        NONE = "none", "No qualifying (straight to the playoff)"

    class Stage(models.TextChoices):
        ENTRY = "entry", "Taking entries"
        QUALIFYING = "qualifying", "Qualifying"
        PLAYOFF = "playoff", "Playoff"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=120)
    date = models.DateField()
    variant = models.CharField(max_length=20, default="cribbage")
    players = models.PositiveSmallIntegerField(
        default=2, help_text="2 for singles; 4 for doubles (partners sit opposite)."
    )
    options = models.JSONField(default=dict, blank=True)
    venue = models.CharField(max_length=10, choices=Venue.choices, default=Venue.TABLE)
    qualifying = models.CharField(
        max_length=20, choices=Qualifying.choices, default=Qualifying.SWISS
    )
    rounds = models.PositiveSmallIntegerField(
        default=9, help_text="Qualifying rounds (ignored by a round robin)."
    )
    playoff = models.BooleanField(default=False)
    qualifiers = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="How many reach the playoff; empty: a quarter, rounded up."
    )
    series_length = models.PositiveSmallIntegerField(
        default=3, choices=[(1, "1 game"), (3, "Best of 3"), (5, "Best of 5")]
    )
    points_win = models.SmallIntegerField(default=2)
    points_skunk = models.SmallIntegerField(default=3)
    points_double_skunk = models.SmallIntegerField(default=3)
    points_loss = models.SmallIntegerField(default=0)
    skunk_line = models.PositiveSmallIntegerField(
        default=90, help_text="A loser with this many points or fewer is skunked."
    )
    double_skunk_line = models.PositiveSmallIntegerField(
        default=60, help_text="A loser with this many points or fewer is double skunked."
    )
    bye_points = models.SmallIntegerField(default=2)
    bye_spread = models.SmallIntegerField(default=0)
    tiebreaks = models.CharField(
        max_length=80,
        default=DEFAULT_TIEBREAKS,
        help_text="Comma-separated order of: game_points, wins, spread, head_to_head.",
    )
    forfeit_minutes = models.PositiveSmallIntegerField(
        default=15, help_text="How long a no-show has before the director may forfeit the game."
    )
    seed = models.CharField(max_length=32, blank=True, help_text="Draws the first round.")
    stage = models.CharField(max_length=12, choices=Stage.choices, default=Stage.ENTRY)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "games"
        ordering = ["-date", "-pk"]
        permissions = [("direct_tournament", "Can direct tournaments")]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d %b %Y})"

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    @property
    def group_name(self) -> str:
        return f"tournament-{self.pk}"

    @property
    def target(self) -> int:
        return int(self.options.get("target", 121))

    @property
    def rules(self) -> Points:
        return Points(
            target=self.target,
            win=self.points_win,
            skunk=self.points_skunk,
            double_skunk=self.points_double_skunk,
            loss=self.points_loss,
            skunk_line=self.skunk_line,
            double_skunk_line=self.double_skunk_line,
            bye_points=self.bye_points,
            bye_spread=self.bye_spread,
        )

    @property
    def tiebreak_order(self) -> list[str]:
        return [key.strip() for key in self.tiebreaks.split(",") if key.strip()]

    @property
    def is_doubles(self) -> bool:
        return self.players == 4

    def settings_json(self) -> dict:
        return {
            "variant": self.variant,
            "players": self.players,
            "options": self.options,
            "venue": self.venue,
            "qualifying": self.qualifying,
            "rounds": self.rounds,
            "playoff": self.playoff,
            "qualifiers": self.qualifiers,
            "series_length": self.series_length,
            "points": {
                "win": self.points_win,
                "skunk": self.points_skunk,
                "double_skunk": self.points_double_skunk,
                "loss": self.points_loss,
                "skunk_line": self.skunk_line,
                "double_skunk_line": self.double_skunk_line,
            },
            "bye": {"points": self.bye_points, "spread": self.bye_spread},
            "tiebreaks": self.tiebreak_order,
            "forfeit_minutes": self.forfeit_minutes,
            "seed": self.seed,
        }


class Entrant(models.Model):
    """Who gets paired: a member or a guest by name; for doubles, a team of two such people."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
    )
    guest_name = models.CharField(max_length=80, blank=True)
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_partnerships",
    )
    partner_guest_name = models.CharField(max_length=80, blank=True)
    checked_in = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    late = models.BooleanField(default=False, help_text="Joined after the first round.")
    draw = models.PositiveIntegerField(null=True, blank=True, help_text="Place in the draw.")
    carry_game_points = models.SmallIntegerField(default=0)
    carry_wins = models.SmallIntegerField(default=0)
    carry_spread = models.SmallIntegerField(default=0)
    carry_games = models.SmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(user__isnull=False),
                name="one_entry_per_member",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def first_name(self) -> str:
        return self.user.name if self.user_id else self.guest_name

    @property
    def name(self) -> str:
        second = self.partner.name if self.partner_id else self.partner_guest_name
        return f"{self.first_name} & {second}" if second else self.first_name

    @property
    def members(self) -> list:
        return [u for u in (self.user, self.partner) if u is not None]

    def has_member(self, user) -> bool:
        return (
            user is not None
            and user.pk is not None
            and user.pk
            in {
                self.user_id,
                self.partner_id,
            }
        )


class Round(models.Model):
    class Stage(models.TextChoices):
        QUALIFYING = "qualifying", "Qualifying"
        PLAYOFF = "playoff", "Playoff"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=12, choices=Stage.choices, default=Stage.QUALIFYING)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        if self.stage == self.Stage.PLAYOFF:
            return f"Playoff round {self.playoff_number}"
        return f"Round {self.number}"

    @property
    def playoff_number(self) -> int:
        earlier = self.tournament.round_set.filter(
            stage=self.Stage.PLAYOFF, number__lt=self.number
        ).count()
        return earlier + 1


class Pairing(models.Model):
    class Status(models.TextChoices):
        READY = "ready", "Ready"
        PLAYING = "playing", "In play"
        DONE = "done", "Decided"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    slot = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Place in the bracket (playoff rounds)."
    )
    a = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="+")
    b = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    seed_a = models.PositiveSmallIntegerField(null=True, blank=True)
    seed_b = models.PositiveSmallIntegerField(null=True, blank=True)
    series_length = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.READY)
    winner = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        app_label = "games"
        ordering = ["round__number", "table", "slot", "pk"]

    def __str__(self) -> str:
        other = self.b.name if self.b_id else "a bye"
        return f"{self.round}: {self.a.name} v {other}"

    @property
    def is_bye(self) -> bool:
        return self.b_id is None

    def side_of(self, user) -> str | None:
        if self.a.has_member(user):
            return "a"
        if self.b_id and self.b.has_member(user):
            return "b"
        return None


class Game(models.Model):
    """One game of a pairing, with its agreed result once there is one."""

    class Status(models.TextChoices):
        OPEN = "open", "In play"
        PENDING = "pending", "Awaiting confirmation"
        DISPUTED = "disputed", "Disputed"
        CONFIRMED = "confirmed", "Confirmed"
        FORFEIT = "forfeit", "Forfeited"

    class Source(models.TextChoices):
        TABLE = "table", "Over the table"
        ONLINE = "online", "Online"

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.TABLE)
    match = models.OneToOneField(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_game",
    )
    score_a = models.PositiveSmallIntegerField(null=True, blank=True)
    score_b = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.CharField(max_length=1, blank=True, help_text="a or b, once decided.")
    points_a = models.SmallIntegerField(default=0)
    points_b = models.SmallIntegerField(default=0)
    spread_a = models.SmallIntegerField(default=0)
    skunk = models.PositiveSmallIntegerField(default=0)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "games"
        ordering = ["pairing", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "number"], name="one_game_number"),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of {self.pairing}"

    @property
    def is_decided(self) -> bool:
        return self.status in {self.Status.CONFIRMED, self.Status.FORFEIT}

    @property
    def in_play(self) -> bool:
        return self.status in {self.Status.OPEN, self.Status.PENDING}


class ResultEntry(models.Model):
    """A result as one person entered it; a player's entry waits for the opponent's word."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="entries")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    side = models.CharField(max_length=1, blank=True, help_text="a, b, or empty: the director.")
    score_a = models.PositiveSmallIntegerField()
    score_b = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        ordering = ["created_at", "pk"]
        verbose_name_plural = "result entries"

    def __str__(self) -> str:
        return f"{self.score_a}-{self.score_b} by {self.by} for {self.game}"


class Dispute(models.Model):
    """Two entries for one game that disagree; the director settles it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    first = models.ForeignKey(ResultEntry, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(ResultEntry, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField(auto_now_add=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        app_label = "games"
        ordering = ["opened_at", "pk"]

    def __str__(self) -> str:
        return f"dispute over {self.game}"


class Correction(models.Model):
    """The record of a result changed after it stood: who, when, before and after."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="corrections")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField()
    after = models.JSONField()
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        app_label = "games"
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"correction of {self.game} by {self.by} at {self.at:%H:%M}"


class Standing(models.Model):
    """One line of the qualifying standings, as last recomputed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    entrant = models.OneToOneField(Entrant, on_delete=models.CASCADE, related_name="standing")
    position = models.PositiveSmallIntegerField()
    game_points = models.SmallIntegerField(default=0)
    wins = models.SmallIntegerField(default=0)
    losses = models.SmallIntegerField(default=0)
    spread = models.IntegerField(default=0)
    games = models.SmallIntegerField(default=0)

    class Meta:
        app_label = "games"
        ordering = ["tournament", "position"]

    def __str__(self) -> str:
        return f"{self.position}. {self.entrant} {self.card}"

    @property
    def card(self) -> str:
        return f"{self.game_points}/{self.wins}"


__all__ = [
    "Correction",
    "Dispute",
    "Entrant",
    "Game",
    "Pairing",
    "ResultEntry",
    "Round",
    "Standing",
    "Tournament",
]
