// A tournament's page: its live part (status, your table, prizes, rounds, standings) kept up
// to date from the tournament's socket (/ws/tournaments/<id>/, tournaments.consumers). Each
// change writes what it carries at once (the players' count, your table) and then fetches the
// live part again, once for a burst of changes. Without the script the page still works: a
// reload shows the latest.

import { planFor, reconnectDelay, refreshDelay } from "./plan.js";

const root = document.getElementById("tournament-live");
let shown = Number(root.dataset.version);
let timer = null;
let attempt = 0;

async function refresh() {
  timer = null;
  try {
    const answer = await fetch(root.dataset.liveUrl, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!answer.ok) return;
    const html = await answer.text();
    const part = new DOMParser().parseFromString(html, "text/html");
    root.replaceChildren(...part.body.childNodes);
  } catch {
    // offline for a moment: the next change or reconnection fetches again
  }
}

function schedule(delay) {
  if (timer !== null) return;
  timer = setTimeout(refresh, delay);
}

function offerSeat(table) {
  if (table === null || root.querySelector(".t-seated")) return;
  const p = document.createElement("p");
  p.className = "t-seated";
  const link = document.createElement("a");
  link.className = "button";
  link.href = `/games/tables/${table}/`;
  link.textContent = `Go to your table ${table}`;
  p.append(link);
  root.prepend(p);
}

function apply(frame) {
  const plan = planFor(frame, shown);
  shown = plan.version;
  if (plan.count !== null) {
    const count = root.querySelector("[data-count]");
    if (count) count.textContent = String(plan.count);
  }
  if (plan.seat !== null) offerSeat(plan.seat);
  if (plan.refresh) schedule(refreshDelay(plan.event, Math.random()));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}${root.dataset.wsPath}`);
  ws.onopen = () => {
    attempt = 0;
  };
  ws.onmessage = (message) => {
    const frame = JSON.parse(message.data);
    if (frame.type === "ping") ws.send(JSON.stringify({ type: "pong" }));
    else apply(frame);
  };
  ws.onclose = (event) => {
    if (event.code === 4401 || event.code === 4404) return;
    attempt += 1;
    setTimeout(connect, reconnectDelay(attempt, Math.random()));
  };
}

connect();
