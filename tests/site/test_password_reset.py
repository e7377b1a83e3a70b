"""A forgotten password: a link mailed to the account's confirmed address sets a new one, with
Django's own tokens. The page answers the same, doing the same work, whether the address has
an account or not; requests are throttled per address and per client; a new password ends
every session and API token (the websockets: tests/live/test_sessions_and_sockets.py)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import MailRequest, User
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "blue-felt-table-77"
FORGOT = "/accounts/password/forgot/"


def confirmed(user, address):
    """``user`` with ``address``, confirmed (as following its link does)."""
    user.email = address
    user.save()
    user.email_verified_at = timezone.now()
    user.save(update_fields=["email_verified_at"])
    return user


@pytest.fixture
def dana(db):
    return confirmed(make_user("dana", verified=False), "Dana@Example.com")


def link_in(message) -> str:
    found = re.search(r"https?://testserver(/accounts/password/reset/\S+/)", message.body)
    assert found, message.body
    return found.group(1)


def test_a_forgotten_password_is_set_again_through_the_link_mailed_to_the_confirmed_address(
    dana, client, deliver, mailoutbox
):
    elsewhere = Client()
    elsewhere.force_login(dana)
    Token.objects.create(user=dana)
    answer = deliver(client.post, FORGOT, {"email": "DANA@example.com "})
    assert answer.status_code == 302
    assert answer["Location"] == reverse("accounts:password_reset_sent")
    assert [m.to for m in mailoutbox] == [["dana@example.com"]]
    assert "dana" in mailoutbox[0].subject
    assert "60 minutes" in mailoutbox[0].body

    form = client.get(link_in(mailoutbox[0]), follow=True)
    assert form.status_code == 200
    assert "Set a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert done.status_code == 302
    assert done["Location"] == reverse("accounts:password_reset_done")

    dana.refresh_from_db()
    assert dana.check_password(NEW_PASSWORD)
    assert not Token.objects.filter(user=dana).exists(), "every API token ends"
    assert elsewhere.get(reverse("accounts:profile")).status_code == 302, "every session ends"
    again = client.get(link_in(mailoutbox[0]), follow=True)
    assert "This link does not work" in again.content.decode(), "the link works once"
    logged_in = Client().post(reverse("accounts:login"), {"username": "dana", "password": NEW_PASSWORD})
    assert logged_in.status_code == 302, "the new password logs in"
    old = Client().post(reverse("accounts:login"), {"username": "dana", "password": "rummy-dana-demo"})
    assert old.status_code == 200, "the old one does not"


def test_no_link_goes_to_an_address_nobody_confirmed(client, deliver, mailoutbox):
    erin = make_user("erin", verified=False)
    erin.email = "erin@example.com"
    erin.save()
    answer = deliver(client.post, FORGOT, {"email": "erin@example.com"})
    assert answer.status_code == 302
    assert mailoutbox == []
    assert len(deliver.jobs) == 1, "the request was handed over all the same"


def shapes(queries) -> list[str]:
    """Each statement with its values blanked: what the request did, not with what."""
    return [re.sub(r"'[^']*'|\b\d+(\.\d+)?\b", "?", query["sql"]) for query in queries]


def test_the_answer_and_the_work_are_the_same_whether_or_not_the_address_has_an_account(
    dana, client, deliver, mailoutbox
):
    answers, work = [], []
    for address in ("dana@example.com", "nobody@example.com"):
        with CaptureQueriesContext(connection) as asked:
            answer = client.post(FORGOT, {"email": address})
        answers.append((answer.status_code, answer["Location"], client.get(answer["Location"]).content))
        work.append(shapes(asked.captured_queries))
    assert answers[0] == answers[1]
    assert work[0] == work[1], "the same statements: looking the address up is the mail thread's job"
    assert not any("accounts_user" in sql for sql in work[0])
    assert mailoutbox == [], "nothing is sent in the request"


def test_requests_are_throttled_per_address_and_per_client_whether_or_not_it_has_an_account(
    dana, client, deliver, mailoutbox, settings
):
    settings.MAILS_PER_HOUR_PER_ADDRESS = 2
    settings.MAILS_PER_HOUR_PER_CLIENT = 5
    for address in ("dana@example.com", "nobody@example.com"):
        codes = [deliver(client.post, FORGOT, {"email": address}).status_code for _ in range(3)]
        assert codes == [302, 302, 429], address
    assert len(mailoutbox) == 2, "a refused request sends nothing"
    refused = client.post(FORGOT, {"email": "Dana@Example.COM"})
    assert refused.status_code == 429, "one address however it is written"
    assert "Too many e-mails" in refused.content.decode()

    fresh = client.post(FORGOT, {"email": "third@example.com"})
    assert fresh.status_code == 302, "four requests counted from this client so far"
    assert client.post(FORGOT, {"email": "fourth@example.com"}).status_code == 429
    other = Client(REMOTE_ADDR="198.51.100.20")
    assert other.post(FORGOT, {"email": "fourth@example.com"}).status_code == 302, "another client"
    assert MailRequest.objects.filter(client="198.51.100.20").count() == 1


def test_the_client_is_the_address_the_trusted_proxy_saw(dana, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.MAILS_PER_HOUR_PER_CLIENT = 2
    codes = [
        Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=f"1.2.3.{n}, 203.0.113.8")
        .post(FORGOT, {"email": f"player{n}@example.com"})
        .status_code
        for n in range(3)
    ]
    assert codes == [302, 302, 429], "a forged first entry does not make a new client"


def test_a_new_password_clears_the_log_in_lock_out(dana, client, deliver, mailoutbox, settings):
    settings.AXES_FAILURE_LIMIT = 2
    for _ in range(2):
        client.post(reverse("accounts:login"), {"username": "dana", "password": "wrong"})
    locked = client.post(reverse("accounts:login"), {"username": "dana", "password": "rummy-dana-demo"})
    assert locked.status_code == 429
    deliver(client.post, FORGOT, {"email": "dana@example.com"})
    form = client.get(link_in(mailoutbox[0]), follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    again = client.post(reverse("accounts:login"), {"username": "dana", "password": NEW_PASSWORD})
    assert again.status_code == 302


def test_a_bad_address_is_refused_in_words_and_changes_nothing(client):
    answer = client.post(FORGOT, {"email": "not an address"})
    assert answer.status_code == 400
    assert "Enter a valid email address" in answer.content.decode()
    assert MailRequest.objects.count() == 0


def test_the_log_in_page_offers_the_way_back_in(client):
    page = client.get(reverse("accounts:login")).content.decode()
    assert f'href="{FORGOT}"' in page
    assert User.objects.count() == 0
