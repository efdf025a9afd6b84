"""Forms of the tournament pages: they parse input; the services decide what is allowed."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine import get_variant, variant_keys
from games.forms import name_the_bounds
from games.texts import engine_text
from games.tournaments.models import Tournament
from games.tournaments.pairing import TIEBREAKS
from games.tournaments.services import MATCH_LENGTH_OPTION
from games.tournaments.texts import tiebreak_label

# Bounds of the numbers a director types (each well inside its small-integer column).
MOST_QUALIFIERS = 256  # playoff places
MOST_GAME_POINTS = 99  # game points for one game (a win, a skunk, a bye)
MOST_POINTS = 999  # a game's score or a skunk line: above any game's target
MOST_GAMES = 999  # games carried by a late entrant
MOST_GAME_POINTS_SO_FAR = 9999  # game points carried by a late entrant
MOST_SPREAD = 30000  # the spread carried by a late entrant (column: small integer)

PLAYERS = [
    (2, _("2: singles")),
    (3, _("3 at a table, each for themselves")),
    (4, _("4: doubles in a partnership game, or four each for themselves")),
]


class TournamentForm(forms.Form):
    """The event's settings; the chosen game's own options come from its options_schema
    (fields named `<game>__<option>`, one group per registered game, see `option_groups`)."""

    name = forms.CharField(max_length=120, initial=_("Club night"), label=_("Name"))
    date = forms.DateField(
        label=_("Date"),
        initial=dt.date.today,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    variant = forms.ChoiceField(label=_("Game"), initial="cribbage")
    players = forms.TypedChoiceField(
        choices=PLAYERS, coerce=int, initial=2, label=_("Players in each game"),
        help_text=_("Partnership games seat four as two teams; games each for themselves seat "
        "a table of three or four."),
    )  # fmt: skip
    venue = forms.ChoiceField(choices=Tournament.Venue.choices, label=_("Where games are played"))
    qualifying = forms.ChoiceField(choices=Tournament.Qualifying.choices, label=_("Qualifying"))
    rounds = forms.IntegerField(min_value=1, max_value=40, initial=9, label=_("Qualifying rounds"))
    playoff = forms.BooleanField(required=False, label=_("Finish with a playoff"))
    qualifiers = forms.IntegerField(
        min_value=2,
        max_value=MOST_QUALIFIERS,
        required=False,
        label=_("Playoff places"),
        help_text=_("Leave empty for the top quarter of the field, rounded up."),
    )
    series_length = forms.TypedChoiceField(
        choices=[(1, _("1 game")), (3, _("Best of 3")), (5, _("Best of 5"))], coerce=int,
        initial=3, label=_("Playoff series"),
    )  # fmt: skip
    points_win = forms.IntegerField(
        initial=2, min_value=0, max_value=MOST_GAME_POINTS,
        label=_("Game points for a win (race games)"),
    )  # fmt: skip
    points_skunk = forms.IntegerField(
        initial=3, min_value=0, max_value=MOST_GAME_POINTS, label=_("Game points for a skunk")
    )
    points_double_skunk = forms.IntegerField(
        initial=3, min_value=0, max_value=MOST_GAME_POINTS,
        label=_("Game points for a double skunk"),
    )  # fmt: skip
    skunk_line = forms.IntegerField(
        required=False, min_value=0, max_value=MOST_POINTS, label=_("Skunk line"),
        help_text=_("A loser on this many points or fewer is skunked. Leave empty for the "
        "game's own line for its target (the usual one)."),
    )  # fmt: skip
    double_skunk_line = forms.IntegerField(
        required=False, min_value=0, max_value=MOST_POINTS, label=_("Double skunk line"),
        help_text=_("Leave empty for the game's own line for its target."),
    )  # fmt: skip
    places = forms.CharField(
        required=False, max_length=40, label=_("Game points by place (games ranked by score)"),
        help_text=_("Best place first, e.g. 3,2,1,0 at a table of four. Leave empty for 2,0 at "
        "a table of two (a tie: 1 each) and 3,2,1,0 at a table of four; tied places share."),
    )  # fmt: skip
    bye_points = forms.DecimalField(
        required=False, max_digits=5, decimal_places=2, min_value=0,
        max_value=MOST_GAME_POINTS, label=_("Game points for a bye"),
        help_text=_("Leave empty for 2 in a race game, the places' average in a ranked one."),
    )  # fmt: skip
    tiebreaks = forms.ChoiceField(choices=lambda: tiebreak_choices(), label=_("Ranking order"))
    forfeit_minutes = forms.IntegerField(
        min_value=0, max_value=240, initial=15, label=_("Minutes before a no-show may be forfeited")
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [
            (key, engine_text(get_variant(key).name)) for key in variant_keys()
        ]
        self.groups: list[tuple[str, str, list[str]]] = []
        for key in variant_keys():
            engine = get_variant(key)
            names = []
            for option, spec in engine.options_schema.items():
                if option == MATCH_LENGTH_OPTION:
                    continue  # the playoff series stands in for a match of several games
                name = f"{key}__{option}"
                self.fields[name] = option_field(spec)
                names.append(name)
            self.groups.append((key, engine_text(engine.name), names))
        name_the_bounds(self)

    RACE_FIELDS = ("points_win", "points_skunk", "points_double_skunk", "skunk_line",
                   "double_skunk_line")  # fmt: skip
    RANKED_FIELDS = ("places",)

    def scoring_kinds(self) -> dict[str, str]:
        """Each game's way of counting a tournament game ("race" or "ranked"), for the page
        to show only the settings that apply."""
        return {key: get_variant(key).tournament.kind for key in variant_keys()}

    def field_kind(self, name: str) -> str:
        if name in self.RACE_FIELDS:
            return "race"
        return "ranked" if name in self.RANKED_FIELDS else ""

    def option_groups(self) -> list[dict]:
        """Per game: its key, its name and its option fields (bound), for the page."""
        return [
            {"key": key, "name": name, "fields": [self[n] for n in names]}
            for key, name, names in self.groups
        ]

    def visible_general_fields(self) -> list:
        """The event's own fields, each marked with the kind of game it applies to."""
        options = {n for _key, _name, names in self.groups for n in names}
        fields = [f for f in self.visible_fields() if f.name not in options]
        for field in fields:
            field.kind = self.field_kind(field.name)
        return fields

    def clean(self):
        data = super().clean()
        chosen = data.get("variant")
        for key, _name, names in self.groups:
            if key != chosen:  # only the chosen game's options matter
                for name in names:
                    self.errors.pop(name, None)
                    data.pop(name, None)
        return data

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        variant = data["variant"]
        names = next(names for key, _name, names in self.groups if key == variant)
        options = {n.split("__", 1)[1]: data[n] for n in names if data.get(n) is not None}
        points = {
            "win": data["points_win"],
            "skunk": data["points_skunk"],
            "double_skunk": data["points_double_skunk"],
            "skunk_line": data["skunk_line"],
            "double_skunk_line": data["double_skunk_line"],
        }
        if data.get("places"):
            points["places"] = data["places"]
        if data.get("bye_points") is not None:
            bye = data["bye_points"]
            points["bye_points"] = int(bye) if bye == bye.to_integral_value() else bye
        return {
            "name": data["name"],
            "date": data["date"],
            "variant": variant,
            "players": data["players"],
            "options": options,
            "venue": data["venue"],
            "qualifying": data["qualifying"],
            "rounds": data["rounds"],
            "playoff": data["playoff"],
            "qualifiers": data["qualifiers"],
            "series_length": data["series_length"],
            "points": points,
            "tiebreaks": data["tiebreaks"].split(","),
            "forfeit_minutes": data["forfeit_minutes"],
        }


TIEBREAK_ORDERS = (
    TIEBREAKS,
    ("game_points", "wins", "head_to_head", "spread"),
    ("game_points", "spread", "wins", "head_to_head"),
    ("wins", "game_points", "spread", "head_to_head"),
)


def tiebreak_choices() -> list[tuple[str, str]]:
    """The ranking orders on offer, named in the reader's language."""
    return [
        (",".join(order), " › ".join(tiebreak_label(k) for k in order)) for order in TIEBREAK_ORDERS
    ]


def _engine_lazy(text: str):
    """An option's label or help from the engine, looked up when the page is rendered."""
    return lazy(engine_text, str)(text) if text else text


def option_field(spec: dict) -> forms.Field:
    """A form field for one option of a game's options_schema."""
    common = {"label": _engine_lazy(spec.get("label", "")),
              "help_text": _engine_lazy(spec.get("help", "")),
              "initial": spec.get("default")}  # fmt: skip
    kind = spec["type"]
    if kind == "bool":
        return forms.BooleanField(required=False, **common)
    if kind == "int":
        return forms.IntegerField(
            required=False, min_value=spec.get("min"), max_value=spec.get("max"), **common
        )
    choices = spec["choices"]
    numbers = all(isinstance(c, int) and not isinstance(c, bool) for c in choices)
    return forms.TypedChoiceField(
        choices=[(c, str(c)) for c in choices], coerce=int if numbers else str, required=False,
        empty_value=None, **common,
    )  # fmt: skip


class MemberField(forms.CharField):
    """A member by username (empty allowed)."""

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return None
        user = User.objects.filter(username__iexact=value.strip().lstrip("@"), is_active=True)
        found = user.first()
        if found is None:
            raise forms.ValidationError(
                gettext("There is no member called %(name)s.") % {"name": repr(value)}
            )
        return found


class EntrantForm(forms.Form):
    member = MemberField(required=False, label=_("Member's username"))
    guest_name = forms.CharField(required=False, max_length=80, label=_("or a guest's name"))
    partner = MemberField(required=False, label=_("Partner's username (doubles)"))
    partner_guest_name = forms.CharField(
        required=False, max_length=80, label=_("or the partner's name as a guest")
    )
    checked_in = forms.BooleanField(required=False, initial=True, label=_("Here now"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        name_the_bounds(self)


class LateEntryForm(EntrantForm):
    checked_in = None
    games = forms.IntegerField(
        initial=0, min_value=0, max_value=MOST_GAMES, label=_("Games so far")
    )
    wins = forms.IntegerField(initial=0, min_value=0, max_value=MOST_GAMES, label=_("Wins so far"))
    game_points = forms.DecimalField(
        initial=0, max_digits=7, decimal_places=2, min_value=0,
        max_value=MOST_GAME_POINTS_SO_FAR, label=_("Game points so far"),
    )  # fmt: skip
    spread = forms.IntegerField(
        initial=0, min_value=-MOST_SPREAD, max_value=MOST_SPREAD, label=_("Spread so far")
    )


class ScoreForm(forms.Form):
    """One score per seat: a and b always, c and d at tables of three or four."""

    score_a = forms.IntegerField(label=_("First named"), min_value=0, max_value=MOST_POINTS)
    score_b = forms.IntegerField(label=_("Second named"), min_value=0, max_value=MOST_POINTS)
    score_c = forms.IntegerField(
        label=_("Third named"), required=False, min_value=0, max_value=MOST_POINTS
    )
    score_d = forms.IntegerField(
        label=_("Fourth named"), required=False, min_value=0, max_value=MOST_POINTS
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        name_the_bounds(self)

    def scores(self) -> dict:
        return {name: self.cleaned_data.get(name) for name in self.fields}
