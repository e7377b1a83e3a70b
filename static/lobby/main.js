// The lobby page's script: tabs per format (Points, Pool, Deals, 21 Cards) and the players at
// each stake kept live from the lobby's JSON (games.views.lobby_live) every few seconds while
// the page is in view. Without it the page still works: every format shows, one under another.

import { chooseTab, liveView, nextDelay, TAB_KEY, tabAfter } from "./view.js";

const root = document.getElementById("lobby");
const tabList = root.querySelector('[role="tablist"]');
const tabs = [...tabList.querySelectorAll('[role="tab"]')];
const panels = [...root.querySelectorAll('[role="tabpanel"]')];
const codes = tabs.map((tab) => tab.dataset.format);

function show(code, focus = false) {
  for (const tab of tabs) {
    const on = tab.dataset.format === code;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
  }
  for (const panel of panels) panel.hidden = panel.dataset.format !== code;
  try {
    localStorage.setItem(TAB_KEY, code);
  } catch {
    // private browsing: the tab is not remembered
  }
  history.replaceState(null, "", `#${code}`);
}

function installTabs() {
  const errorPanel = root.querySelector(".row-error")?.closest('[role="tabpanel"]');
  let saved = null;
  try {
    saved = localStorage.getItem(TAB_KEY);
  } catch {
    saved = null;
  }
  const formats = panels.map((panel) => ({ format: panel.dataset.format, stakes: panel.querySelectorAll(".stake").length }));
  root.classList.add("tabbed");
  tabList.hidden = false;
  for (const panel of panels) panel.setAttribute("aria-labelledby", `tab-${panel.dataset.format}`);
  show(chooseTab(formats, { hash: location.hash, saved, error: errorPanel ? errorPanel.dataset.format : null }));
  for (const tab of tabs) {
    tab.addEventListener("click", () => show(tab.dataset.format));
    tab.addEventListener("keydown", (event) => {
      const next = tabAfter(codes, tab.dataset.format, event.key);
      if (next) {
        event.preventDefault();
        show(next, true);
      }
    });
  }
}

function apply(view) {
  for (const stake of root.querySelectorAll("[data-template]")) {
    const now = view.who[stake.dataset.template];
    const who = stake.querySelector("[data-who]");
    if (now === undefined) continue; // a stake offered since the page was drawn shows on a reload
    if (who.textContent !== now.text) who.textContent = now.text;
    who.classList.toggle("idle", now.idle);
  }
  for (const count of root.querySelectorAll("[data-count]")) {
    const text = view.counts[count.dataset.count];
    if (text !== undefined) count.textContent = text;
  }
  const list = document.getElementById("mine-list");
  list.replaceChildren(
    ...view.mine.map((table) => {
      const li = document.createElement("li");
      const link = document.createElement("a");
      link.className = "button";
      link.href = table.href;
      link.textContent = table.text;
      li.append(link, table.after);
      return li;
    }),
  );
  document.getElementById("mine").hidden = view.mine.length === 0;
}

let failures = 0;
let timer = null;

async function refresh() {
  clearTimeout(timer);
  try {
    const response = await fetch(root.dataset.liveUrl, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    apply(liveView(await response.json(), root.dataset.tableUrl));
    failures = 0;
    root.dataset.refreshed = String(Date.now());
  } catch {
    failures += 1; // logged out, or the network is away: ask less often
  }
  schedule();
}

function schedule() {
  clearTimeout(timer);
  const delay = nextDelay(document.visibilityState === "visible", failures);
  if (delay !== null) timer = setTimeout(refresh, delay);
}

installTabs();
document.addEventListener("visibilitychange", () => (document.visibilityState === "visible" ? refresh() : clearTimeout(timer)));
schedule();
