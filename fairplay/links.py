"""Linked accounts: two accounts that share a device, a payment instrument, an identity document
(strong) or only a client address (weak), kept up to date as signals arrive.

A strong link keeps the two apart at money tables (:func:`keep_apart`, the fair-play answer to
``games.seating``), closes money play to both when either has excluded itself
(:data:`SELF_EXCLUSION_CHECK`, registered with ``protection.money_play``), and opens (or brings
up to date) a "linked accounts" case on the risk desk. A weak link is recorded for the
detectors, which weigh it when two players are often seated together; it never keeps anyone
apart by itself: behind a carrier's NAT thousands of players share one address.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from django.db import transaction
from django.db.models import Q

from fairplay.cases import open_case
from fairplay.models import Link, LinkStrength
from fairplay.words import LINKED_SELF_EXCLUDED
from hotpath.statements import Prepared, Result, Statement, instances
from protection import exclusions, money_play
from protection.models import Exclusion, ExclusionKind
from protection.refusal import Refusal

#: The reasons that make a link strong; any other (the address) makes it weak.
STRONG_REASONS = ("device", "instrument", "document")
STRONG = LinkStrength.STRONG.value


def case_key(low: int, high: int) -> str:
    return f"link:{low}-{high}"


@transaction.atomic
def note(user_id: int, others: Mapping[str, Iterable[int]], at: datetime) -> list[Link]:
    """Record that ``user_id`` shares each reason with the accounts given for it; returns the
    links touched. A link that is strong opens or updates its case when a reason is new to it."""
    by_other: dict[int, set[str]] = {}
    for reason, ids in others.items():
        for other in ids:
            if other != user_id:
                by_other.setdefault(int(other), set()).add(reason)
    touched = []
    for other, reasons in sorted(by_other.items()):
        touched.append(_note_pair(user_id, other, reasons, at))
    return touched


def _note_pair(user_id: int, other: int, reasons: set[str], at: datetime) -> Link:
    low, high = sorted((user_id, other))
    Link.objects.get_or_create(low_id=low, high_id=high, defaults={"first_seen": at, "last_seen": at})
    link = Link.objects.select_for_update().get(low_id=low, high_id=high)
    when = at.isoformat()
    found = dict(link.reasons)
    new = [reason for reason in sorted(reasons) if reason not in found]
    for reason in reasons:
        entry = dict(found.get(reason) or {"first_seen": when, "seen": 0})
        entry["last_seen"] = max(when, str(entry.get("last_seen", when)))
        entry["seen"] = int(entry.get("seen", 0)) + 1
        found[reason] = entry
    link.reasons = found
    link.strength = STRONG if any(r in STRONG_REASONS for r in found) else LinkStrength.WEAK.value
    link.last_seen = max(link.last_seen, at)
    link.save(update_fields=["reasons", "strength", "last_seen"])
    if link.strength == STRONG and new:
        open_case(
            "linked_accounts",
            [low, high],
            {"link": link.pk, "strength": link.strength, "reasons": found},
            score=float(sum(1 for r in found if r in STRONG_REASONS)),
            key=case_key(low, high),
        )
    return link


def keep_apart(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The fair-play answer to ``games.seating``: the strongly linked pairs among ``user_ids``."""
    ids = sorted({int(i) for i in user_ids})
    if len(ids) < 2:
        return set()
    pairs = Link.objects.filter(strength=STRONG, low_id__in=ids, high_id__in=ids).values_list(
        "low_id", "high_id"
    )
    return {frozenset(pair) for pair in pairs}


def strongly_linked(user_id: int) -> list[int]:
    """Every account strongly linked to ``user_id``."""
    rows = Link.objects.filter(Q(low_id=user_id) | Q(high_id=user_id), strength=STRONG).values_list(
        "low_id", "high_id"
    )
    return sorted({low if high == user_id else high for low, high in rows})


# --- a self-excluded person's other accounts ------------------------------------------------

#: Every break and self-exclusion taken by the accounts strongly linked to a player, on each side
#: of the pair (two plain reads: one with an OR of both sides plans badly as a prepared statement,
#: at ten times the cost).
LINKED_ABOVE = Prepared(
    lambda user_id, strength: Exclusion.objects.filter(
        user_id__in=Link.objects.filter(low_id=user_id, strength=strength).values("high_id")
    ).order_by(),
    arity=2,
)
LINKED_BELOW = Prepared(
    lambda user_id, strength: Exclusion.objects.filter(
        user_id__in=Link.objects.filter(high_id=user_id, strength=strength).values("low_id")
    ).order_by(),
    arity=2,
)


def _linked_reads(user_id: int) -> list[Statement]:
    return [LINKED_ABOVE.statement(user_id, STRONG), LINKED_BELOW.statement(user_id, STRONG)]


def _linked_refusal(results: Sequence[Result], now: datetime) -> Refusal | None:
    """Money play refused while an account strongly linked to the player has a self-exclusion
    in force (a break of the other account is theirs alone)."""
    rows = [row for result in results for row in result.rows]
    taken = [e for e in instances(Exclusion, rows) if e.kind == ExclusionKind.SELF_EXCLUSION]
    if exclusions.in_force(taken, now) is not None:
        return Refusal(*LINKED_SELF_EXCLUDED)
    return None


SELF_EXCLUSION_CHECK = money_play.Check(reads=_linked_reads, refusal=_linked_refusal, size=2)
