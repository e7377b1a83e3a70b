// The live table client (docs/PROTOCOL.md): one websocket, snapshots to render, actions with ids.
// No build step: a plain ES module served as a static file.

const app = document.getElementById("table-app");
const $ = (id) => document.getElementById(id);
const TABLE = app.dataset.table;
const ME = app.dataset.me;
const ENTRY_FEE = Number(app.dataset.entryFee || 0);
const CHIPS = app.dataset.currency === "CHIPS";

const SUITS = { H: ["♥", "red", "hearts"], D: ["♦", "red", "diamonds"], S: ["♠", "dark", "spades"], C: ["♣", "dark", "clubs"] };
const RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

export function cardText(code) {
  if (code === "PJ") return "JKR";
  return (RANKS[code[0]] || code[0]) + SUITS[code[1]][0];
}
export function cardName(code) {
  if (code === "PJ") return "printed joker";
  return `${RANK_NAMES[code[0]] || code[0]} of ${SUITS[code[1]][2]}`;
}
function cardSpan(code) {
  const span = document.createElement("span");
  span.className = "c " + (code === "PJ" ? "joker" : SUITS[code[1]][1]);
  span.textContent = cardText(code);
  span.setAttribute("aria-label", cardName(code));
  return span;
}
function money(amount) {
  if (amount === null || amount === undefined) return "";
  return CHIPS ? `${(amount / 100).toLocaleString("en-IN")} chips` : `₹${(amount / 100).toFixed(2)}`;
}

// --- state -------------------------------------------------------------------------------------
let ws = null;
let version = Number(sessionStorage.getItem(`table-${TABLE}-v`)) || null;
let table = null; // the last snapshot's table
let clockOffset = 0;
let groups = []; // the player's arrangement: lists of card codes
let selected = null; // {g, i}
let nextId = Number(sessionStorage.getItem(`table-${TABLE}-id`)) || 1;
const pending = new Map(); // id -> {frame, errorEl}
let retry = 0;
let everConnected = false;
let saveTimer = null;
const names = {};

function nameOf(player) {
  return names[player] || `player ${player}`;
}

// --- connection --------------------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = version ? `?v=${version}` : "";
  ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${TABLE}/${query}`);
  ws.onopen = () => {
    retry = 0;
    everConnected = true;
    $("conn-banner").hidden = true;
    for (const { frame } of pending.values()) ws.send(JSON.stringify(frame));
  };
  ws.onmessage = (message) => onFrame(JSON.parse(message.data));
  ws.onclose = (event) => {
    if (event.code === 4401 || event.code === 4404) {
      $("status").textContent = event.code === 4401 ? "Log in to play." : "There is no such table.";
      return;
    }
    if (everConnected) $("conn-banner").hidden = false;
    retry = Math.min(retry + 1, 5);
    setTimeout(connect, 300 * retry);
  };
}

function send(frame) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}

function act(type, fields = {}, errorEl = $("action-error")) {
  const id = `a-${Date.now().toString(36)}-${nextId++}`;
  sessionStorage.setItem(`table-${TABLE}-id`, String(nextId));
  const frame = { id, type, ...fields };
  pending.set(id, { frame, errorEl });
  if (errorEl) errorEl.textContent = "";
  send(frame);
  return id;
}

function onFrame(frame) {
  if ("ack" in frame) {
    pending.delete(frame.ack);
    return;
  }
  if ("error" in frame) {
    const entry = frame.id ? pending.get(frame.id) : null;
    if (entry) pending.delete(frame.id);
    const el = (entry && entry.errorEl) || $("action-error");
    if (frame.error !== "rate_limited") el.textContent = plain(frame.message || frame.error);
    return;
  }
  if (frame.type === "ping") return send({ type: "pong" });
  if (frame.type === "pong") return;
  if (frame.type === "snapshot") {
    setVersion(frame.v);
    clockOffset = frame.ms - Date.now();
    table = frame.table;
    render();
    return;
  }
  if ("v" in frame) {
    if (version !== null && frame.v !== version + 1) {
      send({ type: "resync", v: version });
      return;
    }
    setVersion(frame.v);
    if (frame.type) log(frame);
  }
}

function setVersion(v) {
  version = v;
  sessionStorage.setItem(`table-${TABLE}-v`, String(v));
}

function plain(message) {
  const text = String(message);
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
}

function log(event) {
  const li = document.createElement("li");
  const who = event.data && event.data.player ? nameOf(event.data.player) + " " : "";
  li.textContent = `${who}${event.type.replace(/_/g, " ")}${event.data && event.data.card ? " " + cardText(event.data.card) : ""}`;
  const list = $("log");
  list.prepend(li);
  while (list.children.length > 60) list.lastChild.remove();
}

// --- the arrangement ---------------------------------------------------------------------------
function reconcile(hand, saved, looseApart = false) {
  const left = [...hand];
  const take = (code) => {
    const at = left.indexOf(code);
    if (at < 0) return false;
    left.splice(at, 1);
    return true;
  };
  let base = groups.length ? groups : saved || [];
  let next = base.map((group) => group.filter(take)).filter((group) => group.length);
  if (left.length) {
    if (!next.length || looseApart) next.push([]);
    next[next.length - 1].push(...left);
  }
  groups = next;
  if (selected && !(groups[selected.g] && groups[selected.g][selected.i])) selected = null;
}

function allGrouped() {
  return groups.filter((group) => group.length).map((group) => [...group]);
}

function moveCard(from, to, index = null) {
  const [code] = groups[from.g].splice(from.i, 1);
  if (to >= groups.length) groups.push([]);
  if (to < 0) {
    groups.unshift([]);
    to = 0;
    if (from.g >= 0) from = { g: from.g + 1, i: from.i };
  }
  const target = groups[to];
  const at = index === null ? target.length : Math.min(index, target.length);
  target.splice(at, 0, code);
  const emptied = groups.findIndex((group) => group.length === 0);
  if (emptied >= 0) {
    groups.splice(emptied, 1);
    if (emptied < to) to -= 1;
  }
  selected = { g: to, i: at };
  renderHand(true);
  scheduleSave();
}

function scheduleSave() {
  clearTimeout(saveTimer);
  const deal = table && table.deal;
  if (!deal || !deal.hand) return;
  saveTimer = setTimeout(() => act("save_grouping", { groups: allGrouped() }, $("arrange-error")), 800);
}

// --- rendering ---------------------------------------------------------------------------------
function render() {
  if (!table) return;
  for (const p of table.players) names[p.player] = p.name;
  const deal = table.deal;
  const mine = deal && deal.hand ? deal : null;
  renderStatus(deal);
  renderSeats(deal);
  renderPiles(deal);
  if (mine) {
    reconcile(mine.hand, mine.saved_grouping);
  } else {
    groups = [];
    selected = null;
  }
  renderHand(false);
  renderButtons(deal);
  renderShow(deal);
  renderOffers();
  renderResult();
  renderGameOver();
  tick();
}

function renderStatus(deal) {
  const parts = [];
  const wf = table.waiting_for;
  if (table.status === "waiting" || wf === "players") parts.push("Waiting for players…");
  else if (wf === "countdown") parts.push("The game starts soon.");
  if (deal) {
    parts.push(`Deal ${table.deal_number}.`);
    if (deal.phase === "play") parts.push(deal.turn === ME ? "Your turn." : `${nameOf(deal.turn)}'s turn.`);
    if (deal.phase === "declaring") parts.push(deal.turn === ME ? "Declare: group your cards." : `${nameOf(deal.turn)} is declaring.`);
    if (deal.phase === "show") parts.push("Show: group your cards and submit.");
  } else if (wf === "pause") parts.push("The next deal starts soon.");
  else if (wf === "decisions") parts.push("Waiting for rejoin or split decisions.");
  if (table.prize_pool) parts.push(`Prize pool ${money(table.prize_pool)}.`);
  $("status").textContent = parts.join(" ");
}

function renderSeats(deal) {
  const box = $("seats");
  box.replaceChildren();
  const dealPlayers = {};
  if (deal) for (const p of deal.players) dealPlayers[p.player] = p;
  for (const p of table.players) {
    const d = dealPlayers[p.player];
    const div = document.createElement("div");
    div.className = "seat" + (p.player === ME ? " me" : "") + (deal && deal.turn === p.player && deal.phase === "play" ? " turn" : "");
    div.setAttribute("role", "group");
    div.setAttribute("aria-label", p.name);
    const lines = [
      `<strong>${escapeHtml(p.name)}${p.player === ME ? " (you)" : ""}</strong>`,
      d ? `${d.cards} cards` : "",
      p.score !== null ? `score ${p.score}` : p.held !== null ? `holds ${money(p.held)}` : "",
      d && d.status !== "in" ? d.status.replace(/_/g, " ") : p.status,
      p.auto_drop ? "auto drop" : "",
    ].filter(Boolean);
    div.innerHTML = lines.join("<br>");
    div.dataset.player = p.player;
    box.append(div);
  }
}

function escapeHtml(text) {
  const div = document.createElement("div");
  div.textContent = text;
  return div.innerHTML;
}

function renderPiles(deal) {
  $("cut").replaceChildren(deal ? cardSpan(deal.cut) : "");
  $("cut").setAttribute("aria-label", deal ? `Cut joker: ${cardName(deal.cut)}` : "No cut joker");
  $("closed-count").textContent = deal ? `${deal.closed_count}` : "";
  const top = deal && deal.open_pile.length ? deal.open_pile[deal.open_pile.length - 1] : null;
  const open = $("draw-open");
  open.replaceChildren(top ? cardSpan(top) : "—");
  open.setAttribute("aria-label", top ? `Draw ${cardName(top)} from the open pile` : "Open pile is empty");
  const slot = deal && deal.my_finish_card ? deal.my_finish_card : null;
  $("finish-slot").replaceChildren(slot ? cardSpan(slot) : deal && deal.finish_slot ? "■" : "·");
  $("open-count").textContent = deal ? deal.open_pile.length : 0;
  const list = $("open-list");
  list.replaceChildren();
  if (deal) for (const code of deal.open_pile) list.append(cardSpan(code), " ");
}

function renderHand(focus) {
  const box = $("hand");
  box.replaceChildren();
  groups.forEach((group, g) => {
    const div = document.createElement("div");
    div.className = "group";
    div.setAttribute("role", "list");
    div.setAttribute("aria-label", `Group ${g + 1}`);
    div.dataset.group = g;
    div.addEventListener("dragover", (e) => e.preventDefault());
    div.addEventListener("drop", (e) => onDrop(e, g));
    group.forEach((code, i) => {
      const button = document.createElement("button");
      button.type = "button";
      const isSel = selected && selected.g === g && selected.i === i;
      button.className = "card " + (code === "PJ" ? "joker" : SUITS[code[1]][1]) + (isSel ? " selected" : "");
      button.textContent = cardText(code);
      button.dataset.card = code;
      button.setAttribute("aria-label", `${cardName(code)}, group ${g + 1}`);
      button.setAttribute("aria-pressed", isSel ? "true" : "false");
      button.setAttribute("role", "listitem");
      button.draggable = true;
      button.addEventListener("dragstart", (e) => {
        e.dataTransfer.setData("text/plain", JSON.stringify({ g, i }));
      });
      button.addEventListener("click", () => {
        selected = isSel ? null : { g, i };
        renderHand(true);
        renderButtons(table && table.deal);
      });
      button.addEventListener("keydown", (e) => onCardKey(e, g, i));
      div.append(button);
    });
    box.append(div);
  });
  const zone = document.createElement("div");
  zone.className = "group new";
  zone.textContent = "+ new group";
  zone.setAttribute("aria-hidden", "true");
  zone.addEventListener("dragover", (e) => e.preventDefault());
  zone.addEventListener("drop", (e) => onDrop(e, groups.length));
  if (groups.length) box.append(zone);
  if (focus && selected) {
    const el = box.querySelector(`.group[data-group="${selected.g}"] button:nth-child(${selected.i + 1})`);
    if (el) el.focus();
  }
}

function onDrop(e, g) {
  e.preventDefault();
  let from;
  try {
    from = JSON.parse(e.dataTransfer.getData("text/plain"));
  } catch {
    return;
  }
  if (!groups[from.g] || from.g === g) return;
  moveCard(from, g);
}

function onCardKey(e, g, i) {
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    e.preventDefault();
    moveCard({ g, i }, e.key === "ArrowLeft" ? g - 1 : g + 1);
    renderButtons(table && table.deal);
  }
}

function selectedCard() {
  return selected && groups[selected.g] ? groups[selected.g][selected.i] : null;
}

function renderButtons(deal) {
  const myTurn = deal && deal.hand && deal.turn === ME && deal.phase === "play";
  const card = selectedCard();
  $("draw-closed").disabled = !(myTurn && !deal.drawn);
  $("draw-open").disabled = !(myTurn && !deal.drawn && deal.open_pile.length);
  $("discard").disabled = !(myTurn && deal.drawn && card);
  $("finish").disabled = !(myTurn && deal.drawn && card);
  $("declare").disabled = !(deal && deal.phase === "declaring" && deal.turn === ME);
  $("show").disabled = !(deal && deal.phase === "show" && deal.waiting_for.includes(ME));
  $("drop").disabled = !(myTurn && !deal.drawn);
  for (const id of ["move-left", "move-right", "new-group"]) $(id).disabled = !card;
  const me = table && table.players.find((p) => p.player === ME);
  $("auto-drop").textContent = me && me.auto_drop ? "I'm back" : "Auto drop next deals";
  $("auto-drop").hidden = !me || !["in"].includes(me.status);
  $("leave").hidden = !me || me.status === "left" || table.waiting_for === "";
  $("hand-section").hidden = !(deal && deal.hand);
}

function renderShow(deal) {
  const panel = $("show-screen");
  const showing = deal && (deal.phase === "show" || deal.phase === "declaring");
  panel.hidden = !showing;
  if (!showing) return;
  if (deal.phase === "declaring") {
    $("show-text").textContent =
      deal.turn === ME
        ? "Your card is in the finish slot. Arrange the rest into groups and press Declare."
        : `${nameOf(deal.turn)} put a card in the finish slot and is declaring.`;
  } else if (deal.waiting_for.includes(ME)) {
    $("show-text").textContent = `${nameOf(deal.turn)} declared. Group your cards (auto-arrange helps) and submit before the time runs out; ungrouped cards count against you.`;
  } else {
    $("show-text").textContent = "Waiting for the other players to show their cards.";
  }
}

function renderOffers() {
  const box = $("offers");
  box.replaceChildren();
  const remaining = table.players.filter((p) => p.status === "in");
  if (table.rejoin_open.includes(ME)) {
    const top = Math.max(0, ...remaining.map((p) => p.score || 0));
    const p = document.createElement("p");
    p.textContent = `You are out. Rejoin for ${money(ENTRY_FEE)} and start again at ${top + 1} points?`;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Rejoin (${money(ENTRY_FEE)})`;
    const err = document.createElement("p");
    err.className = "error";
    err.setAttribute("role", "alert");
    button.onclick = () => act("rejoin", {}, err);
    box.append(p, button, err);
  }
  const split = table.split_offer;
  if (split) {
    const h = document.createElement("h3");
    h.textContent = "Split the prize?";
    const ul = document.createElement("ul");
    split.players.forEach((player, k) => {
      const li = document.createElement("li");
      li.textContent = `${nameOf(player)}: ${money(split.amounts[k])}${split.accepted.includes(player) ? " (accepted)" : ""}`;
      ul.append(li);
    });
    box.append(h, ul);
    if (split.players.includes(ME) && !split.accepted.includes(ME)) {
      const err = document.createElement("p");
      err.className = "error";
      err.setAttribute("role", "alert");
      const yes = document.createElement("button");
      yes.type = "button";
      yes.textContent = "Accept the split";
      yes.onclick = () => act("split_accept", {}, err);
      const no = document.createElement("button");
      no.type = "button";
      no.className = "secondary";
      no.textContent = "Decline the split";
      no.onclick = () => act("split_decline", {}, err);
      box.append(yes, " ", no, err);
    }
  }
  box.hidden = !box.children.length;
}

function renderResult() {
  const result = table.last_result || (table.deal && table.deal.result);
  const panel = $("result");
  panel.hidden = !result;
  if (!result) return;
  const rows = result.players
    .map((p) => {
      const cards = (p.grouping || [p.hand])
        .map((group) => `<span class="group">${group.map((c) => cardSpan(c).outerHTML).join(" ")}</span>`)
        .join(" ");
      return `<tr data-player="${p.player}"><td>${escapeHtml(nameOf(p.player))}</td><td>${p.outcome.replace(/_/g, " ")}</td><td class="score">${p.score}</td><td>${cards}</td></tr>`;
    })
    .join("");
  const totals = table.players
    .map((p) => `${escapeHtml(p.name)} ${p.score ?? ""}${p.status === "eliminated" ? " (out)" : ""}`)
    .join(" · ");
  $("result-body").innerHTML =
    `<p>Winner: <strong>${escapeHtml(nameOf(result.winner))}</strong></p>` +
    `<table class="data"><thead><tr><th scope="col">Player</th><th scope="col">Outcome</th><th scope="col">Score</th><th scope="col">Cards</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<p>Totals: ${totals}</p><p class="mono">Seed ${result.seed}</p>`;
}

function renderGameOver() {
  const over = table.waiting_for === "" && (table.status === "finished" || table.status === "cancelled");
  $("game-over").hidden = !over;
  if (!over) return;
  const lines = [];
  if (table.status === "cancelled") lines.push("The game was cancelled; entry fees were refunded.");
  if (table.winner) lines.push(`Winner: ${nameOf(table.winner)}.`);
  for (const [player, amount] of table.payouts) lines.push(`${nameOf(player)} is paid ${money(amount)}.`);
  $("over-body").replaceChildren(
    ...lines.map((text) => {
      const p = document.createElement("p");
      p.textContent = text;
      return p;
    }),
  );
}

// --- the timer ---------------------------------------------------------------------------------
function tick() {
  const el = $("timer");
  if (!table) return;
  const deal = table.deal;
  const deadline = deal ? deal.deadline_ms : table.deadline_ms;
  if (!deadline) {
    el.textContent = "";
    return;
  }
  const now = Date.now() + clockOffset;
  let left = Math.max(0, deadline - now);
  let text;
  if (deal && deal.phase === "play") {
    const turnPlayer = deal.players.find((p) => p.player === deal.turn);
    const bank = turnPlayer ? turnPlayer.extra_ms : 0;
    const moveLeft = Math.max(0, left - bank);
    text = moveLeft > 0 ? `${Math.ceil(moveLeft / 1000)} s to move · extra time ${Math.ceil(bank / 1000)} s` : `extra time: ${Math.ceil(left / 1000)} s`;
  } else {
    text = `${Math.ceil(left / 1000)} s`;
  }
  el.textContent = text;
}
setInterval(tick, 500);

// --- controls ----------------------------------------------------------------------------------
$("draw-closed").onclick = () => act("draw", { source: "closed" });
$("draw-open").onclick = () => act("draw", { source: "open" });
$("discard").onclick = () => {
  const card = selectedCard();
  if (card) act("discard", { card });
  selected = null;
};
$("finish").onclick = () => {
  const card = selectedCard();
  if (card) act("finish", { card });
  selected = null;
};
$("declare").onclick = () => {
  act("declare", { groups: allGrouped() });
};
$("show").onclick = () => act("show", { groups: allGrouped() });
$("drop").onclick = () => act("drop");
$("auto-drop").onclick = () => {
  const me = table.players.find((p) => p.player === ME);
  act(me && me.auto_drop ? "im_back" : "auto_drop");
};
$("leave").onclick = () => {
  if (confirm("Leave the table? After the start you forfeit your entry fee.")) act("leave");
};
$("move-left").onclick = () => selected && moveCard(selected, selected.g - 1);
$("move-right").onclick = () => selected && moveCard(selected, selected.g + 1);
$("new-group").onclick = () => selected && moveCard(selected, groups.length);
$("auto-arrange").onclick = async () => {
  const err = $("arrange-error");
  err.textContent = "";
  try {
    const response = await fetch(app.dataset.arrangeUrl, { credentials: "same-origin" });
    const body = await response.json();
    if (!response.ok) {
      err.textContent = plain(body.message || "Could not arrange your cards");
      return;
    }
    groups = body.groups;
    const deal = table && table.deal;
    if (deal && deal.hand) reconcile(deal.hand, null, true);
    selected = null;
    renderHand(false);
    renderButtons(deal);
    scheduleSave();
    app.dataset.arranged = String(Number(app.dataset.arranged || 0) + 1);
  } catch {
    err.textContent = "Could not reach the server to arrange your cards.";
  }
};

setInterval(() => send({ type: "ping" }), 20000);
window.addEventListener("online", () => {
  if (ws && ws.readyState !== WebSocket.OPEN) connect();
});
connect();
