// The browser's shuffle check re-derives the engine's deck (R-DEAL-5). The fixture is written by
// the Python engine (tests/engine/test_shuffle_js.py checks it is still the engine's answer).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { hexToBytes, shoe, shuffledDeck, verifyDeal } from "../../static/table/verify.js";

const fixture = JSON.parse(readFileSync(new URL("./shuffle_fixture.json", import.meta.url)));

test("the shoe is the engine's order: spades, hearts, diamonds, clubs, then the printed joker", () => {
  const pack = shoe(1);
  assert.equal(pack.length, 53);
  assert.deepEqual(pack.slice(0, 3), ["AS", "2S", "3S"]);
  assert.equal(pack[13], "AH");
  assert.equal(pack[52], "PJ");
});

for (const packs of ["1", "2", "3"]) {
  test(`the deck of ${packs} pack(s) for a fixed seed is the Python engine's`, async () => {
    const deck = await shuffledDeck(hexToBytes(fixture.seed), Number(packs));
    assert.deepEqual(deck, fixture.decks[packs]);
  });
}

test("a deal checks out: commitment, cut card and the player's own cards", async () => {
  const deck = fixture.decks["2"];
  const info = { seed: fixture.seed, commitment: fixture.commitment, packs: 2, handSize: 13, players: 2, seat: 1, cut: deck[26] };
  const ok = await verifyDeal({ ...info, dealt: deck.slice(13, 26) });
  assert.equal(ok.ok, true);
  assert.equal(ok.hand, true);
  const wrongHand = await verifyDeal({ ...info, dealt: deck.slice(0, 13) });
  assert.equal(wrongHand.ok, false);
  assert.match(wrongHand.reason, /dealt cards/);
  const wrongSeed = await verifyDeal({ ...info, commitment: "00".repeat(32), dealt: null });
  assert.equal(wrongSeed.ok, false);
  assert.equal(wrongSeed.commitment, false);
  const unseen = await verifyDeal({ ...info, dealt: null });
  assert.equal(unseen.ok, true);
  assert.equal(unseen.hand, null);
});
