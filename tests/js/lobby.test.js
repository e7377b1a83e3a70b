// The lobby's live view (static/lobby/view.js): which format's tab shows, what changes with a
// new answer from the server (games/lobby.py), and how often it is asked.
import assert from "node:assert/strict";
import { test } from "node:test";

import { chooseTab, liveView, nextDelay, REFRESH_MS, tabAfter } from "../../static/lobby/view.js";

const FORMATS = [
  { format: "points", stakes: 3 },
  { format: "pool", stakes: 0 },
  { format: "deals", stakes: 2 },
  { format: "points21", stakes: 1 },
];

test("the tab shown: a refused play now's, else the address's, else the last chosen, else the first on offer", () => {
  assert.equal(chooseTab(FORMATS, { hash: "#deals", saved: "points21", error: "pool" }), "pool");
  assert.equal(chooseTab(FORMATS, { hash: "#deals", saved: "points21" }), "deals");
  assert.equal(chooseTab(FORMATS, { hash: "#format-points21" }), "points21");
  assert.equal(chooseTab(FORMATS, { hash: "#nothing", saved: "points21" }), "points21");
  assert.equal(chooseTab(FORMATS, { saved: "gone" }), "points");
  assert.equal(chooseTab([{ format: "points", stakes: 0 }, { format: "deals", stakes: 1 }]), "deals");
  assert.equal(chooseTab([]), null);
});

test("arrow keys move between the tabs and wrap round; Home and End go to the ends", () => {
  const codes = FORMATS.map((f) => f.format);
  assert.equal(tabAfter(codes, "points", "ArrowRight"), "pool");
  assert.equal(tabAfter(codes, "points21", "ArrowRight"), "points");
  assert.equal(tabAfter(codes, "points", "ArrowLeft"), "points21");
  assert.equal(tabAfter(codes, "deals", "Home"), "points");
  assert.equal(tabAfter(codes, "pool", "End"), "points21");
  assert.equal(tabAfter(codes, "pool", "Enter"), null);
});

test("a new answer gives each stake's players, each format's count and the player's tables", () => {
  const answer = {
    formats: [
      {
        format: "points",
        playing: 5,
        money: [{ id: 3, playing: 4, waiting: 1, who_words: "4 playing · 1 waiting" }],
        practice: [{ id: 9, playing: 0, waiting: 0, who_words: "Nobody seated yet" }],
      },
      { format: "deals", playing: 0, money: [], practice: [] },
    ],
    money_refusal: null,
    mine: [{ table: 42, name: "Points ₹1", status: "playing", status_words: "Playing" }],
  };
  const view = liveView(answer, "/games/tables/0/");
  assert.deepEqual(view.who, { 3: { text: "4 playing · 1 waiting", idle: false }, 9: { text: "Nobody seated yet", idle: true } });
  assert.deepEqual(view.counts, { points: "5", deals: "0" });
  assert.deepEqual(view.mine, [{ href: "/games/tables/42/", text: "Back to table 42", after: " Points ₹1 (Playing)" }]);
});

test("the lobby is asked again every few seconds while in view, never while hidden, less often after failures", () => {
  assert.equal(nextDelay(true), REFRESH_MS);
  assert.equal(REFRESH_MS, 5000);
  assert.equal(nextDelay(false), null);
  assert.equal(nextDelay(true, 2), 20000);
  assert.equal(nextDelay(true, 10), 60000);
});
