"""Forms for joining the club and keeping one's details."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        max_length=254,
        help_text="Only used to reset your password; never shown to other members.",
    )

    class Meta:
        model = User
        fields = ("username", "display_name", "email")

    def clean_email(self) -> str:
        return _unique_email(self.cleaned_data["email"], exclude=None)


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(max_length=254)

    class Meta:
        model = User
        fields = ("display_name", "email", "language")

    def clean_email(self) -> str:
        return _unique_email(self.cleaned_data["email"], exclude=self.instance)


def _unique_email(email: str, *, exclude: User | None) -> str:
    email = User.objects.normalize_email(email)
    taken = User.objects.filter(email__iexact=email)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise forms.ValidationError("Another member already uses this email address.")
    return email
