// The dialogs: the "⋯" menu (its table actions and settings), the score card, the last deal
// and the reality check of money play (R-PROT-6).

import { jokersFromCut } from "./cards.js";
import * as reality from "./reality.js";
import { $, cardEl, el, resultBody } from "./render.js";
import { meAt, nameOf } from "./state.js";
import { gameChips, leaveQuestion, plain, word } from "./text.js";

export function install(page) {
  menu(page);
  sheets(page);
  settings();
  realityChecks(page);
}


const closeMenu = () => {
  $("menu").hidden = true;
  $("menu-button").setAttribute("aria-expanded", "false");
};

function menu(page) {
  $("menu-button").onclick = () => {
    const box = $("menu");
    box.hidden = !box.hidden;
    $("menu-button").setAttribute("aria-expanded", String(!box.hidden));
  };
  $("auto-drop").onclick = () => {
    const me = meAt(page.st);
    page.act(me && me.auto_drop ? "im_back" : "auto_drop");
  };
  $("leave-after-deal").onclick = () => {
    const me = meAt(page.st);
    page.act(me && me.leaving ? "stay" : "leave_after_deal");
  };
  $("leave").onclick = () => {
    if (confirm(leaveQuestion(page.st))) page.act("leave");
  };
}

async function fetchScores(page) {
  const response = await fetch(page.app.dataset.scoresUrl, { credentials: "same-origin" });
  return response.json();
}

/** The score card: one row a deal, one column a player, the totals at the foot (and at a deals
    table the game chips each holds now). */
function scoreTable(st, data) {
  const players = Object.keys(data.players);
  const table = el("table", "data scorecard");
  const head = el("tr");
  head.append(el("th", "", "Deal"));
  for (const p of players) head.append(el("th", "", p === st.me ? "You" : data.players[p]));
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
      if (row.outcomes[p]) td.title = word(st.words, "outcome", row.outcomes[p]);
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
  // Deals rummy: the game chips each holds after the last deal, which decide the game.
  const last = data.deals.at(-1);
  if (last && last.chips) {
    const chips = el("tr");
    chips.append(el("th", "", gameChips(st, true)));
    for (const p of players) chips.append(el("th", "", last.chips[p] === undefined ? "–" : String(last.chips[p])));
    tfoot.append(chips);
  }
  table.append(thead, tbody, tfoot);
  return table;
}

async function openScores(page) {
  closeMenu();
  const body = $("scores-body");
  body.textContent = "Loading…";
  $("scores").hidden = false;
  try {
    const data = await fetchScores(page);
    if (data.error) {
      body.textContent = plain(data.message);
      return;
    }
    body.replaceChildren(data.deals.length ? scoreTable(page.st, data) : el("p", "", "No deal has finished yet."));
  } catch {
    body.textContent = "Could not load the score card.";
  }
}

async function openLast(page) {
  const st = page.st;
  closeMenu();
  const body = $("last-body");
  $("last-deal").hidden = false;
  body.textContent = "Loading…";
  try {
    const data = await fetchScores(page);
    if (data.error || !data.last) {
      body.textContent = data.error ? plain(data.message) : "No deal has finished yet.";
      return;
    }
    for (const [id, name] of Object.entries(data.players)) st.names[id] = st.names[id] || name;
    const j = jokersFromCut(data.last.cut, st.variant === "points21");
    const heading = el("p", "", `Deal ${data.last.number}. Cut joker `);
    heading.append(cardEl(data.last.cut, j));
    body.replaceChildren(heading, resultBody(data.last, { nameOf: (p) => nameOf(st, p), words: st.words, currency: st.currency, jokers: j, variant: st.variant }));
  } catch {
    body.textContent = "Could not load the last deal.";
  }
}

function sheets(page) {
  $("open-scores").onclick = () => openScores(page);
  $("result-scores").onclick = () => openScores(page);
  $("open-last").onclick = () => openLast(page);
  $("scores-close").onclick = () => ($("scores").hidden = true);
  $("last-close").onclick = () => ($("last-deal").hidden = true);
  $("result-close").onclick = () => ($("result").hidden = true);
  $("over-result").onclick = () => ($("result").hidden = false); // over the game's end
}

function settings() {
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
}

// Reality checks (money tables: R-PROT-6): asked once a minute; shown when a new one is due.
function realityChecks(page) {
  const url = page.app.dataset.realityUrl;
  async function check() {
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) return;
      const found = await response.json();
      if (!reality.due(found, Number(page.store.getItem(reality.key(found)) || 0))) return;
      page.store.setItem(reality.key(found), String(found.count));
      $("reality-body").textContent = reality.message(found);
      $("reality").hidden = false;
      $("reality-leave").focus();
    } catch {
      // no answer this minute: the next one asks again
    }
  }
  $("reality-leave").onclick = () => {
    const me = meAt(page.st);
    if (!(me && me.leaving)) page.act("leave_after_deal");
    $("reality").hidden = true;
  };
  $("reality-keep").onclick = () => ($("reality").hidden = true);
  if (url) {
    setTimeout(check, 5000);
    setInterval(check, 60000);
  }
}
