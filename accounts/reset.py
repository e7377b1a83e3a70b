"""Password reset by e-mail, with Django's own views and tokens (``PasswordResetTokenGenerator``).

- The link goes only to a **confirmed** address (``User.email_verified_at``; docs/DECISIONS.md):
  an address nobody confirmed may be mistyped, or someone else's, and the link opens an
  account that holds money.
- The page answers the same, in the same time, whether the address has an account or not: it
  counts the request (``accounts.throttle``) and hands the rest (finding the account, making
  the token, sending) to the mail thread (``accounts.mail``). Too many requests for one
  address, or from one client, are refused (429) the same way for every address.
- The link is good for ``PASSWORD_RESET_TIMEOUT`` (``PASSWORD_RESET_MINUTES``), and once: a new
  password changes the token. Setting it ends every session, API token and websocket of the
  player (``User.save``, as a password change does) and clears their log-in lock-outs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from axes.utils import reset as reset_lockouts
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.urls import reverse_lazy

from accounts import addresses, mail, throttle
from accounts.client_ip import client_ip
from accounts.models import User


def minutes() -> int:
    """How long a link to set a new password works."""
    return int(settings.PASSWORD_RESET_TIMEOUT) // 60


class ForgotPasswordForm(auth_forms.PasswordResetForm):
    def get_users(self, email: str) -> Iterator[User]:
        """Active accounts that confirmed ``email`` (one at most) and have a password."""
        found = User.objects.filter(
            email=addresses.normalise(email), email_verified_at__isnull=False, is_active=True
        )
        return (user for user in found if user.has_usable_password())


class ForgotPasswordView(auth_views.PasswordResetView):
    form_class = ForgotPasswordForm
    template_name = "accounts/password_reset.html"
    subject_template_name = "accounts/mail/password_reset_subject.txt"
    email_template_name = "accounts/mail/password_reset.txt"
    success_url = reverse_lazy("accounts:password_reset_sent")

    def form_valid(self, form: Any) -> HttpResponse:
        address = form.cleaned_data["email"]
        if not throttle.allow("reset", address, client_ip(self.request)):
            form.add_error(None, throttle.MESSAGE)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        options = {
            "domain_override": self.request.get_host(),
            "use_https": self.request.is_secure(),
            "token_generator": self.token_generator,
            "subject_template_name": self.subject_template_name,
            "email_template_name": self.email_template_name,
            "extra_email_context": {"minutes": minutes()},
        }
        mail.send_later(lambda: form.save(**options))
        # FormView's answer (the redirect), not PasswordResetView's: that one sends the mail here.
        return super(auth_views.PasswordResetView, self).form_valid(form)

    def form_invalid(self, form: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class LinkSentView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_sent.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "minutes": minutes()}


class SetNewPasswordView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        reset_lockouts(username=form.user.get_username())
        return response
