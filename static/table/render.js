// Rendering: reads the page state and draws it. DOM only; no frames, no rules.

import { cardName, markOf, rankText, suitInfo } from "./cards.js";
import { formatMoney } from "./money.js";
import { gameChips } from "./text.js";

export const $ = (id) => document.getElementById(id);

/** A new element with its class and text. */
export function el(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}

/** A card drawn with CSS: corner index, a large suit, and a joker's mark under the index. */
export function cardEl(code, jokers, tag = "span") {
  const node = el(tag, "card");
  const suit = suitInfo(code);
  if (code === "PJ") node.classList.add("pj");
  else node.classList.add(`s-${code[1]}`);
  const idx = el("span", "idx");
  idx.append(el("span", "r", rankText(code)), el("span", "s", suit ? suit.symbol : "★"));
  node.append(idx, el("span", "pip", suit ? suit.symbol : "★"));
  const mark = markOf(code, jokers);
  if (mark) {
    // Under the corner index: the strip of the card a fan leaves visible.
    node.classList.add("wild", `m-${mark.kind.split(" ")[0]}`);
    node.append(el("span", "mark", mark.text));
  }
  for (const child of node.children) child.setAttribute("aria-hidden", "true");
  node.dataset.card = code;
  if (tag === "span") {
    node.setAttribute("role", "img");
  }
  node.setAttribute("aria-label", cardName(code, jokers));
  return node;
}

export function initials(name) {
  const parts = String(name).replace(/^bot-/, "").split(/[\s._-]+/).filter(Boolean);
  const letters = parts.length > 1 ? parts[0][0] + parts[1][0] : String(parts[0] || "?").slice(0, 2);
  return letters.toUpperCase();
}

export function money(amount, currency) {
  return formatMoney(amount, currency);
}

/** Group cards as a result sheet shows them: small cards with the group's label under them. */
export function handCells(row, jokers) {
  const box = el("div", "hands");
  const groups = row.grouping || [row.hand];
  groups.forEach((group, k) => {
    const cell = el("span", "cards");
    for (const code of group) cell.append(cardEl(code, jokers));
    const wrap = el("span");
    wrap.append(cell);
    if (row.labels && row.labels[k]) wrap.append(el("span", "gl", row.labels[k]));
    box.append(wrap);
  });
  return box;
}

/** The body of a result (this deal's or the last one's): every hand, the reason for each score,
    and at points tables each player's money, at deals tables their game chips (the server's
    words: games/results.py). */
export function resultBody(result, ctx) {
  const { nameOf, words, currency, jokers } = ctx;
  const box = el("div");
  const winner = el("p");
  winner.append("Winner: ", el("strong", "", nameOf(result.winner)));
  box.append(winner);
  const table = el("table", "data result-table");
  const head = el("tr");
  const money = result.players.some((p) => p.money_line);
  const chips = result.players.some((p) => p.chips_line);
  const cols = ["Player", "Score and why", "Cards"];
  if (money) cols.push("Money");
  if (chips) cols.push(gameChips({ words }, true));
  for (const c of cols) {
    const th = el("th", "", c);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const p of result.players) {
    const tr = el("tr");
    tr.dataset.player = p.player;
    const name = el("td");
    name.append(el("strong", "", nameOf(p.player)), el("br"), el("span", "reason", p.outcome_words || words.outcome[p.outcome] || p.outcome));
    const score = el("td");
    score.append(el("span", "score", String(p.score)), " ", el("span", "reason", p.reason || ""));
    const cards = el("td");
    cards.append(handCells(p, jokers));
    tr.append(name, score, cards);
    if (money) tr.append(moneyCell(p, currency));
    if (chips) tr.append(chipsCell(p));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  box.append(table);
  if (result.note) box.append(el("p", "reason", result.note));
  return box;
}

/** A points player's deal in money: 21-card value cards, then what they pay or get and why. */
function moneyCell(p, currency) {
  const cell = el("td", "num money");
  const lines = [];
  if (p.cap !== undefined) {
    if (p.value_jokers || p.uppers || p.lowers) {
      lines.push(`Value cards: ${p.value_jokers} value, ${p.uppers} upper, ${p.lowers} lower` + (p.marriages ? `; ${p.marriages} marriage${p.marriages > 1 ? "s" : ""}` : ""));
    } else lines.push("No value cards");
  }
  if (p.money_line) lines.push(p.money_line);
  for (const line of lines) cell.append(el("span", "reason", line), el("br"));
  const amount = el("strong", p.money > 0 ? "gain" : p.money < 0 ? "loss" : "", p.money_words || formatMoney(0, currency));
  cell.append(amount);
  return cell;
}

/** A deals player's game chips over the deal: given or won, and what they hold now. */
function chipsCell(p) {
  const cell = el("td", "num chips");
  if (p.chips_line) cell.append(el("span", "reason", p.chips_line), el("br"));
  if (p.chips_words) cell.append(el("strong", p.chips_moved > 0 ? "gain" : p.chips_moved < 0 ? "loss" : "", p.chips_words));
  return cell;
}
