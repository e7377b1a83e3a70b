// The timer: what the clock on the felt says and how full the turn's ring is. Pure functions,
// no DOM; ``now`` is the server's time (the browser's clock corrected by the snapshot's).

import { deal } from "./state.js";

const seconds = (ms) => Math.ceil(ms / 1000);

/** A time left as minutes and seconds: 592000 ms -> "9:52". */
export function minutes(ms) {
  const left = seconds(Math.max(0, ms));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** What the table waits for between deals and before the game, in words with the time left. */
const WAITS = {
  players: (left) => `The table closes in ${left} if nobody comes.`, // R-MONEY-4: cancelled, fees back
  countdown: (left) => `The game starts in ${left}.`,
  pause: (left) => `The next deal starts in ${left}.`,
  decisions: (left) => `Rejoin and split decisions close in ${left}.`,
};

/**
 * The clock at ``now``: ``{text, turn, nextDeal}``. ``turn`` (during a turn) is
 * ``{player, extra, fraction, bank}``: the seat whose ring runs, whether it is in its extra
 * time, the fraction of the ring left and the extra time's words; ``nextDeal`` (between deals)
 * the countdown's sentence. Outside a deal the text says what the table waits for, in words. Remembers the turn's full lengths in ``st.turnClock``.
 */
export function timerView(st, now) {
  const table = st.table;
  const out = { text: "", turn: null, nextDeal: null };
  if (!table) return out;
  const d = deal(st);
  const deadline = d ? d.deadline_ms : table.deadline_ms;
  if (!deadline) return out;
  const left = Math.max(0, deadline - now);
  out.text = `${seconds(left)} s`;
  if (d && (d.phase === "play" || d.phase === "declaring")) {
    const turnPlayer = d.players.find((p) => p.player === d.turn);
    const bank = d.phase === "play" && turnPlayer ? turnPlayer.extra_ms : 0;
    const moveLeft = Math.max(0, left - bank);
    const key = `${d.turn}:${deadline}`;
    if (!st.turnClock || st.turnClock.key !== key) st.turnClock = { key, move: Math.max(moveLeft, 1), bank: Math.max(bank, 1) };
    const extra = moveLeft <= 0 && bank > 0;
    const fraction = extra ? left / st.turnClock.bank : moveLeft / st.turnClock.move;
    out.turn = {
      player: d.turn,
      extra,
      fraction: Math.max(0, Math.min(1, fraction)),
      bank: bank > 0 ? `+${seconds(extra ? left : bank)}s` : "",
    };
    out.text = extra ? `Extra time ${seconds(left)} s` : `${seconds(moveLeft)} s${bank ? ` · +${seconds(bank)} s extra` : ""}`;
  } else if (!d && WAITS[table.waiting_for]) {
    out.text = WAITS[table.waiting_for](minutes(left));
    if (table.waiting_for === "pause") out.nextDeal = out.text;
  }
  return out;
}
