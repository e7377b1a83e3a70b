"""The staff two-factor pages (accounts/totp.py says when they are needed): verify a session
with a code, or set up an authenticator app and get ten one-time recovery codes."""

from __future__ import annotations

import base64

import segno
from django import forms
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import totp
from backoffice.actions import record
from backoffice.models import AuditAction

RECOVERY_CODES = 10


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Code", max_length=16, help_text="The 6 digits in your authenticator app, or a recovery code."
    )


def _next(request: HttpRequest) -> str:
    wanted = request.GET.get("next") or request.POST.get("next") or "/admin/"
    if url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()}):
        return wanted
    return "/admin/"


@login_required
def verify(request: HttpRequest) -> HttpResponse:
    """Enter a code to verify this session; without a device, set one up first."""
    if not TOTPDevice.objects.filter(user=request.user, confirmed=True).exists():
        return redirect(f"/backoffice/totp/setup/?next={_next(request)}")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        devices = [
            *TOTPDevice.objects.filter(user=request.user, confirmed=True),
            *StaticDevice.objects.filter(user=request.user, confirmed=True),
        ]
        wait = totp.wait_before_trying(devices)  # before the try: a refused try is not a wrong code
        device = totp.check_code(request.user, form.cleaned_data["code"])
        if device is not None:
            otp_login(request, device)
            return redirect(_next(request))
        advice = "That code is not right (or was already used). Try the current one."
        form.add_error("code", totp.wrong_code(wait, advice))
    return render(
        request,
        "accounts/totp_verify.html",
        {"form": form, "next": _next(request)},
        status=400 if form.errors else 200,
    )


@login_required
def setup(request: HttpRequest) -> HttpResponse:
    """Add an authenticator app: a new key, confirmed by one code; then the recovery codes."""
    if TOTPDevice.objects.filter(user=request.user, confirmed=True).exists():
        return redirect(f"/backoffice/totp/?next={_next(request)}")
    device, _ = TOTPDevice.objects.get_or_create(user=request.user, confirmed=False, defaults={"name": "app"})
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        code = "".join(form.cleaned_data["code"].split())
        wait = totp.wait_before_trying([device])
        if device.verify_token(code):
            with transaction.atomic():
                device.confirmed = True
                device.save(update_fields=["confirmed"])
                StaticDevice.objects.filter(user=request.user).delete()
                static = StaticDevice.objects.create(user=request.user, name="recovery codes", confirmed=True)
                codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
                StaticToken.objects.bulk_create(StaticToken(device=static, token=code) for code in codes)
                if request.user.is_staff:
                    record(
                        request.user,
                        AuditAction.TOTP_SETUP,
                        f"user:{request.user.pk}",
                        "Set up two-factor sign-in.",
                    )
            otp_login(request, device)
            return render(request, "accounts/totp_codes.html", {"codes": codes, "next": _next(request)})
        advice = "That code is not right. Check the time on your phone and try the current one."
        form.add_error("code", totp.wrong_code(wait, advice))
    uri = device.config_url
    context = {
        "form": form,
        "secret": _base32(device.bin_key),
        "qr": segno.make(uri, error="m").svg_inline(scale=4),
        "next": _next(request),
    }
    return render(request, "accounts/totp_setup.html", context, status=400 if form.errors else 200)


def _base32(key: bytes) -> str:
    return base64.b32encode(key).decode().rstrip("=")
