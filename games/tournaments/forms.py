"""Forms of the tournament pages: they parse input; the services decide what is allowed."""

from __future__ import annotations

import datetime as dt

from django import forms

from accounts.models import User
from games.tournaments.models import Tournament
from games.tournaments.pairing import TIEBREAK_LABELS, TIEBREAKS


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120, initial="Club night")
    date = forms.DateField(
        initial=dt.date.today,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    doubles = forms.BooleanField(
        required=False, label="Doubles (teams of two, partners sit opposite)"
    )
    target = forms.TypedChoiceField(
        choices=[(121, "121 points"), (61, "61 points")], coerce=int, initial=121, label="Game to"
    )
    venue = forms.ChoiceField(choices=Tournament.Venue.choices, label="Where games are played")
    qualifying = forms.ChoiceField(choices=Tournament.Qualifying.choices)
    rounds = forms.IntegerField(min_value=1, max_value=40, initial=9, label="Qualifying rounds")
    playoff = forms.BooleanField(required=False, label="Finish with a playoff")
    qualifiers = forms.IntegerField(
        min_value=2,
        required=False,
        label="Playoff places",
        help_text="Leave empty for the top quarter of the field, rounded up.",
    )
    series_length = forms.TypedChoiceField(
        choices=[(1, "1 game"), (3, "Best of 3"), (5, "Best of 5")], coerce=int, initial=3,
        label="Playoff series",
    )  # fmt: skip
    points_win = forms.IntegerField(initial=2, label="Game points for a win")
    points_skunk = forms.IntegerField(initial=3, label="Game points for a skunk")
    points_double_skunk = forms.IntegerField(initial=3, label="Game points for a double skunk")
    bye_points = forms.IntegerField(initial=2, label="Game points for a bye")
    tiebreaks = forms.ChoiceField(
        choices=[
            (",".join(order), " › ".join(TIEBREAK_LABELS[k] for k in order))
            for order in (
                TIEBREAKS,
                ("game_points", "wins", "head_to_head", "spread"),
                ("game_points", "spread", "wins", "head_to_head"),
                ("wins", "game_points", "spread", "head_to_head"),
            )
        ],
        label="Ranking order",
    )
    forfeit_minutes = forms.IntegerField(
        min_value=0, max_value=240, initial=15, label="Minutes before a no-show may be forfeited"
    )

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "date": data["date"],
            "players": 4 if data["doubles"] else 2,
            "options": {"target": data["target"]},
            "venue": data["venue"],
            "qualifying": data["qualifying"],
            "rounds": data["rounds"],
            "playoff": data["playoff"],
            "qualifiers": data["qualifiers"],
            "series_length": data["series_length"],
            "points": {
                "win": data["points_win"],
                "skunk": data["points_skunk"],
                "double_skunk": data["points_double_skunk"],
                "bye_points": data["bye_points"],
            },
            "tiebreaks": data["tiebreaks"].split(","),
            "forfeit_minutes": data["forfeit_minutes"],
        }


class MemberField(forms.CharField):
    """A member by username (empty allowed)."""

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return None
        user = User.objects.filter(username__iexact=value.strip().lstrip("@"), is_active=True)
        found = user.first()
        if found is None:
            raise forms.ValidationError(f"There is no member called {value!r}.")
        return found


class EntrantForm(forms.Form):
    member = MemberField(required=False, label="Member's username")
    guest_name = forms.CharField(required=False, max_length=80, label="or a guest's name")
    partner = MemberField(required=False, label="Partner's username (doubles)")
    partner_guest_name = forms.CharField(
        required=False, max_length=80, label="or the partner's name as a guest"
    )
    checked_in = forms.BooleanField(required=False, initial=True, label="Here now")


class LateEntryForm(EntrantForm):
    checked_in = None
    games = forms.IntegerField(initial=0, label="Games so far")
    wins = forms.IntegerField(initial=0, label="Wins so far")
    game_points = forms.IntegerField(initial=0, label="Game points so far")
    spread = forms.IntegerField(initial=0, label="Spread so far")


class ScoreForm(forms.Form):
    score_a = forms.IntegerField(label="First named")
    score_b = forms.IntegerField(label="Second named")
