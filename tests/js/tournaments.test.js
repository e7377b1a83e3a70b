// The tournament page's plans (static/tournaments/plan.js): what each socket frame changes.

import assert from "node:assert/strict";
import { test } from "node:test";

import { planFor, reconnectDelay, refreshDelay } from "../../static/tournaments/plan.js";

test("a registration writes the players' count at once and fetches the live part", () => {
  const plan = planFor({ type: "changed", v: 8, event: "registered", status: "registering", data: { players: 5 } }, 7);
  assert.deepEqual(plan, { version: 8, count: 5, seat: null, refresh: true, event: "registered" });
});

test("a change the page shows already (same or older version) does nothing", () => {
  const plan = planFor({ type: "changed", v: 7, event: "table_over", status: "running", data: {} }, 7);
  assert.deepEqual(plan, { version: 7, count: null, seat: null, refresh: false, event: null });
});

test("a table over fetches the live part but writes no count", () => {
  const plan = planFor({ type: "changed", v: 12, event: "table_over", status: "running", data: { round: 1 } }, 9);
  assert.equal(plan.count, null);
  assert.equal(plan.refresh, true);
  assert.equal(plan.version, 12);
});

test("a seat offers the table at once, with no fetch", () => {
  const plan = planFor({ type: "seated", round: 2, table: 41 }, 12);
  assert.deepEqual(plan, { version: 12, count: null, seat: 41, refresh: false, event: null });
});

test("the first frame fetches only when the tournament moved on since the page was drawn", () => {
  assert.equal(planFor({ type: "tournament", v: 4, status: "registering", table: null }, 4).refresh, false);
  const behind = planFor({ type: "tournament", v: 6, status: "running", table: 17 }, 4);
  assert.equal(behind.refresh, true);
  assert.equal(behind.version, 6);
  assert.equal(behind.seat, 17);
});

test("a round's seating and the finish are fetched sooner than a table's end", () => {
  assert.equal(refreshDelay("round_seated", 0), 200);
  assert.equal(refreshDelay("finished", 0.999), 600);
  assert.equal(refreshDelay("table_over", 0), 1200);
  assert.equal(refreshDelay("table_over", 0.5), 2100);
});

test("reconnection waits longer after each failure, at most 15 s with jitter", () => {
  assert.equal(reconnectDelay(0, 0.5), 500);
  assert.equal(reconnectDelay(1, 0.5), 1000);
  assert.equal(reconnectDelay(3, 0.5), 4000);
  assert.equal(reconnectDelay(10, 0.5), 15000);
  assert.equal(reconnectDelay(10, 0), 11250);
});
