from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class MemberAdmin(UserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("username", "display_name", "email", "first_name", "last_name")
    ordering = ("username",)
    fieldsets = (
        *UserAdmin.fieldsets[:1],
        ("Club", {"fields": ("display_name",)}),
        *UserAdmin.fieldsets[1:],
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("username", "display_name", "email")}),
        *UserAdmin.add_fieldsets[0:0],
        (
            "Password",
            {"classes": ("wide",), "fields": ("usable_password", "password1", "password2")},
        ),
    )
