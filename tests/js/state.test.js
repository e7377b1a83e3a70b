// The page's state: whose deal and turn it is, a new deal clearing the last one, the hand
// fitted to the cards held, the engine's labels kept by group.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as state from "../../static/table/state.js";
import { dealOf, player, stateAt, tableOf } from "./tables.js";

test("the player's deal, turn and jokers follow the snapshot", () => {
  const st = stateAt(tableOf({ deal: dealOf({ turn: "1" }) }));
  assert.equal(state.myDeal(st).commitment, "c1");
  assert.equal(state.myTurn(st), true);
  assert.equal(state.jokers(st).wildRank, 7);
  st.table.deal.phase = "declaring";
  assert.equal(state.myTurn(st), false, "declaring is not a move of the play");
  const watcher = stateAt(tableOf({ deal: dealOf({ hand: null, turn: "1" }) }));
  assert.equal(state.myDeal(watcher), null, "a spectator holds no hand");
  assert.equal(state.myTurn(watcher), false);
});

test("a name is the player's, 'You' for oneself, and never blank", () => {
  const st = stateAt(tableOf());
  state.settle(st);
  assert.equal(state.nameOf(st, "2"), "name2");
  assert.equal(state.nameOf(st, "1"), "You");
  assert.equal(state.nameOf(st, "9"), "Player 9");
});

test("the player after the dealer plays first (R-DEAL-4)", () => {
  assert.equal(state.firstPlayer(dealOf({ dealer: "1" })), "2");
  assert.equal(state.firstPlayer(dealOf({ dealer: "2" })), "1");
});

test("a fresh hand is sorted by suit and sent to be labelled", () => {
  const st = stateAt(tableOf());
  const out = state.settle(st);
  assert.deepEqual(out, { renamed: true, newDeal: true, save: true, tieBreak: false });
  assert.deepEqual(st.groups, [["KS"], ["2H", "3H", "4H"], ["7D"]]);
  assert.equal(state.settle(st).save, false, "the same hand again: nothing to save");
});

test("a saved grouping comes back with its labels after a reload", () => {
  const labels = { groups: [{ label: "Pure sequence", valid: true }, { label: "Invalid", valid: false }], points: 17 };
  const st = stateAt(tableOf({ deal: dealOf({ saved_grouping: [["2H", "3H", "4H"], ["KS", "7D"]], labels }) }));
  assert.equal(state.settle(st).save, false);
  assert.deepEqual(st.groups, [["2H", "3H", "4H"], ["KS", "7D"]]);
  assert.equal(state.groupLabel(st, ["2H", "3H", "4H"]).label, "Pure sequence");
  assert.equal(st.points, 17);
  assert.ok(state.pointsCurrent(st));
});

test("a drawn card joins the last group and the new grouping is saved", () => {
  const st = stateAt(tableOf());
  state.settle(st);
  st.table = tableOf({ deal: dealOf({ hand: ["2H", "3H", "4H", "KS", "7D", "QC"] }) });
  assert.equal(state.settle(st).save, true);
  assert.deepEqual(st.groups.at(-1), ["7D", "QC"]);
});

test("a new deal clears the selection, the labels and the points of the last one", () => {
  const st = stateAt(tableOf());
  state.settle(st);
  st.selected = [{ g: 0, i: 0 }];
  state.takeLabels(st, { groups: [{ label: "Set", valid: true }], points: 5 }, [["KS"]]);
  st.table = tableOf({ deal: dealOf({ commitment: "c2", hand: ["AC", "2C"] }) });
  const out = state.settle(st);
  assert.equal(out.newDeal, true);
  assert.deepEqual(st.selected, []);
  assert.equal(st.labels.size, 0);
  assert.equal(st.points, null);
  assert.deepEqual(st.groups, [["AC", "2C"]]);
});

test("labels belong to the groups they were given for; points are stale once the groups change", () => {
  const st = stateAt(tableOf());
  state.settle(st);
  assert.equal(state.takeLabels(st, null, st.groups), false);
  state.takeLabels(st, { groups: [{ label: "Invalid", valid: false }], points: 40 }, [["KS"]]);
  assert.equal(state.groupLabel(st, ["KS"]).label, "Invalid");
  assert.equal(state.groupLabel(st, ["7D"]), null);
  assert.equal(state.pointsCurrent(st), false, "labelled for other groups than those shown");
});

test("tapping a card selects it, tapping again releases it; a new arrangement keeps only real places", () => {
  const st = stateAt(tableOf());
  state.settle(st);
  state.toggle(st, { g: 1, i: 2 });
  state.toggle(st, { g: 0, i: 0 });
  assert.deepEqual(state.selectedCards(st), ["4H", "KS"]);
  state.toggle(st, { g: 1, i: 2 });
  assert.deepEqual(state.selectedCards(st), ["KS"]);
  state.toggle(st, { g: 2, i: 0 });
  state.setGroups(st, [["KS", "7D"]]);
  assert.deepEqual(st.selected, [{ g: 0, i: 0 }]);
});

test("a 21-card marriage is the value joker with its upper and lower jokers", () => {
  const st = stateAt(tableOf({ deal: dealOf({ cut: "7S" }) }), { variant: "points21" });
  const j = state.jokers(st);
  assert.ok(state.isMarriage(["6S", "7S", "8S"], j));
  assert.ok(!state.isMarriage(["6S", "7S", "9S"], j));
  assert.ok(!state.isMarriage(["6S", "7S", "8S"], state.jokers(stateAt(tableOf()))), "pool tables have no marriage");
});

test("players on auto drop are remembered for the deal", () => {
  const st = stateAt(tableOf({ players: [player("1"), player("2", { auto_drop: true })] }));
  state.settle(st);
  assert.ok(st.autoSeen.has("2"));
  st.table = tableOf({ deal: dealOf({ commitment: "c2" }) });
  state.settle(st);
  assert.ok(!st.autoSeen.has("2"), "a new deal forgets it");
});

test("a presence frame turns a seat online or offline between snapshots", () => {
  const st = stateAt(tableOf());
  const seat = st.table.players.find((p) => p.player === "2");
  seat.connected = true;
  assert.equal(state.applyPresence(st, { type: "presence", player: "2", connected: false }), true);
  assert.equal(seat.connected, false);
  assert.equal(state.applyPresence(st, { type: "presence", player: "2", connected: false }), false, "no change");
  assert.equal(state.applyPresence(st, { type: "presence", player: "9", connected: true }), false, "not seated");
});

test("a deals tie-breaker is told once, and a second tie-breaker again (R-DEALS-4)", () => {
  const tied = { variant: "deals", deals: 2, tie_break: ["1", "2"], players: [player("1", { score: null, chips: 160 }), player("2", { score: null, chips: 160 })] };
  const st = stateAt(tableOf({ ...tied, phase: "between", waiting_for: "pause", deal_number: 2, deal: null }), { variant: "deals" });
  assert.equal(state.settle(st).tieBreak, true, "the pause after the last deal: tied");
  assert.equal(state.settle(st).tieBreak, false, "the same snapshot again");
  st.table = tableOf({ ...tied, deal_number: 3 });
  assert.equal(state.settle(st).tieBreak, false, "the tie-breaker deal is the same tie-breaker");
  st.table = tableOf({ ...tied, phase: "between", waiting_for: "pause", deal_number: 3, deal: null });
  assert.equal(state.settle(st).tieBreak, true, "still tied after it: another tie-breaker");
  st.table = tableOf({ ...tied, tie_break: [], phase: "finished", status: "finished", waiting_for: "", deal: null });
  assert.equal(state.settle(st).tieBreak, false);
  const none = stateAt(tableOf());
  assert.equal(state.settle(none).tieBreak, false, "a pool table has no tie-breaker");
});
