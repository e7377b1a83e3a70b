"""What pages, the API and live updates show of a tournament, as plain data (no writes).

Every function answers dicts and lists of plain values, money already in words
(:func:`wallet.money.money`: rupees the Indian way, chips never as ₹) next to its integer, and
every internal name through :mod:`tournaments.words`. Nothing here shows a card: a player's
table is named by its id, and the table's own page shows what it may.

- :func:`lobby`: the tournaments a player can see, soonest first, with whether they entered;
- :func:`tournament`: one tournament's page: settings, status, the prize table as it stands,
  the standings, the rounds and their tables, and the viewer's own entry and current table;
- :func:`prize_table`: each paid place's share and amount (the pool as it stands or as paid);
- :func:`standings`: every player, still in or out, ranked once the tournament is over;
- :func:`current_table`: the table a player plays at now in a tournament, or None.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count, F, Q

from tournaments import engine, words
from tournaments.models import Registration, Round, RoundTable, Tournament
from wallet.money import money

#: How many finished, cancelled or voided tournaments the lobby still lists.
RECENT = 10


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _amount(value: int, currency: str) -> dict[str, Any]:
    return {"amount": value, "words": money(value, currency)}


def summary(t: Tournament, players: int | None = None) -> dict[str, Any]:
    """The lines a tournament's row shows: name, status, buy-in, prize pool, players, start."""
    count = players if players is not None else t.registrations.filter(status="registered").count()
    pool = _pool(t, count)
    return {
        "id": t.pk,
        "name": t.name,
        "status": t.status,
        "status_words": words.status_words(t.status),
        "currency": t.currency,
        "currency_words": words.CURRENCIES.get(t.currency, t.currency),
        "free": t.buy_in == 0,
        "buy_in": _amount(t.buy_in, t.currency) if t.buy_in else {"amount": 0, "words": words.FREE},
        "guarantee": _amount(t.guarantee, t.currency),
        "prize_pool": _amount(pool.pool, t.currency),
        "players": count,
        "min_players": t.min_players,
        "max_players": t.max_players,
        "table_size": t.table_size,
        "qualify": t.qualify,
        "sit_and_go": t.sit_and_go,
        "start_words": words.start_words(t.sit_and_go),
        "start_at": _when(t.start_at),
        "registration_opens_at": _when(t.registration_opens_at),
        "started_at": _when(t.started_at),
        "ended_at": _when(t.ended_at),
        "end_reason": t.end_reason,
        "version": t.version,
    }


def _pool(t: Tournament, players: int) -> engine.PrizePool:
    """The pool as paid (finished), nothing (cancelled, voided), or as it stands with the
    players registered now."""
    if t.status == engine.Status.FINISHED:
        return engine.PrizePool(t.pool + t.rake - t.overlay, t.rake, t.overlay)
    if t.status in (engine.Status.CANCELLED, engine.Status.VOIDED):
        return engine.PrizePool(0, 0, 0)
    return engine.prize_pool(t.buy_in * players, t.rake_percent, t.guarantee)


def lobby(user: Any = None) -> list[dict[str, Any]]:
    """Tournaments announced, registering or running (soonest start first, sit-and-goes after),
    then the last :data:`RECENT` that ended; each with ``entered`` for ``user``."""
    live = (
        Tournament.objects.filter(status__in=["announced", "registering", "running"])
        .annotate(players=Count("registrations", filter=Q(registrations__status="registered")))
        .order_by(F("start_at").asc(nulls_last=True), "id")
    )
    ended = (
        Tournament.objects.filter(status__in=["finished", "cancelled", "voided"])
        .annotate(
            players=Count("registrations", filter=Q(registrations__status__in=["registered", "refunded"]))
        )
        .order_by("-ended_at", "-id")[:RECENT]
    )
    mine: set[int] = set()
    if user is not None and getattr(user, "is_authenticated", False):
        mine = set(
            Registration.objects.filter(player_id=user.pk, status="registered").values_list(
                "tournament_id", flat=True
            )
        )
    rows = []
    for t in [*live, *ended]:
        row = summary(t, int(getattr(t, "players", 0)))
        row["entered"] = t.pk in mine
        rows.append(row)
    return rows


def prize_table(t: Tournament, players: int | None = None) -> list[dict[str, Any]]:
    """Each paid place: its share (basis points and percent) and its prize from the pool as it
    stands (or as paid)."""
    count = players if players is not None else t.registrations.filter(status="registered").count()
    pool = _pool(t, count)
    amounts = engine.split_prizes(pool.pool, t.prize_bps, max(count, len(t.prize_bps)))
    return [
        {
            "place": place,
            "share_bps": share,
            "share_words": f"{share / 100:g}%",
            "prize": _amount(amounts[place - 1], t.currency),
        }
        for place, share in enumerate(t.prize_bps, start=1)
    ]


def standings(t: Tournament) -> list[dict[str, Any]]:
    """Every player: ranked ones by rank; while it runs, those still in first (registration
    order), then those out, the latest round first and by their chips."""
    entries = list(
        Registration.objects.filter(tournament=t, status__in=["registered", "refunded"]).select_related(
            "player"
        )
    )

    def order(r: Registration) -> tuple[int, int, int, int]:
        if r.rank is not None:
            return (0, r.rank, 0, 0)
        if r.knocked_out_round is None:
            return (1, 0, 0, r.pk)
        return (2, -r.knocked_out_round, -(r.chips or 0), r.pk)

    return [
        {
            "player": r.player_id,
            "name": r.player.public_name,
            "in": r.knocked_out_round is None and t.status == engine.Status.RUNNING,
            "out_in_round": None if r.won else r.knocked_out_round,
            "won": r.won,
            "chips": r.chips,
            "rank": r.rank,
            "prize": _amount(r.prize, t.currency) if r.prize else None,
        }
        for r in sorted(entries, key=order)
    ]


def current_table(t: Tournament | int, user: Any) -> int | None:
    """The table ``user`` plays at now in the tournament: their table of the round in play."""
    tournament_id = t if isinstance(t, int) else t.pk
    uid = user if isinstance(user, int) else user.pk
    for round_table in RoundTable.objects.filter(
        round__tournament_id=tournament_id, round__ended_at__isnull=True, ended_at__isnull=True
    ).only("table_id", "players"):
        if uid in round_table.players:
            return round_table.table_id
    return None


def rounds(t: Tournament) -> list[dict[str, Any]]:
    """Each round: players, final or not, ended or not, its seed (revealed at once: re-derive the
    seating with ``tournaments.engine.seat``) and its tables (table id, players, how many go
    through, who did)."""
    out = []
    for round_ in Round.objects.filter(tournament=t).prefetch_related("tables").order_by("number"):
        out.append(
            {
                "number": round_.number,
                "players": round_.players,
                "final": round_.final,
                "over": round_.ended_at is not None,
                "seed": round_.seed,
                "tables": [
                    {
                        "table": rt.table_id,
                        "players": rt.players,
                        "qualify": rt.qualify,
                        "qualified": rt.qualified,
                        "over": rt.ended_at is not None,
                    }
                    for rt in round_.tables.all()
                ],
            }
        )
    return out


def tournament(tournament_id: int, user: Any = None) -> dict[str, Any]:
    """One tournament's page as data: :func:`summary`, the prize table, the standings, the
    rounds, and for ``user`` their entry (registered, rank, prize) and current table."""
    t = Tournament.objects.get(pk=tournament_id)
    count = t.registrations.filter(status="registered").count()
    data = summary(t, count)
    data["prize_table"] = prize_table(t, count)
    data["standings"] = standings(t)
    data["rounds"] = rounds(t)
    data["me"] = None
    if user is not None and getattr(user, "is_authenticated", False):
        entry = Registration.objects.filter(tournament=t, player_id=user.pk).order_by("-id").first()
        data["me"] = {
            "registered": entry is not None and entry.status == "registered",
            "status_words": words.REGISTRATION_STATUSES.get(entry.status, entry.status) if entry else None,
            "out_in_round": entry.knocked_out_round if entry and not entry.won else None,
            "rank": entry.rank if entry else None,
            "prize": _amount(entry.prize, t.currency) if entry and entry.prize else None,
            "table": current_table(t, user),
        }
    return data
