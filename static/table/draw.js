// Drawing the table from the state: the top bar, the seats, the piles, the hand, the action bar
// and the clock. Each function reads ``page.st`` and redraws its part; none changes the game.

import { cardName } from "./cards.js";
import { timerView } from "./clock.js";
import { controls, menuItems, sortButton } from "./controls.js";
import * as model from "./hand.js";
import { $, cardEl, el, initials, money } from "./render.js";
import { deal, groupLabel, isMarriage, jokers, myDeal, myTurn, pointsCurrent, yourMove } from "./state.js";
import { gameChips, noticeText, seatView, statusText } from "./text.js";

export function drawTop(page) {
  const table = page.st.table;
  // The prize the winner is paid (the pool less the rake), not the pool.
  const prize = $("prize");
  prize.replaceChildren(...(table.prize ? ["Prize ", el("span", "amount", money(table.prize, page.st.currency))] : []));
  $("status").textContent = statusText(page.st);
}


export function drawSeats(page) {
  const st = page.st;
  const box = $("seats");
  box.replaceChildren();
  for (const p of st.table.players) {
    const view = seatView(st, p, page.online());
    const seat = el("div", "seat" + (view.me ? " me" : "") + (view.turn ? " turn" : "") + (view.gone ? " gone" : ""));
    seat.dataset.player = p.player;
    seat.setAttribute("role", "group");
    seat.setAttribute("aria-label", view.label);
    const ring = el("div", "ring");
    const avatar = el("div", "avatar", initials(p.name));
    avatar.setAttribute("aria-hidden", "true");
    ring.append(avatar);
    const badges = el("span", "badges");
    for (const b of view.badges) badges.append(el("span", `badge ${b.cls}`, b.text));
    if (view.bank !== null) {
      const extra = el("span", "bank");
      extra.dataset.bank = String(view.bank);
      badges.append(extra);
    }
    if (view.dealer) {
      const b = el("span", "badge dealer", "D");
      b.title = "Dealer";
      seat.append(b);
    }
    const info = el("div", "info");
    const name = el("span", "name", view.name);
    name.title = view.name; // the whole name, where the seat cuts it short
    const score = el("span", view.chips ? "score game-chips" : "score", view.score);
    if (view.chips) score.title = `${view.score} ${gameChips(st)}`; // the mark before it is a game chip
    info.append(name, score, badges);
    seat.append(ring, info);
    box.append(seat);
  }
}

export function drawPiles(page) {
  const st = page.st;
  const d = deal(st);
  const j = jokers(st);
  const cut = $("cut");
  cut.replaceChildren(...(d ? [cardEl(d.cut, j)] : []));
  cut.setAttribute("aria-label", d ? `Cut joker: ${cardName(d.cut, j)}` : "No cut joker");
  $("closed-count").textContent = d ? String(d.closed_count) : "";
  $("draw-closed").classList.toggle("empty", !d); // between deals the felt is bare
  const top = d && d.open_pile.length ? d.open_pile[d.open_pile.length - 1] : null;
  const open = $("draw-open");
  open.replaceChildren(...(top ? [cardEl(top, j)] : []));
  open.classList.toggle("empty", !top);
  open.setAttribute("aria-label", top ? `Take the ${cardName(top, j)} from the open pile` : "Open pile is empty");
  $("open-count").textContent = d ? String(d.open_pile.length) : "0";
  const slot = $("finish-slot");
  const card = d && d.my_finish_card;
  slot.replaceChildren(...(card ? [cardEl(card, j)] : []));
  slot.classList.toggle("open", Boolean(myTurn(st) && d.drawn));
  slot.setAttribute("aria-label", card ? `Finish slot: ${cardName(card, j)}` : d && d.finish_slot ? "Finish slot: a card is in it" : "Finish slot");
  const list = $("open-list");
  list.replaceChildren();
  if (d) for (const code of d.open_pile) list.append(cardEl(code, j), " ");
  const toss = JSON.parse(page.store.getItem(`table-${st.tableId}-toss`) || "null");
  $("notice").textContent = noticeText(st, toss);
}

export function drawHand(page, focus) {
  const st = page.st;
  const box = $("hand");
  const hadFocus = box.contains(document.activeElement); // keep a keyboard player's place
  const mine = myDeal(st);
  $("hand-section").hidden = !mine;
  box.replaceChildren();
  if (!mine) return;
  const j = jokers(st);
  const picked = new Set(st.selected.map(({ g, i }) => `${g}:${i}`));
  st.groups.forEach((group, g) => {
    const label = groupLabel(st, group);
    const div = el("div", "group" + (label ? (label.valid ? " valid" : " invalid") : ""));
    const marriage = isMarriage(group, j);
    if (marriage) div.classList.add("marriage");
    div.dataset.group = String(g);
    div.setAttribute("role", "group");
    div.setAttribute("aria-label", `Group ${g + 1}: ${label ? label.label : "not checked yet"}`);
    const text = (label ? label.label + (label.valid ? " ✓" : "") : "…") + (marriage ? " · Marriage" : "");
    const chip = el("span", "glabel", text);
    chip.setAttribute("aria-hidden", "true");
    const cards = el("div", "cards");
    group.forEach((code, i) => {
      const button = cardEl(code, j, "button");
      button.type = "button";
      const on = picked.has(`${g}:${i}`);
      if (on) button.classList.add("selected");
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.setAttribute("aria-label", `${cardName(code, j)}, group ${g + 1}`);
      button.dataset.g = String(g);
      button.dataset.i = String(i);
      cards.append(button);
    });
    div.append(chip, cards);
    box.append(div);
  });
  fitHand(st);
  $("points").textContent = st.points === null ? "Points …" : `Points ${st.points}${pointsCurrent(st) ? "" : " …"}`;
  if ((focus || hadFocus) && st.focusAt) {
    const target = box.querySelector(`button[data-g="${st.focusAt.g}"][data-i="${st.focusAt.i}"]`);
    if (target) target.focus();
  }
}

/** Overlap the cards so the whole hand fits the width in as few rows as it can (two, or three
    for 21 cards), with at least a corner index of each card showing. Groups do not pack as
    evenly as the estimate assumes (five groups of 13 cards can wrap to a third row, which
    pushes the buttons off a phone's screen), so the overlap then tightens until they take two
    rows (three for 21 cards). */
function fitHand(st) {
  const box = $("hand");
  const width = box.clientWidth;
  const probe = box.querySelector("button.card");
  if (!width || !probe) return;
  const card = probe.getBoundingClientRect().width;
  const n = model.cardsOf(st.groups).length;
  const k = st.groups.length;
  const most = card * 0.78;
  const least = Math.min(most, card * 0.36);
  let visible = least;
  let planned = 3;
  for (const rows of [1, 2, 3]) {
    const v = (rows * width * 0.92 - k * (card + 10)) / Math.max(1, n - k);
    if (v >= card * 0.5 || rows === 3) {
      visible = Math.max(least, Math.min(most, v));
      planned = rows;
      break;
    }
  }
  box.style.setProperty("--overlap", `${Math.round(visible - card)}px`);
  const allowed = Math.max(planned, n > 13 ? 3 : 2);
  while (rowsOf(box) > allowed && visible > least) {
    visible = Math.max(least, visible - 2);
    box.style.setProperty("--overlap", `${Math.round(visible - card)}px`);
  }
}

/** How many rows the hand's groups take as laid out. */
function rowsOf(box) {
  return new Set([...box.children].map((group) => group.offsetTop)).size;
}

export function drawButtons(page) {
  const now = controls(page.st);
  $("draw-closed").disabled = !now.drawClosed;
  $("draw-open").disabled = !now.drawOpen;
  for (const [id, { visible, enabled }] of Object.entries(now.buttons)) {
    const b = $(id);
    b.hidden = !visible;
    b.disabled = !enabled;
  }
  const sort = sortButton(page.st);
  $("sort").textContent = sort.label;
  $("sort").title = sort.title;
  for (const [id, { visible, text }] of Object.entries(menuItems(page.st))) {
    const b = $(id);
    b.textContent = text;
    b.hidden = !visible;
  }
}

/** The clock on the felt, the turn's ring and extra time; between deals the next deal's countdown. */
export function drawClock(page) {
  const st = page.st;
  if (!st.table) return;
  const view = timerView(st, Date.now() + st.clockOffset);
  if (view.turn) {
    const seat = document.querySelector(`.seat[data-player="${view.turn.player}"]`);
    if (seat) {
      seat.classList.toggle("extra", view.turn.extra);
      seat.querySelector(".ring").style.setProperty("--left", String(view.turn.fraction));
      const bankEl = seat.querySelector(".bank");
      if (bankEl) bankEl.textContent = view.turn.bank;
    }
  }
  if (view.nextDeal) {
    const next = $("next-deal");
    if (next) next.textContent = view.nextDeal;
  }
  $("timer").textContent = view.text;
}

/** On the player's turn: the glow, the tab's title, and (if turned on) a buzz and a beep. */
export function turnCue(page) {
  const st = page.st;
  const turn = yourMove(st);
  page.app.classList.toggle("your-turn", turn);
  document.title = turn ? `● Your turn · ${page.title}` : page.title;
  const d = deal(st);
  const key = turn ? `${d.commitment}:${d.deadline_ms}` : "";
  if (turn && key !== st.lastTurnKey && localStorage.getItem("rummy-buzz") === "1") {
    if (navigator.vibrate) navigator.vibrate(150);
    beep();
  }
  st.lastTurnKey = key;
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    gain.gain.value = 0.05;
    tone.frequency.value = 880;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.12);
  } catch {
    // no sound available
  }
}
