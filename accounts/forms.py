"""Forms for joining the club and keeping one's details."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email address"),
        max_length=254,
        help_text=_("Only used to reset your password; never shown to other members."),
    )

    class Meta:
        model = User
        fields = ("username", "display_name", "email")

    def clean_email(self) -> str:
        return _unique_email(self.cleaned_data["email"], exclude=None)


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(label=_("Email address"), max_length=254)

    class Meta:
        model = User
        fields = ("display_name", "email", "language")

    def clean_email(self) -> str:
        return _unique_email(self.cleaned_data["email"], exclude=self.instance)


class LogInForm(AuthenticationForm):
    """Django's log-in form; its messages are in the club's catalogue, so that the Spanish
    addresses the member as tú like the rest of the site."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "Please enter a correct %(username)s and password. Note that both fields may be "
            "case-sensitive."
        ),
        "inactive": _("This account is inactive."),
    }


class MemberPasswordResetForm(PasswordResetForm):
    """The reset e-mail in the member's saved language, else in the language of the request."""

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        user = context.get("user")
        language = getattr(user, "language", "") or translation.get_language()
        with translation.override(language):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


def _unique_email(email: str, *, exclude: User | None) -> str:
    email = User.objects.normalize_email(email)
    taken = User.objects.filter(email__iexact=email)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise forms.ValidationError(_("Another member already uses this email address."))
    return email
