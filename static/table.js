// The live table page (docs/PROTOCOL.md). Plain ES modules, no build step:
//   table/connection.js  frames and versions      table/hand.js    the hand model (pure)
//   table/cards.js       card names and jokers     table/render.js  drawing
//   table/money.js       money and chips           table/verify.js  the shuffle check (WebCrypto)

import { cardName, cardText, jokersFromCut } from "./table/cards.js";
import { Connection } from "./table/connection.js";
import * as model from "./table/hand.js";
import { $, cardEl, handCells, initials, money, resultBody } from "./table/render.js";
import { verifyDeal } from "./table/verify.js";
import * as reality from "./table/reality.js";

const app = $("table-app");
const TABLE = app.dataset.table;
const ME = app.dataset.me;
const CURRENCY = app.dataset.currency;
const VARIANT = app.dataset.variant;
const ENTRY_FEE = Number(app.dataset.entryFee || 0);
const WORDS = JSON.parse(app.dataset.words || "{}");
const TITLE = document.title;
const store = sessionStorage;

const st = {
  table: null,
  clockOffset: 0,
  groups: [],
  selected: [], // [{g, i}]
  focusAt: null,
  labels: new Map(), // group key -> label from the server
  points: null,
  pointsKey: "",
  dealKey: null,
  lastMove: null, // the last move of another player in this deal (an event), for the notice line
  sortMode: 0,
  turnClock: null,
  lastTurnKey: "",
  justDragged: false,
  saveTimer: null,
  autoSeen: new Set(), // players seen on auto drop during this deal
};

const names = {};
const nameOf = (player) => (player === ME ? "You" : names[player] || `Player ${player}`);
const word = (kind, code) => (WORDS[kind] && WORDS[kind][code]) || String(code || "").replace(/_/g, " ");
const deal = () => (st.table && st.table.deal) || null;
const jokers = () => {
  const d = deal();
  return d ? jokersFromCut(d.cut, VARIANT === "points21") : null;
};
const myDeal = () => {
  const d = deal();
  return d && d.hand ? d : null;
};

// --- the connection ---------------------------------------------------------------------------
const conn = new Connection(TABLE, {
  status(state) {
    if (state === "open") $("conn-banner").hidden = true;
    if (state === "lost") $("conn-banner").hidden = false;
    if (state === "login") $("status").textContent = "Log in to play.";
    if (state === "gone") $("status").textContent = "There is no such table.";
  },
  snapshot(frame) {
    st.clockOffset = frame.ms - Date.now();
    st.table = frame.table;
    render();
  },
  event(frame) {
    onEvent(frame);
  },
  ack(frame, entry) {
    if (frame.grouping) takeLabels(frame.grouping, entry && entry.context && entry.context.groups);
  },
  error(frame, entry) {
    const kind = entry && entry.frame ? entry.frame.type : null;
    if (frame.error === "rate_limited") return;
    if (kind === "save_grouping") return; // a save refused (out of the deal): nothing to tell
    if (frame.error === "insufficient_balance" && CURRENCY === "CHIPS") $("topup").hidden = false;
    showError(plain(frame.message || frame.error));
  },
});

function plain(message) {
  const text = String(message);
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
}

let errorTimer = null;
function showError(text, id = "action-error", info = false) {
  const box = $(id);
  box.classList.toggle("info", info);
  box.textContent = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => {
    box.textContent = "";
  }, 6000);
}

function act(type, fields = {}) {
  $("action-error").textContent = "";
  return conn.act(type, fields, fields);
}

function onEvent(frame) {
  const data = frame.data || {};
  if (frame.type === "deal_started") {
    store.setItem(`table-${TABLE}-commitment`, data.commitment);
    st.lastMove = null;
  }
  if (MOVES.has(frame.type) && data.player && data.player !== ME) st.lastMove = frame;
  if (frame.type === "dealt") {
    const commitment = store.getItem(`table-${TABLE}-commitment`);
    if (commitment) store.setItem(`dealt-${commitment}`, JSON.stringify(data.hand));
  }
  if (frame.type === "toss") {
    store.setItem(`table-${TABLE}-toss`, JSON.stringify(data));
  }
  if (frame.type === "wrong_show_reason") showError(`Wrong show: ${data.reason}.`);
  if (frame.type === "voided" || frame.type === "cancelled") {
    st.endedWhy = data.why || "";
    st.voided = frame.type === "voided";
  }
  log(frame);
}

// The log's lines, with their events: named again once a snapshot brings the players' names
// (a reconnect replays events before the snapshot that names their players).
const logged = new WeakMap();

// Events the log leaves out: a saved grouping (saving is automatic, after every change), and a
// player's own draw from the closed pile, which their private "drew_card" tells with the card.
const unlogged = (event) =>
  event.type === "grouping_saved" ||
  (event.type === "drew" && event.data?.player === ME && event.data?.source === "closed");

function logLine(event) {
  // As the deal page's replay (games/deal.html) words it: who, what, which card, from which pile.
  const data = event.data || {};
  const who = data.player ? `${nameOf(data.player)} ` : "";
  const card = data.card ? ` ${cardText(data.card)}` : "";
  const pile = data.source ? ` from the ${word("pile", data.source)}` : "";
  return `${who}${word("event", event.type)}${card}${pile}`;
}

function log(event) {
  if (unlogged(event)) return;
  const li = document.createElement("li");
  li.textContent = logLine(event);
  logged.set(li, event);
  const list = $("log");
  list.prepend(li);
  while (list.children.length > 60) list.lastChild.remove();
}

function renameLog() {
  for (const li of $("log").children) {
    const event = logged.get(li);
    if (event) li.textContent = logLine(event);
  }
}

// --- labels from the server -------------------------------------------------------------------
const keyOf = (group) => group.join(" ");

function takeLabels(verdict, groups) {
  if (!verdict || !groups) return;
  groups.forEach((group, k) => {
    if (verdict.groups[k]) st.labels.set(keyOf(group), verdict.groups[k]);
  });
  st.points = verdict.points;
  st.pointsKey = JSON.stringify(groups);
  renderHand(false);
}

function scheduleSave() {
  clearTimeout(st.saveTimer);
  if (!myDeal()) return;
  st.saveTimer = setTimeout(() => {
    const groups = model.cardsOf(st.groups).length ? st.groups.map((g) => [...g]) : [];
    if (groups.length) conn.act("save_grouping", { groups }, { groups });
  }, 350);
}

function setGroups(groups, save = true) {
  st.groups = groups;
  st.selected = st.selected.filter(({ g, i }) => groups[g] && groups[g][i]);
  renderHand(false);
  renderButtons();
  if (save) scheduleSave();
}

// --- rendering --------------------------------------------------------------------------------
function render() {
  const table = st.table;
  if (!table) return;
  const unnamed = table.players.some((p) => names[p.player] !== p.name);
  for (const p of table.players) names[p.player] = p.name;
  if (unnamed) renameLog();
  const d = deal();
  const key = d ? d.commitment : null;
  if (key !== st.dealKey) {
    // A new deal (or none): clear the felt, the selection, the errors of the last deal.
    st.dealKey = key;
    st.groups = [];
    st.selected = [];
    st.labels.clear();
    st.points = null;
    st.autoSeen.clear();
    $("action-error").textContent = "";
    $("arrange-error").textContent = "";
    $("topup").hidden = true;
    if (d) $("result").hidden = true;
  }
  const mine = myDeal();
  if (mine) {
    let base = st.groups.length ? st.groups : mine.saved_grouping || [];
    if (!base.length) {
      // A fresh hand comes sorted by suit, as players expect, and is saved for its labels.
      base = model.sortBySuit(mine.hand, jokers());
      scheduleSave();
    }
    const before = JSON.stringify(st.groups);
    st.groups = model.reconcile(base, mine.hand);
    if (before !== "[]" && before !== JSON.stringify(st.groups)) scheduleSave();
    if (mine.labels && !st.labels.size) {
      (mine.saved_grouping || []).forEach((group, k) => {
        if (mine.labels.groups[k]) st.labels.set(keyOf(group), mine.labels.groups[k]);
      });
      st.points = mine.labels.points;
      st.pointsKey = JSON.stringify(mine.saved_grouping || []);
    }
  }
  renderTop();
  renderSeats();
  renderPiles();
  renderHand(false);
  renderButtons();
  renderShow();
  renderOffers();
  renderResult();
  renderGameOver();
  turnCue();
  tick();
}

function renderTop() {
  const table = st.table;
  const d = deal();
  // The prize the winner is paid (the pool less the rake), not the pool.
  $("prize").textContent = table.prize ? `Prize ${money(table.prize, CURRENCY)}` : "";
  const parts = [];
  const wf = table.waiting_for;
  if (table.status === "waiting" || wf === "players") parts.push("Waiting for players…");
  else if (wf === "countdown") parts.push("The game starts soon.");
  if (d) {
    parts.push(`Deal ${table.deal_number}.`);
    if (d.phase === "play") parts.push(d.turn === ME ? "Your turn." : `${nameOf(d.turn)}'s turn.`);
    if (d.phase === "declaring") parts.push(d.turn === ME ? "Declare: group your cards." : `${nameOf(d.turn)} is declaring.`);
    if (d.phase === "show") parts.push(d.waiting_for.includes(ME) ? "Show: group your cards and submit." : "Waiting for the show.");
  } else if (wf === "pause") parts.push("The next deal starts soon.");
  else if (wf === "decisions") parts.push("Waiting for rejoin or split decisions.");
  $("status").textContent = parts.join(" ");
}

function renderSeats() {
  const table = st.table;
  const d = deal();
  const box = $("seats");
  box.replaceChildren();
  const inDeal = {};
  if (d) for (const p of d.players) inDeal[p.player] = p;
  for (const p of table.players) {
    const dp = inDeal[p.player];
    const seat = document.createElement("div");
    const turn = d && d.turn === p.player && (d.phase === "play" || d.phase === "declaring");
    seat.className = "seat" + (p.player === ME ? " me" : "") + (turn ? " turn" : "");
    seat.dataset.player = p.player;
    seat.setAttribute("role", "group");
    const ring = document.createElement("div");
    ring.className = "ring";
    const avatar = document.createElement("div");
    avatar.className = "avatar";
    avatar.textContent = initials(p.name);
    avatar.setAttribute("aria-hidden", "true");
    ring.append(avatar);
    const info = document.createElement("div");
    info.className = "info";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = p.player === ME ? `${p.name} (you)` : p.name;
    const score = document.createElement("span");
    score.className = "score";
    if (p.score !== null && p.score !== undefined) score.textContent = `${p.score} pts`;
    else if (p.held !== null && p.held !== undefined) score.textContent = money(p.held, CURRENCY);
    const badges = document.createElement("span");
    badges.className = "badges";
    const said = [];
    const badge = (text, cls = "") => {
      const b = document.createElement("span");
      b.className = `badge ${cls}`;
      b.textContent = text;
      badges.append(b);
      said.push(text);
    };
    if (d && d.dealer === p.player) {
      const b = document.createElement("span");
      b.className = "badge dealer";
      b.textContent = "D";
      b.title = "Dealer";
      seat.append(b);
      said.push("dealer");
    }
    if (dp && dp.status !== "in") badge(word("outcome", dp.status), "out");
    if (p.status === "eliminated") badge("Eliminated", "out");
    if (p.status === "left") badge("Left", "out");
    const online = p.connected || (p.player === ME && conn.ws && conn.ws.readyState === WebSocket.OPEN);
    if (!online && p.status !== "left") badge("Offline", "offline");
    if (p.auto_drop) {
      st.autoSeen.add(p.player);
      badge("Auto drop");
    } else if (st.autoSeen.has(p.player) && dp && dp.status !== "in") {
      badge("I'm back: next deal"); // "I'm back" pressed; this deal is already dropped
    }
    if (turn && dp) {
      const extra = document.createElement("span");
      extra.className = "bank";
      extra.dataset.bank = String(dp.extra_ms);
      badges.append(extra);
    }
    if (dp) said.push(`${dp.cards} cards`);
    if (turn) said.push("to play");
    seat.setAttribute("aria-label", [p.name, score.textContent, ...said].filter(Boolean).join(", "));
    info.append(name, score, badges);
    seat.append(ring, info);
    if (p.status === "eliminated" || p.status === "left" || (dp && dp.status !== "in")) seat.classList.add("gone");
    box.append(seat);
  }
}

function renderPiles() {
  const d = deal();
  const j = jokers();
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
  slot.classList.toggle("open", Boolean(myTurn() && d.drawn));
  slot.setAttribute("aria-label", card ? `Finish slot: ${cardName(card, j)}` : d && d.finish_slot ? "Finish slot: a card is in it" : "Finish slot");
  const list = $("open-list");
  list.replaceChildren();
  if (d) for (const code of d.open_pile) list.append(cardEl(code, j), " ");
  renderNotice();
}

// Other players' moves, told on the notice line until the next one (bots move within a second).
const MOVES = new Set(["drew", "discarded", "dropped", "finished", "declared", "missed_move"]);

function renderNotice() {
  const table = st.table;
  const d = deal();
  const parts = [];
  const toss = JSON.parse(store.getItem(`table-${TABLE}-toss`) || "null");
  // The toss is news until the first move of the game's first deal.
  if (d && table.deal_number === 1 && toss && d.phase === "play" && !st.lastMove) {
    const drawn = toss.cards.filter((c) => c.round === Math.max(...toss.cards.map((x) => x.round)));
    const cards = drawn.map((c) => `${nameOf(c.player)} ${cardText(c.card)}`).join(", ");
    const first = firstPlayer(d);
    const dealer = d.dealer === ME ? "you deal" : `${nameOf(d.dealer)} deals`;
    parts.push(`Toss: ${cards}. ${dealer}; ${first === ME ? "you play" : `${nameOf(first)} plays`} first.`);
  } else if (d && d.phase === "play" && st.lastMove) parts.push(`${logLine(st.lastMove)}.`); // named now, not when it came
  if (myTurn()) {
    parts.push(d.drawn ? "Your turn: discard a card, or finish to declare." : "Your turn: draw from the closed or the open pile.");
  }
  $("notice").textContent = parts.join(" ");
}

function firstPlayer(d) {
  const order = d.players.map((p) => p.player);
  return order[(order.indexOf(d.dealer) + 1) % order.length];
}

function myTurn() {
  const d = myDeal();
  return Boolean(d && d.turn === ME && d.phase === "play");
}

function groupLabel(group) {
  return st.labels.get(keyOf(group)) || null;
}

function renderHand(focus) {
  const box = $("hand");
  const hadFocus = box.contains(document.activeElement); // keep a keyboard player's place
  const mine = myDeal();
  $("hand-section").hidden = !mine;
  box.replaceChildren();
  if (!mine) return;
  const j = jokers();
  const picked = new Set(st.selected.map(({ g, i }) => `${g}:${i}`));
  st.groups.forEach((group, g) => {
    const label = groupLabel(group);
    const div = document.createElement("div");
    div.className = "group" + (label ? (label.valid ? " valid" : " invalid") : "");
    const marriage = isMarriage(group, j);
    if (marriage) div.classList.add("marriage");
    div.dataset.group = String(g);
    div.setAttribute("role", "group");
    const text = (label ? label.label + (label.valid ? " ✓" : "") : "…") + (marriage ? " · Marriage" : "");
    div.setAttribute("aria-label", `Group ${g + 1}: ${label ? label.label : "not checked yet"}`);
    const chip = document.createElement("span");
    chip.className = "glabel";
    chip.textContent = text;
    chip.setAttribute("aria-hidden", "true");
    const cards = document.createElement("div");
    cards.className = "cards";
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
  fitHand();
  const same = st.pointsKey === JSON.stringify(st.groups);
  $("points").textContent = st.points === null ? "Points …" : `Points ${st.points}${same ? "" : " …"}`;
  if ((focus || hadFocus) && st.focusAt) {
    const target = box.querySelector(`button[data-g="${st.focusAt.g}"][data-i="${st.focusAt.i}"]`);
    if (target) target.focus();
  }
}

/** Overlap the cards so the whole hand fits the width in as few rows as it can (two, or three
    for 21 cards), with at least a corner index of each card showing. */
function fitHand() {
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
  for (const rows of [1, 2, 3]) {
    const v = (rows * width * 0.92 - k * (card + 10)) / Math.max(1, n - k);
    if (v >= card * 0.5 || rows === 3) {
      visible = Math.max(least, Math.min(most, v));
      break;
    }
  }
  box.style.setProperty("--overlap", `${Math.round(visible - card)}px`);
}

function isMarriage(group, j) {
  return Boolean(j && j.value && group.includes(j.value) && group.includes(j.upper) && group.includes(j.lower));
}

function selectedCards() {
  return st.selected.map(({ g, i }) => st.groups[g] && st.groups[g][i]).filter(Boolean);
}

function show(id, visible, enabled = visible) {
  const b = $(id);
  b.hidden = !visible;
  b.disabled = !enabled;
}

function renderButtons() {
  const d = deal();
  const mine = myDeal();
  const turn = myTurn();
  const one = st.selected.length === 1;
  $("draw-closed").disabled = !(turn && !d.drawn);
  $("draw-open").disabled = !(turn && !d.drawn && d.open_pile.length);
  const declaring = Boolean(mine && d.phase === "declaring" && d.turn === ME);
  const showing = Boolean(mine && d.phase === "show" && d.waiting_for.includes(ME));
  show("drop", turn && !d.drawn);
  show("discard", turn && d.drawn, turn && d.drawn && one);
  show("finish", turn && d.drawn, turn && d.drawn && one);
  show("declare", declaring);
  show("show", showing);
  show("group", Boolean(mine), st.selected.length > 0);
  show("ungroup", Boolean(mine) && st.selected.length > 0 && !(turn && d.drawn));
  show("sort", Boolean(mine) && !(turn && d.drawn && one));
  show("auto-arrange", Boolean(mine) && !(turn && d.drawn));
  const table = st.table;
  const me = table && table.players.find((p) => p.player === ME);
  $("auto-drop").textContent = me && me.auto_drop ? "I'm back" : "Auto drop next deals";
  $("auto-drop").hidden = !me || me.status !== "in";
  $("leave").hidden = !me || me.status === "left" || table.waiting_for === "";
  $("leave-after-deal").textContent = me && me.leaving ? "Stay for the next deal" : "Leave after this deal";
  $("leave-after-deal").hidden = !me || me.status === "left" || table.phase !== "playing";
}

function renderShow() {
  const d = deal();
  const panel = $("show-screen");
  const showing = d && (d.phase === "show" || d.phase === "declaring");
  panel.hidden = !showing;
  if (!showing) return;
  let text;
  if (d.phase === "declaring") {
    text = d.turn === ME ? "Your card is in the finish slot. Arrange the rest into groups and press Declare." : `${nameOf(d.turn)} put a card in the finish slot and is declaring.`;
  } else if (d.waiting_for.includes(ME)) {
    text = `${nameOf(d.turn)} declared. Group your cards (Auto-arrange helps) and press Submit cards before the time runs out; ungrouped cards count against you.`;
  } else text = "Waiting for the other players to show their cards.";
  $("show-text").textContent = text;
}

function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}

function renderOffers() {
  const table = st.table;
  const box = $("offers");
  box.replaceChildren();
  const remaining = table.players.filter((p) => p.status === "in");
  if (table.rejoin_open.includes(ME)) {
    const top = Math.max(0, ...remaining.map((p) => p.score || 0));
    box.append(el("h2", "", "Rejoin?"), el("p", "", `You are out. Rejoin for ${money(ENTRY_FEE, CURRENCY)} and start again at ${top + 1} points.`));
    const button = el("button", "", `Rejoin (${money(ENTRY_FEE, CURRENCY)})`);
    button.type = "button";
    button.onclick = () => act("rejoin");
    box.append(button);
  }
  const split = table.split_offer;
  if (split) {
    box.append(el("h2", "", "Split the prize?"));
    if (split.why) box.append(el("p", "reason", split.why));
    const ul = el("ul");
    split.players.forEach((player, k) => {
      const li = el("li");
      li.append(el("strong", "", `${nameOf(player)}: ${money(split.amounts[k], CURRENCY)}`), split.accepted.includes(player) ? " (accepted)" : "");
      if (split.each && split.each[k]) li.append(el("br"), el("span", "reason", split.each[k]));
      ul.append(li);
    });
    box.append(ul);
    if (split.players.includes(ME) && !split.accepted.includes(ME)) {
      const yes = el("button", "", "Accept the split");
      yes.type = "button";
      yes.onclick = () => act("split_accept");
      const no = el("button", "secondary", "Decline the split");
      no.type = "button";
      no.onclick = () => act("split_decline");
      box.append(yes, " ", no);
    }
  }
  box.hidden = !box.children.length;
}

let shownResultKey = null;
function renderResult() {
  const table = st.table;
  const d = deal();
  const result = table.last_result || (d && d.result);
  const panel = $("result");
  if (!result) {
    panel.hidden = true;
    return;
  }
  store.setItem(`table-${TABLE}-last`, JSON.stringify({ result, cut: (table.verify || {}).cut || (d && d.cut), number: table.deal_number }));
  const key = result.seed;
  if (key !== shownResultKey) {
    shownResultKey = key;
    panel.hidden = false;
    verifyShuffle(table.verify);
  }
  const j = table.verify ? jokersFromCut(table.verify.cut, VARIANT === "points21") : jokers();
  const body = resultBody(result, { nameOf, words: WORDS, currency: CURRENCY, jokers: j, variant: VARIANT });
  const totals = table.players.filter((p) => p.score !== null && p.score !== undefined);
  if (totals.length) {
    body.append(el("p", "", "Totals: " + totals.map((p) => `${nameOf(p.player)} ${p.score}${p.status === "eliminated" ? " (out)" : ""}`).join(" · ")));
  }
  body.append(el("p", "mono", `Seed ${result.seed}`));
  const next = el("p", "next-deal");
  next.id = "next-deal";
  body.append(next);
  $("result-body").replaceChildren(body);
}

async function verifyShuffle(info) {
  const out = $("verify");
  out.className = "verify";
  if (!info || !info.seed || !globalThis.crypto || !crypto.subtle) {
    out.textContent = "";
    return;
  }
  const dealtText = store.getItem(`dealt-${info.commitment}`);
  const dealt = dealtText ? JSON.parse(dealtText) : null;
  out.textContent = "Checking the shuffle in your browser…";
  try {
    const check = await verifyDeal({ seed: info.seed, commitment: info.commitment, packs: info.packs, handSize: info.hand_size, seat: info.seat, players: info.players, cut: info.cut, dealt: info.seat === null ? null : dealt });
    if (check.ok) {
      out.className = "verify ok";
      out.textContent = `✓ Shuffle verified in your browser: the seed matches the commitment published before the deal, and it deals the cut card ${cardText(info.cut)}${check.hand ? " and exactly the cards you were dealt" : ""}.`;
    } else {
      out.className = "verify bad";
      out.textContent = `✗ Shuffle check failed: ${check.reason}.`;
    }
    app.dataset.verified = check.ok ? "yes" : "no";
  } catch (error) {
    out.textContent = `The shuffle could not be checked here (${error}).`;
  }
}

function renderGameOver() {
  const table = st.table;
  const over = table.waiting_for === "" && (table.status === "finished" || table.status === "cancelled");
  $("game-over").hidden = !over;
  if (!over) return;
  $("result").hidden = true;
  const lines = [];
  if (table.status === "cancelled") {
    lines.push(
      table.phase === "cancelled" && st.voided
        ? "The game was voided by the site's staff: every entry fee, rejoin fee and seat hold is back in its player's wallet, with no rake taken."
        : "The game was cancelled; entry fees were refunded.",
    );
    if (st.endedWhy) lines.push(`Why: ${st.endedWhy}`);
  }
  if (table.winner) lines.push(`Winner: ${names[table.winner] || table.winner}.`);
  for (const [player, amount] of table.payouts) lines.push(`${names[player] || player} is paid ${money(amount, CURRENCY)}.`);
  $("over-body").replaceChildren(...lines.map((text) => el("p", "", text)));
}

// --- your turn --------------------------------------------------------------------------------
function turnCue() {
  const turn = myTurn() || Boolean(myDeal() && deal().phase === "show" && deal().waiting_for.includes(ME));
  app.classList.toggle("your-turn", turn);
  document.title = turn ? `● Your turn · ${TITLE}` : TITLE;
  const d = deal();
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

// --- the timer --------------------------------------------------------------------------------
function tick() {
  const table = st.table;
  if (!table) return;
  const d = deal();
  const deadline = d ? d.deadline_ms : table.deadline_ms;
  const timer = $("timer");
  if (!deadline) {
    timer.textContent = "";
    return;
  }
  const now = Date.now() + st.clockOffset;
  const left = Math.max(0, deadline - now);
  let text = `${Math.ceil(left / 1000)} s`;
  if (d && (d.phase === "play" || d.phase === "declaring")) {
    const turnPlayer = d.players.find((p) => p.player === d.turn);
    const bank = d.phase === "play" && turnPlayer ? turnPlayer.extra_ms : 0;
    const moveLeft = Math.max(0, left - bank);
    const key = `${d.turn}:${deadline}`;
    if (!st.turnClock || st.turnClock.key !== key) st.turnClock = { key, move: Math.max(moveLeft, 1), bank: Math.max(bank, 1) };
    const seat = document.querySelector(`.seat[data-player="${d.turn}"]`);
    const inExtra = moveLeft <= 0 && bank > 0;
    if (seat) {
      seat.classList.toggle("extra", inExtra);
      const fraction = inExtra ? left / st.turnClock.bank : moveLeft / st.turnClock.move;
      seat.querySelector(".ring").style.setProperty("--left", String(Math.max(0, Math.min(1, fraction))));
      const bankEl = seat.querySelector(".bank");
      if (bankEl) bankEl.textContent = bank > 0 ? `+${Math.ceil((inExtra ? left : bank) / 1000)}s` : "";
    }
    text = inExtra ? `Extra time ${Math.ceil(left / 1000)} s` : `${Math.ceil(moveLeft / 1000)} s${bank ? ` · +${Math.ceil(bank / 1000)} s extra` : ""}`;
  } else if (!d && table.waiting_for === "pause") {
    const next = $("next-deal");
    if (next) next.textContent = `The next deal starts in ${Math.ceil(left / 1000)} s.`;
  }
  timer.textContent = text;
}
setInterval(tick, 250);

// --- moves ------------------------------------------------------------------------------------
function discard(card) {
  if (!card) return;
  act("discard", { card });
  st.selected = [];
}

function finish(card) {
  if (!card) return;
  act("finish", { card });
  st.selected = [];
}

$("draw-closed").onclick = () => act("draw", { source: "closed" });
$("draw-open").onclick = () => act("draw", { source: "open" });
$("discard").onclick = () => discard(selectedCards()[0]);
$("finish").onclick = () => finish(selectedCards()[0]);
$("declare").onclick = () => act("declare", { groups: st.groups.map((g) => [...g]) });
$("show").onclick = () => act("show", { groups: st.groups.map((g) => [...g]) });
// A drop is confirmed by a second tap within a few seconds (no dialog to dismiss by mistake).
let dropArmed = null;
$("drop").onclick = () => {
  const button = $("drop");
  if (dropArmed) {
    clearTimeout(dropArmed);
    dropArmed = null;
    button.textContent = "Drop";
    act("drop");
    return;
  }
  button.textContent = "Tap again to drop";
  dropArmed = setTimeout(() => {
    dropArmed = null;
    button.textContent = "Drop";
  }, 4000);
};
$("group").onclick = () => {
  const next = model.groupSelected(st.groups, st.selected);
  st.selected = [];
  setGroups(next);
};
$("ungroup").onclick = () => {
  const gs = [...new Set(st.selected.map(({ g }) => g))].sort((a, b) => b - a);
  let next = st.groups;
  for (const g of gs) next = model.ungroup(next, g);
  st.selected = [];
  setGroups(next);
};
$("sort").onclick = () => {
  const mine = myDeal();
  if (!mine) return;
  const j = jokers();
  st.sortMode = (st.sortMode + 1) % 2;
  const next = st.sortMode === 1 ? model.sortBySuit(mine.hand, j) : model.sortByColour(mine.hand, j);
  $("sort").textContent = st.sortMode === 1 ? "Sort: colour" : "Sort: suit";
  st.selected = [];
  setGroups(next);
};
$("auto-arrange").onclick = async () => {
  try {
    const response = await fetch(app.dataset.arrangeUrl, { credentials: "same-origin" });
    const body = await response.json();
    if (!response.ok) {
      showError(plain(body.message || "Could not arrange your cards"), "arrange-error");
      return;
    }
    const mine = myDeal();
    if (!mine) return;
    const proposal = model.reconcile(body.groups, mine.hand, true);
    const current = st.pointsKey === JSON.stringify(st.groups) ? st.points : null;
    const choice = model.better(st.groups, current, proposal, body.score);
    app.dataset.arranged = String(Number(app.dataset.arranged || 0) + 1);
    if (!choice.changed) {
      showError(`Your groups score ${current}, as low as the best arrangement (${body.score}): kept as they are.`, "arrange-error", true);
      return;
    }
    st.selected = [];
    setGroups(choice.groups);
  } catch {
    showError("Could not reach the server to arrange your cards.", "arrange-error");
  }
};
$("auto-drop").onclick = () => {
  const me = st.table.players.find((p) => p.player === ME);
  act(me && me.auto_drop ? "im_back" : "auto_drop");
};
$("leave-after-deal").onclick = () => {
  const me = st.table.players.find((p) => p.player === ME);
  act(me && me.leaving ? "stay" : "leave_after_deal");
};
$("leave").onclick = () => {
  if (confirm("Leave the table? After the start you forfeit your entry fee.")) act("leave");
};

// --- the hand: tap, drag (pointer events), keyboard -------------------------------------------
function placeOf(button) {
  return { g: Number(button.dataset.g), i: Number(button.dataset.i) };
}

function toggle(at) {
  const k = st.selected.findIndex((p) => p.g === at.g && p.i === at.i);
  if (k >= 0) st.selected.splice(k, 1);
  else st.selected.push(at);
  st.focusAt = at;
  renderHand(true);
  renderButtons();
}

const hand = $("hand");
hand.addEventListener("click", (e) => {
  const button = e.target.closest("button.card");
  if (!button || st.justDragged) return;
  toggle(placeOf(button));
});

let drag = null;
hand.addEventListener("pointerdown", (e) => {
  const button = e.target.closest("button.card");
  if (!button || e.button > 0) return;
  drag = { from: placeOf(button), x: e.clientX, y: e.clientY, button, ghost: null, target: null, pointer: e.pointerId };
});

window.addEventListener("pointermove", (e) => {
  if (!drag || e.pointerId !== drag.pointer) return;
  if (!drag.ghost) {
    if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
    drag.ghost = drag.button.cloneNode(true);
    drag.ghost.classList.add("drag-ghost");
    drag.ghost.removeAttribute("aria-pressed");
    document.body.append(drag.ghost);
    drag.button.classList.add("dragging");
  }
  e.preventDefault();
  drag.ghost.style.left = `${e.clientX}px`;
  drag.ghost.style.top = `${e.clientY}px`;
  for (const old of document.querySelectorAll(".drop-target")) old.classList.remove("drop-target");
  drag.target = dropTarget(e.clientX, e.clientY);
  if (drag.target && drag.target.node) drag.target.node.classList.add("drop-target");
});

window.addEventListener("pointerup", (e) => {
  if (!drag || e.pointerId !== drag.pointer) return;
  const done = drag;
  drag = null;
  if (!done.ghost) return;
  done.ghost.remove();
  for (const old of document.querySelectorAll(".drop-target")) old.classList.remove("drop-target");
  st.justDragged = true;
  setTimeout(() => {
    st.justDragged = false;
  }, 0);
  const target = done.target;
  const code = st.groups[done.from.g] && st.groups[done.from.g][done.from.i];
  if (!target || !code) return renderHand(false);
  if (target.kind === "discard") return discard(code);
  if (target.kind === "finish") return finish(code);
  const moved = model.moveCard(st.groups, done.from, target.g, target.i);
  st.selected = [];
  st.focusAt = moved.at;
  setGroups(moved.groups);
});

window.addEventListener("pointercancel", () => {
  if (drag && drag.ghost) drag.ghost.remove();
  drag = null;
  renderHand(false);
});

function dropTarget(x, y) {
  const under = document.elementFromPoint(x, y);
  if (!under) return null;
  const d = deal();
  const canDiscard = myTurn() && d.drawn;
  if (canDiscard && under.closest("#draw-open")) return { kind: "discard", node: $("draw-open") };
  if (canDiscard && under.closest("#finish-slot")) return { kind: "finish", node: $("finish-slot") };
  const group = under.closest(".group");
  if (group && hand.contains(group)) {
    const g = Number(group.dataset.group);
    const cards = [...group.querySelectorAll("button.card")];
    let i = cards.findIndex((c) => x < c.getBoundingClientRect().left + c.getBoundingClientRect().width / 2);
    if (i < 0) i = cards.length;
    if (g === drag.from.g && i > drag.from.i) i -= 1;
    return { kind: "move", g, i, node: group };
  }
  if (under.closest("#hand-section")) return { kind: "move", g: st.groups.length, i: 0, node: hand };
  return null;
}

hand.addEventListener("focusin", (e) => {
  const button = e.target.closest("button.card");
  if (button) st.focusAt = placeOf(button);
});

hand.addEventListener("keydown", (e) => {
  const button = e.target.closest("button.card");
  if (!button) return;
  const at = placeOf(button);
  const key = e.key;
  if ((key === "ArrowLeft" || key === "ArrowRight") && e.shiftKey) {
    e.preventDefault();
    const to = key === "ArrowLeft" ? at.g - 1 : at.g + 1;
    const moved = model.moveCard(st.groups, at, to);
    st.focusAt = moved.at;
    st.selected = [];
    setGroups(moved.groups);
    renderHand(true);
  } else if (key === "ArrowLeft" || key === "ArrowRight") {
    e.preventDefault();
    st.focusAt = model.step(st.groups, at, key === "ArrowLeft" ? -1 : 1);
    renderHand(true);
  } else if (key === "d" || key === "D") {
    if (myTurn() && deal().drawn) discard(st.groups[at.g][at.i]);
  } else if (key === "f" || key === "F") {
    if (myTurn() && deal().drawn) finish(st.groups[at.g][at.i]);
  } else if (key === "g" || key === "G") {
    $("group").click();
  }
});

// --- the menu, score card and last deal -------------------------------------------------------
$("menu-button").onclick = () => {
  const menu = $("menu");
  menu.hidden = !menu.hidden;
  $("menu-button").setAttribute("aria-expanded", String(!menu.hidden));
};
const closeMenu = () => {
  $("menu").hidden = true;
  $("menu-button").setAttribute("aria-expanded", "false");
};

async function fetchScores() {
  const response = await fetch(app.dataset.scoresUrl, { credentials: "same-origin" });
  return response.json();
}

async function openScores() {
  closeMenu();
  const body = $("scores-body");
  body.textContent = "Loading…";
  $("scores").hidden = false;
  try {
    const data = await fetchScores();
    if (data.error) {
      body.textContent = plain(data.message);
      return;
    }
    const players = Object.keys(data.players);
    const table = el("table", "data scorecard");
    const head = el("tr");
    head.append(el("th", "", "Deal"));
    for (const p of players) head.append(el("th", "", p === ME ? "You" : data.players[p]));
    for (const th of head.children) th.scope = "col";
    const tbody = el("tbody");
    const totals = Object.fromEntries(players.map((p) => [p, 0]));
    for (const row of data.deals) {
      const tr = el("tr");
      tr.append(el("td", "", String(row.number)));
      for (const p of players) {
        const score = row.scores[p];
        if (score !== undefined) totals[p] += score;
        const td = el("td", "", score === undefined ? "–" : String(score));
        if (row.outcomes[p]) td.title = word("outcome", row.outcomes[p]);
        tr.append(td);
      }
      tbody.append(tr);
    }
    const foot = el("tr");
    foot.append(el("th", "", "Total"));
    for (const p of players) foot.append(el("th", "", String(totals[p])));
    const thead = el("thead");
    thead.append(head);
    const tfoot = el("tfoot");
    tfoot.append(foot);
    table.append(thead, tbody, tfoot);
    body.replaceChildren(data.deals.length ? table : el("p", "", "No deal has finished yet."));
  } catch {
    body.textContent = "Could not load the score card.";
  }
}

async function openLast() {
  closeMenu();
  const body = $("last-body");
  $("last-deal").hidden = false;
  body.textContent = "Loading…";
  try {
    const data = await fetchScores();
    if (data.error || !data.last) {
      body.textContent = data.error ? plain(data.message) : "No deal has finished yet.";
      return;
    }
    for (const [id, name] of Object.entries(data.players)) names[id] = names[id] || name;
    const j = jokersFromCut(data.last.cut, VARIANT === "points21");
    const heading = el("p", "", `Deal ${data.last.number}. Cut joker `);
    heading.append(cardEl(data.last.cut, j));
    body.replaceChildren(heading, resultBody(data.last, { nameOf, words: WORDS, currency: CURRENCY, jokers: j, variant: VARIANT }));
  } catch {
    body.textContent = "Could not load the last deal.";
  }
}

$("open-scores").onclick = openScores;
$("result-scores").onclick = openScores;
$("open-last").onclick = openLast;
$("scores-close").onclick = () => ($("scores").hidden = true);
$("last-close").onclick = () => ($("last-deal").hidden = true);
$("result-close").onclick = () => ($("result").hidden = true);

const fourColour = $("four-colour");
fourColour.checked = localStorage.getItem("rummy-four-colour") === "1";
document.body.classList.toggle("four-colour", fourColour.checked);
fourColour.onchange = () => {
  localStorage.setItem("rummy-four-colour", fourColour.checked ? "1" : "0");
  document.body.classList.toggle("four-colour", fourColour.checked);
};
const buzz = $("buzz");
buzz.checked = localStorage.getItem("rummy-buzz") === "1";
buzz.onchange = () => localStorage.setItem("rummy-buzz", buzz.checked ? "1" : "0");

// --- reality checks (money tables: R-PROT-6) ------------------------------------------------
async function realityCheck() {
  try {
    const response = await fetch(app.dataset.realityUrl, { credentials: "same-origin" });
    if (!response.ok) return;
    const check = await response.json();
    if (!reality.due(check, Number(store.getItem(reality.key(check)) || 0))) return;
    store.setItem(reality.key(check), String(check.count));
    $("reality-body").textContent = reality.message(check);
    $("reality").hidden = false;
    $("reality-leave").focus();
  } catch {
    // no answer this minute: the next one asks again
  }
}
$("reality-leave").onclick = () => {
  const me = st.table && st.table.players.find((p) => p.player === ME);
  if (!(me && me.leaving)) act("leave_after_deal");
  $("reality").hidden = true;
};
$("reality-keep").onclick = () => ($("reality").hidden = true);
if (app.dataset.realityUrl) {
  setTimeout(realityCheck, 5000);
  setInterval(realityCheck, 60000);
}

setInterval(() => conn.send({ type: "ping" }), 20000);
window.addEventListener("online", () => conn.reconnectIfClosed());
// A first visit asks for the log from the start (up to the server's replay limit), so the
// toss and the deal's commitment are seen even when the game began before the page loaded.
if (conn.version === null) conn.setVersion(0);
conn.connect();
export { handCells };
