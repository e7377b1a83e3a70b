"""Corrections between players' wallets: the risk desk's refund of the players a collusion cost,
from the colluders' balances.

One journal of transfers, each from a colluder's rupee wallet to a victim's, posted through the
ledger's one write path with the caller's idempotency key: the same key again returns the same
journal, and a colluder's wallet is never taken below zero (each leg is checked against the
balance the legs before it left). Nothing here decides who pays whom: the back office's risk
desk does, with two staff members (``backoffice.risk``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wallet.errors import Code, WalletError
from wallet.ledger import Leg, Locks, Plan, check_amount, execute, user_spec
from wallet.models import Currency, Journal, JournalKind


def refund_victims(
    key: str, moves: Sequence[tuple[int, int, int]], *, reason: str, ref: str, by_user: Any
) -> Journal:
    """Post ``moves`` (colluder id, victim id, paise) as one fair-play refund journal keyed
    ``key``; ``ref`` names what it corrects (a case) in the journal's meta with ``reason``.

    Refused with nothing written: an empty list, an amount that is not a positive whole number
    of paise, a player paying themself, and (``insufficient_funds``) more than a colluder holds."""
    if not getattr(by_user, "is_staff", False):
        raise WalletError(Code.NOT_STAFF, "Only staff may post a correction.")
    if not moves:
        raise WalletError(Code.BAD_REQUEST, "A refund needs at least one amount.")
    legs = []
    for payer, payee, amount in moves:
        if payer == payee:
            raise WalletError(Code.BAD_REQUEST, "A player cannot refund themself.")
        legs.append(Leg(user_spec(payer).ref, user_spec(payee).ref, check_amount(amount, what="refund")))
    accounts = {spec.ref: spec for m in moves for spec in (user_spec(m[0]), user_spec(m[1]))}

    def plan(_locks: Locks) -> Plan:
        return Plan(legs)

    return execute(
        key=key,
        kind=JournalKind.FAIRPLAY_REFUND,
        currency=Currency.INR,
        accounts=accounts.values(),
        meta={"ref": ref, "reason": reason, "moves": [list(m) for m in moves]},
        plan=plan,
        legs_for_hash=legs,
        created_by_id=by_user.pk,
    )
