"""The risk desk's actions on fair-play cases: each one transaction that does the thing and
writes its audit rows, with the staff member's reason.

Open a case by hand; dismiss it; warn its players (they read a warning on the site until they
say they have read it); freeze their money play, deposits and withdrawals
(``protection.freezes``) and lift the freeze; close their accounts; and refund the victims from
the colluders' balances, four eyes: one member proposes the amounts, a different member
confirms, and only then the wallet posts one correction journal (``wallet.corrections``) keyed
by the request. A refused action (``GameError``, ``WalletError``) rolls back whole and leaves no
audit row.

The audit rows about a player name them (target ``user:<id>``, as the player page finds them)
and the case (``details.case``); the rows about the case itself target ``case:<id>``: the case
page's history is both (:func:`history`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from accounts.sessions import revoke_everything
from backoffice.actions import close_request, record, staff_reason
from backoffice.models import AuditAction, AuditLog, Closed, RefundRequest
from fairplay.cases import open_case
from fairplay.models import Case, CaseWarning
from fairplay.words import STATUS_ORDER, WARNING_MESSAGE
from games.errors import GameError
from protection import freezes
from protection.refusal import ProtectionError
from wallet import corrections
from wallet.ledger import balance_of, user_spec
from wallet.money import rupees

VIEW = "fairplay.view_case"
ACT = "fairplay.act_on_case"
CONFIRM = "fairplay.confirm_refund"
#: A case the desk has finished with takes no more actions.
ENDED = ("dismissed",)


def target(case: Case | int) -> str:
    return f"case:{getattr(case, 'pk', case)}"


def history(case: Case) -> Q:
    """The audit rows of ``case``: on the case, and on its players for it."""
    return Q(target=target(case)) | Q(details__case=case.pk)


# --- opening a case -------------------------------------------------------------------------


def players_named(text: str) -> list[User]:
    """The players named in ``text`` (usernames separated by commas or spaces, any case), in
    the order given. Refused: nobody named, a name nobody has, a staff account."""
    names = [name for name in text.replace(",", " ").split() if name]
    if not names:
        raise GameError("no_players", "Name at least one player, by username.")
    query = Q(pk__in=[])
    for name in names:
        query |= Q(username__iexact=name)
    found = {user.username.lower(): user for user in User.objects.filter(query)}
    unknown = [name for name in names if name.lower() not in found]
    if unknown:
        raise GameError("unknown_player", f"No player is called {', '.join(unknown)}.")
    chosen = list({found[name.lower()].pk: found[name.lower()] for name in names}.values())
    staff = [u.username for u in chosen if u.is_staff]
    if staff:
        raise GameError("staff_not_a_subject", f"{', '.join(staff)} is staff: cases are about players.")
    return chosen


def open_by_hand(usernames: str, reason: str, by_user: Any) -> Case:
    """A case of kind "manual" about the players named, with the reason as its evidence."""
    reason = staff_reason(by_user, reason, ACT)
    with transaction.atomic():
        subjects = players_named(usernames)
        case = open_case("manual", subjects, {"reason": reason}, opened_by=by_user)
        record(by_user, AuditAction.OPEN_CASE, target(case), reason, players=[u.pk for u in subjects])
    return case


# --- actions on a case ----------------------------------------------------------------------


def _locked(case_id: int) -> Case:
    try:
        case = Case.objects.select_for_update().get(pk=case_id)
    except Case.DoesNotExist:
        raise GameError("no_case", "There is no such case.") from None
    if case.status in ENDED:
        raise GameError(
            "case_ended", f"Case {case.pk} was {case.get_status_display().lower()}: it takes no more actions."
        )
    return case


def _chosen(case: Case, user_ids: Iterable[int]) -> list[User]:
    """The case's players among ``user_ids``; refused if there are none or one is not a subject."""
    wanted = {int(pk) for pk in user_ids}
    subjects = {u.pk: u for u in case.subjects.order_by("username")}
    if not wanted:
        raise GameError("no_players", "Choose at least one of the case's players.")
    strangers = wanted - set(subjects)
    if strangers:
        raise GameError("not_a_subject", "Only the case's own players can be acted on from it.")
    return [u for pk, u in subjects.items() if pk in wanted]


def _record_on(user: User, action: AuditAction, case: Case, reason: str, by_user: Any) -> None:
    """The audit row of an action on one of a case's players: it targets the player (so it shows
    on their page too) and names the case."""
    record(by_user, action, f"user:{user.pk}", reason, case=case.pk, username=user.username)


def _raise_to(case: Case, status: str) -> None:
    """Move the case up to ``status`` (never down: a warning after a freeze leaves it frozen)."""
    if STATUS_ORDER.index(status) > STATUS_ORDER.index(case.status):
        case.status = status
    case.save(update_fields=["status", "updated_at"])


def dismiss(case_id: int, reason: str, by_user: Any) -> Case:
    """Nothing wrong was found: the case ends, and the freezes it set are lifted."""
    reason = staff_reason(by_user, reason, ACT)
    with transaction.atomic():
        case = _locked(case_id)
        for user in case.subjects.order_by("username"):
            held = freezes.current(user)
            if held is not None and held.case_ref == target(case):
                freezes.lift(user, reason, by=by_user)
                _record_on(user, AuditAction.LIFT_FREEZE, case, reason, by_user)
        case.status = "dismissed"
        case.save(update_fields=["status", "updated_at"])
        record(by_user, AuditAction.DISMISS_CASE, target(case), reason)
    return case


def warn(case_id: int, user_ids: Iterable[int], reason: str, by_user: Any) -> list[CaseWarning]:
    """Each player chosen reads :data:`fairplay.words.WARNING_MESSAGE` on their next page."""
    reason = staff_reason(by_user, reason, ACT)
    with transaction.atomic():
        case = _locked(case_id)
        given = []
        for user in _chosen(case, user_ids):
            given.append(
                CaseWarning.objects.create(user=user, case=case, message=WARNING_MESSAGE, given_by=by_user)
            )
            _record_on(user, AuditAction.WARN_PLAYER, case, reason, by_user)
        _raise_to(case, "warned")
    return given


def freeze(case_id: int, user_ids: Iterable[int], reason: str, by_user: Any) -> Case:
    """Hold the chosen players' money play, deposits and withdrawals while the case is reviewed."""
    reason = staff_reason(by_user, reason, ACT)
    with transaction.atomic():
        case = _locked(case_id)
        for user in _chosen(case, user_ids):
            try:
                freezes.freeze(user, reason, by=by_user, case_ref=target(case))
            except ProtectionError as error:
                raise GameError(error.code, f"{user.username}: {error.message}") from None
            _record_on(user, AuditAction.FREEZE_MONEY, case, reason, by_user)
        _raise_to(case, "frozen")
    return case


def lift_freeze(case_id: int, user_ids: Iterable[int], reason: str, by_user: Any) -> Case:
    """Give the chosen players their money play and withdrawals back; the case is open again
    once none of its players is frozen."""
    reason = staff_reason(by_user, reason, ACT)
    with transaction.atomic():
        case = _locked(case_id)
        for user in _chosen(case, user_ids):
            try:
                freezes.lift(user, reason, by=by_user)
            except ProtectionError as error:
                raise GameError(error.code, f"{user.username}: {error.message}") from None
            _record_on(user, AuditAction.LIFT_FREEZE, case, reason, by_user)
        if case.status == "frozen" and not any(freezes.is_frozen(u) for u in case.subjects.all()):
            case.status = "open"
        case.save(update_fields=["status", "updated_at"])
    return case


def close_accounts(case_id: int, user_ids: Iterable[int], reason: str, by_user: Any) -> Case:
    """Close the chosen players' accounts: no more sign-in, every session and token ended. Their
    balance stays in the ledger (refund the victims first; the rest is settled with support)."""
    reason = staff_reason(by_user, reason, ACT)
    with transaction.atomic():
        case = _locked(case_id)
        for user in _chosen(case, user_ids):
            user = User.objects.select_for_update().get(pk=user.pk)
            if not user.is_active:
                raise GameError("already_closed", f"{user.username}'s account is already closed.")
            user.is_active = False
            user.save(update_fields=["is_active"])
            revoke_everything(user)
            _record_on(user, AuditAction.CLOSE_ACCOUNT, case, reason, by_user)
        _raise_to(case, "closed")
    return case


# --- the victims' refund, four eyes ---------------------------------------------------------

Move = tuple[int, int, int]


def checked_moves(case: Case, moves: Sequence[Sequence[Any]]) -> list[Move]:
    """``moves`` (colluder id, victim id, paise) as the refund posts them, or why not: each
    amount a positive whole number of paise, each colluder one of the case's players, each
    victim a player who is not among the colluders, one line per pair, and no colluder paying
    more than their wallet holds now."""
    if not moves:
        raise GameError("no_refund", "Give at least one amount: from a colluder, to a victim.")
    subjects = set(case.subjects.values_list("pk", flat=True))
    out: list[Move] = []
    for line in moves:
        if len(line) != 3:
            raise GameError("bad_refund", "Each line is a colluder, a victim and an amount.")
        payer, payee, amount = line
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise GameError("bad_amount", "Each amount must be a whole number of paise above zero.")
        if payer not in subjects:
            raise GameError("not_a_subject", "Only the case's own players pay a refund.")
        out.append((int(payer), int(payee), amount))
    payers = {payer for payer, _, _ in out}
    payees = {payee for _, payee, _ in out}
    if payers & payees:
        raise GameError(
            "victim_is_colluder", "A player who pays in this refund cannot also be refunded by it."
        )
    if len({(a, b) for a, b, _ in out}) != len(out):
        raise GameError("repeated_pair", "Give each colluder and victim one line.")
    victims = User.objects.filter(pk__in=payees)
    if victims.count() != len(payees) or victims.filter(is_staff=True).exists():
        raise GameError("unknown_player", "Each victim must be a player.")
    owed: dict[int, int] = defaultdict(int)
    for payer, _, amount in out:
        owed[payer] += amount
    for payer, total in owed.items():
        held = balance_of(user_spec(payer))
        if total > held:
            name = User.objects.get(pk=payer).username
            raise GameError(
                "more_than_balance",
                f"{name} holds {rupees(held)}: they cannot pay {rupees(total)}.",
            )
    return out


def propose_refund(case_id: int, moves: Sequence[Sequence[Any]], reason: str, by_user: Any) -> RefundRequest:
    """The first pair of eyes: a refund proposed, nothing moved until a second member confirms."""
    reason = staff_reason(by_user, reason, ACT)
    with transaction.atomic():
        case = _locked(case_id)
        lines = checked_moves(case, moves)
        request = RefundRequest.ask(by_user, reason, case=case, moves=[list(m) for m in lines])
        record(
            by_user,
            AuditAction.PROPOSE_REFUND,
            target(case),
            reason,
            request=request.pk,
            amount=request.total,
            moves=request.moves,
            players=sorted({p for m in lines for p in m[:2]}),
        )
        case.save(update_fields=["updated_at"])
    return request


def confirm_refund(request_id: int, reason: str, by_user: Any) -> RefundRequest:
    """The second pair of eyes: a different member confirms, and the wallet posts the refund
    as one journal keyed by the request (the colluders' balances checked again under the
    ledger's locks); one audit row naming both members."""
    reason = staff_reason(by_user, reason, CONFIRM)
    with transaction.atomic():
        try:
            request = RefundRequest.take(request_id, by_user)
        except RefundRequest.DoesNotExist:
            raise GameError("no_request", "There is no such refund.") from None
        case = _locked(request.case_id)
        moves = [(int(a), int(b), int(c)) for a, b, c in request.moves]
        journal = corrections.refund_victims(
            request.key, moves, reason=request.reason, ref=target(case), by_user=by_user
        )
        request.journal = journal
        request.save(update_fields=["journal"])
        record(
            by_user,
            AuditAction.CONFIRM_REFUND,
            target(case),
            reason,
            request=request.pk,
            journal=journal.key,
            amount=request.total,
            requested_by=request.requested_by_id,
            requested_reason=request.reason,
            players=sorted({p for m in moves for p in m[:2]}),
        )
        case.save(update_fields=["updated_at"])
    return request


def withdraw_refund(request_id: int, reason: str, by_user: Any) -> RefundRequest:
    """The member who proposed a refund takes it back: nothing moves; one audit row on the case."""
    return _close_refund(request_id, Closed.WITHDRAWN, reason, by_user)


def decline_refund(request_id: int, reason: str, by_user: Any) -> RefundRequest:
    """A second member says no to a proposed refund: nothing moves; one audit row on the case."""
    return _close_refund(request_id, Closed.DECLINED, reason, by_user)


def _close_refund(request_id: int, how: Closed, reason: str, by_user: Any) -> RefundRequest:
    with transaction.atomic():
        request = close_request(RefundRequest, request_id, how, reason, by_user)
        Case.objects.filter(pk=request.case_id).update(updated_at=request.closed_at)
    return request


def case_history(case: Case) -> list[AuditLog]:
    return list(AuditLog.objects.filter(history(case)).select_related("actor").order_by("at", "id"))
