// Cards for people: text, spoken names and joker marks. Pure functions, no DOM.
// A card code is rank + suit ("7H", "TD", "AS") or "PJ" for the printed joker (docs/ENGINE.md).

export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
const SUIT = {
  S: { symbol: "♠", colour: "black", name: "spades" },
  H: { symbol: "♥", colour: "red", name: "hearts" },
  D: { symbol: "♦", colour: "red", name: "diamonds" },
  C: { symbol: "♣", colour: "black", name: "clubs" },
};
const RANK_TEXT = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const RANK_NAME = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

/** 1 (ace) to 13 (king); 0 for the printed joker. */
export function rankOf(code) {
  return code === "PJ" ? 0 : RANKS.indexOf(code[0]) + 1;
}

export function suitOf(code) {
  return code === "PJ" ? null : code[1];
}

export function suitInfo(code) {
  return SUIT[suitOf(code)] || null;
}

/** The corner index: "10", "K", "JKR". */
export function rankText(code) {
  return code === "PJ" ? "JKR" : RANK_TEXT[code[0]] || code[0];
}

export function cardText(code) {
  return code === "PJ" ? "JKR" : rankText(code) + SUIT[code[1]].symbol;
}

const CARD_CODE = /\b(?:PJ|[A2-9TJQK][SHDC])\b/g;

/** Card codes in a server's words as a player writes them: "8D TD JH" -> "8♦ 10♦ J♥" (games/words.py). */
export function cardsInWords(text) {
  return String(text).replace(CARD_CODE, cardText);
}

/**
 * The jokers of a deal from its cut card (R-DEAL-2/3, R-21-2), as the engine derives them:
 * a printed-joker cut makes aces wild; on 21-card tables the value joker is the cut (the ace
 * of spades for a printed joker), the upper and lower jokers are one rank up and down in its suit.
 */
export function jokersFromCut(cut, valueCards = false) {
  if (!cut) return null;
  const base = cut === "PJ" ? "AS" : cut;
  const rank = rankOf(base);
  const jokers = { cut, wildRank: rank, value: null, upper: null, lower: null };
  if (valueCards) {
    const suit = base[1];
    jokers.value = base;
    jokers.upper = RANKS[rank % 13] + suit;
    jokers.lower = RANKS[(rank + 11) % 13] + suit;
  }
  return jokers;
}

/** The marks a card carries in this deal: "printed joker", "wild joker", "value joker", "upper joker", "lower joker". */
export function marksOf(code, jokers) {
  if (code === "PJ") return ["printed joker"];
  if (!jokers) return [];
  const marks = [];
  if (code === jokers.upper) marks.push("upper joker");
  else if (code === jokers.lower) marks.push("lower joker");
  else if (rankOf(code) === jokers.wildRank) marks.push(code === jokers.value ? "value joker" : "wild joker");
  return marks;
}

/** The letter a joker carries on the card, where the fan of a hand leaves it visible: J for a
    wild or the printed joker, V, U and L for the 21-card value, upper and lower jokers; null
    for a card that is no joker. */
export function markOf(code, jokers) {
  const [kind] = marksOf(code, jokers);
  if (!kind) return null;
  const text = { "value joker": "V", "upper joker": "U", "lower joker": "L" }[kind] || "J";
  return { text, kind };
}

export function isJoker(code, jokers) {
  return marksOf(code, jokers).length > 0;
}

/** The accessible name, a sentence: "7 of hearts, wild joker". */
export function cardName(code, jokers = null) {
  if (code === "PJ") return "printed joker";
  const name = `${RANK_NAME[code[0]] || code[0]} of ${SUIT[code[1]].name}`;
  const marks = marksOf(code, jokers);
  return marks.length ? `${name}, ${marks.join(", ")}` : name;
}
