"""The form for starting a match, built from the chosen variant's own options."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.engine.core import levels
from games.engine.core.variant import get_variant
from games.texts import engine_text
from games.variants import web_games


class NewMatchForm(forms.Form):
    variant = forms.ChoiceField(label=_("Game"))
    players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    opponents = forms.ChoiceField(
        label=_("Opponents"),
        choices=[
            ("open", _("Anyone in the club may join")),
            ("invite", _("Only the members I invite")),
            ("computer", _("The computer takes every other seat")),
        ],
        initial="open",
        widget=forms.RadioSelect,
    )
    invite = forms.CharField(
        label=_("Invite members"),
        required=False,
        max_length=400,
        help_text=_("Usernames, separated by commas or spaces."),
    )
    computer_seats = forms.IntegerField(
        label=_("Seats for the computer"),
        required=False,
        min_value=0,
        initial=0,
        help_text=_("With open or invited games: how many of the other seats the computer takes."),
    )
    level = forms.ChoiceField(
        label=_("The computer plays"),
        required=False,
        initial="",
        help_text=_("How well the computer plays its seats."),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        initial=True,
        help_text=_("A match between members counts for ratings (never with the computer)."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = [get_variant(web.key) for web in web_games()]
        self.fields["variant"].choices = [(v.key, engine_text(v.name)) for v in games]
        counts = sorted({n for v in games for n in v.player_counts})
        self.fields["players"].choices = [
            (n, ngettext("%(count)d player", "%(count)d players", n) % {"count": n}) for n in counts
        ]
        most = max(counts, default=2) - 1  # the largest table less the creator's seat
        self.fields["computer_seats"].max_value = most
        self.fields["computer_seats"].validators.append(MaxValueValidator(most))
        self.fields["computer_seats"].widget.attrs["max"] = most
        names = dict.fromkeys(level for v in games for level in levels(v))
        self.fields["level"].choices = [
            ("", _("at its best level")),
            *((n, engine_text(n)) for n in names),
        ]
        self.option_fields: list[str] = []
        self.option_groups: list[tuple[Any, list[str]]] = []
        for variant in games:
            group = []
            for name, spec in variant.options_schema.items():
                field_name = f"{variant.key}__{name}"
                self.fields[field_name] = _option_field(spec)
                group.append(field_name)
            self.option_fields.extend(group)
            self.option_groups.append((variant, group))
        name_the_bounds(self)

    def grouped_options(self) -> list[tuple[Any, list[forms.BoundField]]]:
        """Each game with its own option fields, for the lobby's per-game fieldsets."""
        return [(variant, [self[name] for name in group]) for variant, group in self.option_groups]

    def clean_invite(self) -> list[User]:
        names = [n for n in self.cleaned_data["invite"].replace(",", " ").split() if n]
        found = {u.username.lower(): u for u in User.objects.filter(username__in=names)}
        missing = [n for n in names if n.lower() not in found]
        if missing:
            raise forms.ValidationError(
                ngettext(
                    "No member is called %(names)s.",
                    "No members are called %(names)s.",
                    len(missing),
                )
                % {"names": ", ".join(missing)}
            )
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
        return list(range(max(0, players - wanted), players))


def _option_field(spec: dict[str, Any]) -> forms.Field:
    label = engine_text(spec.get("label", ""))
    help_text = engine_text(spec.get("help", ""))
    if spec["type"] == "bool":
        return forms.BooleanField(label=label, help_text=help_text, required=False)
    if spec["type"] == "choice":
        return forms.TypedChoiceField(
            label=label,
            help_text=help_text,
            choices=[(c, engine_text(str(c))) for c in spec["choices"]],
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


NUMBER_FIELDS = (forms.IntegerField, forms.DecimalField, forms.FloatField)


def name_the_bounds(form: forms.BaseForm) -> None:
    """Give every number field of `form` messages that name the field and the rule it breaks
    ("Qualifying rounds: at most 40."), in the language of the request being served."""
    for field in form.fields.values():
        if not isinstance(field, NUMBER_FIELDS):
            continue
        label = str(field.label or "").replace("%", "%%")
        whole = isinstance(field, forms.IntegerField)
        messages = {
            "invalid": gettext("%(field)s: enter a whole number.")
            if whole
            else gettext("%(field)s: enter a number."),
            "required": gettext("%(field)s: enter a number."),
            "min_value": gettext("%(field)s: at least %(limit_value)s."),
            "max_value": gettext("%(field)s: at most %(limit_value)s."),
            "max_digits": gettext("%(field)s: too many digits."),
            "max_decimal_places": gettext("%(field)s: at most %(max)s decimal places."),
            "max_whole_digits": gettext("%(field)s: too many digits before the point."),
        }
        for code, text in messages.items():
            field.error_messages[code] = text.replace("%(field)s", label)
