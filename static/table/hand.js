// The hand model: the player's arrangement of their cards as a list of groups of card codes.
// Pure functions only (each returns a new arrangement); rendering and the server live elsewhere.

import { isJoker, rankOf, SUITS } from "./cards.js";

const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // alternating colours, as players lay them out
const COLOUR_ORDER = { H: 0, D: 0, S: 1, C: 1 };

function copy(groups) {
  return groups.map((group) => [...group]);
}

function tidy(groups) {
  return groups.filter((group) => group.length);
}

/** Every card of the arrangement, in order. */
export function cardsOf(groups) {
  return groups.flat();
}

/**
 * Fit an arrangement to the hand the server says the player holds: cards no longer held go,
 * new cards (a draw) join the last group, or a new group of their own with ``looseApart``.
 */
export function reconcile(groups, hand, looseApart = false) {
  const left = [...hand];
  const take = (code) => {
    const at = left.indexOf(code);
    if (at < 0) return false;
    left.splice(at, 1);
    return true;
  };
  const next = tidy(groups.map((group) => group.filter(take)));
  if (left.length) {
    if (!next.length || looseApart) next.push([]);
    next[next.length - 1].push(...left);
  }
  return next;
}

/**
 * Move the card at ``from`` ({g, i}) to group ``to`` at ``index`` (the end by default).
 * ``to`` may be -1 (a new first group) or ``groups.length`` (a new last group).
 * Returns {groups, at: {g, i}}, the card's new place.
 */
export function moveCard(groups, from, to, index = null) {
  let next = copy(groups);
  const [code] = next[from.g].splice(from.i, 1);
  if (to < 0) {
    next.unshift([]);
    to = 0;
  } else if (to >= next.length) {
    next.push([]);
    to = next.length - 1;
  }
  const target = next[to];
  const i = index === null ? target.length : Math.max(0, Math.min(index, target.length));
  target.splice(i, 0, code);
  const before = next.slice(0, to).filter((group) => group.length === 0).length;
  next = tidy(next);
  return { groups: next, at: { g: to - before, i } };
}

/** Put the selected cards (a list of {g, i}) together in a new group at the end. */
export function groupSelected(groups, picks) {
  if (!picks.length) return copy(groups);
  const chosen = new Set(picks.map(({ g, i }) => `${g}:${i}`));
  const taken = [];
  const rest = groups.map((group, g) =>
    group.filter((code, i) => {
      if (chosen.has(`${g}:${i}`)) {
        taken.push(code);
        return false;
      }
      return true;
    }),
  );
  return [...tidy(rest), taken];
}

/** Break group ``g`` up: its cards go into a loose group at the end (with other loose cards). */
export function ungroup(groups, g) {
  if (!groups[g]) return copy(groups);
  const next = copy(groups);
  const [loose] = next.splice(g, 1);
  return [...tidy(next), loose];
}

function bySuit(a, b) {
  return SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]] || rankOf(a) - rankOf(b);
}

/**
 * Sort by suit: one group per suit (spades, hearts, clubs, diamonds), each by rank, and the
 * jokers of the deal in a group of their own at the end.
 */
export function sortBySuit(hand, jokers = null) {
  const wild = hand.filter((code) => isJoker(code, jokers));
  const plain = hand.filter((code) => !isJoker(code, jokers)).sort(bySuit);
  const groups = [];
  for (const suit of Object.keys(SUIT_ORDER)) {
    const group = plain.filter((code) => code[1] === suit);
    if (group.length) groups.push(group);
  }
  if (wild.length) groups.push(wild);
  return groups;
}

/**
 * Sort by colour and rank: the red cards in one group and the black in another, each by rank
 * (equal ranks side by side, which shows sets), jokers apart at the end.
 */
export function sortByColour(hand, jokers = null) {
  const wild = hand.filter((code) => isJoker(code, jokers));
  const plain = hand.filter((code) => !isJoker(code, jokers));
  const order = (a, b) => rankOf(a) - rankOf(b) || SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]];
  const groups = [0, 1]
    .map((colour) => plain.filter((code) => COLOUR_ORDER[code[1]] === colour).sort(order))
    .filter((group) => group.length);
  if (wild.length) groups.push(wild);
  return groups;
}

/**
 * Auto-arrange's rule: take the solver's arrangement only when it scores strictly lower than
 * the player's own (the scores are the engine's); otherwise keep the player's groups.
 */
export function better(current, currentPoints, proposal, proposalPoints) {
  if (currentPoints === null || currentPoints === undefined) return { groups: copy(proposal), changed: true };
  if (proposalPoints < currentPoints) return { groups: copy(proposal), changed: true };
  return { groups: copy(current), changed: false };
}

/** The place of the card after ``at`` in reading order (keyboard navigation), or null. */
export function step(groups, at, delta) {
  const flat = [];
  groups.forEach((group, g) => group.forEach((_, i) => flat.push({ g, i })));
  const k = flat.findIndex((p) => p.g === at.g && p.i === at.i);
  if (k < 0) return flat[0] || null;
  return flat[Math.max(0, Math.min(flat.length - 1, k + delta))];
}

export { SUITS };
