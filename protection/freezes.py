"""A freeze: money play, deposits and withdrawals on hold while the fair-play team reviews a
player's account.

The risk desk (``backoffice.risk``) is the only caller of :func:`freeze` and :func:`lift`: each
one runs inside the desk's transaction, with its audit row. The money paths learn of a freeze
where they already ask: the money-play check point reads it with the player's row
(``protection.money_play``: joins, play now, rejoins, deposits) and a withdrawal request reads
:data:`IN_FORCE` with its lock (``wallet.cashier``). The player keeps their balance in sight and
practice play open: nothing here touches the ledger.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Subquery
from django.utils import timezone

from hotpath.statements import Prepared
from protection.history import record
from protection.models import MoneyPlayFreeze
from protection.players import lock, uid
from protection.refusal import ProtectionError, Refusal
from protection.signals import money_play_stopped

#: What a frozen player reads wherever money is refused (joins, deposits, withdrawals).
FROZEN = Refusal(
    "frozen",
    "Your money play and withdrawals are on hold while our fair-play team reviews your account. "
    "Your balance is safe; write to support.",
)

#: The freeze in force on a player, if any (at most one row).
IN_FORCE = Prepared(
    lambda user_id: MoneyPlayFreeze.objects.filter(user_id=user_id, lifted_at__isnull=True).values_list("pk"),
    arity=1,
)


def in_force_of(user_ref: Any) -> Subquery:
    """The id of the freeze in force on the user ``user_ref`` names (an ``OuterRef``), else
    NULL: an expression a query of the player's row selects with the rest (a subquery with no
    parameter of its own, so the read stays one prepared statement)."""
    return Subquery(
        MoneyPlayFreeze.objects.filter(user_id=user_ref, lifted_at__isnull=True).order_by().values("pk")[:1]
    )


def is_frozen(user: Any) -> bool:
    return bool(IN_FORCE.rows(uid(user)))


def current(user: Any) -> MoneyPlayFreeze | None:
    return MoneyPlayFreeze.objects.filter(user_id=uid(user), lifted_at__isnull=True).first()


def freeze(user: Any, reason: str, *, by: Any, case_ref: str = "") -> MoneyPlayFreeze:
    """Put ``user``'s money on hold (inside the caller's transaction). Their seats at money
    tables that have not started are given up, as for a break (``money_play_stopped``).
    Refused (``already_frozen``) when a freeze is in force."""
    lock(user)
    if current(user) is not None:
        raise ProtectionError(Refusal("already_frozen", "This player's money is already on hold."))
    held = MoneyPlayFreeze.objects.create(user_id=uid(user), reason=reason, case_ref=case_ref, frozen_by=by)
    record(user, "money_frozen", by=by, reason=reason, case=case_ref)
    money_play_stopped.send(sender=MoneyPlayFreeze, user_id=uid(user), reason="a fair-play review")
    return held


def lift(user: Any, reason: str, *, by: Any) -> MoneyPlayFreeze:
    """End the freeze in force on ``user`` (inside the caller's transaction); ``not_frozen``
    when there is none."""
    lock(user)
    held = current(user)
    if held is None:
        raise ProtectionError(Refusal("not_frozen", "This player's money is not on hold."))
    held.lifted_at, held.lifted_by, held.lift_reason = timezone.now(), by, reason
    held.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
    record(user, "money_unfrozen", by=by, reason=reason, case=held.case_ref)
    return held
