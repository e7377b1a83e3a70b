"""What one user may see of a table: a snapshot, and the events since a version.

A player sees their own hand and grouping, every player's card count, the open pile, scores,
timers and seats; never another player's cards or the closed pile's order. An event the user
may not see keeps its version with no content (``{"v": N}``), as lichess does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.engine import table as engine
from games.engine.cards import Jokers, shoe
from games.engine.deal import fit_grouping
from games.engine.shuffle import seed_from_hex, shuffled
from games.engine.solver import solve
from games.engine.variants import CHIPS_PER_DEAL, variant_named
from games.errors import GameError
from games.models import Deal, Seat, Table, TableEvent, Visibility
from games.results import explain_result, explain_split, grouping_verdict
from hotpath.statements import Prepared

#: Every sitting at a table, oldest first: read for each snapshot a write publishes.
SEATS = Prepared(
    lambda table_id: (
        Seat.objects.filter(table_id=table_id)
        .order_by("id")
        .values_list("user_id", "user__username", "connections", "user__is_bot", "left_at")
    ),
    arity=1,
)


def seats_at(table_id: int) -> dict[int, tuple[str, bool]]:
    """Each player's name and whether they are connected (a bot always is), by user id.
    Every sitting, oldest first, so a player's open seat (the newest) has the last word."""
    return seats_of(SEATS.rows(table_id))


def seats_of(rows: Iterable[Sequence[Any]]) -> dict[int, tuple[str, bool]]:
    """:func:`seats_at` from the rows of :data:`SEATS`."""
    return {
        uid: (username, left_at is None and (connections > 0 or bool(is_bot)))
        for uid, username, connections, is_bot, left_at in rows
    }


def view_of(
    state: engine.TableState,
    name: str | None,
    *,
    table_id: int,
    version: int,
    status: str,
    template_name: str,
    currency: str,
    seats: Mapping[int, tuple[str, bool]],
) -> dict[str, Any]:
    """The snapshot's table as player ``name`` (None: a spectator) sees it: the one builder of
    a snapshot, for a connection catching up (:func:`table_view`) and for the snapshots a write
    publishes (``games.live``)."""
    if name is not None and not state.has(name):
        name = None
    view = engine.player_view(state, name)
    for player in view["players"]:
        player["name"], player["connected"] = seats.get(int(player["player"]), (player["player"], False))
    view.update(table=table_id, version=version, status=status, template=template_name, currency=currency)
    _explain(view, state, name, currency)
    return view


def table_view(table: Table, user: Any) -> dict[str, Any]:
    """The snapshot for ``user`` (None or a non-player: a spectator)."""
    return view_of(
        engine.TableState.from_json(table.state),
        None if user is None else str(user.pk),
        table_id=table.pk,
        version=table.version,
        status=table.status,
        template_name=table.template.name,
        currency=table.template.currency,
        seats=seats_at(table.pk),
    )


def _explain(view: dict[str, Any], state: engine.TableState, name: str | None, currency: str) -> None:
    """Add the words and checks the page shows: the hand's group labels and points, each
    score's reason, the 21-card money lines, the split's working, the shuffle check's inputs."""
    deal = state.deal
    if deal is None:
        return
    shown = view.get("deal")
    if shown is not None and shown.get("hand") is not None and name is not None:
        seat = deal.seats[deal.seat_of(name)]
        view["deal"]["labels"] = grouping_verdict(
            deal.variant,
            deal.jokers,
            seat.hand,
            fit_grouping(seat.saved, seat.hand) if seat.saved else None,
            deal.packs,
        )
    if shown is not None and shown.get("result"):
        shown["result"] = _explained(shown["result"], deal, state.rules, currency)
    if view.get("last_result"):
        chips = chips_over_deal(state, state.deal_number, {p.name: p.chips for p in state.players})
        view["last_result"] = _explained(view["last_result"], deal, state.rules, currency, chips)
        view["verify"] = {
            "commitment": deal.commitment,
            "seed": view["last_result"]["seed"],
            "packs": deal.packs,
            "hand_size": deal.variant.hand_size,
            "players": len(deal.seats),
            "seat": deal.seat_of(name) if name is not None and name in deal.players else None,
            "cut": deal.cut.code,
        }
    split = view.get("split_offer")
    if split:
        drops = state.drops_left(state.remaining)
        lines = explain_split(split["amounts"], drops, state.rules.entry_fee, view["prize"], currency)
        split["why"], split["each"], split["drops_left"] = lines[0], lines[1:], list(drops)


def _explained(
    result: dict[str, Any],
    deal: Any,
    rules: engine.Rules,
    currency: str,
    chips: Mapping[str, tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """The result with its words, at the table's own point value and rake (R-MONEY-6)."""
    return explain_result(
        result,
        deal.variant,
        deal.jokers,
        deal.packs,
        point_value=rules.point_value,
        rake_percent=rules.rake_percent,
        currency=currency,
        chips=chips,
    )


def chips_over_deal(
    state: engine.TableState, number: int, after: Mapping[str, int] | None = None
) -> dict[str, tuple[int, int]] | None:
    """Deals rummy: each player's game chips ``(before, after)`` deal ``number``, from the
    standings the engine keeps with each finished deal (R-DEALS-2, R-DEALS-3); None elsewhere.
    ``after``: the chips as they are now, for the last deal (a player who left during it is in
    no standing, yet paid what they lost)."""
    if not state.is_deals:
        return None
    standings = {int(entry["number"]): entry.get("chips") or {} for entry in state.history}
    if number not in standings:
        return None
    start = CHIPS_PER_DEAL * state.rules.deals
    before = standings.get(number - 1) or {p.name: start for p in state.players}
    after = {**standings[number], **(after or {})}
    return {name: (chips, after.get(name, chips)) for name, chips in before.items()}


def grouping_labels(table: Table, user: Any) -> dict[str, Any] | None:
    """The labels and points of ``user``'s saved grouping, for the ``save_grouping`` ack."""
    state = engine.TableState.from_json(table.state)
    deal = state.deal
    name = str(user.pk)
    if deal is None or state.phase is not engine.Phase.PLAYING or name not in deal.players:
        return None
    seat = deal.seats[deal.seat_of(name)]
    return grouping_verdict(
        deal.variant,
        deal.jokers,
        seat.hand,
        fit_grouping(seat.saved, seat.hand) if seat.saved else None,
        deal.packs,
    )


def events_for(table: Table, user: Any, after_version: int = 0) -> list[dict[str, Any]]:
    """Every event after ``after_version`` in order: ``{"v", "type", "data"}``, or ``{"v": N}``
    alone for an event meant for someone else."""
    uid = None if user is None else user.pk
    out: list[dict[str, Any]] = []
    for version, kind, data, visibility, to in (
        TableEvent.objects.filter(table=table, version__gt=after_version)
        .order_by("version")
        .values_list("version", "type", "data", "visibility", "user_id")
    ):
        if visibility == Visibility.EVERYONE or to == uid:
            out.append({"v": version, "type": kind, "data": data})
        else:
            out.append({"v": version})
    return out


def arrangement(table: Table, user: Any) -> dict[str, Any]:
    """R-SHOW-5, the auto-arrange button: the grouping of ``user``'s hand with the lowest
    losing score, ``{"groups": [[code, ...], ...], "score": N, "can_declare": bool}``.

    Read only: nothing is saved or applied. The player sends it back as ``save_grouping``,
    ``declare`` or ``show`` if they want it.
    """
    state = engine.TableState.from_json(table.state)
    deal = state.deal
    name = None if user is None else str(user.pk)
    if state.phase is not engine.Phase.PLAYING or deal is None or name not in deal.players:
        raise GameError("not_in_deal", "you have no hand to arrange")
    hand = deal.seats[deal.seat_of(name)].hand
    solution = solve(deal.variant, deal.jokers, hand, packs=deal.packs)
    return {
        "groups": [[card.code for card in group] for group in solution.groups],
        "score": solution.score,
        "can_declare": solution.can_declare,
    }


def score_card(table: Table, user: Any) -> dict[str, Any]:
    """The finished deals of ``table`` for a player who sat at it: each deal's scores (the pool
    score card; at deals tables also the game chips after it) and the last finished deal's
    result explained (the "Last deal" view).

    Only finished deals: their seeds are revealed and every hand in them is public now. The
    cut card is re-derived from the revealed seed (R-DEAL-5), as anyone can.
    """
    if user is None or not Seat.objects.filter(table=table, user_id=user.pk).exists():
        raise GameError("not_at_table", "you did not play at this table")
    template = table.template
    variant = variant_named(template.variant)
    names = dict(Seat.objects.filter(table=table).values_list("user_id", "user__username"))
    deals = list(Deal.objects.filter(table=table).exclude(result=None).order_by("number"))
    results: list[dict[str, Any]] = [deal.result or {} for deal in deals]  # finished deals only
    state = engine.TableState.from_json(table.state)
    chips = {int(entry["number"]): entry["chips"] for entry in state.history if "chips" in entry}
    rows = [
        {
            "number": deal.number,
            "winner": result.get("winner"),
            "scores": {p["player"]: p["score"] for p in result["players"]},
            "outcomes": {p["player"]: p["outcome"] for p in result["players"]},
            **({"chips": chips[deal.number]} if deal.number in chips else {}),
        }
        for deal, result in zip(deals, results, strict=True)
    ]
    last = None
    if deals:
        deal = deals[-1]
        packs = template.packs or variant.default_packs
        deck = shuffled(shoe(packs), seed_from_hex(deal.seed))
        cut = deck[len(deal.players) * variant.hand_size]
        jokers = Jokers.from_cut(cut, value_cards=variant.is_points21)
        last = explain_result(
            results[-1],
            variant,
            jokers,
            packs,
            point_value=template.point_value,
            rake_percent=template.rake_percent,
            currency=template.currency,
            chips=chips_over_deal(state, deal.number),
        )
        last.update(number=deal.number, cut=cut.code)
    return {
        "players": {str(uid): name for uid, name in names.items()},
        "deals": rows,
        "last": last,
    }
