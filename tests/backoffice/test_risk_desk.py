"""The risk desk: the fair-play cases seen by the risk role alone, opened by hand, and each
action on them (dismiss, warn, freeze, lift, close, the victims' refund with four eyes) done in
one transaction with its audit row and reason. A deal in play is never reachable from a case."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

from backoffice import risk
from backoffice.models import AuditAction, AuditLog, RefundRequest
from fairplay.cases import open_case
from fairplay.models import Case, CaseWarning
from fairplay.words import WARNING_MESSAGE
from games import services
from games.errors import GameError
from games.models import Deal, DealHand
from protection import freezes
from tests.backoffice.support import _fast_passwords, deposit, play_a_deal  # noqa: F401
from tests.conftest import make_user
from wallet import corrections
from wallet.errors import Code, WalletError
from wallet.ledger import balance_of, user_spec
from wallet.models import Journal, JournalKind
from wallet.reconcile import reconcile

pytestmark = pytest.mark.django_db

EVIDENCE = {
    "figures": [
        {"name": "win_rate", "value": 0.62, "baseline": 0.18, "unit": "share"},
        {"name": "chips_passed", "value": 720000, "baseline": 100000, "unit": "paise"},
    ],
    "counts": {"deals_together": 40},
    "links": [{"users": [], "reasons": ["device", "address"]}],
}


@pytest.fixture
def desk(db):
    """Two risk members (rita, ravi), the colluders alice and bob, their victim carol."""
    names = ("alice", "bob", "carol")
    return {
        "rita": make_user("rita", staff=True, role="risk"),
        "ravi": make_user("ravi", staff=True, role="risk"),
        **{name: make_user(name) for name in names},
    }


def a_case(desk, **fields) -> Case:
    alice, bob = desk["alice"], desk["bob"]
    evidence = {**EVIDENCE, "links": [{"users": [alice.pk, bob.pk], "reasons": ["device", "address"]}]}
    return open_case(
        "chip_dumping", [alice, bob], evidence, score=7.2, key=f"dump:{alice.pk}:{bob.pk}", **fields
    )


def audit_of(action: AuditAction) -> list[tuple[str, str, int]]:
    return list(AuditLog.objects.filter(action=action).values_list("target", "reason", "actor_id"))


# --- who sees the desk ----------------------------------------------------------------------


@pytest.mark.parametrize("role", ["risk", "admin"])
def test_the_risk_and_admin_roles_see_the_cases_and_a_case(client, desk, role):
    case = a_case(desk)
    client.force_login(make_user("member", staff=True, role=role))
    listed = client.get(reverse("backoffice:cases"))
    assert listed.status_code == 200
    assert f'href="{reverse("backoffice:case", args=[case.pk])}"' in listed.content.decode()
    assert client.get(reverse("backoffice:case", args=[case.pk])).status_code == 200


@pytest.mark.parametrize("role", ["support", "cashier"])
def test_support_and_cashier_staff_get_the_forbidden_page_on_every_desk_page(client, desk, role):
    case = a_case(desk)
    client.force_login(make_user("member", staff=True, role=role))
    for url in (
        reverse("backoffice:cases"),
        reverse("backoffice:case", args=[case.pk]),
        reverse("backoffice:open_case"),
    ):
        answer = client.get(url)
        assert answer.status_code == 403, url
        assert "Risk and Admin roles have" in answer.content.decode()
    answer = client.post(reverse("backoffice:case_act", args=[case.pk]), {"action": "freeze", "reason": "x"})
    assert answer.status_code == 403
    assert not freezes.is_frozen(desk["alice"])
    assert "Fair-play cases" not in client.get(reverse("backoffice:home")).content.decode()


def test_a_player_is_refused_the_desk(client, desk):
    a_case(desk)
    client.force_login(desk["carol"])
    assert client.get(reverse("backoffice:cases")).status_code == 403


def test_only_the_risk_role_of_the_staff_roles_holds_the_desk_permissions():
    from django.contrib.auth.models import Group

    holders = {
        group.name
        for group in Group.objects.filter(
            permissions__content_type__app_label="fairplay", permissions__codename="confirm_refund"
        )
    }
    assert holders == {"risk", "admin"}


def test_a_staff_member_whose_role_lacks_the_desk_is_refused_by_the_service_too(desk):
    case = a_case(desk)
    helper = make_user("helper", staff=True, role="support")
    with pytest.raises(WalletError, match="role does not allow"):
        risk.freeze(case.pk, [desk["alice"].pk], "looks like dumping", helper)
    assert not freezes.is_frozen(desk["alice"])
    assert not AuditLog.objects.exists()


# --- the list and the case page -------------------------------------------------------------


def test_the_list_puts_open_cases_first_in_words_and_filters_by_status_and_kind(client, desk):
    alice, _bob, carol = desk["alice"], desk["bob"], desk["carol"]
    dumped = a_case(desk)
    timing = open_case("bot_timing", [carol], {}, score=3.04)
    ended = open_case("soft_play", [alice, carol], {}, score=2.0)
    risk.dismiss(ended.pk, "the same two friends, no money moved", desk["rita"])
    timing.save()  # the newest change: still after every open case but none
    client.force_login(desk["rita"])
    page = client.get(reverse("backoffice:cases")).content.decode()
    order = [page.index(f"Case {case.pk}<") for case in (timing, dumped, ended)]
    assert order == sorted(order), "open cases first, the newest change first; the dismissed last"
    assert "Chip dumping" in page
    assert "Machine-like timing" in page
    assert "alice, bob" in page
    assert "7.2× usual" in page
    assert "3.0× usual" in page
    assert "Dismissed" in page
    only_open = client.get(reverse("backoffice:cases"), {"status": "open"}).content.decode()
    assert f"Case {ended.pk}<" not in only_open
    assert f"Case {dumped.pk}<" in only_open
    only_kind = client.get(reverse("backoffice:cases"), {"kind": "bot_timing"}).content.decode()
    assert f"Case {timing.pk}<" in only_kind
    assert f"Case {dumped.pk}<" not in only_kind


def test_the_case_page_shows_each_figure_beside_its_baseline_and_the_linked_accounts(client, desk):
    case = a_case(desk)
    client.force_login(desk["rita"])
    page = client.get(reverse("backoffice:case", args=[case.pk])).content.decode()
    assert "Share of deals won against this opponent: 62 %, where 18 % is usual (3.4× usual)" in page
    assert "Money passed to one player: ₹7,200.00, where ₹1,000.00 is usual (7.2× usual)" in page
    assert "Deals together: 40" in page
    assert "alice and bob: Same device, Same internet address" in page


def test_the_case_page_gathers_the_links_of_other_linked_accounts_cases_about_its_players(client, desk):
    alice, bob, carol = desk["alice"], desk["bob"], desk["carol"]
    case = a_case(desk)
    linked = open_case(
        "linked_accounts",
        [alice, carol],
        {
            "links": [
                {"users": [carol.pk, alice.pk], "reasons": ["instrument"]},
                {"users": [bob.pk, alice.pk], "reasons": ["document", "address"]},
            ]
        },
    )
    open_case("bot_timing", [desk["ravi"]], {})  # about nobody of this case
    client.force_login(desk["rita"])
    page = client.get(reverse("backoffice:case", args=[case.pk])).content.decode()
    assert "alice and bob: Same device, Same internet address, Same identity document" in page, (
        "one pair, every reason"
    )
    assert "alice and carol: Same payment instrument" in page
    assert f"Case {linked.pk}</a> · Linked accounts · Open" in page
    assert page.count("</a> · Machine-like timing") == 0


def test_the_case_page_shows_the_links_fair_play_recorded_between_its_players_and_others(client, desk):
    from django.utils import timezone

    from fairplay.models import Link

    alice, carol = desk["alice"], desk["carol"]
    now = timezone.now()
    Link.objects.create(
        low=alice if alice.pk < carol.pk else carol,
        high=carol if alice.pk < carol.pk else alice,
        strength="strong",
        reasons={"device": {"first_seen": now.isoformat(), "last_seen": now.isoformat(), "seen": 3}},
        first_seen=now,
        last_seen=now,
    )
    case = a_case(desk)
    client.force_login(desk["rita"])
    page = client.get(reverse("backoffice:case", args=[case.pk])).content.decode()
    assert "alice and carol: Strong: kept apart at money tables, Same device" in page


# --- no card of a deal in play --------------------------------------------------------------


def secrets_of(table) -> list[str]:
    """What no desk page may show while the deal runs: its seed, each hand and the closed pile."""
    deal = table.state["deal"]
    found = [deal["seed"]]
    for cards in [seat["hand"] for seat in deal["seats"]] + [deal["closed_pile"][:6]]:
        found += [json.dumps(cards), html.escape(json.dumps(cards)), repr(cards), html.escape(repr(cards))]
        found += [" ".join(cards), ", ".join(cards)]
    return found


def test_a_case_links_the_replay_of_its_finished_deals_only_and_no_deal_in_play_is_reachable(client, desk):
    alice, bob = desk["alice"], desk["bob"]
    table = play_a_deal(alice, bob)
    assert services.expire(table.pk, table.version, at=services.now_ms() + 10**7)  # deal 2 starts
    table.refresh_from_db()
    over = Deal.objects.get(table=table, number=1)
    running = Deal.objects.get(table=table, number=2)
    assert over.finished_at is not None
    assert running.finished_at is None
    case = open_case("soft_play", [alice, bob], {"deals": [over.pk, running.pk]}, score=2.5)
    client.force_login(make_user("boss", staff=True, role="admin"))
    page = client.get(reverse("backoffice:case", args=[case.pk])).content.decode()
    finished_url = reverse("backoffice:case_deal", args=[case.pk, over.pk])
    running_url = reverse("backoffice:case_deal", args=[case.pk, running.pk])
    assert f'href="{finished_url}"' in page
    assert running_url not in page
    assert "Deal 2 of table" in page
    assert "not over yet, so no replay" in page
    replay = client.get(finished_url)
    assert replay.status_code == 200
    hand = DealHand.objects.filter(deal=over).first()
    assert hand is not None
    assert " ".join(hand.hand) in replay.content.decode(), "a finished deal's hands"
    assert client.get(running_url).status_code == 404, "a deal in play is not found from the desk"
    other = open_case("soft_play", [alice], {"deals": []})
    assert client.get(reverse("backoffice:case_deal", args=[other.pk, over.pk])).status_code == 404, (
        "only a deal the case rests on"
    )
    desk_pages = [
        reverse("backoffice:cases"),
        reverse("backoffice:case", args=[case.pk]),
        finished_url,
        running_url,
    ]
    for url in desk_pages:
        body = client.get(url).content.decode()
        for secret in secrets_of(table):
            assert secret not in body, (url, secret)


# --- opening by hand ------------------------------------------------------------------------


def test_a_risk_member_opens_a_case_by_hand_naming_players_with_a_reason(client, desk):
    client.force_login(desk["rita"])
    answer = client.post(
        reverse("backoffice:open_case"), {"players": "Alice, bob", "reason": "a player's complaint"}
    )
    case = Case.objects.get(kind="manual")
    assert answer.status_code == 302
    assert answer["Location"] == reverse("backoffice:case", args=[case.pk])
    assert sorted(case.subjects.values_list("username", flat=True)) == ["alice", "bob"]
    assert (case.opened_by, case.evidence) == (desk["rita"], {"reason": "a player's complaint"})
    assert audit_of(AuditAction.OPEN_CASE) == [(f"case:{case.pk}", "a player's complaint", desk["rita"].pk)]
    page = client.get(reverse("backoffice:case", args=[case.pk])).content.decode()
    assert "Opened by staff" in page
    assert "“a player’s complaint”" in page.replace("&#x27;", "’")


@pytest.mark.parametrize(
    ("players", "reason", "said"),
    [
        ("alice, nobody", "a complaint", "No player is called nobody."),
        ("", "a complaint", "Name at least one player"),
        ("alice", "   ", "Say why: a reason is required."),
        ("ravi", "a complaint", "ravi is staff"),
    ],
)
def test_a_case_opened_by_hand_with_bad_input_is_refused_in_words_and_nothing_is_written(
    client, desk, players, reason, said
):
    client.force_login(desk["rita"])
    answer = client.post(reverse("backoffice:open_case"), {"players": players, "reason": reason})
    assert answer.status_code == 400
    assert said in answer.content.decode()
    assert not Case.objects.exists()
    assert not AuditLog.objects.exists()


# --- each action, audited with its reason ---------------------------------------------------


def test_a_warned_player_reads_the_warning_on_their_next_page_until_they_say_they_read_it(client, desk):
    case = a_case(desk)
    alice = desk["alice"]
    risk.warn(case.pk, [alice.pk], "first offence, small amounts", desk["rita"])
    case.refresh_from_db()
    assert case.status == "warned"
    assert audit_of(AuditAction.WARN_PLAYER) == [
        (f"user:{alice.pk}", "first offence, small amounts", desk["rita"].pk)
    ]
    assert AuditLog.objects.get(action=AuditAction.WARN_PLAYER).details["case"] == case.pk
    client.force_login(alice)
    page = client.get(reverse("wallet:home")).content.decode()
    assert "A warning from our fair-play team" in page
    assert WARNING_MESSAGE in page.replace("&#x27;", "'")
    assert "first offence" not in page, "the staff member's reason stays with staff"
    from tests.tables.support import template
    from wallet.cashier import topup_chips

    topup_chips(alice)
    table = services.play_now(alice, template(currency="CHIPS", name="Practice 101"))
    answer = client.get(reverse("games:table", args=[table.pk]))
    assert answer.status_code == 200
    felt = answer.content.decode()
    assert "table-page" in felt
    assert "A warning from our fair-play team" not in felt, "the felt fills the screen: the warning waits"
    warning = CaseWarning.objects.get(user=alice)
    client.post(reverse("fairplay:read_warning", args=[warning.pk]), {"next": "/wallet/"})
    assert "A warning from our fair-play team" not in client.get(reverse("wallet:home")).content.decode()
    client.force_login(desk["bob"])
    assert "A warning from our fair-play team" not in client.get(reverse("wallet:home")).content.decode(), (
        "only the players chosen are warned"
    )


def test_a_freeze_is_audited_and_a_lift_gives_money_play_back(desk):
    case = a_case(desk)
    alice, bob = desk["alice"], desk["bob"]
    risk.freeze(case.pk, [alice.pk, bob.pk], "dumping under review", desk["rita"])
    case.refresh_from_db()
    assert case.status == "frozen"
    assert freezes.is_frozen(alice)
    assert freezes.is_frozen(bob)
    assert sorted(audit_of(AuditAction.FREEZE_MONEY)) == sorted(
        [(f"user:{p.pk}", "dumping under review", desk["rita"].pk) for p in (alice, bob)]
    )
    with pytest.raises(GameError, match="already on hold"):
        risk.freeze(case.pk, [alice.pk], "again", desk["ravi"])
    assert len(audit_of(AuditAction.FREEZE_MONEY)) == 2, "a refused action leaves no audit row"
    risk.lift_freeze(case.pk, [alice.pk], "alice's side explained", desk["ravi"])
    assert not freezes.is_frozen(alice)
    assert freezes.is_frozen(bob)
    case.refresh_from_db()
    assert case.status == "frozen", "bob is still frozen"
    risk.lift_freeze(case.pk, [bob.pk], "bob's too", desk["ravi"])
    case.refresh_from_db()
    assert case.status == "open"
    assert [r for _, r, _ in audit_of(AuditAction.LIFT_FREEZE)] == ["bob's too", "alice's side explained"]


def test_an_action_on_a_player_who_is_not_the_cases_is_refused(desk):
    case = a_case(desk)
    with pytest.raises(GameError, match="case's own players"):
        risk.freeze(case.pk, [desk["carol"].pk], "carol too", desk["rita"])
    assert not freezes.is_frozen(desk["carol"])


def test_closing_the_accounts_ends_their_sign_in_with_an_audit_row_each(client, desk):
    case = a_case(desk)
    alice = desk["alice"]
    client.force_login(alice)
    risk.close_accounts(case.pk, [alice.pk], "confirmed collusion ring", desk["rita"])
    alice.refresh_from_db()
    assert not alice.is_active
    assert audit_of(AuditAction.CLOSE_ACCOUNT) == [
        (f"user:{alice.pk}", "confirmed collusion ring", desk["rita"].pk)
    ]
    case.refresh_from_db()
    assert case.status == "closed"
    assert client.get(reverse("wallet:home")).status_code == 302, "her session ended"


def test_dismissing_a_case_lifts_its_freezes_and_it_takes_no_more_actions(desk):
    case = a_case(desk)
    alice = desk["alice"]
    risk.freeze(case.pk, [alice.pk], "under review", desk["rita"])
    risk.dismiss(case.pk, "friends from one college, no money passed", desk["ravi"])
    case.refresh_from_db()
    assert case.status == "dismissed"
    assert not freezes.is_frozen(alice)
    assert audit_of(AuditAction.DISMISS_CASE) == [
        (f"case:{case.pk}", "friends from one college, no money passed", desk["ravi"].pk)
    ]
    assert audit_of(AuditAction.LIFT_FREEZE) == [
        (f"user:{alice.pk}", "friends from one college, no money passed", desk["ravi"].pk)
    ], "the lift is on her page too"
    with pytest.raises(GameError, match="takes no more actions"):
        risk.warn(case.pk, [alice.pk], "after all", desk["rita"])


def test_an_action_without_a_reason_is_refused_and_changes_nothing(client, desk):
    case = a_case(desk)
    client.force_login(desk["rita"])
    answer = client.post(
        reverse("backoffice:case_act", args=[case.pk]),
        {"action": "freeze", "players": [desk["alice"].pk], "reason": "  "},
        follow=True,
    )
    assert "Say why: a reason is required." in answer.content.decode()
    assert not freezes.is_frozen(desk["alice"])
    assert not AuditLog.objects.exists()


def test_the_case_page_lists_its_history_with_each_reason(client, desk):
    case = a_case(desk)
    risk.warn(case.pk, [desk["alice"].pk], "first warning", desk["rita"])
    risk.freeze(case.pk, [desk["bob"].pk], "bob kept on", desk["ravi"])
    client.force_login(desk["rita"])
    page = client.get(reverse("backoffice:case", args=[case.pk])).content.decode()
    assert page.index("first warning") < page.index("bob kept on"), "oldest first"
    assert "Warned a player (fair play)" in page
    assert "Froze a player&#x27;s money play" in page


# --- the victims' refund, four eyes ---------------------------------------------------------


def funded(desk) -> None:
    deposit(desk["alice"], 10000)
    deposit(desk["bob"], 4000)


def test_a_refund_is_proposed_by_one_member_confirmed_by_another_and_posts_exact_paise(desk):
    funded(desk)
    case = a_case(desk)
    alice, bob, carol = desk["alice"], desk["bob"], desk["carol"]
    moves = [[alice.pk, carol.pk, 7250], [bob.pk, carol.pk, 4000]]
    request = risk.propose_refund(case.pk, moves, "carol lost these deals to the pair", desk["rita"])
    assert [balance_of(user_spec(p.pk)) for p in (alice, bob, carol)] == [10000, 4000, 0], "nothing moves yet"
    assert not Journal.objects.filter(kind=JournalKind.FAIRPLAY_REFUND).exists()
    with pytest.raises(WalletError, match="you asked for this one"):
        risk.confirm_refund(request.pk, "looks right", desk["rita"])
    done = risk.confirm_refund(request.pk, "checked the deals", desk["ravi"])
    assert [balance_of(user_spec(p.pk)) for p in (alice, bob, carol)] == [2750, 0, 11250]
    journal = Journal.objects.get(kind=JournalKind.FAIRPLAY_REFUND)
    assert journal.key == f"fairplay_refund:{request.pk}"
    assert done.journal == journal
    legs = sorted(journal.transfers.values_list("debit__ref", "credit__ref", "amount"))
    assert legs == sorted(
        [(f"user:{alice.pk}", f"user:{carol.pk}", 7250), (f"user:{bob.pk}", f"user:{carol.pk}", 4000)]
    )
    assert journal.meta["ref"] == f"case:{case.pk}"
    assert journal.meta["reason"] == "carol lost these deals to the pair"
    assert audit_of(AuditAction.PROPOSE_REFUND) == [
        (f"case:{case.pk}", "carol lost these deals to the pair", desk["rita"].pk)
    ]
    assert audit_of(AuditAction.CONFIRM_REFUND) == [(f"case:{case.pk}", "checked the deals", desk["ravi"].pk)]
    assert reconcile() == []


def test_a_second_confirmation_posts_nothing_more_and_the_ledgers_key_answers_a_retry(desk):
    funded(desk)
    case = a_case(desk)
    moves = [[desk["alice"].pk, desk["carol"].pk, 5000]]
    request = risk.propose_refund(case.pk, moves, "carol's losses", desk["rita"])
    risk.confirm_refund(request.pk, "agreed", desk["ravi"])
    admin = make_user("boss", staff=True, role="admin")
    with pytest.raises(GameError, match="already confirmed"):
        risk.confirm_refund(request.pk, "agreed too", admin)
    # Two confirmations racing past the request's lock would reach the ledger with one key:
    again = corrections.refund_victims(
        request.key,
        [(desk["alice"].pk, desk["carol"].pk, 5000)],
        reason="carol's losses",
        ref=f"case:{case.pk}",
        by_user=desk["ravi"],
    )
    assert again.replayed
    assert Journal.objects.filter(kind=JournalKind.FAIRPLAY_REFUND).count() == 1
    assert balance_of(user_spec(desk["carol"].pk)) == 5000
    assert len(audit_of(AuditAction.CONFIRM_REFUND)) == 1
    assert reconcile() == []


@pytest.mark.parametrize(
    ("amount", "said"),
    [
        (0, "whole number of paise above zero"),
        (-100, "whole number of paise above zero"),
        (12.5, "whole number of paise above zero"),
        ("500", "whole number of paise above zero"),
        (True, "whole number of paise above zero"),
        (10001, "alice holds ₹100.00: they cannot pay ₹100.01."),
    ],
)
def test_a_refund_amount_must_be_positive_whole_paise_within_the_colluders_balance(desk, amount, said):
    funded(desk)
    case = a_case(desk)
    with pytest.raises(GameError) as refused:
        risk.propose_refund(case.pk, [[desk["alice"].pk, desk["carol"].pk, amount]], "refund", desk["rita"])
    assert said in refused.value.message
    assert not RefundRequest.objects.exists()
    assert not AuditLog.objects.exists()


def test_the_colluders_lines_together_may_not_pass_their_balance(desk):
    funded(desk)
    case = a_case(desk)
    dave = make_user("dave")
    moves = [[desk["alice"].pk, desk["carol"].pk, 6000], [desk["alice"].pk, dave.pk, 4001]]
    with pytest.raises(GameError, match=r"cannot pay ₹100\.01"):
        risk.propose_refund(case.pk, moves, "refund", desk["rita"])


@pytest.mark.parametrize(
    ("moves", "said"),
    [
        (lambda d: [[d["carol"].pk, d["alice"].pk, 100]], "Only the case's own players pay"),
        (
            lambda d: [[d["alice"].pk, d["bob"].pk, 100], [d["bob"].pk, d["carol"].pk, 100]],
            "cannot also be refunded",
        ),
        (lambda d: [[d["alice"].pk, d["ravi"].pk, 100]], "Each victim must be a player"),
        (lambda d: [[d["alice"].pk, d["carol"].pk, 100], [d["alice"].pk, d["carol"].pk, 50]], "one line"),
        (lambda d: [], "at least one amount"),
    ],
)
def test_a_refund_is_paid_by_the_cases_players_to_other_players(desk, moves, said):
    funded(desk)
    case = a_case(desk)
    with pytest.raises(GameError, match=said):
        risk.propose_refund(case.pk, moves(desk), "refund", desk["rita"])
    assert not RefundRequest.objects.exists()


def test_a_colluder_who_spent_their_balance_before_the_confirmation_is_refused_and_nothing_moves(desk):
    funded(desk)
    case = a_case(desk)
    alice, carol = desk["alice"], desk["carol"]
    request = risk.propose_refund(case.pk, [[alice.pk, carol.pk, 9000]], "carol's losses", desk["rita"])
    from wallet import cashier

    cashier.request_withdrawal(alice, 10000)
    with pytest.raises(WalletError) as refused:
        risk.confirm_refund(request.pk, "agreed", desk["ravi"])
    assert refused.value.code == Code.INSUFFICIENT_FUNDS
    request.refresh_from_db()
    assert request.confirmed_at is None, "still waiting: the confirmation rolled back whole"
    assert balance_of(user_spec(carol.pk)) == 0
    assert not AuditLog.objects.filter(action=AuditAction.CONFIRM_REFUND).exists()


def test_the_refund_is_proposed_and_confirmed_through_the_case_page(client, desk):
    funded(desk)
    case = a_case(desk)
    client.force_login(desk["rita"])
    url = reverse("backoffice:propose_refund", args=[case.pk])
    form = {"from_0": desk["alice"].pk, "to_0": "Carol", "amount_0": "72.50", "reason": "carol's losses"}
    page = client.post(url, form, follow=True).content.decode()
    assert "Proposed a refund of ₹72.50" in page
    assert "Waits for another staff member to confirm or decline." in page
    bad = client.post(url, {**form, "amount_0": "72.5"}, follow=True).content.decode()
    assert "Line 1: Enter an amount in rupees" in bad
    request = RefundRequest.objects.get()
    assert request.moves == [[desk["alice"].pk, desk["carol"].pk, 7250]]
    client.force_login(desk["ravi"])
    page = client.post(
        reverse("backoffice:confirm_refund", args=[request.pk]), {"reason": "checked"}, follow=True
    ).content.decode()
    assert f"Refunded ₹72.50: journal fairplay_refund:{request.pk}." in page
    assert balance_of(user_spec(desk["carol"].pk)) == 7250


def test_the_list_costs_the_same_queries_whatever_the_number_of_cases(client, desk):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(desk["rita"])
    a_case(desk)

    def queries() -> int:
        with CaptureQueriesContext(connection) as taken:
            assert client.get(reverse("backoffice:cases")).status_code == 200
        return len(taken)

    few = queries()
    for n in range(20):
        open_case("bot_timing", [desk["carol"], desk["bob"]], {}, score=n / 3, key=f"timing:{n}")
    assert queries() == few
