from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts import confirmation, throttle
from accounts.client_ip import client_ip
from accounts.forms import ProfileForm, SignUpForm
from accounts.http import AuthenticatedRequest
from accounts.models import User
from accounts.registration import register
from accounts.signals import ask_region_change, region_waiting


def origin(request: HttpRequest) -> str:
    """The site's address as the request reached it, for the links in mails."""
    return f"{request.scheme}://{request.get_host()}"


def _link_sent(request: HttpRequest, user: User) -> str:
    if not confirmation.send_link(user, origin(request), client_ip(request)):
        return throttle.MESSAGE
    return f"We have sent a link to {user.email}: follow it to confirm your address."


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = register(form)
            welcome = f"Welcome, {user.public_name}! Pick a table to play."
            if user.email:
                welcome += " " + _link_sent(request, user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, welcome)
        return redirect("games:lobby")
    return render(request, "accounts/signup.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def profile(request: AuthenticatedRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        notes = ["Your profile is saved."]
        with transaction.atomic():
            email_changed, region = form.email_changed, form.region_asked
            user = form.save()
            if email_changed and user.email:
                notes.append(_link_sent(request, user))
            if region is not None:
                notes.append(ask_region_change(user, region))
        messages.success(request, " ".join(notes))
        return redirect("accounts:profile")
    context = {"form": form, "region_waiting": region_waiting(request.user)}
    return render(request, "accounts/profile.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def send_confirmation(request: AuthenticatedRequest) -> HttpResponse:
    """Mail the link that confirms the player's address again."""
    user = request.user
    if not user.email:
        messages.error(request, "Add an e-mail address to your profile first.")
    elif user.email_confirmed:
        messages.success(request, f"{user.email} is confirmed already.")
    else:
        with transaction.atomic():
            messages.success(request, _link_sent(request, user))
    return redirect("accounts:profile")


def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link in the mail: a page with one button (a mail reader that opens links ahead of
    the player confirms nothing), which confirms the address."""
    try:
        if request.method != "POST":
            user, _ = confirmation.account_of(token)
            return render(request, "accounts/confirm_email.html", {"account": user})
        user = confirmation.confirm(token)
    except confirmation.ConfirmationError as error:
        return render(request, "accounts/confirm_email.html", {"error": error.message}, status=400)
    if request.user.pk == user.pk:
        messages.success(request, f"Thank you: {user.email} is confirmed.")
        return redirect("accounts:profile")
    return render(request, "accounts/confirm_email.html", {"account": user, "done": True})
