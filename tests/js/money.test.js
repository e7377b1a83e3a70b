// Money and chips as the browser writes them: the same words as the server's formatter
// (wallet/money.py), rupees the Indian way, chips never with the rupee sign.
import assert from "node:assert/strict";
import { test } from "node:test";

import { formatMoney } from "../../static/table/money.js";

test("rupees are written the Indian way, in lakhs and crores", () => {
  assert.equal(formatMoney(12500050, "INR"), "₹1,25,000.50");
  assert.equal(formatMoney(10, "INR"), "₹0.10");
});

test("chips are counted as the server counts them: whole chips bare, else two decimals, never ₹", () => {
  assert.equal(formatMoney(1000000, "CHIPS"), "10,000 chips");
  assert.equal(formatMoney(980, "CHIPS"), "9.80 chips");
  assert.equal(formatMoney(1050, "CHIPS"), "10.50 chips");
  assert.equal(formatMoney(10, "CHIPS"), "0.10 chips");
  assert.equal(formatMoney(null, "CHIPS"), "");
});
