"""Tournaments in the Django admin: only staff with the director permission see them.

Settings, entrants and table numbers can be edited here; results are read-only (they change
through the services, which keep the record of corrections). The actions call the same
services as the director's pages.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.tournaments import services
from games.tournaments.common import can_direct
from games.tournaments.models import (
    Correction,
    Dispute,
    Entrant,
    Game,
    Pairing,
    ResultEntry,
    Round,
    Tournament,
)


class DirectorOnly:
    """Every admin permission comes down to the director permission."""

    def has_module_permission(self, request) -> bool:
        return can_direct(request.user)

    def has_view_permission(self, request, obj=None) -> bool:
        return can_direct(request.user)

    def has_add_permission(self, request, obj=None) -> bool:
        return can_direct(request.user)

    def has_change_permission(self, request, obj=None) -> bool:
        return can_direct(request.user)

    def has_delete_permission(self, request, obj=None) -> bool:
        return can_direct(request.user)


class ReadOnly(DirectorOnly):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class EntrantInline(DirectorOnly, admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ("user", "guest_name", "partner", "partner_guest_name", "checked_in", "withdrawn",
              "late", "carry_game_points", "carry_wins", "carry_spread", "carry_games")  # fmt: skip
    readonly_fields = ("late",)
    raw_id_fields = ("user", "partner")


class RoundInline(ReadOnly, admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "stage", "created_at")
    readonly_fields = fields
    show_change_link = True


def _run(modeladmin, request, queryset, service, done) -> None:
    for tournament in queryset:
        try:
            service(tournament_id=tournament.pk, by=request.user)
        except services.ServiceError as error:
            text = gettext("%(name)s: %(message)s") % {
                "name": tournament.name,
                "message": error.message,
            }
            modeladmin.message_user(request, text, messages.ERROR)
        else:
            text = gettext("%(name)s: %(message)s") % {"name": tournament.name, "message": done}
            modeladmin.message_user(request, text, messages.SUCCESS)


@admin.register(Tournament)
class TournamentAdmin(DirectorOnly, admin.ModelAdmin):
    list_display = ("name", "date", "stage", "venue", "qualifying", "rounds", "playoff")
    list_filter = ("stage", "venue", "qualifying", "playoff", "variant", "date")
    search_fields = ("name", "entrants__guest_name", "entrants__user__username",
                     "entrants__user__display_name")  # fmt: skip
    date_hierarchy = "date"
    inlines = [EntrantInline, RoundInline]
    readonly_fields = ("stage", "director", "created_at", "updated_at")
    actions = ["generate_next_round", "start_playoffs", "recompute_standings"]
    fieldsets = (
        (None, {"fields": ("name", "date", "variant", "players", "options", "venue", "stage",
                           "director")}),
        (_("Format"), {"fields": ("qualifying", "rounds", "playoff", "qualifiers", "series_length",
                               "seed")}),
        (_("Scoring"), {"fields": ("points_win", "points_skunk", "points_double_skunk",
                                "points_loss", "skunk_line", "double_skunk_line", "place_points",
                                "bye_points",
                                "bye_spread", "tiebreaks", "forfeit_minutes")}),
    )  # fmt: skip

    def save_model(self, request, obj, form, change) -> None:
        if not change and obj.director_id is None:
            obj.director = request.user
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Generate next round"))
    def generate_next_round(self, request, queryset) -> None:
        _run(self, request, queryset, services.round_generate, _("the next round is drawn"))

    @admin.action(description=_("Start playoffs"))
    def start_playoffs(self, request, queryset) -> None:
        _run(self, request, queryset, services.playoffs_start, _("the playoff bracket is drawn"))

    @admin.action(description=_("Recompute standings"))
    def recompute_standings(self, request, queryset) -> None:
        _run(self, request, queryset, services.standings_recompute, _("standings recomputed"))


class PairingInline(DirectorOnly, admin.TabularInline):
    model = Pairing
    extra = 0
    fields = ("table", "a", "b", "c", "d", "seed_a", "seed_b", "series_length", "status", "winner")
    readonly_fields = ("a", "b", "c", "d", "seed_a", "seed_b", "series_length", "status", "winner")
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(DirectorOnly, admin.ModelAdmin):
    list_display = ("__str__", "tournament", "number", "stage", "created_at")
    list_filter = ("stage", "tournament")
    search_fields = ("tournament__name",)
    inlines = [PairingInline]
    readonly_fields = ("tournament", "number", "stage")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class GameInline(ReadOnly, admin.TabularInline):
    model = Game
    extra = 0
    fields = ("number", "status", "score_a", "score_b", "score_c", "score_d", "winner",
              "points_a", "points_b", "points_c", "points_d", "spread_a", "spread_b", "spread_c",
              "spread_d", "source", "match", "entered_by", "confirmed_by")  # fmt: skip
    readonly_fields = fields


@admin.register(Pairing)
class PairingAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "table", "status", "winner")
    list_filter = ("status", "round__stage", "round__tournament")
    search_fields = ("a__guest_name", "b__guest_name", "c__guest_name", "d__guest_name",
                     "a__user__username", "b__user__username", "c__user__username",
                     "d__user__username")  # fmt: skip
    inlines = [GameInline]


@admin.register(Game)
class GameAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "status", "score_a", "score_b", "source", "decided_at")
    list_filter = ("status", "source", "pairing__round__tournament")
    search_fields = ("pairing__a__guest_name", "pairing__b__guest_name",
                     "pairing__a__user__username", "pairing__b__user__username")  # fmt: skip


@admin.register(Dispute)
class DisputeAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "opened_at", "resolved_by", "resolved_at")
    list_filter = ("resolved_at",)


@admin.register(Correction)
class CorrectionAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "by", "at", "reason")
    list_filter = ("by",)
    search_fields = ("reason",)


@admin.register(ResultEntry)
class ResultEntryAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("__str__", "by", "side", "created_at")
