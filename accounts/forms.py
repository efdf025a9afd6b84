"""Forms for joining the club and keeping one's details."""

from __future__ import annotations

import contextlib
import logging
from typing import Any, NamedTuple

from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.models import User

log = logging.getLogger(__name__)


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
    """A member's details, then their settings at the table (motion and sounds)."""

    SETTINGS = ("motion", "sounds")

    email = forms.EmailField(label=_("Email address"), max_length=254)

    class Meta:
        model = User
        fields = ("display_name", "email", "language", "motion", "sounds")

    @property
    def details(self) -> _Part:
        """The details, shaped like a form for templates/includes/form.html."""
        shown = [field for field in self.visible_fields() if field.name not in self.SETTINGS]
        return _Part(self.non_field_errors(), self.hidden_fields(), shown)

    @property
    def settings(self) -> list[forms.BoundField]:
        return [self[name] for name in self.SETTINGS]

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
    """The reset e-mail in the member's saved language, else in the language of the request.

    After `save`, `mail_failed` says whether a mail could not be sent (Django's own form only
    logs it). The mail server is reached before any member is looked up, so a server that is
    down answers alike for every address and tells nobody which addresses belong to members.
    """

    mail_failed = False
    connection = None

    def save(self, *args, **kwargs) -> None:
        self.mail_failed = False
        self.connection = get_connection()
        try:
            self.connection.open()
        except Exception:
            log.exception("Password reset: the mail server cannot be reached")
            self.mail_failed = True
            return
        try:
            super().save(*args, **kwargs)
        finally:
            with contextlib.suppress(Exception):
                self.connection.close()

    def send_mail(
        self, subject_template_name, email_template_name, context, from_email, to_email,
        html_email_template_name=None,
    ) -> None:  # fmt: skip
        user = context.get("user")
        language = getattr(user, "language", "") or translation.get_language()
        with translation.override(language):
            subject = "".join(render_to_string(subject_template_name, context).splitlines())
            body = render_to_string(email_template_name, context)
            mail = EmailMultiAlternatives(
                subject, body, from_email, [to_email], connection=self.connection
            )
            if html_email_template_name is not None:
                html = render_to_string(html_email_template_name, context)
                mail.attach_alternative(html, "text/html")
        try:
            mail.send()
        except Exception:  # SMTP errors are OSErrors; like Django, never let one become a 500
            log.exception("Password reset: the mail to member %s could not be sent", user.pk)
            self.mail_failed = True


class _Part(NamedTuple):
    """Some fields of a form, for a template that draws a whole form."""

    non_field_errors: Any
    hidden_fields: list[forms.BoundField]
    visible_fields: list[forms.BoundField]


def _unique_email(email: str, *, exclude: User | None) -> str:
    email = User.objects.normalize_email(email)
    taken = User.objects.filter(email__iexact=email)
    if exclude is not None:
        taken = taken.exclude(pk=exclude.pk)
    if taken.exists():
        raise forms.ValidationError(_("Another member already uses this email address."))
    return email
