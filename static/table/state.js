// The page's state: one plain object (as chessground keeps its own), and what follows from it.
// Pure functions, no DOM: the drawing modules read the state, input changes it through these.

import { jokersFromCut } from "./cards.js";
import * as model from "./hand.js";

/** A fresh state for the page; ``config`` comes from the page's data attributes. */
export function newState({ table, me, currency, variant, entryFee = 0, seatHold = 0, words = {} }) {
  return {
    tableId: table,
    me,
    currency,
    variant,
    entryFee,
    seatHold, // points tables: what a seat holds (the most a deal can lose x point value)
    words,
    names: {}, // player id -> display name, from snapshots (and the score card)
    table: null,
    clockOffset: 0,
    groups: [],
    selected: [], // [{g, i}]
    focusAt: null,
    labels: new Map(), // group key -> label from the server
    points: null,
    pointsKey: "",
    dealKey: null,
    lastMove: null, // the last move of another player in this deal (an event), for the notice line
    turnClock: null,
    lastTurnKey: "",
    justDragged: false,
    autoSeen: new Set(), // players seen on auto drop during this deal
    endedWhy: "",
    voided: false,
    tieBreakKey: "", // the tie-breaker last told (deals rummy), so it is told once
  };
}

export const deal = (st) => (st.table && st.table.deal) || null;

/** The deal, when the player holds a hand in it. */
/** A ``presence`` frame: a seated player came online or went offline between snapshots.
 * True when a seat changed (the page redraws). */
export function applyPresence(st, frame) {
  const seat = st.table && st.table.players.find((p) => p.player === frame.player);
  if (!seat || seat.connected === frame.connected) return false;
  seat.connected = frame.connected;
  return true;
}

export function myDeal(st) {
  const d = deal(st);
  return d && d.hand ? d : null;
}

export function jokers(st) {
  const d = deal(st);
  return d ? jokersFromCut(d.cut, st.variant === "points21") : null;
}

export function nameOf(st, player) {
  return player === st.me ? "You" : st.names[player] || `Player ${player}`;
}

/** The player's own line of the table (seat, score, status), or null when not seated. */
export function meAt(st) {
  return (st.table && st.table.players.find((p) => p.player === st.me)) || null;
}

export function myTurn(st) {
  const d = myDeal(st);
  return Boolean(d && d.turn === st.me && d.phase === "play");
}

/** Whether the player is asked to act now: their turn, or their cards wanted at the show. */
export function yourMove(st) {
  const d = myDeal(st);
  return myTurn(st) || Boolean(d && d.phase === "show" && d.waiting_for.includes(st.me));
}

/** The player after the dealer plays first (R-DEAL-4). */
export function firstPlayer(d) {
  const order = d.players.map((p) => p.player);
  return order[(order.indexOf(d.dealer) + 1) % order.length];
}

export const keyOf = (group) => group.join(" ");

export function groupLabel(st, group) {
  return st.labels.get(keyOf(group)) || null;
}

/** A 21-card marriage: the value joker with its upper and lower jokers in one group (R-21-2). */
export function isMarriage(group, j) {
  return Boolean(j && j.value && group.includes(j.value) && group.includes(j.upper) && group.includes(j.lower));
}

export function selectedCards(st) {
  return st.selected.map(({ g, i }) => st.groups[g] && st.groups[g][i]).filter(Boolean);
}

/** Select the card at ``at`` ({g, i}), or release it when it was selected. */
export function toggle(st, at) {
  const k = st.selected.findIndex((p) => p.g === at.g && p.i === at.i);
  if (k >= 0) st.selected.splice(k, 1);
  else st.selected.push(at);
  st.focusAt = at;
}

/** A new arrangement of the hand; the selection keeps only places that still hold a card. */
export function setGroups(st, groups) {
  st.groups = groups;
  st.selected = st.selected.filter(({ g, i }) => groups[g] && groups[g][i]);
}

/** The engine's labels of the groups it was sent (a ``save_grouping`` ack). */
export function takeLabels(st, verdict, groups) {
  if (!verdict || !groups) return false;
  groups.forEach((group, k) => {
    if (verdict.groups[k]) st.labels.set(keyOf(group), verdict.groups[k]);
  });
  st.points = verdict.points;
  st.pointsKey = JSON.stringify(groups);
  return true;
}

/** Whether the points shown are the engine's for the groups on screen. */
export function pointsCurrent(st) {
  return st.pointsKey === JSON.stringify(st.groups);
}

/**
 * Bring the state in line with a new snapshot of the table (``st.table``): names, a new deal
 * (the felt, the selection and the labels of the last one cleared), the hand fitted to the
 * cards held. Returns what the page must do besides drawing: ``renamed`` (the log's names),
 * ``newDeal`` (clear the last deal's messages), ``save`` (send the grouping to be labelled),
 * ``tieBreak`` (a tie-breaker not told yet: deals rummy, R-DEALS-4).
 */
export function settle(st) {
  const table = st.table;
  const out = { renamed: false, newDeal: false, save: false, tieBreak: false };
  if (!table) return out;
  const tied = table.tie_break || [];
  // A tie-breaker is named by the deal after which the tie was found: the pause before its deal
  // and the deal itself are one tie-breaker, told once; another tie after it is told again.
  const after = table.phase === "playing" ? table.deal_number - 1 : table.deal_number;
  const tieKey = tied.length && table.waiting_for !== "" ? `${after}:${tied.join(",")}` : "";
  if (tieKey && tieKey !== st.tieBreakKey) out.tieBreak = true;
  st.tieBreakKey = tieKey || st.tieBreakKey;
  out.renamed = table.players.some((p) => st.names[p.player] !== p.name);
  for (const p of table.players) st.names[p.player] = p.name;
  const d = deal(st);
  const key = d ? d.commitment : null;
  if (key !== st.dealKey) {
    st.dealKey = key;
    st.groups = [];
    st.selected = [];
    st.labels.clear();
    st.points = null;
    st.autoSeen.clear();
    out.newDeal = true;
  }
  for (const p of table.players) if (p.auto_drop) st.autoSeen.add(p.player);
  const mine = myDeal(st);
  if (mine) {
    let base = st.groups.length ? st.groups : mine.saved_grouping || [];
    if (!base.length) {
      // A fresh hand comes sorted by suit, as players expect, and is saved for its labels.
      base = model.sortBySuit(mine.hand, jokers(st));
      out.save = true;
    }
    const before = JSON.stringify(st.groups);
    st.groups = model.reconcile(base, mine.hand);
    if (before !== "[]" && before !== JSON.stringify(st.groups)) out.save = true;
    if (mine.labels && !st.labels.size) {
      (mine.saved_grouping || []).forEach((group, k) => {
        if (mine.labels.groups[k]) st.labels.set(keyOf(group), mine.labels.groups[k]);
      });
      st.points = mine.labels.points;
      st.pointsKey = JSON.stringify(mine.saved_grouping || []);
    }
  }
  return out;
}
