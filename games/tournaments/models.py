"""Club tournaments: the event, its entrants, rounds, pairings, games and their paper trail.

These models live in the `games` app (imported at the end of games/models.py). Only
`games.tournaments.services` writes them; the defaults are the ACC customs.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine import get_variant
from games.tournaments.pairing import TIEBREAKS
from games.tournaments.scoring import (
    SEATS,
    Points,
    default_places,
    parse_places,
    score_text,
)
from games.tournaments.texts import local_card, local_points, round_title

DEFAULT_TIEBREAKS = ",".join(TIEBREAKS)


class Tournament(models.Model):
    class Venue(models.TextChoices):
        TABLE = "table", _("Over the table")
        ONLINE = "online", _("Online")
        MIXED = "mixed", _("Mixed")

    class Qualifying(models.TextChoices):
        SWISS = "swiss", _("Rounds against new opponents")
        ROUND_ROBIN = "round_robin", _("Round robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round robin")
        NONE = "none", _("No qualifying (straight to the playoff)")

    class Stage(models.TextChoices):
        ENTRY = "entry", _("Taking entries")
        QUALIFYING = "qualifying", _("Qualifying")
        PLAYOFF = "playoff", _("Playoff")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    variant = models.CharField(_("game"), max_length=20, default="cribbage")
    players = models.PositiveSmallIntegerField(
        _("players"),
        default=2,
        help_text=_(
            "Players in each game: 2 for singles; 4 for doubles in a partnership game "
            "(partners sit opposite) or for a table of four each playing for themselves."
        ),
    )
    options = models.JSONField(_("game options"), default=dict, blank=True)
    venue = models.CharField(
        _("where games are played"), max_length=10, choices=Venue.choices, default=Venue.TABLE
    )
    qualifying = models.CharField(
        _("qualifying"), max_length=20, choices=Qualifying.choices, default=Qualifying.SWISS
    )
    rounds = models.PositiveSmallIntegerField(
        _("qualifying rounds"),
        default=9,
        help_text=_("Qualifying rounds (ignored by a round robin)."),
    )
    playoff = models.BooleanField(_("playoff"), default=False)
    qualifiers = models.PositiveSmallIntegerField(
        _("playoff places"),
        null=True,
        blank=True,
        help_text=_("How many reach the playoff; empty: a quarter, rounded up."),
    )
    series_length = models.PositiveSmallIntegerField(
        _("playoff series"), default=3, choices=[(1, "1 game"), (3, "Best of 3"), (5, "Best of 5")]
    )
    points_win = models.SmallIntegerField(_("game points for a win"), default=2)
    points_skunk = models.SmallIntegerField(_("game points for a skunk"), default=3)
    points_double_skunk = models.SmallIntegerField(_("game points for a double skunk"), default=3)
    points_loss = models.SmallIntegerField(_("game points for a loss"), default=0)
    skunk_line = models.PositiveSmallIntegerField(
        _("skunk line"),
        null=True,
        blank=True,
        help_text=_(
            "A loser with this many points or fewer is skunked; empty: the game's own "
            "line for the target."
        ),
    )
    double_skunk_line = models.PositiveSmallIntegerField(
        _("double skunk line"),
        null=True,
        blank=True,
        help_text=_(
            "A loser with this many points or fewer is double skunked; empty: the game's "
            "own line for the target."
        ),
    )
    place_points = models.CharField(
        _("game points by place"),
        max_length=40,
        blank=True,
        help_text=_(
            "Games ranked by final score: game points by place, best first (3,2,1,0); "
            "empty: 2,0 at a table of two, 3,2,1,0 at a table of four."
        ),
    )
    bye_points = models.DecimalField(
        _("game points for a bye"), max_digits=5, decimal_places=2, default=2
    )
    bye_spread = models.SmallIntegerField(_("spread of a bye"), default=0)
    tiebreaks = models.CharField(
        _("tie-breaks"),
        max_length=80,
        default=DEFAULT_TIEBREAKS,
        help_text=_("Comma-separated order of: game_points, wins, spread, head_to_head."),
    )
    forfeit_minutes = models.PositiveSmallIntegerField(
        _("minutes before a forfeit"),
        default=15,
        help_text=_("How long a no-show has before the director may forfeit the game."),
    )
    seed = models.CharField(
        _("seed"), max_length=32, blank=True, help_text=_("Draws the first round.")
    )
    stage = models.CharField(_("stage"), max_length=12, choices=Stage.choices, default=Stage.ENTRY)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("director"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        app_label = "games"
        ordering = ["-date", "-pk"]
        permissions = [("direct_tournament", _("Can direct tournaments"))]

    def __str__(self) -> str:
        return f"{self.name} ({date_format(self.date)})"

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

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entrants"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
    )
    guest_name = models.CharField(_("guest's name"), max_length=80, blank=True)
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("partner"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_partnerships",
    )
    partner_guest_name = models.CharField(_("partner's name as a guest"), max_length=80, blank=True)
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    late = models.BooleanField(
        _("late entry"), default=False, help_text=_("Joined after the first round.")
    )
    draw = models.PositiveIntegerField(
        _("draw"), null=True, blank=True, help_text=_("Place in the draw.")
    )
    carry_game_points = models.DecimalField(
        _("game points carried"), max_digits=7, decimal_places=2, default=0
    )
    carry_wins = models.SmallIntegerField(_("wins carried"), default=0)
    carry_spread = models.SmallIntegerField(_("spread carried"), default=0)
    carry_games = models.SmallIntegerField(_("games carried"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
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
        QUALIFYING = "qualifying", _("Qualifying")
        PLAYOFF = "playoff", _("Playoff")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="round_set"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    stage = models.CharField(
        _("stage"), max_length=12, choices=Stage.choices, default=Stage.QUALIFYING
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
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
            return gettext("Playoff round %(number)d") % {"number": self.playoff_number}
        return round_title(self.number)

    @property
    def playoff_number(self) -> int:
        earlier = self.tournament.round_set.filter(
            stage=self.Stage.PLAYOFF, number__lt=self.number
        ).count()
        return earlier + 1


class Pairing(models.Model):
    class Status(models.TextChoices):
        READY = "ready", _("Ready")
        PLAYING = "playing", _("In play")
        DONE = "done", _("Decided")

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="pairings"
    )
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    slot = models.PositiveSmallIntegerField(
        _("slot"), null=True, blank=True, help_text=_("Place in the bracket (playoff rounds).")
    )
    a = models.ForeignKey(
        Entrant, verbose_name=_("seat a"), on_delete=models.PROTECT, related_name="+"
    )
    b = models.ForeignKey(
        Entrant,
        verbose_name=_("seat b"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    c = models.ForeignKey(
        Entrant,
        verbose_name=_("seat c"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Third seat (tables of three or four)."),
    )
    d = models.ForeignKey(
        Entrant,
        verbose_name=_("seat d"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Fourth seat (tables of four)."),
    )
    seed_a = models.PositiveSmallIntegerField(_("seed of a"), null=True, blank=True)
    seed_b = models.PositiveSmallIntegerField(_("seed of b"), null=True, blank=True)
    series_length = models.PositiveSmallIntegerField(_("games in the series"), default=1)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.READY
    )
    winner = models.ForeignKey(
        Entrant,
        verbose_name=_("winner"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        app_label = "games"
        ordering = ["round__number", "table", "slot", "pk"]

    def __str__(self) -> str:
        if self.is_bye:
            return gettext("%(round)s: %(name)s has a bye") % {
                "round": self.round,
                "name": self.a.name,
            }
        names = gettext(" v ").join(entrant.name for _letter, entrant in self.seated)
        return f"{self.round}: {names}"

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
        OPEN = "open", _("In play")
        PENDING = "pending", _("Awaiting confirmation")
        DISPUTED = "disputed", _("Disputed")
        CONFIRMED = "confirmed", _("Confirmed")
        FORFEIT = "forfeit", _("Forfeited")

    class Source(models.TextChoices):
        TABLE = "table", _("Over the table")
        ONLINE = "online", _("Online")

    pairing = models.ForeignKey(
        Pairing, verbose_name=_("pairing"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("number"), default=1)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    source = models.CharField(
        _("source"), max_length=10, choices=Source.choices, default=Source.TABLE
    )
    match = models.OneToOneField(
        "games.Match",
        verbose_name=_("online match"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_game",
    )
    score_a = models.SmallIntegerField(_("score a"), null=True, blank=True)
    score_b = models.SmallIntegerField(_("score b"), null=True, blank=True)
    score_c = models.SmallIntegerField(_("score c"), null=True, blank=True)
    score_d = models.SmallIntegerField(_("score d"), null=True, blank=True)
    winner = models.CharField(
        _("winning seats"),
        max_length=4,
        blank=True,
        help_text=_("The winning seats' letters (a, b, or ac...)."),
    )
    points_a = models.DecimalField(_("game points a"), max_digits=6, decimal_places=2, default=0)
    points_b = models.DecimalField(_("game points b"), max_digits=6, decimal_places=2, default=0)
    points_c = models.DecimalField(_("game points c"), max_digits=6, decimal_places=2, default=0)
    points_d = models.DecimalField(_("game points d"), max_digits=6, decimal_places=2, default=0)
    spread_a = models.SmallIntegerField(_("spread a"), default=0)
    spread_b = models.SmallIntegerField(_("spread b"), default=0)
    spread_c = models.SmallIntegerField(_("spread c"), default=0)
    spread_d = models.SmallIntegerField(_("spread d"), default=0)
    skunk = models.PositiveSmallIntegerField(_("skunk level"), default=0)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament game")
        verbose_name_plural = _("tournament games")
        app_label = "games"
        ordering = ["pairing", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "number"], name="one_game_number"),
        ]

    def __str__(self) -> str:
        return gettext("game %(number)d of %(pairing)s") % {
            "number": self.number,
            "pairing": self.pairing,
        }

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

    game = models.ForeignKey(
        Game, verbose_name=_("tournament game"), on_delete=models.CASCADE, related_name="entries"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    side = models.CharField(
        _("side"), max_length=1, blank=True, help_text=_("a, b, or empty: the director.")
    )
    score_a = models.SmallIntegerField(_("score a"))
    score_b = models.SmallIntegerField(_("score b"))
    score_c = models.SmallIntegerField(_("score c"), null=True, blank=True)
    score_d = models.SmallIntegerField(_("score d"), null=True, blank=True)
    created_at = models.DateTimeField(_("entered"), auto_now_add=True)

    class Meta:
        verbose_name = _("result entry")
        verbose_name_plural = _("result entries")
        app_label = "games"
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return gettext("%(score)s by %(by)s for %(game)s") % {
            "score": self.score_text,
            "by": self.by,
            "game": self.game,
        }

    def scores(self) -> list[int]:
        found = [self.score_a, self.score_b, self.score_c, self.score_d]
        return [s for s in found if s is not None]

    @property
    def score_text(self) -> str:
        return score_text(self.scores())


class Dispute(models.Model):
    """Two entries for one game that disagree; the director settles it."""

    game = models.ForeignKey(
        Game, verbose_name=_("tournament game"), on_delete=models.CASCADE, related_name="disputes"
    )
    first = models.ForeignKey(
        ResultEntry, verbose_name=_("first entry"), on_delete=models.PROTECT, related_name="+"
    )
    second = models.ForeignKey(
        ResultEntry, verbose_name=_("second entry"), on_delete=models.PROTECT, related_name="+"
    )
    opened_at = models.DateTimeField(_("opened"), auto_now_add=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("settled by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    resolved_at = models.DateTimeField(_("settled"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        app_label = "games"
        ordering = ["opened_at", "pk"]

    def __str__(self) -> str:
        return gettext("dispute over %(game)s") % {"game": self.game}


class Correction(models.Model):
    """The record of a result changed after it stood: who, when, before and after."""

    game = models.ForeignKey(
        Game,
        verbose_name=_("tournament game"),
        on_delete=models.CASCADE,
        related_name="corrections",
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("corrected by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        app_label = "games"
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return gettext("correction of %(game)s by %(by)s at %(time)s") % {
            "game": self.game,
            "by": self.by,
            "time": time_format(self.at),
        }


class Standing(models.Model):
    """One line of the qualifying standings, as last recomputed."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="standings"
    )
    entrant = models.OneToOneField(
        Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE, related_name="standing"
    )
    position = models.PositiveSmallIntegerField(_("position"))
    game_points = models.DecimalField(_("game points"), max_digits=7, decimal_places=2, default=0)
    wins = models.SmallIntegerField(_("wins"), default=0)
    losses = models.SmallIntegerField(_("losses"), default=0)
    spread = models.IntegerField(_("spread"), default=0)
    games = models.SmallIntegerField(_("games"), default=0)

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        app_label = "games"
        ordering = ["tournament", "position"]

    def __str__(self) -> str:
        return f"{self.position}. {self.entrant} {self.card}"

    @property
    def card(self) -> str:
        """Game points over wins in the reader's number format ("13/6", "12,5/6" in Spanish);
        the CSV export writes its own with a point."""
        return local_card(self.game_points, self.wins)

    @property
    def points_display(self) -> str:
        return local_points(self.game_points)


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
