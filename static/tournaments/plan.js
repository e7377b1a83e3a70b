// What a tournament page does with each frame of its socket, as pure functions (no DOM, no
// timers): tested with `node --test tests/js/`. main.js carries the plans out.

/** Milliseconds to wait before fetching the live part after a change: a burst of changes
 * (a round's tables ending one after another, many players registering) is one fetch, and
 * pages do not all fetch in the same instant. `random` is in [0, 1). */
export function refreshDelay(event, random) {
  const soon = event === "round_seated" || event === "started" || event === "finished";
  const base = soon ? 200 : 1200;
  return Math.round(base + random * (soon ? 400 : 1800));
}

/** A socket's next reconnection delay, in ms: 0.5 s, 1 s, 2 s ... up to 15 s, with jitter. */
export function reconnectDelay(attempt, random) {
  const base = Math.min(15000, 500 * 2 ** Math.max(0, attempt));
  return Math.round(base * (0.75 + random * 0.5));
}

/**
 * The plan for one frame, given the version the page shows.
 * Answers {version, count, seat, refresh}: the version the page will show, the players'
 * count to write now (or null), the table to offer at once (or null), and whether to fetch
 * the live part.
 */
export function planFor(frame, shown) {
  const plan = { version: shown, count: null, seat: null, refresh: false, event: null };
  if (frame.type === "tournament") {
    plan.refresh = frame.v > shown;
    plan.version = Math.max(shown, frame.v);
    plan.seat = frame.table ?? null;
    return plan;
  }
  if (frame.type === "seated") {
    plan.seat = frame.table;
    return plan;
  }
  if (frame.type !== "changed" || frame.v <= shown) return plan;
  plan.version = frame.v;
  plan.event = frame.event;
  if (typeof frame.data?.players === "number" && (frame.event === "registered" || frame.event === "unregistered")) {
    plan.count = frame.data.players;
  }
  plan.refresh = true;
  return plan;
}
