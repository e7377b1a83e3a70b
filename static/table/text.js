// What the page says, worked out from the state: the status line, the notice line, the log's
// lines, each seat's name, score and badges, the show and game-over words. Pure functions, no
// DOM; codes become words through the server's one table (games/words.py, in ``st.words``).

import { cardsInWords, cardText } from "./cards.js";
import { formatMoney } from "./money.js";
import { deal, firstPlayer, myTurn, nameOf } from "./state.js";

/** The words for ``code`` in the table ``kind``; a code no table knows, without underscores. */
export const word = (words, kind, code) => (words[kind] && words[kind][code]) || String(code || "").replace(/_/g, " ");

/** A server message as a sentence: a capital first, a full stop last. */
export function plain(message) {
  const text = String(message);
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
}

/** Other players' moves, told on the notice line until the next one. */
export const MOVES = new Set(["drew", "discarded", "dropped", "finished", "declared", "missed_move"]);

/** Events the log leaves out: a saved grouping (saving is automatic, after every change), and a
    player's own draw from the closed pile, which their private "drew_card" tells with the card. */
export function unlogged(event, me) {
  return event.type === "grouping_saved" || (event.type === "drew" && event.data?.player === me && event.data?.source === "closed");
}

/** ``[player, value]`` pairs in the table's seating order (a JS object sorts numeric keys). */
function inSeatOrder(st, pairs) {
  const order = st.table ? st.table.players.map((p) => p.player) : [];
  const at = (player) => (order.includes(player) ? order.indexOf(player) : order.length);
  return pairs.sort((a, b) => at(a[0]) - at(b[0]));
}

/** ``+40``, ``−20`` (a true minus sign), ``0``. */
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0");

/** A deals game's unit, through the one table of words: "game chips" (never money); ``title``:
    "Game chips", to head a column or a line. */
export const gameChips = (st, title = false) => {
  const text = word(st.words, "unit", "game_chips");
  return title ? text.charAt(0).toUpperCase() + text.slice(1) : text;
};

/** Players' names joined as a sentence does: "You", "You and bob", "You, bob and carol". */
export function namesOf(st, players) {
  const names = players.map((p) => nameOf(st, p));
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names.join("");
}

/** Each player's count in seating order: "You 140, bob 180". */
const eachOf = (st, counts, show = String) =>
  inSeatOrder(st, Object.entries(counts || {}))
    .map(([player, n]) => `${nameOf(st, player)} ${show(n)}`)
    .join(", ");

/** What an event says besides its name: why a show was wrong, the scores after a deal, game
    chips moved, a tie-breaker, a points settlement, a seat topped up or stood up and why. */
const DETAILS = {
  wrong_show_reason: (st, data) => (data.reason ? cardsInWords(data.reason) : ""),
  standings: (st, data) =>
    inSeatOrder(st, Object.entries(data.totals || {}))
      .map(([player, score]) => `${nameOf(st, player)} ${score}${(data.eliminated || []).includes(player) ? " (out)" : ""}`)
      .join(", "),
  chips_moved: (st, data) => `${eachOf(st, data.moved, signed)}; now ${eachOf(st, data.chips)}`,
  tie_breaker: (st, data) => `${namesOf(st, data.players || [])}, ${data.chips} ${gameChips(st)} each`,
  settled: (st, data) => eachOf(st, data.net, (n) => `${signed(n)} points`),
  game_started: (st, data) => (data.deals ? `best of ${data.deals}, ${data.chips} ${gameChips(st)} each` : ""),
  waiting: (st, data) => data.reason || "",
};

/** A log line, as the deal page's replay (games/deal.html) words it: who, what, which card, from
    which pile; then what the event says ("Why the show was wrong: 8♦ 10♦ J♥: …"). */
export function logLine(st, event) {
  const note = noteOf(st, event);
  if (note) return note.replace(/\.$/, "");
  const data = event.data || {};
  const who = data.player ? `${nameOf(st, data.player)} ` : "";
  const card = data.card ? ` ${cardText(data.card)}` : "";
  const pile = data.source ? ` from the ${word(st.words, "pile", data.source)}` : "";
  const details = DETAILS[event.type] ? DETAILS[event.type](st, data) : "";
  return `${who}${word(st.words, "event", event.type)}${card}${pile}${details ? `: ${details}` : ""}`;
}

/** The toast of a wrong show, to the player who made it (R-DECL-3). */
export function wrongShowText(reason) {
  return plain(`Wrong show: ${cardsInWords(reason)}`);
}

/** The deal in words: "Deal 3", at a deals table "Deal 2 of 3" or "Tie-breaker deal (deal 3)". */
export function dealWords(table) {
  const n = table.deal_number;
  if ((table.tie_break || []).length && table.deals && n > table.deals) return `Tie-breaker deal (deal ${n})`;
  return table.deals ? `Deal ${n} of ${table.deals}` : `Deal ${n}`;
}

/** A tie-breaker, in words, for the status line and its toast (R-DEALS-4); "" when none. */
export function tieBreakText(st) {
  const tied = st.table.tie_break || [];
  if (!tied.length) return "";
  const chips = st.table.players.find((p) => p.player === tied[0])?.chips;
  const each = chips === null || chips === undefined ? "" : ` (${chips} each)`;
  return `Tie-breaker: ${namesOf(st, tied)} are tied for the most ${gameChips(st)}${each}; a deal among them decides.`;
}

/** A seat's event as a sentence about the seat: the engine's reason says "the seat fell
    below 80 points and ..."; the player reads "Your seat fell below 80 points and ...". */
function seatSentence(st, data, start = false) {
  const whose = data.player === st.me ? `${start ? "Y" : "y"}our seat` : `${nameOf(st, data.player)}'s seat`;
  const reason = String(data.reason || "");
  return reason.startsWith("the seat ") ? `${whose} ${reason.slice(9)}` : `${whose}: ${reason}`;
}

/** A note told over the table, and its log line, for an event about a player's seat at a
    points table: topped up from the wallet, or stood up and why (R-PTS-4, R-21-9); null for
    any other event. */
export function noteOf(st, event) {
  const data = event.data || {};
  if (event.type === "topped_up") return `${seatSentence(st, data, true)} (${formatMoney(data.amount, st.currency)}).`;
  if (event.type === "stood_up") {
    const who = data.player === st.me ? "You were" : `${nameOf(st, data.player)} was`;
    return `${who} stood up: ${seatSentence(st, data)}.`;
  }
  return null;
}

/** The question before leaving, true to the table's format (R-MONEY-5, R-PTS-5, R-DEALS-5). */
export function leaveQuestion(st) {
  const table = st.table;
  if (!table || table.phase === "waiting") return "Leave the table? Your entry fee or seat balance goes back to your wallet.";
  if (st.variant === "points13" || st.variant === "points21") {
    return table.phase === "playing"
      ? "Leave the table? This deal counts as a drop for you; your seat balance goes back to your wallet once it is settled."
      : "Leave the table? Your seat balance goes back to your wallet.";
  }
  return "Leave the table? The game has started: you forfeit your entry fee and cannot come back to this game.";
}

/** The status line under the top bar: the table's moment and whose turn it is. */
export function statusText(st) {
  const table = st.table;
  const d = deal(st);
  const me = st.me;
  const parts = [];
  const wf = table.waiting_for;
  if (table.status === "waiting" || wf === "players") parts.push("Waiting for players…");
  else if (wf === "countdown") parts.push("The game starts soon.");
  if (d) {
    parts.push(`${dealWords(table)}.`);
    if (d.phase === "play") parts.push(d.turn === me ? "Your turn." : `${nameOf(st, d.turn)}'s turn.`);
    if (d.phase === "declaring") parts.push(d.turn === me ? "Declare: group your cards." : `${nameOf(st, d.turn)} is declaring.`);
    if (d.phase === "show") parts.push(d.waiting_for.includes(me) ? "Show: group your cards and submit." : "Waiting for the show.");
  } else if (wf === "pause" && (table.tie_break || []).length) parts.push(`${tieBreakText(st)}`);
  else if (wf === "pause") parts.push("The next deal starts soon.");
  else if (wf === "decisions") parts.push("Waiting for rejoin or split decisions.");
  return parts.join(" ");
}

/** The notice line on the felt: the toss (until the first move of the game's first deal), the
    last move of another player, and what the player does next on their turn. */
export function noticeText(st, toss) {
  const table = st.table;
  const d = deal(st);
  // What happened, then what to do, then the toss's cards: with six players those run to
  // several lines, and a small screen may have to scroll them (the rest stays in view).
  const parts = [];
  let cards = "";
  if (d && table.deal_number === 1 && toss && d.phase === "play" && !st.lastMove) {
    const drawn = toss.cards.filter((c) => c.round === Math.max(...toss.cards.map((x) => x.round)));
    cards = `Toss: ${drawn.map((c) => `${nameOf(st, c.player)} ${cardText(c.card)}`).join(", ")}.`;
    const first = firstPlayer(d);
    const dealer = d.dealer === st.me ? "You deal" : `${nameOf(st, d.dealer)} deals`;
    parts.push(`${dealer}; ${first === st.me ? "you play" : `${nameOf(st, first)} plays`} first.`);
  } else if (d && d.phase === "play" && st.lastMove) parts.push(`${logLine(st, st.lastMove)}.`); // named now, not when it came
  if (myTurn(st)) {
    parts.push(d.drawn ? "Your turn: discard a card, or finish to declare." : "Your turn: draw from the closed or the open pile.");
  }
  if (cards) parts.push(cards);
  return parts.join(" ");
}

/**
 * One seat as the seat row shows it: ``{name, score, dealer, badges: [{text, cls}], bank, turn,
 * gone, label}``; ``label`` is the seat's accessible name. ``online``: the player's own
 * connection is open (their seat is never "Offline" to them while it is).
 */
export function seatView(st, p, online = false) {
  const d = deal(st);
  const dp = d ? d.players.find((x) => x.player === p.player) : null;
  const turn = Boolean(d && d.turn === p.player && (d.phase === "play" || d.phase === "declaring"));
  let score = "";
  let said = [];
  const chips = p.chips !== null && p.chips !== undefined;
  if (p.score !== null && p.score !== undefined) score = `${p.score} pts`;
  else if (p.held !== null && p.held !== undefined) score = formatMoney(p.held, st.currency);
  else if (chips) {
    score = String(p.chips); // drawn with the game chip's mark; said in words
    said = [`${p.chips} ${gameChips(st)}`];
  }
  const badges = [];
  const badge = (text, cls = "") => {
    badges.push({ text, cls });
    said.push(text);
  };
  const dealer = Boolean(d && d.dealer === p.player);
  if (dealer) said.push("dealer");
  if (dp && dp.status !== "in") badge(word(st.words, "outcome", dp.status), "out");
  if (p.status === "eliminated") badge("Eliminated", "out");
  if (p.status === "left") badge("Left", "out");
  if (!(p.connected || (p.player === st.me && online)) && p.status !== "left") badge("Offline", "offline");
  if (st.table.waiting_for !== "" && (st.table.tie_break || []).includes(p.player)) badge("Tie-breaker", "tie");
  if (p.auto_drop) badge("Auto drop");
  else if (st.autoSeen.has(p.player) && dp && dp.status !== "in") badge("I'm back: next deal"); // this deal is already dropped
  if (dp) said.push(`${dp.cards} cards`);
  if (turn) said.push("to play");
  return {
    player: p.player,
    me: p.player === st.me,
    name: p.player === st.me ? `${p.name} (you)` : p.name,
    score,
    chips,
    dealer,
    badges,
    bank: turn && dp ? dp.extra_ms : null,
    turn,
    gone: p.status === "eliminated" || p.status === "left" || Boolean(dp && dp.status !== "in"),
    label: [p.name, chips ? "" : score, ...said].filter(Boolean).join(", "),
  };
}

/** The show screen's words, or null when there is no show. */
export function showText(st) {
  const d = deal(st);
  if (!(d && (d.phase === "show" || d.phase === "declaring"))) return null;
  if (d.phase === "declaring") {
    return d.turn === st.me ? "Your card is in the finish slot. Arrange the rest into groups and press Declare." : `${nameOf(st, d.turn)} put a card in the finish slot and is declaring.`;
  }
  if (d.waiting_for.includes(st.me)) {
    return `${nameOf(st, d.turn)} declared. Group your cards (Auto-arrange helps) and press Submit cards before the time runs out; ungrouped cards count against you.`;
  }
  return "Waiting for the other players to show their cards.";
}

/** The lines under a deal's result: the pool totals; at a deals table the game chips each
    holds now, most first; at a points table each seat's balance now and the top-up to come
    (R-PTS-4, R-21-9). */
export function resultLines(st) {
  const table = st.table;
  const name = (player) => nameOf(st, player);
  const present = table.players.filter((p) => p.status !== "left");
  const lines = [];
  const totals = table.players.filter((p) => p.score !== null && p.score !== undefined);
  if (totals.length) lines.push("Totals: " + totals.map((p) => `${name(p.player)} ${p.score}${p.status === "eliminated" ? " (out)" : ""}`).join(" · "));
  const chips = present.filter((p) => p.chips !== null && p.chips !== undefined);
  if (chips.length) {
    const most = [...chips].sort((a, b) => b.chips - a.chips).map((p) => `${name(p.player)} ${p.chips}`);
    lines.push(`${gameChips(st, true)} now: ${most.join(" · ")}`);
  }
  const held = present.filter((p) => p.held !== null && p.held !== undefined);
  if (held.length && table.waiting_for !== "") {
    lines.push(`Seat balances now: ${held.map((p) => `${name(p.player)} ${formatMoney(p.held, st.currency)}`).join(" · ")}`);
    const hold = st.seatHold;
    const me = held.find((p) => p.player === st.me);
    if (hold && me && me.held < hold) {
      lines.push(`Your seat is below ${formatMoney(hold, st.currency)}: it is topped back up from your wallet (${formatMoney(hold - me.held, st.currency)}) before the next deal.`);
    }
  }
  return lines;
}

/** Whether the game is over (won, or cancelled) and nothing more is to come. */
export function gameOver(table) {
  return table.waiting_for === "" && (table.status === "finished" || table.status === "cancelled");
}

/** The game-over sheet's lines: why a game was cancelled, the winner, what each is paid. */
export function gameOverLines(st) {
  const table = st.table;
  const lines = [];
  if (table.status === "cancelled") {
    lines.push(
      table.phase === "cancelled" && st.voided
        ? "The game was voided by the site's staff: every entry fee, rejoin fee and seat hold is back in its player's wallet, with no rake taken."
        : "The game was cancelled; entry fees were refunded.",
    );
    if (st.endedWhy) lines.push(`Why: ${st.endedWhy}`);
  }
  const name = (player) => (player === st.me ? "You" : st.names[player] || player);
  const standing = table.players.filter((p) => p.chips !== null && p.chips !== undefined && p.status !== "left");
  if (table.winner && standing.length) {
    const won = table.players.find((p) => p.player === table.winner);
    lines.push(`Winner: ${name(table.winner)}, with the most ${gameChips(st)}${won ? ` (${won.chips})` : ""}.`);
    const most = [...standing].sort((a, b) => b.chips - a.chips).map((p) => `${name(p.player)} ${p.chips}`);
    lines.push(plain(`${gameChips(st)}: ${most.join(", ")}`));
  } else if (table.winner) lines.push(`Winner: ${name(table.winner)}.`);
  const prize = standing.length ? " from the prize pool" : "";
  for (const [player, amount] of table.payouts) lines.push(`${name(player)} ${player === st.me ? "are" : "is"} paid ${formatMoney(amount, st.currency)}${prize}.`);
  return lines;
}
