"""Club tournaments: the event, its entrants, rounds, pairings, games and their paper trail.

These models live in the `games` app (imported at the end of games/models.py). Only
`games.tournaments.services` writes them; the defaults are the ACC customs.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.engine import get_variant
from games.tournaments.pairing import TIEBREAKS
from games.tournaments.scoring import (
    SEATS,
    Points,
    default_places,
    parse_places,
    points_text,
    score_text,
)

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
        default=2,
        help_text="Players in each game: 2 for singles; 4 for doubles in a partnership game "
        "(partners sit opposite) or for a table of four each playing for themselves.",
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
        null=True,
        blank=True,
        help_text="A loser with this many points or fewer is skunked; empty: the game's own "
        "line for the target.",
    )
    double_skunk_line = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="A loser with this many points or fewer is double skunked; empty: the game's "
        "own line for the target.",
    )
    place_points = models.CharField(
        max_length=40,
        blank=True,
        help_text="Games ranked by final score: game points by place, best first (3,2,1,0); "
        "empty: 2,0 at a table of two, 3,2,1,0 at a table of four.",
    )
    bye_points = models.DecimalField(max_digits=5, decimal_places=2, default=2)
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
    def engine(self):
        return get_variant(self.variant)

    @property
    def scoring(self):
        """How the game counts (the variant's TournamentScoring)."""
        return self.engine.tournament

    @property
    def target(self) -> int | None:
        target = self.options.get("target")
        return int(target) if target is not None else None

    @property
    def table_size(self) -> int:
        """Sides at each game: 2 for singles and doubles, more for games each for themselves."""
        return len(self.engine.teams(self.players))

    @property
    def seats(self) -> str:
        """The letters of a table's seats: "ab", or "abcd" at a table of four."""
        return SEATS[: self.table_size]

    @property
    def places(self) -> tuple:
        if self.place_points:
            return parse_places(self.place_points)
        return default_places(self.table_size, self.scoring)

    @property
    def rules(self) -> Points:
        return Points(
            scoring=self.scoring,
            target=self.target or 0,
            win=self.points_win,
            skunk=self.points_skunk,
            double_skunk=self.points_double_skunk,
            loss=self.points_loss,
            skunk_line=self.skunk_line,
            double_skunk_line=self.double_skunk_line,
            places=self.places,
            bye_points=self.bye_points,
            bye_spread=self.bye_spread,
        )

    @property
    def skunk_lines_in_force(self) -> tuple[int | None, int | None]:
        return self.rules.lines

    @property
    def is_ranked(self) -> bool:
        return self.scoring.kind == "ranked"

    @property
    def tiebreak_order(self) -> list[str]:
        return [key.strip() for key in self.tiebreaks.split(",") if key.strip()]

    @property
    def is_doubles(self) -> bool:
        """Each entrant a team of two (a partnership game for four)."""
        return self.players == 2 * self.table_size

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
                "places": [float(p) for p in self.places] if self.is_ranked else [],
            },
            "bye": {"points": float(self.bye_points), "spread": self.bye_spread},
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
    carry_game_points = models.DecimalField(max_digits=7, decimal_places=2, default=0)
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
    c = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Third seat (tables of three or four).",
    )  # fmt: skip
    d = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
        help_text="Fourth seat (tables of four).",
    )  # fmt: skip
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
        if self.is_bye:
            return f"{self.round}: {self.a.name} has a bye"
        return f"{self.round}: " + " v ".join(e.name for _, e in self.seated)

    @property
    def is_bye(self) -> bool:
        return self.b_id is None

    @property
    def seated(self) -> list[tuple[str, Entrant]]:
        """(letter, entrant) for every seat taken, a first."""
        return [
            (letter, getattr(self, letter))
            for letter in SEATS
            if getattr(self, f"{letter}_id") is not None
        ]

    @property
    def entrant_ids(self) -> list[int]:
        ids = (getattr(self, f"{letter}_id") for letter in SEATS)
        return [pk for pk in ids if pk is not None]

    def letter_of(self, entrant_id) -> str | None:
        for letter in SEATS:
            if getattr(self, f"{letter}_id") == entrant_id:
                return letter
        return None

    def side_of(self, user) -> str | None:
        for letter, entrant in self.seated:
            if entrant.has_member(user):
                return letter
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
    score_a = models.SmallIntegerField(null=True, blank=True)
    score_b = models.SmallIntegerField(null=True, blank=True)
    score_c = models.SmallIntegerField(null=True, blank=True)
    score_d = models.SmallIntegerField(null=True, blank=True)
    winner = models.CharField(
        max_length=4, blank=True, help_text="The winning seats' letters (a, b, or ac...)."
    )
    points_a = models.DecimalField(max_digits=6, decimal_places=2, default=0)
    points_b = models.DecimalField(max_digits=6, decimal_places=2, default=0)
    points_c = models.DecimalField(max_digits=6, decimal_places=2, default=0)
    points_d = models.DecimalField(max_digits=6, decimal_places=2, default=0)
    spread_a = models.SmallIntegerField(default=0)
    spread_b = models.SmallIntegerField(default=0)
    spread_c = models.SmallIntegerField(default=0)
    spread_d = models.SmallIntegerField(default=0)
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

    def scores(self, seats: str) -> list[int | None]:
        return [getattr(self, f"score_{letter}") for letter in seats]

    @property
    def score_text(self) -> str:
        """ "121–98", or "60–52–41–30" at a table of four; empty before a result."""
        seats = self.pairing.round.tournament.seats
        return score_text(self.scores(seats))

    @property
    def in_play(self) -> bool:
        return self.status in {self.Status.OPEN, self.Status.PENDING}


class ResultEntry(models.Model):
    """A result as one person entered it; a player's entry waits for the opponent's word."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="entries")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    side = models.CharField(max_length=1, blank=True, help_text="a, b, or empty: the director.")
    score_a = models.SmallIntegerField()
    score_b = models.SmallIntegerField()
    score_c = models.SmallIntegerField(null=True, blank=True)
    score_d = models.SmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        ordering = ["created_at", "pk"]
        verbose_name_plural = "result entries"

    def __str__(self) -> str:
        return f"{self.score_text} by {self.by} for {self.game}"

    def scores(self) -> list[int]:
        found = [self.score_a, self.score_b, self.score_c, self.score_d]
        return [s for s in found if s is not None]

    @property
    def score_text(self) -> str:
        return score_text(self.scores())


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
    game_points = models.DecimalField(max_digits=7, decimal_places=2, default=0)
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
        return f"{points_text(self.game_points)}/{self.wins}"


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
