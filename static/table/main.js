// The live table page (docs/PROTOCOL.md, docs/ARCHITECTURE.md "The table page"): the page's
// script, which wires the modules. Plain ES modules, no build step:
//   state.js     the state object and what follows from it (pure)
//   text.js      the page's words (pure)          controls.js  which buttons show (pure)
//   clock.js     the timer (pure)                 hand.js      the hand model (pure)
//   protocol.js  frames and events into state     connection.js  the websocket and versions
//   draw.js      the table drawn from the state   sheets.js    the show, offers, results
//   input.js     tap, drag, keyboard: moves       dialogs.js   menu, score card, last deal
//   cards.js, money.js, render.js, verify.js, reality.js: cards, money, card drawing, the
//   shuffle check, the reality check

import * as draw from "./draw.js";
import * as dialogs from "./dialogs.js";
import * as input from "./input.js";
import { connect, renameLog, scheduleSave } from "./protocol.js";
import { $ } from "./render.js";
import * as sheets from "./sheets.js";
import { deal, newState, setGroups, settle } from "./state.js";
import { gameOver, tieBreakText } from "./text.js";
import { clearToast, toast } from "./toast.js";

const app = $("table-app");

const page = {
  app,
  title: document.title,
  store: sessionStorage,
  st: newState({
    table: app.dataset.table,
    me: app.dataset.me,
    currency: app.dataset.currency,
    variant: app.dataset.variant,
    entryFee: Number(app.dataset.entryFee || 0),
    seatHold: Number(app.dataset.seatHold || 0),
    words: JSON.parse(app.dataset.words || "{}"),
  }),
  conn: null,
  /** The player's own connection is open (their seat is never "Offline" to them then). */
  online: () => Boolean(page.conn && page.conn.ws && page.conn.ws.readyState === WebSocket.OPEN),
  act(type, fields = {}) {
    clearToast("action-error");
    return page.conn.act(type, fields, fields);
  },
  /** A new arrangement of the hand: drawn, and saved to be labelled unless ``save`` is false. */
  setGroups(groups, save = true) {
    setGroups(page.st, groups);
    page.drawHand(false);
    page.drawButtons();
    if (save) scheduleSave(page);
  },
  drawHand: (focus) => draw.drawHand(page, focus),
  drawButtons: () => draw.drawButtons(page),
  render,
};

function render() {
  const st = page.st;
  if (!st.table) return;
  const changed = settle(st);
  if (changed.renamed) renameLog(st);
  if (changed.newDeal) $("topup").hidden = true;
  if (changed.newDeal && deal(st)) {
    // A new deal: the messages and the result of the last one go. (Not when a deal ends: a
    // wrong show that ends the deal is told until the next one starts.)
    clearToast("action-error");
    clearToast("arrange-error");
    $("result").hidden = true;
  }
  if (changed.save) scheduleSave(page);
  if (changed.tieBreak) toast(tieBreakText(st), "table-note", true);
  if (gameOver(st.table)) clearToast("table-note"); // the game-over sheet tells how it ended
  draw.drawTop(page);
  draw.drawSeats(page);
  draw.drawPiles(page);
  draw.drawHand(page, false);
  draw.drawButtons(page);
  sheets.drawShow(page);
  sheets.drawOffers(page);
  sheets.drawResult(page);
  sheets.drawGameOver(page);
  draw.turnCue(page);
  draw.drawClock(page);
}

page.conn = connect(page);
input.install(page);
dialogs.install(page);
setInterval(() => draw.drawClock(page), 250);
setInterval(() => page.conn.send({ type: "ping" }), 20000);
window.addEventListener("online", () => page.conn.reconnectIfClosed());
// A phone turned on its side (or a window resized) fans the hand out again for its new width.
let refit = 0;
window.addEventListener("resize", () => {
  clearTimeout(refit);
  refit = setTimeout(() => draw.drawHand(page, false), 150);
});
// A first visit asks for the log from the start (up to the server's replay limit), so the
// toss and the deal's commitment are seen even when the game began before the page loaded.
if (page.conn.version === null) page.conn.setVersion(0);
page.conn.connect();
