from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import RatedEvent, Rating, User


@admin.register(User)
class MemberAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("username", "display_name", "email", "first_name", "last_name")
    ordering = ("username",)
    fieldsets = (
        *UserAdmin.fieldsets[:1],
        (_("Club"), {"fields": ("display_name", "language")}),
        *UserAdmin.fieldsets[1:],
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("username", "display_name", "email")}),
        *UserAdmin.add_fieldsets[0:0],
        (
            _("Password"),
            {"classes": ("wide",), "fields": ("usable_password", "password1", "password2")},
        ),
    )


@admin.register(RatedEvent)
class RatedEventAdmin(admin.ModelAdmin):
    """Where a director says an event's results from over the table count for ratings."""

    list_display = ("tournament", "rate_table_results")
    list_editable = ("rate_table_results",)
    raw_id_fields = ("tournament",)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Ratings are derived data: read them here; repair them with `manage.py recompute_ratings`."""

    list_display = ("user", "game", "players", "rating", "deviation", "games", "last_played_at")
    list_filter = ("game", "players")
    search_fields = ("user__username", "user__display_name")
    readonly_fields = [f.name for f in Rating._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False
