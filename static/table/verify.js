// Shuffle verification in the browser (R-DEAL-5), with WebCrypto only. The algorithm is the
// engine's (games/engine/shuffle.py, docs/PROTOCOL.md "Checking a shuffle"):
//   stream block k = SHA-256(seed || k as 8 bytes big-endian); draws are its 4-byte big-endian
//   words; an index below n by rejection (limit = 2^32 - 2^32 mod n); Fisher-Yates from the end
//   over the shoe (per pack: spades A..K, hearts, diamonds, clubs, then the printed joker).
// Then the deal: hand of seat s = deck[s*size .. (s+1)*size), the cut card next, then the open card.

import { RANKS } from "./cards.js";

const SHOE_SUITS = "SHDC";

export function hexToBytes(hex) {
  if (!/^([0-9a-f]{2})+$/i.test(hex)) throw new Error("not hex");
  const out = new Uint8Array(hex.length / 2);
  for (let k = 0; k < out.length; k++) out[k] = parseInt(hex.slice(2 * k, 2 * k + 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(bytes) {
  return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
}

/** The unshuffled cards of ``packs`` packs, in the engine's order. */
export function shoe(packs) {
  const pack = [];
  for (const suit of SHOE_SUITS) for (const rank of RANKS) pack.push(rank + suit);
  pack.push("PJ");
  return Array.from({ length: packs }, () => pack).flat();
}

/** The deck order for a seed (bytes): a Promise of card codes, top first. */
export async function shuffledDeck(seed, packs) {
  const deck = shoe(packs);
  let block = new Uint8Array(0);
  let offset = 32;
  let counter = 0;
  const draw = async () => {
    if (offset >= 32) {
      const input = new Uint8Array(seed.length + 8);
      input.set(seed);
      new DataView(input.buffer).setBigUint64(seed.length, BigInt(counter++));
      block = await sha256(input);
      offset = 0;
    }
    const r = new DataView(block.buffer).getUint32(offset);
    offset += 4;
    return r;
  };
  const RANGE = 2 ** 32;
  for (let i = deck.length - 1; i > 0; i--) {
    const n = i + 1;
    const limit = RANGE - (RANGE % n);
    let r = await draw();
    while (r >= limit) r = await draw();
    const j = r % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function sameCards(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

/**
 * Check a finished deal: ``{seed, commitment, packs, handSize, seat, cut, dealt}`` (``dealt``
 * may be null when this browser did not see the deal start). Returns
 * ``{ok, commitment, cut, hand, reason}``: each check true, false, or null (not checked).
 */
export async function verifyDeal({ seed, commitment, packs, handSize, seat, players, cut, dealt }) {
  const bytes = hexToBytes(seed);
  const out = { ok: false, commitment: null, cut: null, hand: null, reason: "" };
  out.commitment = bytesToHex(await sha256(bytes)) === commitment;
  if (!out.commitment) {
    out.reason = "the seed does not match the commitment published before the deal";
    return out;
  }
  const deck = await shuffledDeck(bytes, packs);
  out.cut = deck[players * handSize] === cut;
  if (dealt) out.hand = sameCards(deck.slice(seat * handSize, (seat + 1) * handSize), dealt);
  out.ok = out.commitment && out.cut && out.hand !== false;
  if (!out.cut) out.reason = "the cut card is not the one this seed deals";
  else if (out.hand === false) out.reason = "your dealt cards are not the ones this seed deals";
  return out;
}
