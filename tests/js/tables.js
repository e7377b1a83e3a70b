// Snapshots of a table, as the server sends them (games/views_state.py), for the page's tests.
import { newState } from "../../static/table/state.js";

export const WORDS = {
  event: {
    drew: "drew",
    discarded: "discarded",
    standings: "The scores after the deal are in",
    wrong_show_reason: "Why the show was wrong",
    chips_moved: "The game chips moved to the deal's winner",
    tie_breaker: "A tie-breaker deal decides between the players tied for the most game chips",
    settled: "The deal was settled",
    game_started: "The game started",
  },
  unit: { game_chips: "game chips" },
  outcome: { first_drop: "First drop", wrong_show: "Wrong show" },
  pile: { closed: "closed pile", open: "open pile" },
};

export function player(id, fields = {}) {
  return { player: id, name: `name${id}`, status: "in", score: 0, held: null, auto_drop: false, leaving: false, connected: true, ...fields };
}

/** A deal in play as player "1" sees it: "1" holds the hand, "2" is to play unless told. */
export function dealOf(fields = {}) {
  return {
    phase: "play",
    players: [
      { player: "1", cards: 13, status: "in", score: null, extra_ms: 30000 },
      { player: "2", cards: 13, status: "in", score: null, extra_ms: 30000 },
    ],
    dealer: "1",
    turn: "2",
    waiting_for: ["2"],
    deadline_ms: 100000,
    commitment: "c1",
    cut: "7S",
    open_pile: ["9D"],
    closed_count: 80,
    hand: ["2H", "3H", "4H", "KS", "7D"],
    saved_grouping: null,
    drawn: false,
    finish_slot: false,
    my_finish_card: null,
    result: null,
    ...fields,
  };
}

export function tableOf(fields = {}) {
  return {
    phase: "playing",
    status: "playing",
    waiting_for: "move",
    deadline_ms: null,
    deal_number: 1,
    players: [player("1"), player("2")],
    prize: 1700,
    rejoin_open: [],
    split_offer: null,
    winner: null,
    payouts: [],
    last_result: null,
    deal: dealOf(),
    ...fields,
  };
}

/** The state of player "1" at ``table`` (a practice pool table unless told). */
export function stateAt(table, config = {}) {
  const st = newState({ table: "5", me: "1", currency: "CHIPS", variant: "pool101", words: WORDS, ...config });
  st.table = table;
  return st;
}
