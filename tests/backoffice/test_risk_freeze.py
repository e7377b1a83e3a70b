"""A freeze by the risk desk: money play, deposits and withdrawals refused with the same plain
words while the fair-play team reviews the account; the balance stays in sight and practice
play stays open. A freeze gives up the player's seat at a money table that has not started."""

from __future__ import annotations

import pytest
from django.urls import reverse

from backoffice import risk
from fairplay.cases import open_case
from games import services
from games.errors import GameError
from protection import freezes, money_play
from protection.models import ProtectionEvent
from tests.conftest import make_user
from tests.tables.support import template
from tests.wallet.support import _fast_password_hashing, fund, wallet  # noqa: F401
from wallet import cashier
from wallet.errors import Code, WalletError
from wallet.models import Withdrawal

pytestmark = pytest.mark.django_db

WORDS = (
    "Your money play and withdrawals are on hold while our fair-play team reviews your account. "
    "Your balance is safe; write to support."
)


@pytest.fixture
def frozen(db):
    """alice, with ₹1,000 in her wallet, frozen on a case by rita of the risk role."""
    alice = make_user("alice")
    fund(alice, 100000)
    rita = make_user("rita", staff=True, role="risk")
    case = open_case("chip_dumping", [alice], {}, score=4.0)
    risk.freeze(case.pk, [alice.pk], "money passed to one account", rita)
    return alice, case, rita


def test_the_refusal_is_frozen_with_its_plain_words(frozen):
    alice, _, _ = frozen
    refused = money_play.refusal(alice)
    assert refused is not None
    assert (refused.code, refused.message) == ("frozen", WORDS)


def test_a_frozen_player_cannot_join_or_play_now_at_a_money_table(frozen):
    alice, _, _ = frozen
    tmpl = template()
    with pytest.raises(GameError) as refused:
        services.play_now(alice, tmpl)
    assert (refused.value.code, refused.value.message) == ("frozen", WORDS)
    table = services.open_table(tmpl)
    with pytest.raises(GameError, match="fair-play team"):
        services.join(table.pk, alice)
    assert wallet(alice) == 100000, "no entry fee taken"


def test_a_frozen_player_cannot_withdraw_and_nothing_is_held(frozen):
    alice, _, _ = frozen
    with pytest.raises(WalletError) as refused:
        cashier.request_withdrawal(alice, 50000)
    assert (refused.value.code, refused.value.message) == (Code.FROZEN, WORDS)
    assert not Withdrawal.objects.exists()
    assert wallet(alice) == 100000


def test_a_frozen_player_cannot_deposit_either(frozen):
    """No money in while the account is reviewed: a deposit into an account that may be closed
    and whose money may refund victims only has to be sent back again."""
    alice, _, _ = frozen
    with pytest.raises(WalletError) as refused:
        cashier.create_deposit(alice, 50000)
    assert refused.value.message == WORDS


def test_a_frozen_player_still_plays_practice(frozen):
    alice, _, _ = frozen
    cashier.topup_chips(alice)
    table = services.play_now(alice, template(currency="CHIPS", name="Practice 101"))
    assert str(alice.pk) in [p["name"] for p in table.state["players"]]


def test_the_freeze_gives_up_a_seat_at_a_money_table_not_yet_started(db):
    alice, bob = make_user("alice"), make_user("bob")
    fund(alice, 100000)
    table = services.play_now(alice, template())
    assert wallet(alice) == 100000 - 2500
    case = open_case("manual", [alice], {"reason": "complaint"})
    risk.freeze(case.pk, [alice.pk], "complaint upheld", make_user("rita", staff=True, role="risk"))
    table.refresh_from_db()
    assert str(alice.pk) not in [p["name"] for p in table.state["players"] if p["status"] != "left"]
    assert wallet(alice) == 100000, "her entry fee back"
    assert bob.is_active


def test_the_player_sees_the_words_and_their_balance_on_the_wallet_and_lobby_pages(client, frozen):
    alice, _, _ = frozen
    client.force_login(alice)
    page = client.get(reverse("wallet:home")).content.decode().replace("&#x27;", "'")
    assert WORDS in page
    assert "₹1,000.00" in page, "the balance stays in sight"
    assert (
        'name="amount" inputmode="decimal" required>' not in page.split('id="wd-h"')[1].split("</section>")[0]
    ), "no withdrawal form while frozen"
    lobby = client.get(reverse("games:lobby")).content.decode().replace("&#x27;", "'")
    assert WORDS in lobby


def test_lifting_the_freeze_opens_money_again_and_both_are_in_the_protection_history(frozen):
    alice, case, rita = frozen
    ravi = make_user("ravi", staff=True, role="risk")
    risk.lift_freeze(case.pk, [alice.pk], "explained: a shared family device", ravi)
    assert money_play.refusal(alice) is None
    assert cashier.request_withdrawal(alice, 50000).status == Withdrawal.Status.REQUESTED
    kinds = list(ProtectionEvent.objects.filter(user=alice).order_by("at", "id").values_list("kind", "by_id"))
    assert kinds[-2:] == [("money_frozen", rita.pk), ("money_unfrozen", ravi.pk)]
    assert freezes.current(alice) is None


def test_the_api_refuses_a_frozen_players_withdrawal_and_play_with_the_code_frozen(frozen):
    from tests.api.support import client_for

    alice, _, _ = frozen
    client = client_for(alice)
    answer = client.post("/api/wallet/withdrawals/", {"amount": 50000}, format="json")
    assert (answer.status_code, answer.json()["error"], answer.json()["message"]) == (409, "frozen", WORDS)
    tmpl = template()
    answer = client.post(f"/api/templates/{tmpl.pk}/play/")
    assert (answer.status_code, answer.json()["error"], answer.json()["message"]) == (409, "frozen", WORDS)
    assert not Withdrawal.objects.exists()
