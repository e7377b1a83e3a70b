// Which buttons the player has at each moment: the action bar, the piles and the menu.
import assert from "node:assert/strict";
import { test } from "node:test";

import { controls, menuItems, sortButton } from "../../static/table/controls.js";
import { settle } from "../../static/table/state.js";
import { dealOf, player, stateAt, tableOf } from "./tables.js";

const shown = (now) => Object.keys(now.buttons).filter((id) => now.buttons[id].visible);

test("before drawing: draw from a pile or drop; sorting and arranging stay", () => {
  const st = stateAt(tableOf({ deal: dealOf({ turn: "1" }) }));
  settle(st);
  const now = controls(st);
  assert.equal(now.drawClosed, true);
  assert.equal(now.drawOpen, true);
  assert.deepEqual(shown(now), ["drop", "group", "sort", "auto-arrange"]);
  assert.equal(now.buttons.group.enabled, false, "nothing selected");
});

test("after drawing with one card selected: discard and finish, at most four buttons", () => {
  const st = stateAt(tableOf({ deal: dealOf({ turn: "1", drawn: true }) }));
  settle(st);
  st.selected = [{ g: 0, i: 0 }];
  const now = controls(st);
  assert.equal(now.drawClosed, false);
  assert.deepEqual(shown(now), ["discard", "finish", "group"]);
  assert.equal(now.buttons.discard.enabled, true);
  st.selected = [];
  assert.equal(controls(st).buttons.discard.enabled, false, "discard needs one card");
});

test("outside one's turn: no move, only arranging", () => {
  const st = stateAt(tableOf());
  settle(st);
  const now = controls(st);
  assert.equal(now.drawClosed, false);
  assert.deepEqual(shown(now), ["group", "sort", "auto-arrange"]);
  st.selected = [{ g: 0, i: 0 }];
  assert.deepEqual(shown(controls(st)), ["group", "ungroup", "sort", "auto-arrange"]);
});

test("declaring and the show each have their one button", () => {
  const st = stateAt(tableOf({ deal: dealOf({ phase: "declaring", turn: "1" }) }));
  settle(st);
  assert.ok(controls(st).buttons.declare.visible);
  st.table.deal = dealOf({ phase: "show", turn: "2", waiting_for: ["1"] });
  assert.ok(controls(st).buttons.show.visible);
  assert.ok(!controls(st).buttons.declare.visible);
});

test("the menu's table actions follow the table's phase", () => {
  // Every phase of a table, as its player sees it: which of auto drop, leave after this deal, leave.
  const phases = [
    ["waiting", { phase: "waiting", status: "waiting", waiting_for: "players", deal: null }, "seated", [false, false, true]],
    ["countdown", { phase: "waiting", status: "waiting", waiting_for: "countdown", deal: null }, "seated", [false, false, true]],
    ["playing", {}, "in", [true, true, true]],
    ["between deals", { phase: "between", waiting_for: "pause", deal: null }, "in", [true, false, true]],
    ["rejoin decisions", { phase: "between", waiting_for: "decisions", deal: null }, "eliminated", [false, false, true]],
    ["finished", { phase: "finished", status: "finished", waiting_for: "", deal: null }, "in", [false, false, false]],
    ["cancelled", { phase: "cancelled", status: "cancelled", waiting_for: "", deal: null }, "seated", [false, false, false]],
  ];
  for (const [name, fields, status, expected] of phases) {
    const items = menuItems(stateAt(tableOf({ ...fields, players: [player("1", { status }), player("2")] })));
    assert.deepEqual([items["auto-drop"].visible, items["leave-after-deal"].visible, items.leave.visible], expected, name);
  }
  const waiting = stateAt(tableOf({ phase: "waiting", status: "waiting", waiting_for: "players", deal: null, players: [player("1", { status: "seated" })] }));
  let menu = menuItems(waiting);
  assert.deepEqual([menu.leave.visible, menu["leave-after-deal"].visible, menu["auto-drop"].visible], [true, false, false]);
  const playing = stateAt(tableOf());
  menu = menuItems(playing);
  assert.deepEqual([menu.leave.visible, menu["leave-after-deal"].visible, menu["auto-drop"].visible], [true, true, true]);
  assert.equal(menu["auto-drop"].text, "Auto drop next deals");
  playing.table.players[0] = player("1", { auto_drop: true, leaving: true });
  menu = menuItems(playing);
  assert.equal(menu["auto-drop"].text, "I'm back");
  assert.equal(menu["leave-after-deal"].text, "Stay for the next deal");
  const left = stateAt(tableOf({ players: [player("1", { status: "left" }), player("2")] }));
  menu = menuItems(left);
  assert.deepEqual([menu.leave.visible, menu["leave-after-deal"].visible, menu["auto-drop"].visible], [false, false, false]);
  const over = stateAt(tableOf({ phase: "finished", status: "finished", waiting_for: "", deal: null }));
  assert.equal(menuItems(over).leave.visible, false, "nothing to leave once the game is over");
  const watcher = stateAt(tableOf(), { me: "7" });
  assert.ok(Object.values(menuItems(watcher)).every((item) => !item.visible), "a spectator has no table actions");
});

test("the Sort button names the sort on screen, and a tap gives the other one", () => {
  const st = stateAt(tableOf({ deal: dealOf({ hand: ["2H", "KS", "7D", "KD", "9C"] }) }));
  settle(st); // a fresh hand comes sorted by suit
  assert.deepEqual(sortButton(st), { label: "Sorted by suit", title: "Tap to sort by colour and rank", next: "colour" });
  st.groups = [["2H", "KD"], ["9C", "KS"], ["7D"]]; // the 7♦ is a wild joker: apart
  assert.deepEqual(sortButton(st), { label: "Sorted by colour", title: "Tap to sort by suit", next: "suit" });
  st.groups = [["2H", "KS"], ["7D", "KD", "9C"]]; // the player's own groups
  assert.deepEqual(sortButton(st), { label: "Sort", title: "Tap to sort by suit", next: "suit" });
});
