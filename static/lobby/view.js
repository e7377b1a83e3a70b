// The lobby's live view (games/templates/games/lobby.html): which format's tab shows, what the
// page says of each stake, and when to ask the server again. Pure functions, no DOM; the words
// come from the server's answer (games/lobby.py), never made up here.

/** Where the player's last chosen tab is kept. */
export const TAB_KEY = "rummy-lobby-tab";
/** Seconds between two refreshes of a lobby in view. */
export const REFRESH_MS = 5000;

/**
 * The tab to show: the one holding a refused "Play now" (its error is there), else the one the
 * address names ("#deals"), else the last one chosen, else the first with a stake on offer.
 * ``formats``: ``[{format, stakes}]`` in the order of the tabs.
 */
export function chooseTab(formats, { hash = "", saved = null, error = null } = {}) {
  const codes = formats.map((f) => f.format);
  const named = String(hash).replace(/^#(format-)?/, "");
  for (const code of [error, named, saved]) if (code && codes.includes(code)) return code;
  const offered = formats.find((f) => f.stakes > 0);
  return offered ? offered.format : codes[0] || null;
}

/** The tab after ``code`` in ``codes`` in the direction of an arrow key (wrapping round), or the
    first or last for Home and End; null for any other key. */
export function tabAfter(codes, code, key) {
  const at = codes.indexOf(code);
  if (key === "Home") return codes[0];
  if (key === "End") return codes[codes.length - 1];
  if (key === "ArrowRight") return codes[(at + 1) % codes.length];
  if (key === "ArrowLeft") return codes[(at - 1 + codes.length) % codes.length];
  return null;
}

/**
 * What a new answer changes on the page: ``who`` (each stake's players in words, and whether
 * nobody sits there: ``{text, idle}`` by template id), ``counts`` (the players of each format, by format) and ``mine`` (the player's tables to
 * go back to: ``{href, text, after}``). ``tableUrl`` is a table's address with the id 0.
 */
export function liveView(answer, tableUrl) {
  const who = {};
  const counts = {};
  for (const section of answer.formats) {
    counts[section.format] = String(section.playing);
    for (const row of [...section.money, ...section.practice]) who[row.id] = { text: row.who_words, idle: !(row.playing || row.waiting) };
  }
  const mine = answer.mine.map((t) => ({
    href: tableUrl.replace(/\/0\/$/, `/${t.table}/`),
    text: `Back to table ${t.table}`,
    after: ` ${t.name} (${t.status_words})`,
  }));
  return { who, counts, mine };
}

/** Milliseconds until the next refresh: none while the page is hidden (it refreshes when seen
    again), and longer after each failure in a row, up to a minute. */
export function nextDelay(visible, failures = 0) {
  if (!visible) return null;
  return Math.min(60000, REFRESH_MS * 2 ** Math.max(0, failures));
}
