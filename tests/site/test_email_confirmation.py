"""Confirming an e-mail address: a signed link mailed at sign-up and at each change on the
profile (which needs the password); one account per confirmed address, refused at sign-up, at
a change and when the link is followed, and held by the database when two accounts race."""

from __future__ import annotations

import re
import threading

import pytest
from django.core import signing
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import confirmation
from accounts.models import User
from tests.conftest import make_user
from tests.site.test_login_and_sessions import signup
from tests.site.test_password_reset import confirmed

pytestmark = pytest.mark.django_db


def link_in(message) -> str:
    found = re.search(r"https?://testserver(/accounts/email/confirm/\S+/)", message.body)
    assert found, message.body
    return found.group(1)


def sign_up(client, **fields):
    return signup(client, **{"username": "nisha", "email": "Nisha@Example.com", **fields})


def test_sign_up_mails_a_link_that_confirms_the_address(client, deliver, mailoutbox):
    assert deliver(sign_up, client).status_code == 302
    nisha = User.objects.get(username="nisha")
    assert (nisha.email, nisha.email_verified_at) == ("nisha@example.com", None)
    assert [m.to for m in mailoutbox] == [["nisha@example.com"]]
    link = link_in(mailoutbox[0])
    assert "nisha@example.com" not in link, "the link names no address (request logs keep paths)"

    page = Client().get(link)
    assert page.status_code == 200
    assert "Confirm this address" in page.content.decode()
    nisha.refresh_from_db()
    assert nisha.email_verified_at is None, "opening the link confirms nothing: its button does"
    assert client.post(link).status_code == 302, "the player's own browser goes back to the profile"
    nisha.refresh_from_db()
    assert nisha.email_confirmed
    assert "is confirmed" in client.get(reverse("accounts:profile")).content.decode()


def test_without_an_address_sign_up_sends_nothing_and_the_profile_says_why_it_matters(
    client, deliver, mailoutbox
):
    assert deliver(sign_up, client, email="").status_code == 302
    assert mailoutbox == []
    assert "nobody can let you back in" in client.get(reverse("accounts:profile")).content.decode()


def profile_form(user, **fields):
    return {"display_name": user.display_name, "email": user.email, "region": user.region} | fields


def test_a_new_address_needs_the_password_is_not_confirmed_and_gets_its_own_link(client, deliver, mailoutbox):
    dana = confirmed(make_user("dana"), "dana@example.com")
    old_link = confirmation.token_for(dana)
    client.force_login(dana)
    refused = deliver(client.post, reverse("accounts:profile"), profile_form(dana, email="d@example.org"))
    assert refused.status_code == 400
    assert "Enter your password to change your e-mail address." in refused.content.decode()
    dana.refresh_from_db()
    assert (dana.email, dana.email_confirmed) == ("dana@example.com", True), "nothing changed"

    changed = deliver(
        client.post,
        reverse("accounts:profile"),
        profile_form(dana, email="D@Example.org", password="rummy-dana-demo"),
    )
    assert changed.status_code == 302
    dana.refresh_from_db()
    assert (dana.email, dana.email_verified_at) == ("d@example.org", None)
    assert [m.to for m in mailoutbox] == [["d@example.org"]]
    stale = Client().post(reverse("accounts:confirm_email", args=[old_link]))
    assert stale.status_code == 400
    assert "no longer on the account" in stale.content.decode()
    assert Client().post(link_in(mailoutbox[0])).status_code == 200
    dana.refresh_from_db()
    assert dana.email_confirmed


def test_a_name_alone_changes_without_the_password(client, deliver, mailoutbox):
    dana = confirmed(make_user("dana"), "dana@example.com")
    client.force_login(dana)
    answer = deliver(client.post, reverse("accounts:profile"), profile_form(dana, display_name="D"))
    assert answer.status_code == 302
    dana.refresh_from_db()
    assert (dana.display_name, dana.email_confirmed, mailoutbox) == ("D", True, [])


def test_an_address_confirmed_on_another_account_is_refused_at_sign_up_and_at_a_change(client, deliver):
    confirmed(make_user("dana"), "dana@example.com")
    refused = sign_up(client, email="DANA@example.com")
    assert refused.status_code == 400
    assert "already confirmed on another account" in refused.content.decode()
    assert not User.objects.filter(username="nisha").exists()

    erin = make_user("erin")
    client.force_login(erin)
    changed = client.post(
        reverse("accounts:profile"), profile_form(erin, email="dana@example.com", password="rummy-erin-demo")
    )
    assert changed.status_code == 400
    assert "already confirmed on another account" in changed.content.decode()


def test_an_address_confirmed_elsewhere_after_the_link_was_sent_is_refused_when_it_is_followed():
    dana, erin = make_user("dana"), make_user("erin")
    for user in (dana, erin):
        user.email = "shared@example.com"
        user.save()
    erins_link = confirmation.token_for(erin)
    confirmation.confirm(confirmation.token_for(dana))
    with pytest.raises(confirmation.ConfirmationError) as refused:
        confirmation.confirm(erins_link)
    assert refused.value.code == "address_taken"
    erin.refresh_from_db()
    assert erin.email_verified_at is None


def test_the_database_holds_one_account_per_confirmed_address():
    dana, erin = make_user("dana"), make_user("erin")
    for user in (dana, erin):
        user.email = "shared@example.com"
        user.save()
    dana.email_verified_at = timezone.now()
    dana.save(update_fields=["email_verified_at"])
    erin.email_verified_at = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        erin.save(update_fields=["email_verified_at"])


def test_a_changed_address_is_not_confirmed_whoever_saves_it():
    dana = confirmed(make_user("dana"), "dana@example.com")
    dana.email = "elsewhere@example.com"
    dana.save()  # as the admin's user page does
    dana.refresh_from_db()
    assert dana.email_verified_at is None
    again = confirmed(dana, "dana@example.com")
    again.email = "Dana@Example.com "
    again.save(update_fields=["email"])
    again.refresh_from_db()
    assert again.email_confirmed, "the same address written otherwise is the same address"


def test_a_tampered_or_expired_link_is_refused_in_words(monkeypatch):
    dana = make_user("dana")
    dana.email = "dana@example.com"
    dana.save()
    token = confirmation.token_for(dana)
    bad = Client().post(reverse("accounts:confirm_email", args=[token[:-2] + "xx"]))
    assert bad.status_code == 400
    assert "not one we sent" in bad.content.decode()
    later = signing.time.time() + confirmation.MAX_AGE.total_seconds() + 60
    monkeypatch.setattr(signing.time, "time", lambda: later)
    expired = Client().post(reverse("accounts:confirm_email", args=[token]))
    assert expired.status_code == 400
    assert "expired" in expired.content.decode()
    dana.refresh_from_db()
    assert dana.email_verified_at is None


def test_sending_the_link_again_is_throttled_per_address(client, deliver, mailoutbox, settings):
    settings.MAILS_PER_HOUR_PER_ADDRESS = 2
    dana = make_user("dana")
    dana.email = "dana@example.com"
    dana.save()
    client.force_login(dana)
    for _ in range(3):
        deliver(client.post, reverse("accounts:send_confirmation"))
    assert len(mailoutbox) == 2
    page = client.get(reverse("accounts:profile")).content.decode()
    assert "Send the link again" in page


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_accounts_confirming_one_address_at_once_one_wins(monkeypatch):
    """Both pass the check before either commits; the unique index lets one through."""
    dana, erin = make_user("dana"), make_user("erin")
    for user in (dana, erin):
        user.email = "shared@example.com"
        user.save()
    tokens = [confirmation.token_for(dana), confirmation.token_for(erin)]
    both_checked = threading.Barrier(2)
    real = confirmation.addresses.confirmed_elsewhere

    def checked_together(address, user=None):
        found = real(address, user)
        both_checked.wait(timeout=10)
        return found

    results: list[str] = []

    def follow(token: str) -> None:
        try:
            confirmation.confirm(token)
            results.append("confirmed")
        except confirmation.ConfirmationError as error:
            results.append(error.code)
        finally:
            connection.close()

    monkeypatch.setattr(confirmation.addresses, "confirmed_elsewhere", checked_together)
    threads = [threading.Thread(target=follow, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(results) == ["address_taken", "confirmed"]
    assert User.objects.filter(email="shared@example.com", email_verified_at__isnull=False).count() == 1
