// The table's frames and events (docs/PROTOCOL.md) turned into state: snapshots, events, the
// acks that carry the engine's labels, errors; the table log; saving the grouping.

import { Connection } from "./connection.js";
import { cardsOf } from "./hand.js";
import { $ } from "./render.js";
import { applyPresence, myDeal, takeLabels } from "./state.js";
import { logLine, MOVES, noteOf, plain, unlogged, wrongShowText } from "./text.js";
import { toast } from "./toast.js";

/** Open the table's connection; its frames change ``page.st`` and redraw the page. */
export function connect(page) {
  const st = page.st;
  return new Connection(st.tableId, {
    status(state) {
      if (state === "open") $("conn-banner").hidden = true;
      if (state === "lost") $("conn-banner").hidden = false;
      if (state === "login") $("status").textContent = "Log in to play.";
      if (state === "gone") $("status").textContent = "There is no such table.";
    },
    snapshot(frame) {
      st.clockOffset = frame.ms - Date.now();
      st.table = frame.table;
      page.render();
    },
    event(frame) {
      onEvent(page, frame);
    },
    presence(frame) {
      if (applyPresence(st, frame)) page.render();
    },
    ack(frame, entry) {
      if (frame.grouping && takeLabels(st, frame.grouping, entry && entry.context && entry.context.groups)) page.drawHand(false);
    },
    error(frame, entry) {
      const kind = entry && entry.frame ? entry.frame.type : null;
      if (frame.error === "rate_limited") return;
      if (kind === "save_grouping") return; // a save refused (out of the deal): nothing to tell
      if (frame.error === "insufficient_balance" && st.currency === "CHIPS") $("topup").hidden = false;
      toast(plain(frame.message || frame.error));
    },
  });
}

function onEvent(page, frame) {
  const st = page.st;
  const store = page.store;
  const data = frame.data || {};
  if (frame.type === "deal_started") {
    store.setItem(`table-${st.tableId}-commitment`, data.commitment);
    st.lastMove = null;
  }
  if (MOVES.has(frame.type) && data.player && data.player !== st.me) st.lastMove = frame;
  if (frame.type === "dealt") {
    const commitment = store.getItem(`table-${st.tableId}-commitment`);
    if (commitment) store.setItem(`dealt-${commitment}`, JSON.stringify(data.hand));
  }
  if (frame.type === "toss") {
    store.setItem(`table-${st.tableId}-toss`, JSON.stringify(data));
  }
  if (frame.type === "wrong_show_reason") toast(wrongShowText(data.reason));
  // A seat topped up or stood up is told over the table, not only in the log; not when the
  // event is an old one replayed before the page's first snapshot.
  const note = noteOf(st, frame);
  if (note && st.table) toast(note, "table-note", true);
  if (frame.type === "voided" || frame.type === "cancelled") {
    st.endedWhy = data.why || "";
    st.voided = frame.type === "voided";
  }
  log(st, frame);
}

// The log's lines, with their events: named again once a snapshot brings the players' names
// (a reconnect replays events before the snapshot that names their players).
const logged = new WeakMap();

function log(st, event) {
  if (unlogged(event, st.me)) return;
  const li = document.createElement("li");
  li.textContent = logLine(st, event);
  logged.set(li, event);
  const list = $("log");
  list.prepend(li);
  while (list.children.length > 60) list.lastChild.remove();
}

/** Word the log's lines again with the names a snapshot brought. */
export function renameLog(st) {
  for (const li of $("log").children) {
    const event = logged.get(li);
    if (event) li.textContent = logLine(st, event);
  }
}

let saveTimer = null;

/** Send the grouping to be saved and labelled by the engine, once the player pauses. */
export function scheduleSave(page) {
  const st = page.st;
  clearTimeout(saveTimer);
  if (!myDeal(st)) return;
  saveTimer = setTimeout(() => {
    const groups = cardsOf(st.groups).length ? st.groups.map((g) => [...g]) : [];
    if (groups.length) page.conn.act("save_grouping", { groups }, { groups });
  }, 350);
}
