from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts.forms import ProfileForm, SignUpForm
from accounts.http import AuthenticatedRequest
from accounts.registration import register
from accounts.signals import ask_region_change, region_waiting


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = register(form)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.public_name}! Pick a table to play.")
        return redirect("games:lobby")
    return render(request, "accounts/signup.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def profile(request: AuthenticatedRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        notes = ["Your profile is saved."]
        with transaction.atomic():
            region = form.region_asked
            user = form.save()
            if region is not None:
                notes.append(ask_region_change(user, region))
        messages.success(request, " ".join(notes))
        return redirect("accounts:profile")
    context = {"form": form, "region_waiting": region_waiting(request.user)}
    return render(request, "accounts/profile.html", context, status=400 if form.errors else 200)
