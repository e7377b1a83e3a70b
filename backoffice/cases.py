"""The risk desk's pages: the fair-play cases, one case with its evidence and actions, a case
opened by hand, and the replay of a finished deal a case rests on.

Only the risk role (and admin) sees them (``fairplay.view_case``). Every write goes through
``backoffice.risk``; these views only read the form and say what happened. A deal's replay is
reachable from a case only when the case names it and the deal is over: no card of a deal in
play is ever shown here (the replay also hides any private event no ``deal_over`` follows, as
the admin's does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db import models
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.models import User
from backoffice import risk
from backoffice.access import staff_page
from backoffice.audit import described
from backoffice.deals import deal_events, hidden_data, secret_until_over, shuffle_verdict
from backoffice.models import RefundRequest
from fairplay import evidence
from fairplay.models import Case, Link
from fairplay.words import CASE_KINDS, CASE_STATUSES, LINK_REASONS, LINK_STRENGTHS
from games.errors import GameError
from games.models import Deal, DealHand, Seat
from games.words import plain, word
from protection import freezes
from wallet.amounts import AmountError, paise_from_rupees
from wallet.errors import WalletError
from wallet.ledger import balance_of, user_spec
from wallet.money import money, rupees

#: The list's order: cases still to work first, then those acted on, then the ended ones.
ORDER = {"open": 0, "warned": 1, "frozen": 2, "closed": 3, "dismissed": 4}
#: Details of an audit row the case page says already (the case, the player its row is on).
SAID = {"Case", "Username", "Request"}
#: Lines of the refund form.
REFUND_LINES = 3


def listed(status: str, kind: str) -> QuerySet[Case]:
    rows = Case.objects.prefetch_related("subjects").annotate(
        rank=models.Case(
            *[models.When(status=s, then=models.Value(n)) for s, n in ORDER.items()],
            output_field=models.IntegerField(),
        )
    )
    if status in CASE_STATUSES:
        rows = rows.filter(status=status)
    if kind in CASE_KINDS:
        rows = rows.filter(kind=kind)
    return rows.order_by("rank", "-updated_at", "-id")


@staff_page(risk.VIEW)
def cases(request: HttpRequest) -> HttpResponse:
    status, kind = request.GET.get("status", ""), request.GET.get("kind", "")
    rows = [
        {
            "case": case,
            "kind": CASE_KINDS.get(case.kind, case.kind),
            "status": CASE_STATUSES.get(case.status, case.status),
            "subjects": [u.username for u in sorted(case.subjects.all(), key=lambda u: u.username)],
            "score": evidence.times_usual(case.score),
        }
        for case in listed(status, kind)[:200]
    ]
    return render(
        request,
        "backoffice/cases.html",
        {
            "rows": rows,
            "status": status,
            "kind": kind,
            "statuses": CASE_STATUSES.items(),
            "kinds": CASE_KINDS.items(),
        },
    )


def _deals(case: Case) -> list[dict[str, Any]]:
    """The deals the case rests on: a replay link for each finished one, the rest named only."""
    wanted = evidence.deal_ids(case.evidence)
    found = {d.pk: d for d in Deal.objects.filter(pk__in=wanted).select_related("table__template")}
    rows = []
    for pk in wanted:
        deal = found.get(pk)
        rows.append(
            {
                "id": pk,
                "deal": deal,
                "over": bool(deal and deal.finished_at),
                "url": reverse("backoffice:case_deal", args=[case.pk, pk])
                if deal and deal.finished_at
                else "",
            }
        )
    return rows


def linked_accounts(case: Case, others: list[Case], subjects: set[int]) -> list[evidence.Link]:
    """The accounts linked to the case's players as fair play recorded them (strong and weak,
    each with its reasons), and those the case and the other linked-accounts cases about its
    players name: each pair once, with every reason given for it."""
    reasons: dict[tuple[int, int], list[str]] = {}
    recorded = Link.objects.filter(models.Q(low__in=subjects) | models.Q(high__in=subjects))
    for low, high, strength, why in recorded.values_list("low", "high", "strength", "reasons")[:50]:
        reasons[(low, high)] = [LINK_STRENGTHS.get(strength, strength)] + [
            LINK_REASONS.get(str(r), plain(r)) for r in why
        ]
    for found in [case, *(c for c in others if c.kind == "linked_accounts")]:
        for link in evidence.links(found.evidence):
            pair = (min(link.users), max(link.users))
            known = reasons.setdefault(pair, [])
            known += [r for r in link.reasons if r not in known]
    return [evidence.Link(pair, tuple(why)) for pair, why in reasons.items()]


def _players(subjects: set[int], names: dict[int, User]) -> list[dict[str, Any]]:
    """The case's players, each with their rupee wallet and whether their money is on hold."""
    return [
        {"user": user, "frozen": freezes.is_frozen(user), "balance": rupees(balance_of(user_spec(user.pk)))}
        for user in sorted((names[pk] for pk in subjects if pk in names), key=lambda u: u.username)
    ]


@staff_page(risk.VIEW)
def case(request: HttpRequest, case_id: int) -> HttpResponse:
    case = get_object_or_404(Case.objects.select_related("opened_by"), pk=case_id)
    subjects = set(case.subjects.values_list("pk", flat=True))
    others = list(
        Case.objects.filter(subjects__in=subjects).exclude(pk=case.pk).distinct().order_by("-updated_at")[:20]
    )
    links = linked_accounts(case, others, subjects)
    ids = subjects | {u for link in links for u in link.users}
    refunds = list(
        RefundRequest.objects.filter(case=case).select_related(
            "requested_by", "confirmed_by", "closed_by", "journal"
        )
    )
    ids |= {pk for r in refunds for move in r.moves for pk in move[:2]}
    names = {u.pk: u for u in User.objects.filter(pk__in=ids)}
    context = {
        "case": case,
        "kind": CASE_KINDS.get(case.kind, case.kind),
        "status": CASE_STATUSES.get(case.status, case.status),
        "score": evidence.times_usual(case.score),
        "figures": evidence.figures(case.evidence),
        "counts": evidence.counts(case.evidence),
        "reason": case.evidence.get("reason", ""),
        "deals": _deals(case),
        "players": _players(subjects, names),
        "links": [
            {"users": [names.get(u, u) for u in link.users], "reasons": ", ".join(link.reasons)}
            for link in links
        ],
        "others": [
            {
                "case": c,
                "kind": CASE_KINDS.get(c.kind, c.kind),
                "status": CASE_STATUSES.get(c.status, c.status),
            }
            for c in others
        ],
        "refunds": [
            {
                "request": r,
                "total": money(r.total),
                "moves": [(names.get(a, a), names.get(b, b), money(c)) for a, b, c in r.moves],
            }
            for r in refunds
        ],
        "ended": case.status in risk.ENDED,
        "history": [
            {**row, "details": [(what, value) for what, value in row["details"] if what not in SAID]}
            for row in described(risk.case_history(case))
        ],
        "lines": range(REFUND_LINES),
    }
    return render(request, "backoffice/case.html", context)


def _act(request: HttpRequest, case_id: int, step: Callable[[], str]) -> HttpResponse:
    try:
        messages.success(request, step())
    except (GameError, WalletError) as error:
        messages.error(request, error.message)
    return redirect("backoffice:case", case_id=case_id)


def _ids(request: HttpRequest) -> list[int]:
    return [int(v) for v in request.POST.getlist("players") if v.isdigit()]


@require_POST
@staff_page(risk.ACT)
def act(request: HttpRequest, case_id: int) -> HttpResponse:
    """One of the desk's actions on the case: dismiss, warn, freeze, lift, close."""
    action, reason, by = request.POST.get("action", ""), request.POST.get("reason", ""), request.user

    def step() -> str:
        if action == "dismiss":
            risk.dismiss(case_id, reason, by)
            return "The case is dismissed; any freeze it set is lifted."
        if action == "warn":
            given = risk.warn(case_id, _ids(request), reason, by)
            return f"Warned {len(given)} player(s): they read the warning on their next page."
        if action == "freeze":
            risk.freeze(case_id, _ids(request), reason, by)
            return "Money play, deposits and withdrawals are on hold for the players chosen."
        if action == "lift":
            risk.lift_freeze(case_id, _ids(request), reason, by)
            return "The hold is lifted for the players chosen."
        if action == "close":
            risk.close_accounts(case_id, _ids(request), reason, by)
            return "The accounts chosen are closed: they can no longer sign in."
        raise GameError("bad_action", "Choose one of the actions offered.")

    return _act(request, case_id, step)


def refund_lines(request: HttpRequest) -> list[list[int]]:
    """The refund form's filled lines as (colluder id, victim id, paise); a line left empty is
    skipped, a line half filled or an amount that is not rupees is refused."""
    lines = []
    for n in range(REFUND_LINES):
        payer = request.POST.get(f"from_{n}", "").strip()
        victim = request.POST.get(f"to_{n}", "").strip()
        amount = request.POST.get(f"amount_{n}", "").strip()
        if not (victim or amount):
            continue
        if not (payer.isdigit() and victim and amount):
            raise GameError("bad_refund", f"Line {n + 1}: give a colluder, a victim and an amount.")
        found = User.objects.filter(username__iexact=victim).first()
        if found is None:
            raise GameError("unknown_player", f"Line {n + 1}: no player is called {victim}.")
        try:
            paise = paise_from_rupees(amount)
        except AmountError as error:
            raise GameError("bad_amount", f"Line {n + 1}: {error}") from None
        lines.append([int(payer), found.pk, paise])
    return lines


@require_POST
@staff_page(risk.ACT)
def propose_refund(request: HttpRequest, case_id: int) -> HttpResponse:
    def step() -> str:
        proposed = risk.propose_refund(
            case_id, refund_lines(request), request.POST.get("reason", ""), request.user
        )
        return (
            f"Proposed a refund of {money(proposed.total)}: a second staff member confirms it "
            "before anything moves."
        )

    return _act(request, case_id, step)


@require_POST
@staff_page(risk.CONFIRM)
def confirm_refund(request: HttpRequest, request_id: int) -> HttpResponse:
    proposed = get_object_or_404(RefundRequest, pk=request_id)

    def step() -> str:
        done = risk.confirm_refund(request_id, request.POST.get("reason", ""), request.user)
        return f"Refunded {money(done.total)}: journal {done.journal.key if done.journal else ''}."

    return _act(request, proposed.case_id, step)


@require_POST
@staff_page(risk.ACT)
def withdraw_refund(request: HttpRequest, request_id: int) -> HttpResponse:
    """The member who proposed a refund takes it back, with a reason."""
    proposed = get_object_or_404(RefundRequest, pk=request_id)

    def step() -> str:
        risk.withdraw_refund(request_id, request.POST.get("reason", ""), request.user)
        return f"Your refund of {money(proposed.total)} is withdrawn: nothing moved."

    return _act(request, proposed.case_id, step)


@require_POST
@staff_page(risk.CONFIRM)
def decline_refund(request: HttpRequest, request_id: int) -> HttpResponse:
    """A second member says no to another's proposed refund, with a reason."""
    proposed = get_object_or_404(RefundRequest, pk=request_id)

    def step() -> str:
        risk.decline_refund(request_id, request.POST.get("reason", ""), request.user)
        return f"The refund of {money(proposed.total)} is declined: nothing moved."

    return _act(request, proposed.case_id, step)


@staff_page(risk.ACT)
def open_case(request: HttpRequest) -> HttpResponse:
    """GET: the form; POST: open a manual case about the players named, with a reason."""
    values = {"players": "", "reason": ""}
    if request.method == "POST":
        values = {"players": request.POST.get("players", ""), "reason": request.POST.get("reason", "")}
        try:
            opened = risk.open_by_hand(values["players"], values["reason"], request.user)
        except (GameError, WalletError) as error:
            return render(
                request, "backoffice/case_open.html", {"values": values, "error": error.message}, status=400
            )
        messages.success(request, f"Case {opened.pk} is open.")
        return redirect("backoffice:case", case_id=opened.pk)
    return render(request, "backoffice/case_open.html", {"values": values})


@staff_page(risk.VIEW)
def case_deal(request: HttpRequest, case_id: int, deal_id: int) -> HttpResponse:
    """The replay of a finished deal the case rests on: every event, private ones too, each
    player's final hand and the shuffle check. A deal the case does not name, or one not over,
    is not found."""
    case = get_object_or_404(Case, pk=case_id)
    if deal_id not in evidence.deal_ids(case.evidence):
        raise Http404("This case does not rest on that deal.")
    deal = get_object_or_404(Deal.objects.select_related("table__template"), pk=deal_id)
    if deal.finished_at is None:
        raise Http404("This deal is not over: nobody sees its cards.")
    events = deal_events(deal)
    names = {
        str(pk): name
        for pk, name in Seat.objects.filter(table_id=deal.table_id).values_list("user_id", "user__username")
    }
    context = {
        "case": case,
        "deal": deal,
        "shuffle": shuffle_verdict(deal.commitment, deal.seed),
        # Staff read each event by its code in plain words (the table log's words speak to a player).
        "events": [
            {
                "version": e.version,
                "type": plain(e.type),
                "player": names.get(str((e.data or {}).get("player", "")), ""),
                "to": names.get(str(e.user_id), "") if e.user_id else "everyone",
                "data": hidden_data(e) if secret_until_over(e) else e.data,
            }
            for e in events
        ],
        "hands": [
            {
                "name": hand.user.username,
                "outcome": word("outcome", hand.outcome),
                "score": hand.score,
                "hand": hand.hand,
            }
            for hand in DealHand.objects.filter(deal=deal).select_related("user").order_by("user__username")
        ],
    }
    return render(request, "backoffice/case_deal.html", context)
