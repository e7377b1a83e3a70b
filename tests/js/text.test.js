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
  assert.equal(text.noticeText(st, toss), "Toss: You A♣, name2 2♠. you deal; name2 plays first.");
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
