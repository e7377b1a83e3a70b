// node --test tests/js: the hand model, the card names and the money formatter.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardName, cardsInWords, cardText, isJoker, jokersFromCut, markOf, marksOf } from "../../static/table/cards.js";
import * as hand from "../../static/table/hand.js";
import { formatMoney } from "../../static/table/money.js";

test("a card's spoken name is a sentence with its joker mark", () => {
  const jokers = jokersFromCut("7S");
  assert.equal(cardName("7H", jokers), "7 of hearts, wild joker");
  assert.equal(cardName("QD", jokers), "queen of diamonds");
  assert.equal(cardName("TC"), "10 of clubs");
  assert.equal(cardName("PJ", jokers), "printed joker");
  assert.equal(cardText("TH"), "10♥");
});

test("a printed-joker cut makes aces wild (R-DEAL-3)", () => {
  const jokers = jokersFromCut("PJ");
  assert.ok(isJoker("AD", jokers));
  assert.ok(!isJoker("2D", jokers));
});

test("21-card tables mark the value, upper and lower jokers (R-21-2)", () => {
  const jokers = jokersFromCut("KH", true);
  assert.deepEqual(marksOf("KH", jokers), ["value joker"]);
  assert.deepEqual(marksOf("KS", jokers), ["wild joker"]);
  assert.deepEqual(marksOf("AH", jokers), ["upper joker"]);
  assert.deepEqual(marksOf("QH", jokers), ["lower joker"]);
  const ace = jokersFromCut("AS", true);
  assert.equal(ace.lower, "KS");
  assert.equal(ace.upper, "2S");
});

test("reconcile keeps the player's groups, drops cards gone and adds a drawn card to the last group", () => {
  const groups = [["2H", "3H", "4H"], ["KS", "KD"]];
  assert.deepEqual(hand.reconcile(groups, ["2H", "3H", "4H", "KS", "KD", "9C"]), [["2H", "3H", "4H"], ["KS", "KD", "9C"]]);
  assert.deepEqual(hand.reconcile(groups, ["2H", "3H", "4H", "KS"]), [["2H", "3H", "4H"], ["KS"]]);
  assert.deepEqual(hand.reconcile([], ["5C", "6C"]), [["5C", "6C"]]);
  assert.deepEqual(hand.reconcile(groups, ["2H", "3H", "4H", "KS", "KD", "9C"], true), [["2H", "3H", "4H"], ["KS", "KD"], ["9C"]]);
});

test("reconcile keeps two copies of a card apart (two packs)", () => {
  assert.deepEqual(hand.reconcile([["7H"], ["7H", "8H"]], ["7H", "7H", "8H"]), [["7H"], ["7H", "8H"]]);
  assert.deepEqual(hand.reconcile([["7H"], ["7H", "8H"]], ["7H", "8H"]), [["7H"], ["8H"]]);
});

test("moving a card between groups, to a new group, and emptying a group", () => {
  const groups = [["2H", "3H"], ["KS"], ["9C", "9D"]];
  let moved = hand.moveCard(groups, { g: 1, i: 0 }, 2, 0);
  assert.deepEqual(moved.groups, [["2H", "3H"], ["KS", "9C", "9D"]]);
  assert.deepEqual(moved.at, { g: 1, i: 0 });
  moved = hand.moveCard(groups, { g: 0, i: 1 }, groups.length);
  assert.deepEqual(moved.groups, [["2H"], ["KS"], ["9C", "9D"], ["3H"]]);
  assert.deepEqual(moved.at, { g: 3, i: 0 });
  moved = hand.moveCard(groups, { g: 2, i: 0 }, -1);
  assert.deepEqual(moved.groups, [["9C"], ["2H", "3H"], ["KS"], ["9D"]]);
  moved = hand.moveCard(groups, { g: 0, i: 0 }, 0, 2);
  assert.deepEqual(moved.groups[0], ["3H", "2H"]);
  assert.deepEqual(groups, [["2H", "3H"], ["KS"], ["9C", "9D"]], "the input is never changed");
});

test("group and ungroup the selection", () => {
  const groups = [["2H", "3H", "KS"], ["4H", "9C"]];
  const grouped = hand.groupSelected(groups, [{ g: 0, i: 0 }, { g: 0, i: 1 }, { g: 1, i: 0 }]);
  assert.deepEqual(grouped, [["KS"], ["9C"], ["2H", "3H", "4H"]]);
  assert.deepEqual(hand.ungroup(grouped, 2), [["KS"], ["9C"], ["2H", "3H", "4H"]]);
  assert.deepEqual(hand.ungroup(grouped, 0), [["9C"], ["2H", "3H", "4H"], ["KS"]]);
});

test("sort by suit: a group per suit in rank order, jokers apart", () => {
  const jokers = jokersFromCut("5S");
  const sorted = hand.sortBySuit(["KH", "2H", "5D", "AS", "PJ", "9C", "3S", "TH"], jokers);
  assert.deepEqual(sorted, [["AS", "3S"], ["2H", "TH", "KH"], ["9C"], ["5D", "PJ"]]);
});

test("sort by colour and rank: reds, blacks, equal ranks side by side, jokers apart", () => {
  const sorted = hand.sortByColour(["KH", "2H", "KD", "AS", "9C", "9S", "PJ"], jokersFromCut("3C"));
  assert.deepEqual(sorted, [["2H", "KH", "KD"], ["AS", "9S", "9C"], ["PJ"]]);
});

test("auto-arrange replaces the player's groups only with a strictly lower score", () => {
  const mine = [["2H", "3H", "4H"], ["KS"]];
  const best = [["2H", "3H", "4H", "KS"]];
  assert.equal(hand.better(mine, 10, best, 10).changed, false);
  assert.deepEqual(hand.better(mine, 10, best, 10).groups, mine);
  assert.equal(hand.better(mine, 12, best, 10).changed, true);
  assert.deepEqual(hand.better(mine, 12, best, 10).groups, best);
  assert.equal(hand.better(mine, null, best, 40).changed, true, "no known score: take the solver's");
});

test("keyboard steps go through the cards in reading order", () => {
  const groups = [["2H", "3H"], ["KS"]];
  assert.deepEqual(hand.step(groups, { g: 0, i: 1 }, 1), { g: 1, i: 0 });
  assert.deepEqual(hand.step(groups, { g: 1, i: 0 }, 1), { g: 1, i: 0 });
  assert.deepEqual(hand.step(groups, { g: 0, i: 0 }, -1), { g: 0, i: 0 });
});

test("money the Indian way, and chips never as rupees", () => {
  assert.equal(formatMoney(12500050, "INR"), "₹1,25,000.50");
  assert.equal(formatMoney(5000, "INR"), "₹50.00");
  assert.equal(formatMoney(1000000, "CHIPS"), "10,000 chips");
  assert.equal(formatMoney(12500000, "CHIPS"), "1,25,000 chips");
  assert.ok(!formatMoney(1000000, "CHIPS").includes("₹"));
});

test("card codes in a server's words are written as on the table", () => {
  assert.equal(cardsInWords("8D TD JH: not a sequence"), "8♦ 10♦ J♥: not a sequence");
  assert.equal(cardsInWords("PJ 2C and AS"), "JKR 2♣ and A♠");
  assert.equal(cardsInWords("TDS KHAN and 10 of hearts"), "TDS KHAN and 10 of hearts", "only whole codes");
});

test("each joker has a mark for the visible strip of the card", () => {
  const jokers = jokersFromCut("6S", true);
  assert.deepEqual(markOf("6S", jokers), { text: "V", kind: "value joker" });
  assert.deepEqual(markOf("7S", jokers), { text: "U", kind: "upper joker" });
  assert.deepEqual(markOf("5S", jokers), { text: "L", kind: "lower joker" });
  assert.deepEqual(markOf("6C", jokers), { text: "J", kind: "wild joker" });
  assert.deepEqual(markOf("PJ", jokers), { text: "J", kind: "printed joker" });
  assert.equal(markOf("9C", jokers), null);
});
