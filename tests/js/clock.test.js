// The timer on the felt: the move's seconds, then the extra time, and the ring's fraction.
import assert from "node:assert/strict";
import { test } from "node:test";

import { minutes, timerView } from "../../static/table/clock.js";
import { dealOf, stateAt, tableOf } from "./tables.js";

test("a turn counts the move's time first, then the player's extra time", () => {
  const st = stateAt(tableOf({ deal: dealOf({ deadline_ms: 100000 }) }));
  let view = timerView(st, 40000); // 60 s left: 30 s of the move, 30 s extra
  assert.equal(view.text, "30 s · +30 s extra");
  assert.deepEqual(view.turn, { player: "2", extra: false, fraction: 1, bank: "+30s" });
  view = timerView(st, 55000);
  assert.equal(view.turn.fraction, 0.5);
  view = timerView(st, 85000); // in the extra time
  assert.equal(view.text, "Extra time 15 s");
  assert.deepEqual(view.turn, { player: "2", extra: true, fraction: 0.5, bank: "+15s" });
});

test("between deals the clock counts down to the next deal", () => {
  const st = stateAt(tableOf({ phase: "between", waiting_for: "pause", deadline_ms: 20000, deal: null }));
  const view = timerView(st, 12500);
  assert.equal(view.text, "The next deal starts in 0:08.");
  assert.equal(view.nextDeal, "The next deal starts in 0:08.");
  assert.equal(view.turn, null);
});

test("a waiting table says in words when it closes, in minutes and seconds (R-MONEY-4)", () => {
  const st = stateAt(tableOf({ phase: "waiting", status: "waiting", waiting_for: "players", deadline_ms: 600000, deal: null }));
  assert.equal(timerView(st, 0).text, "The table closes in 10:00 if nobody comes.");
  assert.equal(timerView(st, 8500).text, "The table closes in 9:52 if nobody comes.");
  assert.equal(timerView(st, 599001).text, "The table closes in 0:01 if nobody comes.");
  st.table.waiting_for = "countdown";
  st.table.deadline_ms = 10000;
  assert.equal(timerView(st, 0).text, "The game starts in 0:10.");
  st.table = tableOf({ phase: "between", waiting_for: "decisions", deadline_ms: 20000, deal: null });
  assert.equal(timerView(st, 0).text, "Rejoin and split decisions close in 0:20.");
});

test("minutes and seconds", () => {
  assert.equal(minutes(0), "0:00");
  assert.equal(minutes(59001), "1:00");
  assert.equal(minutes(61000), "1:01");
  assert.equal(minutes(3600000), "60:00");
});

test("no deadline, no clock", () => {
  assert.equal(timerView(stateAt(tableOf({ deal: null })), 0).text, "");
});
