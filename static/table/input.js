// Input: taps on the piles and the action bar, and the hand's tap, drag (pointer events, so
// touch and mouse both work) and keyboard, turned into moves sent to the server or changes of
// the arrangement in the state (chessground's way: input becomes commands on the state).

import { sortButton } from "./controls.js";
import * as model from "./hand.js";
import { $ } from "./render.js";
import { deal, jokers, myDeal, myTurn, pointsCurrent, selectedCards, toggle } from "./state.js";
import { plain } from "./text.js";
import { toast } from "./toast.js";

export function install(page) {
  moves(page);
  arranging(page);
  hand(page);
}

function discard(page, card) {
  if (!card) return;
  page.act("discard", { card });
  page.st.selected = [];
}

function finish(page, card) {
  if (!card) return;
  page.act("finish", { card });
  page.st.selected = [];
}

function moves(page) {
  const st = page.st;
  $("draw-closed").onclick = () => page.act("draw", { source: "closed" });
  $("draw-open").onclick = () => page.act("draw", { source: "open" });
  $("discard").onclick = () => discard(page, selectedCards(st)[0]);
  $("finish").onclick = () => finish(page, selectedCards(st)[0]);
  $("declare").onclick = () => page.act("declare", { groups: st.groups.map((g) => [...g]) });
  $("show").onclick = () => page.act("show", { groups: st.groups.map((g) => [...g]) });
  // A drop is confirmed by a second tap within a few seconds (no dialog to dismiss by mistake).
  let armed = null;
  $("drop").onclick = () => {
    const button = $("drop");
    if (armed) {
      clearTimeout(armed);
      armed = null;
      button.textContent = "Drop";
      page.act("drop");
      return;
    }
    button.textContent = "Tap again to drop";
    armed = setTimeout(() => {
      armed = null;
      button.textContent = "Drop";
    }, 4000);
  };
}

function arranging(page) {
  const st = page.st;
  $("group").onclick = () => {
    const next = model.groupSelected(st.groups, st.selected);
    st.selected = [];
    page.setGroups(next);
  };
  $("ungroup").onclick = () => {
    const gs = [...new Set(st.selected.map(({ g }) => g))].sort((a, b) => b - a);
    let next = st.groups;
    for (const g of gs) next = model.ungroup(next, g);
    st.selected = [];
    page.setGroups(next);
  };
  $("sort").onclick = () => {
    const mine = myDeal(st);
    if (!mine) return;
    const sort = sortButton(st).next === "suit" ? model.sortBySuit : model.sortByColour;
    st.selected = [];
    page.setGroups(sort(mine.hand, jokers(st)));
  };
  $("auto-arrange").onclick = async () => {
    try {
      const response = await fetch(page.app.dataset.arrangeUrl, { credentials: "same-origin" });
      const body = await response.json();
      if (!response.ok) {
        toast(plain(body.message || "Could not arrange your cards"), "arrange-error");
        return;
      }
      const mine = myDeal(st);
      if (!mine) return;
      const proposal = model.reconcile(body.groups, mine.hand, true);
      const current = pointsCurrent(st) ? st.points : null;
      const choice = model.better(st.groups, current, proposal, body.score);
      page.app.dataset.arranged = String(Number(page.app.dataset.arranged || 0) + 1);
      if (!choice.changed) {
        toast(`Your groups score ${current}, as low as the best arrangement (${body.score}): kept as they are.`, "arrange-error", true);
        return;
      }
      st.selected = [];
      page.setGroups(choice.groups);
    } catch {
      toast("Could not reach the server to arrange your cards.", "arrange-error");
    }
  };
}

function placeOf(button) {
  return { g: Number(button.dataset.g), i: Number(button.dataset.i) };
}

function hand(page) {
  const st = page.st;
  const box = $("hand");
  const canDiscard = () => myTurn(st) && deal(st).drawn;

  box.addEventListener("click", (e) => {
    const button = e.target.closest("button.card");
    if (!button || st.justDragged) return;
    toggle(st, placeOf(button));
    page.drawHand(true);
    page.drawButtons();
  });

  let drag = null;
  box.addEventListener("pointerdown", (e) => {
    const button = e.target.closest("button.card");
    if (!button || e.button > 0) return;
    drag = { from: placeOf(button), x: e.clientX, y: e.clientY, button, ghost: null, target: null, pointer: e.pointerId };
  });

  const clearTargets = () => {
    for (const old of document.querySelectorAll(".drop-target")) old.classList.remove("drop-target");
  };

  function dropTarget(x, y) {
    const under = document.elementFromPoint(x, y);
    if (!under) return null;
    if (canDiscard() && under.closest("#draw-open")) return { kind: "discard", node: $("draw-open") };
    if (canDiscard() && under.closest("#finish-slot")) return { kind: "finish", node: $("finish-slot") };
    const group = under.closest(".group");
    if (group && box.contains(group)) {
      const g = Number(group.dataset.group);
      const cards = [...group.querySelectorAll("button.card")];
      let i = cards.findIndex((c) => x < c.getBoundingClientRect().left + c.getBoundingClientRect().width / 2);
      if (i < 0) i = cards.length;
      if (g === drag.from.g && i > drag.from.i) i -= 1;
      return { kind: "move", g, i, node: group };
    }
    if (under.closest("#hand-section")) return { kind: "move", g: st.groups.length, i: 0, node: box };
    return null;
  }

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
    clearTargets();
    drag.target = dropTarget(e.clientX, e.clientY);
    if (drag.target && drag.target.node) drag.target.node.classList.add("drop-target");
  });

  window.addEventListener("pointerup", (e) => {
    if (!drag || e.pointerId !== drag.pointer) return;
    const done = drag;
    drag = null;
    if (!done.ghost) return;
    done.ghost.remove();
    clearTargets();
    st.justDragged = true;
    setTimeout(() => {
      st.justDragged = false;
    }, 0);
    const target = done.target;
    const code = st.groups[done.from.g] && st.groups[done.from.g][done.from.i];
    if (!target || !code) return page.drawHand(false);
    if (target.kind === "discard") return discard(page, code);
    if (target.kind === "finish") return finish(page, code);
    const moved = model.moveCard(st.groups, done.from, target.g, target.i);
    st.selected = [];
    st.focusAt = moved.at;
    page.setGroups(moved.groups);
  });

  window.addEventListener("pointercancel", () => {
    if (drag && drag.ghost) drag.ghost.remove();
    drag = null;
    page.drawHand(false);
  });

  box.addEventListener("focusin", (e) => {
    const button = e.target.closest("button.card");
    if (button) st.focusAt = placeOf(button);
  });

  box.addEventListener("keydown", (e) => {
    const button = e.target.closest("button.card");
    if (!button) return;
    const at = placeOf(button);
    const key = e.key;
    if ((key === "ArrowLeft" || key === "ArrowRight") && e.shiftKey) {
      e.preventDefault();
      const moved = model.moveCard(st.groups, at, key === "ArrowLeft" ? at.g - 1 : at.g + 1);
      st.focusAt = moved.at;
      st.selected = [];
      page.setGroups(moved.groups);
      page.drawHand(true);
    } else if (key === "ArrowLeft" || key === "ArrowRight") {
      e.preventDefault();
      st.focusAt = model.step(st.groups, at, key === "ArrowLeft" ? -1 : 1);
      page.drawHand(true);
    } else if (key === "d" || key === "D") {
      if (canDiscard()) discard(page, st.groups[at.g][at.i]);
    } else if (key === "f" || key === "F") {
      if (canDiscard()) finish(page, st.groups[at.g][at.i]);
    } else if (key === "g" || key === "G") {
      $("group").click();
    }
  });
}
