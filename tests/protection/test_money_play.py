"""R-PROT-1: the operator's money-play switch and regions, one check point for every path."""

from __future__ import annotations

import pytest

from accounts.regions import is_region
from games import services
from games.errors import GameError
from protection import money_play
from tests.api.support import _fresh_throttles, assert_error, client_for  # noqa: F401
from tests.protection.support import funded, journals, money_pool, practice_pool, wallet
from tests.site.test_settings import run_manage
from wallet import cashier
from wallet.errors import WalletError
from wallet.models import Withdrawal

pytestmark = pytest.mark.django_db


def test_money_play_off_closes_money_tables_and_deposits_but_not_practice__R_PROT_1(alice, settings, client):
    funded(alice)
    settings.MONEY_PLAY = False
    before, balance = journals(), wallet(alice)
    with pytest.raises(GameError) as refused:
        services.play_now(alice, money_pool())
    assert refused.value.code == "money_play_off"
    assert "Practice tables are open" in refused.value.message
    with pytest.raises(WalletError, match="Money play is not offered"):
        cashier.create_deposit(alice, 100_00)
    assert (journals(), wallet(alice)) == (before, balance), "nothing moved"
    cashier.topup_chips(alice)
    practice = services.play_now(alice, practice_pool())
    assert practice.template.currency == "CHIPS"
    api = client_for(alice).post(f"/api/templates/{money_pool(name='another').pk}/play/")
    assert assert_error(api, 409, "money_play_off")["message"].startswith("Money play is not offered")


def test_a_player_can_always_withdraw_their_own_money__R_PROT_1(alice, settings):
    funded(alice)
    settings.MONEY_PLAY = False
    withdrawal = cashier.request_withdrawal(alice, 1_000_00)
    assert withdrawal.status == Withdrawal.Status.REQUESTED
    assert wallet(alice) == 4_000_00


def lives_in(user, region):
    """The region as stored, without a move (the check point reads the stored row)."""
    from accounts.models import User

    User.objects.filter(pk=user.pk).update(region=region)


def test_regions_an_exact_code_or_a_whole_country__R_PROT_1(alice, settings):
    settings.MONEY_REGIONS = ["IN-GA", "GB"]
    assert money_play.refusal(alice).code == "region_not_allowed"  # alice lives in IN-KA
    assert "Karnataka" in money_play.refusal(alice).message
    lives_in(alice, "IN-GA")
    assert money_play.refusal(alice) is None
    lives_in(alice, "GB-ENG")
    assert money_play.refusal(alice) is None, "GB covers England"
    lives_in(alice, "ZZ")
    assert money_play.refusal(alice).code == "region_undeclared"
    settings.MONEY_REGIONS = []
    assert money_play.refusal(alice) is None, "no list: every region, even undeclared"


def test_a_region_outside_the_list_cannot_join_a_money_table_by_the_api__R_PROT_1(alice, settings):
    funded(alice)
    settings.MONEY_REGIONS = ["IN-GA"]
    table = services.open_table(money_pool())
    before = journals()
    body = assert_error(client_for(alice).post(f"/api/tables/{table.pk}/join/"), 409, "region_not_allowed")
    assert "Karnataka" in body["message"]
    assert journals() == before


@pytest.mark.parametrize(
    ("env", "expected"),
    [({"DEBUG": "0"}, "False"), ({"DEBUG": "1"}, "True"), ({"DEBUG": "1", "MONEY_PLAY": "0"}, "False")],
)
def test_money_play_defaults_to_debug__R_PROT_1(env, expected):
    production = {"SECRET_KEY": "s" * 50, "ALLOWED_HOSTS": "rummy.example"}
    done = run_manage(
        "shell", "-c", "from django.conf import settings; print(settings.MONEY_PLAY)", **production, **env
    )
    assert done.stdout.strip().splitlines()[-1] == expected, done.stderr


@pytest.mark.parametrize(
    ("code", "ok"),
    [
        ("IN-KA", True),
        ("in-ka", True),
        ("GB-ENG", True),
        ("IN-XX", False),
        ("QQ-AB", False),
        ("ZZ", False),
        ("KA", False),
    ],
)
def test_region_codes_are_iso_3166_2__R_PROT_1(code, ok):
    assert is_region(code) is ok


def test_sign_up_records_the_region_and_refuses_a_bad_one__R_PROT_1(client):
    from accounts.models import User

    form = {
        "username": "newplayer",
        "password1": "green-felt-table-42",
        "password2": "green-felt-table-42",
        "date_of_birth": "1990-01-01",
        "region": "IN-XX",
    }
    page = client.get("/accounts/signup/").content.decode()
    assert '<option value="IN-TN">Tamil Nadu</option>' in page
    refused = client.post("/accounts/signup/", form)
    assert refused.status_code == 400
    assert "ISO 3166-2" in refused.content.decode()
    assert client.post("/accounts/signup/", {**form, "region": "IN-TN"}).status_code == 302
    assert User.objects.get(username="newplayer").region == "IN-TN"


def test_the_lobby_shows_practice_tables_only_where_money_play_is_off__R_PROT_1(alice, client, settings):
    money_pool(name="Money pool for the lobby")
    practice_pool(name="Chips pool for the lobby")
    client.force_login(alice)
    assert "Money pool for the lobby" in client.get("/games/").content.decode()
    settings.MONEY_REGIONS = ["IN-GA"]
    page = client.get("/games/").content.decode()
    assert "Money pool for the lobby" not in page
    assert "Chips pool for the lobby" in page
    assert "Money play is not offered in Karnataka" in page
