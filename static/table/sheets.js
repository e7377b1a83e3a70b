// The sheets over the table, drawn from the state: the show notice, the rejoin and split
// offers, the deal's result (with the shuffle check) and the game's end.

import { cardText, jokersFromCut } from "./cards.js";
import { $, el, money, resultBody } from "./render.js";
import { deal, jokers, nameOf } from "./state.js";
import { dealWords, gameOver, gameOverLines, resultLines, showText } from "./text.js";
import { verifyDeal } from "./verify.js";


function button(text, onclick, className = "") {
  const b = el("button", className, text);
  b.type = "button";
  b.onclick = onclick;
  return b;
}

export function drawShow(page) {
  const text = showText(page.st);
  $("show-screen").hidden = text === null;
  if (text !== null) $("show-text").textContent = text;
}

export function drawOffers(page) {
  const st = page.st;
  const table = st.table;
  const box = $("offers");
  box.replaceChildren();
  const fee = money(st.entryFee, st.currency);
  if (table.rejoin_open.includes(st.me)) {
    const remaining = table.players.filter((p) => p.status === "in");
    const top = Math.max(0, ...remaining.map((p) => p.score || 0));
    box.append(el("h2", "", "Rejoin?"), el("p", "", `You are out. Rejoin for ${fee} and start again at ${top + 1} points.`));
    box.append(button(`Rejoin (${fee})`, () => page.act("rejoin")));
  }
  const split = table.split_offer;
  if (split) {
    box.append(el("h2", "", "Split the prize?"));
    if (split.why) box.append(el("p", "reason", split.why));
    const ul = el("ul");
    split.players.forEach((player, k) => {
      const li = el("li");
      li.append(el("strong", "", `${nameOf(st, player)}: ${money(split.amounts[k], st.currency)}`), split.accepted.includes(player) ? " (accepted)" : "");
      if (split.each && split.each[k]) li.append(el("br"), el("span", "reason", split.each[k]));
      ul.append(li);
    });
    box.append(ul);
    if (split.players.includes(st.me) && !split.accepted.includes(st.me)) {
      box.append(button("Accept the split", () => page.act("split_accept")), " ", button("Decline the split", () => page.act("split_decline"), "secondary"));
    }
  }
  box.hidden = !box.children.length;
}

let shownResultKey = null;

export function drawResult(page) {
  const st = page.st;
  const table = st.table;
  const d = deal(st);
  const result = table.last_result || (d && d.result);
  const panel = $("result");
  if (!result) {
    panel.hidden = true;
    return;
  }
  page.store.setItem(`table-${st.tableId}-last`, JSON.stringify({ result, cut: (table.verify || {}).cut || (d && d.cut), number: table.deal_number }));
  const key = result.seed;
  if (key !== shownResultKey) {
    shownResultKey = key;
    panel.hidden = false;
    verifyShuffle(page, table.verify);
  }
  const j = table.verify ? jokersFromCut(table.verify.cut, st.variant === "points21") : jokers(st);
  $("result-h").textContent = `${dealWords(table)}: result`;
  const body = resultBody(result, { nameOf: (p) => nameOf(st, p), words: st.words, currency: st.currency, jokers: j, variant: st.variant });
  for (const line of resultLines(st)) body.append(el("p", "standing", line));
  body.append(el("p", "mono", `Seed ${result.seed}`));
  const next = el("p", "next-deal");
  next.id = "next-deal";
  body.append(next);
  $("result-body").replaceChildren(body);
}

async function verifyShuffle(page, info) {
  const out = $("verify");
  out.className = "verify";
  if (!info || !info.seed || !globalThis.crypto || !crypto.subtle) {
    out.textContent = "";
    return;
  }
  const dealtText = page.store.getItem(`dealt-${info.commitment}`);
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
    page.app.dataset.verified = check.ok ? "yes" : "no";
  } catch (error) {
    out.textContent = `The shuffle could not be checked here (${error}).`;
  }
}

let overShown = false;

export function drawGameOver(page) {
  const over = gameOver(page.st.table);
  $("game-over").hidden = !over;
  // The game's end takes the place of the last deal's result, which "The last deal" shows again.
  if (over && !overShown) $("result").hidden = true;
  overShown = over;
  if (!over) return;
  $("over-result").hidden = !page.st.table.last_result;
  $("over-body").replaceChildren(...gameOverLines(page.st).map((text) => el("p", "", text)));
}
