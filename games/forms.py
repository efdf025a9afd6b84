"""The form for starting a match, built from the chosen variant's own options."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from games.engine.core.variant import VARIANTS, get_variant


class NewMatchForm(forms.Form):
    variant = forms.ChoiceField(label="Game")
    players = forms.TypedChoiceField(label="Players", coerce=int)
    opponents = forms.ChoiceField(
        label="Opponents",
        choices=[
            ("open", "Anyone in the club may join"),
            ("invite", "Only the members I invite"),
            ("computer", "The computer takes every other seat"),
        ],
        initial="open",
        widget=forms.RadioSelect,
    )
    invite = forms.CharField(
        label="Invite members",
        required=False,
        max_length=400,
        help_text="Usernames, separated by commas or spaces.",
    )
    computer_seats = forms.IntegerField(
        label="Seats for the computer",
        required=False,
        min_value=0,
        max_value=3,
        initial=0,
        help_text="With open or invited games: how many of the other seats the computer takes.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["variant"].choices = [(v.key, v.name) for v in VARIANTS.values()]
        counts = sorted({n for v in VARIANTS.values() for n in v.player_counts})
        self.fields["players"].choices = [(n, f"{n} players") for n in counts]
        self.option_fields: list[str] = []
        for variant in VARIANTS.values():
            for name, spec in variant.options_schema.items():
                field_name = f"{variant.key}__{name}"
                self.fields[field_name] = _option_field(spec)
                self.option_fields.append(field_name)

    def clean_invite(self) -> list[User]:
        names = [n for n in self.cleaned_data["invite"].replace(",", " ").split() if n]
        found = {u.username.lower(): u for u in User.objects.filter(username__in=names)}
        missing = [n for n in names if n.lower() not in found]
        if missing:
            raise forms.ValidationError(f"No member is called {', '.join(missing)}.")
        return list(found.values())

    def options_for(self, variant_key: str) -> dict[str, Any]:
        variant = get_variant(variant_key)
        prefix = f"{variant.key}__"
        return {
            name[len(prefix) :]: value
            for name, value in self.cleaned_data.items()
            if name.startswith(prefix) and value is not None
        }

    def computer_seat_list(self, players: int) -> list[int]:
        mode = self.cleaned_data["opponents"]
        if mode == "computer":
            return list(range(1, players))
        wanted = self.cleaned_data.get("computer_seats") or 0
        return list(range(players - wanted, players))


def _option_field(spec: dict[str, Any]) -> forms.Field:
    label = spec.get("label", "")
    help_text = spec.get("help", "")
    if spec["type"] == "bool":
        return forms.BooleanField(label=label, help_text=help_text, required=False)
    if spec["type"] == "choice":
        return forms.TypedChoiceField(
            label=label,
            help_text=help_text,
            choices=[(c, str(c)) for c in spec["choices"]],
            coerce=int if all(isinstance(c, int) for c in spec["choices"]) else str,
            initial=spec.get("default"),
            required=False,
            empty_value=None,
        )
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        min_value=spec.get("min"),
        max_value=spec.get("max"),
        initial=spec.get("default"),
        required=False,
    )
