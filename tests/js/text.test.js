// The page's words: the status and notice lines, the log's lines, each seat, the show and the
// game's end, all from the state, codes through the server's table of words.
import assert from "node:assert/strict";
import { test } from "node:test";

import { settle } from "../../static/table/state.js";
import * as text from "../../static/table/text.js";
import { dealOf, player, stateAt, tableOf, WORDS } from "./tables.js";

test("a code no table knows is still words, never a raw code", () => {
  assert.equal(text.word(WORDS, "outcome", "first_drop"), "First drop");
  assert.equal(text.word(WORDS, "outcome", "middle_drop"), "middle drop");
  assert.equal(text.plain("you may not draw twice"), "You may not draw twice.");
  assert.equal(text.plain("Done!"), "Done!");
});

test("the log words a move with its player, card and pile", () => {
  const st = stateAt(tableOf());
  settle(st);
  assert.equal(text.logLine(st, { type: "drew", data: { player: "2", source: "open", card: "TD" } }), "name2 drew 10♦ from the open pile");
  assert.equal(text.logLine(st, { type: "discarded", data: { player: "1", card: "PJ" } }), "You discarded JKR");
  assert.ok(text.unlogged({ type: "grouping_saved", data: {} }, "1"));
  assert.ok(text.unlogged({ type: "drew", data: { player: "1", source: "closed" } }, "1"), "one's own closed draw is told by drew_card");
  assert.ok(!text.unlogged({ type: "drew", data: { player: "2", source: "closed" } }, "1"));
});

test("the log tells why a show was wrong, cards written as on the table (R-DECL-3)", () => {
  const st = stateAt(tableOf());
  settle(st);
  const event = { type: "wrong_show_reason", data: { reason: "8D TD JH: not a sequence; no pure sequence" } };
  assert.equal(text.logLine(st, event), "Why the show was wrong: 8♦ 10♦ J♥: not a sequence; no pure sequence");
});

test("the wrong show's toast writes cards as the table does", () => {
  assert.equal(text.wrongShowText("8D TD JH: not a sequence"), "Wrong show: 8♦ 10♦ J♥: not a sequence.");
  assert.equal(text.wrongShowText("no grouping was sent in time"), "Wrong show: no grouping was sent in time.");
});

test("the log gives the scores after a deal, with who is out", () => {
  const st = stateAt(tableOf());
  settle(st);
  const event = { type: "standings", data: { number: 3, totals: { 1: 45, 2: 102 }, eliminated: ["2"] } };
  assert.equal(text.logLine(st, event), "The scores after the deal are in: You 45, name2 102 (out)");
  st.table.players.reverse();
  assert.equal(text.logLine(st, event), "The scores after the deal are in: name2 102 (out), You 45", "in seating order");
});

test("the status line says the deal and whose turn it is", () => {
  const st = stateAt(tableOf());
  settle(st);
  assert.equal(text.statusText(st), "Deal 1. name2's turn.");
  st.table.deal.turn = "1";
  assert.equal(text.statusText(st), "Deal 1. Your turn.");
  st.table = tableOf({ status: "waiting", phase: "waiting", waiting_for: "players", deal: null });
  assert.equal(text.statusText(st), "Waiting for players…");
  st.table = tableOf({ phase: "between", waiting_for: "pause", deal: null });
  assert.equal(text.statusText(st), "The next deal starts soon.");
});

test("the notice tells the toss until the first move, then the last move, and what to do on one's turn", () => {
  const st = stateAt(tableOf());
  settle(st);
  const toss = { cards: [{ player: "1", card: "AC", round: 1 }, { player: "2", card: "2S", round: 1 }] };
  assert.equal(text.noticeText(st, toss), "You deal; name2 plays first. Toss: You A♣, name2 2♠.");
  st.table.deal.turn = "1";
  assert.equal(
    text.noticeText(st, toss),
    "You deal; name2 plays first. Your turn: draw from the closed or the open pile. Toss: You A♣, name2 2♠.",
  );
  st.lastMove = { type: "discarded", data: { player: "2", card: "9D" } };
  st.table.deal.turn = "1";
  assert.equal(text.noticeText(st, toss), "name2 discarded 9♦. Your turn: draw from the closed or the open pile.");
  st.table.deal.drawn = true;
  assert.match(text.noticeText(st, toss), /Your turn: discard a card, or finish to declare\.$/);
});

test("a seat shows its name, score and badges, and says them all to a screen reader", () => {
  const st = stateAt(tableOf({ players: [player("1", { score: 12 }), player("2", { score: 30, connected: false })] }));
  settle(st);
  st.table.deal.players[1].status = "first_drop";
  st.table.deal.turn = "1";
  const [mine, other] = st.table.players.map((p) => text.seatView(st, p, true));
  assert.equal(mine.name, "name1 (you)");
  assert.equal(mine.score, "12 pts");
  assert.equal(mine.dealer, true);
  assert.deepEqual(mine.badges, []);
  assert.equal(mine.label, "name1, 12 pts, dealer, 13 cards, to play");
  assert.deepEqual(other.badges.map((b) => b.text), ["First drop", "Offline"]);
  assert.equal(other.gone, true);
  assert.equal(other.label, "name2, 30 pts, First drop, Offline, 13 cards");
});

test("on 21-card tables a seat shows the balance held for it, in chips for practice", () => {
  const st = stateAt(tableOf({ players: [player("1", { score: null, held: 250000 }), player("2")] }), { variant: "points21" });
  settle(st);
  assert.equal(text.seatView(st, st.table.players[0]).score, "2,500 chips");
});

test("the seat whose turn it is carries its extra time", () => {
  const st = stateAt(tableOf());
  settle(st);
  const view = text.seatView(st, st.table.players[1]);
  assert.equal(view.turn, true);
  assert.equal(view.bank, 30000);
  assert.match(view.label, /to play$/);
  assert.equal(text.seatView(st, st.table.players[0]).bank, null);
});

test("the show screen says who declared and what the player does", () => {
  const st = stateAt(tableOf({ deal: dealOf({ phase: "show", turn: "2", waiting_for: ["1"] }) }));
  settle(st);
  assert.match(text.showText(st), /^name2 declared\. Group your cards/);
  st.table.deal.waiting_for = [];
  assert.equal(text.showText(st), "Waiting for the other players to show their cards.");
  st.table.deal.phase = "play";
  assert.equal(text.showText(st), null);
});

test("the game's end names the winner, the payouts, and why a game was voided", () => {
  const st = stateAt(tableOf({ status: "finished", phase: "finished", waiting_for: "", winner: "2", payouts: [["2", 1700]], deal: null }));
  settle(st);
  assert.ok(text.gameOver(st.table));
  assert.deepEqual(text.gameOverLines(st), ["Winner: name2.", "name2 is paid 17 chips."]);
  st.table = tableOf({ status: "cancelled", phase: "cancelled", waiting_for: "", deal: null });
  st.voided = true;
  st.endedWhy = "a server fault";
  assert.match(text.gameOverLines(st)[0], /voided by the site's staff/);
  assert.equal(text.gameOverLines(st)[1], "Why: a server fault");
  assert.ok(!text.gameOver(tableOf()));
});

/** A deals table (best of ``deals``) as player "1" sees it, each player with their game chips. */
function dealsTable(chips, fields = {}) {
  const players = Object.entries(chips).map(([id, n]) => player(id, { score: null, chips: n }));
  return tableOf({ variant: "deals", deals: 3, tie_break: [], players, prize: 2700, ...fields });
}

test("a deals table counts its deals, 'Deal 2 of 3', and names a tie-breaker deal (R-DEALS-1, R-DEALS-4)", () => {
  const st = stateAt(dealsTable({ 1: 160, 2: 160 }, { deal_number: 2 }), { variant: "deals" });
  settle(st);
  assert.equal(text.dealWords(st.table), "Deal 2 of 3");
  assert.equal(text.statusText(st), "Deal 2 of 3. name2's turn.");
  st.table = dealsTable({ 1: 200, 2: 200 }, { deal_number: 3, phase: "between", waiting_for: "pause", deal: null, tie_break: ["1", "2"] });
  assert.equal(text.statusText(st), "Tie-breaker: You and name2 are tied for the most game chips (200 each); a deal among them decides.");
  st.table = dealsTable({ 1: 200, 2: 200, 3: 80 }, { deal_number: 4, tie_break: ["1", "2"] });
  assert.equal(text.dealWords(st.table), "Tie-breaker deal (deal 4)");
  assert.equal(text.statusText(st), "Tie-breaker deal (deal 4). name2's turn.");
  assert.equal(text.dealWords(tableOf({ deal_number: 5 })), "Deal 5", "a pool table does not count to an end");
});

test("a deals seat shows its game chips with the chip's mark, said as game chips, never money (R-DEALS-2)", () => {
  const st = stateAt(dealsTable({ 1: 140, 2: 180 }, { tie_break: ["2"] }), { variant: "deals" });
  settle(st);
  const [mine, other] = st.table.players.map((p) => text.seatView(st, p, true));
  assert.equal(mine.score, "140");
  assert.equal(mine.chips, true);
  assert.equal(mine.label, "name1, 140 game chips, dealer, 13 cards");
  assert.ok(!/₹|\bchips\b(?<!game chips)/.test(mine.label.replace("game chips", "")), mine.label);
  assert.deepEqual(other.badges.map((b) => b.text), ["Tie-breaker"]);
  const pool = stateAt(tableOf());
  settle(pool);
  assert.equal(text.seatView(pool, pool.table.players[0]).chips, false);
});

test("the log tells game chips moved, a tie-breaker with the tied and their chips, and a game's deals", () => {
  const st = stateAt(dealsTable({ 1: 140, 2: 180 }), { variant: "deals" });
  settle(st);
  const moved = { type: "chips_moved", data: { number: 1, moved: { 2: 20, 1: -20 }, chips: { 2: 180, 1: 140 } } };
  assert.equal(text.logLine(st, moved), "The game chips moved to the deal's winner: You \u221220, name2 +20; now You 140, name2 180");
  const tie = { type: "tie_breaker", data: { players: ["1", "2"], chips: 160, reason: "tied for the most game chips" } };
  assert.equal(text.logLine(st, tie), "A tie-breaker deal decides between the players tied for the most game chips: You and name2, 160 game chips each");
  const started = { type: "game_started", data: { players: ["1", "2"], prize_pool: 2000, deals: 3, chips: 240 } };
  assert.equal(text.logLine(st, started), "The game started: best of 3, 240 game chips each");
  assert.equal(text.logLine(st, { type: "game_started", data: { players: ["1"] } }), "The game started", "a pool game names no deals");
  assert.equal(text.namesOf(st, ["2", "1", "3"]), "name2, You and Player 3");
});

test("a deals game's end names the winner of the prize pool with the game chips, most first", () => {
  const st = stateAt(dealsTable({ 1: 120, 2: 200 }, { status: "finished", phase: "finished", waiting_for: "", winner: "2", payouts: [["2", 1800]], deal: null }), { variant: "deals" });
  settle(st);
  assert.deepEqual(text.gameOverLines(st), [
    "Winner: name2, with the most game chips (200).",
    "Game chips: name2 200, You 120.",
    "name2 is paid 18 chips from the prize pool.",
  ]);
});

test("under a deal's result: the game chips now at a deals table, the seats and the top-up to come at a points table", () => {
  const deals = stateAt(dealsTable({ 1: 140, 2: 180 }, { phase: "between", waiting_for: "pause", deal: null }), { variant: "deals" });
  settle(deals);
  assert.deepEqual(text.resultLines(deals), ["Game chips now: name2 180 · You 140"]);
  const players = [player("1", { score: null, held: 600 }), player("2", { score: null, held: 980 })];
  const points = stateAt(tableOf({ variant: "points13", players, phase: "between", waiting_for: "pause", deal: null, prize: null }), { variant: "points13", seatHold: 800 });
  settle(points);
  assert.deepEqual(text.resultLines(points), [
    "Seat balances now: You 6 chips · name2 9.80 chips",
    "Your seat is below 8 chips: it is topped back up from your wallet (2 chips) before the next deal.",
  ]);
  const pool = stateAt(tableOf({ players: [player("1", { score: 20 }), player("2", { score: 0 })] }));
  settle(pool);
  assert.deepEqual(text.resultLines(pool), ["Totals: You 20 · name2 0"]);
});

test("a seat topped up or stood up is told in words, with the amount and the reason (R-PTS-4, R-21-9)", () => {
  const st = stateAt(tableOf({ variant: "points13" }), { variant: "points13", currency: "INR" });
  settle(st);
  const topped = { type: "topped_up", data: { player: "1", amount: 2000, reason: "the seat fell below 80 points and was topped up from the wallet" } };
  assert.equal(text.noteOf(st, topped), "Your seat fell below 80 points and was topped up from the wallet (₹20.00).");
  assert.equal(text.logLine(st, topped), "Your seat fell below 80 points and was topped up from the wallet (₹20.00)");
  const stood = { type: "stood_up", data: { player: "2", amount: 3000, reason: "the seat fell below 80 points and the wallet cannot top it up: the seat balance is back in the wallet" } };
  assert.equal(text.noteOf(st, stood), "name2 was stood up: name2's seat fell below 80 points and the wallet cannot top it up: the seat balance is back in the wallet.");
  assert.equal(text.noteOf(st, { type: "drew", data: { player: "2" } }), null);
  const settled = { type: "settled", data: { number: 4, net: { 1: -20, 2: 20 } } };
  assert.equal(text.logLine(st, settled), "The deal was settled: You \u221220 points, name2 +20 points");
});

test("leaving asks what it costs at each format (R-MONEY-5, R-PTS-5)", () => {
  const points = stateAt(tableOf(), { variant: "points13" });
  assert.match(text.leaveQuestion(points), /counts as a drop for you; your seat balance goes back to your wallet once it is settled/);
  points.table = tableOf({ phase: "between", waiting_for: "pause", deal: null });
  assert.equal(text.leaveQuestion(points), "Leave the table? Your seat balance goes back to your wallet.");
  assert.match(text.leaveQuestion(stateAt(tableOf(), { variant: "deals" })), /you forfeit your entry fee/);
  assert.match(text.leaveQuestion(stateAt(tableOf({ phase: "waiting", status: "waiting", deal: null }))), /goes back to your wallet/);
});
