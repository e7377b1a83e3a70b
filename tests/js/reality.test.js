// R-PROT-6: when the table shows a reality check, and what it says.
import { test } from "node:test";
import assert from "node:assert/strict";
import { due, duration, message, key } from "../../static/table/reality.js";

const check = (fields) => ({ in_session: true, session: "2026-11-24T10:00:00+05:30", minutes: 61, net: -12000, net_text: "-₹120.00", every: 60, count: 1, ...fields });

test("a check is due once per interval of the session, never before the first", () => {
  assert.equal(due(check({ minutes: 59, count: 0 }), 0), false);
  assert.equal(due(check({}), 0), true);
  assert.equal(due(check({}), 1), false, "already shown");
  assert.equal(due(check({ minutes: 125, count: 2 }), 1), true, "the next hour");
  assert.equal(due(check({ in_session: false }), 0), false);
});

test("it says how long and how much, in words", () => {
  assert.equal(duration(61), "1 hour 1 minute");
  assert.equal(duration(120), "2 hours");
  assert.equal(duration(45), "45 minutes");
  assert.equal(message(check({})), "You have played for money for 1 hour 1 minute this session, and you are down ₹120.00.");
  assert.equal(message(check({ net: 250050, net_text: "₹2,500.50" })).endsWith("you are up ₹2,500.50."), true);
  assert.equal(message(check({ net: 0, net_text: "₹0.00" })).endsWith("you are even."), true);
});

test("each session keeps its own count", () => {
  assert.notEqual(key(check({})), key(check({ session: "2026-11-24T13:00:00+05:30" })));
});
