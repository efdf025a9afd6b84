"""Admin registrations of the games app: matches, their seats and move logs, and (in
games/tournaments/admin.py) club tournaments.

Matches are for finding and calling off: nothing of a match is edited here. The move log and the
snapshot are the engine's record and only `games.services` writes them, so every field and
inline is read-only, matches are neither added nor deleted here, and the "abort" action goes
through `services.match_call_off` like the director's pages.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import games.tournaments.admin  # noqa: F401  (registers the tournament models)
from games import services
from games.engine import UnknownVariant, get_variant, variant_keys
from games.models import Match, Move, Seat
from games.texts import engine_text


class ReadOnlyAdmin:
    """Shown, never written: no add, change or delete through the admin."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    has_change_permission = has_delete_permission = has_add_permission


class SeatInline(ReadOnlyAdmin, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "is_computer", "took_over", "team", "level", "joined_at",
              "connections", "away_since")  # fmt: skip
    readonly_fields = fields


class MoveInline(ReadOnlyAdmin, admin.TabularInline):
    model = Move
    extra = 0
    fields = ("seq", "seat", "move", "by_computer", "to_move_before", "created_at")
    readonly_fields = fields
    ordering = ("seq",)


class GameFilter(admin.SimpleListFilter):
    """By game (variant), over every registered game, not only those already played."""

    title = _("game")
    parameter_name = "variant"

    def lookups(self, request, model_admin):
        return [(key, engine_text(get_variant(key).name)) for key in variant_keys()]

    def queryset(self, request, queryset):
        return queryset.filter(variant=self.value()) if self.value() else queryset


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "state", "player_names", "moves_played", "created",
                    "updated")  # fmt: skip
    list_display_links = ("id", "game")
    list_filter = (GameFilter, "status", "ending", "rated", "created_at", "updated_at")
    search_fields = ("id__exact", "seats__user__username", "seats__user__display_name")
    search_help_text = _("A member's username or display name, or a match number.")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    list_per_page = 50
    inlines = [SeatInline, MoveInline]
    # The seed stays secret while the match is on; its hash is public from the start.
    fields = ("variant", "players", "options", "status", "ending", "rated", "invite_only",
              "created_by", "seed_sha256", "seq", "moves_played", "to_move", "outcome",
              "created_at", "started_at", "finished_at", "updated_at")  # fmt: skip
    readonly_fields = fields
    actions = ["abort_matches"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # a match ends through the services, never by removing its record

    def has_change_permission(self, request, obj=None) -> bool:
        """The list's abort action needs it; a match's own page stays read-only (saving it
        would touch its record outside the services)."""
        return obj is None and super().has_change_permission(request)

    @admin.display(description=_("game"), ordering="variant")
    def game(self, match: Match) -> str:
        try:
            return engine_text(get_variant(match.variant).name)
        except UnknownVariant:  # a game no longer installed
            return match.variant

    @admin.display(description=_("status"), ordering="status")
    def state(self, match: Match) -> str:
        """The status, and how it ended when that says more ("Aborted: cancelled")."""
        if match.ending and match.ending != Match.Ending.ABORTED:
            return gettext("%(status)s: %(ending)s") % {
                "status": match.get_status_display(),
                "ending": match.get_ending_display().lower(),
            }
        return match.get_status_display()

    @admin.display(description=_("players"))
    def player_names(self, match: Match) -> str:
        return ", ".join(seat.name for seat in match.seats.all())

    @admin.display(description=_("created"), ordering="created_at")
    def created(self, match: Match) -> str:
        return _short(match.created_at)

    @admin.display(description=_("updated"), ordering="updated_at")
    def updated(self, match: Match) -> str:
        return _short(match.updated_at)

    @admin.action(description=_("Abort the selected matches (they end without a result)"),
                  permissions=["change"])  # fmt: skip
    def abort_matches(self, request, queryset) -> None:
        for match in queryset.order_by("pk"):
            if match.is_over:
                text = gettext("Match %(pk)s is already over (%(status)s): left as it was.") % {
                    "pk": match.pk,
                    "status": match.get_status_display(),
                }
                self.message_user(request, text, messages.WARNING)
                continue
            try:
                services.match_call_off(match_id=match.pk)
            except services.ServiceError as error:
                text = gettext("Match %(pk)s: %(message)s") % {
                    "pk": match.pk,
                    "message": error.message,
                }
                self.message_user(request, text, messages.ERROR)
            else:
                text = gettext("Match %(pk)s is aborted.") % {"pk": match.pk}
                self.message_user(request, text, messages.SUCCESS)


def _short(moment) -> str:
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ("__str__", "match", "index", "user", "is_computer", "took_over", "team",
                    "connections")  # fmt: skip
    list_filter = ("is_computer", "took_over", "match__status")
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("match", "user")


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ("__str__", "match", "seq", "seat", "by_computer", "created_at")
    list_filter = ("by_computer", "created_at")
    search_fields = ("match__id__exact",)
    list_select_related = ("match",)
