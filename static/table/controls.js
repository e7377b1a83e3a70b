// Which controls the player has at this moment: the action bar's buttons, the piles, and the
// menu's table actions. Pure functions, no DOM: the drawing step shows what these say.

import { sortByColour, sortBySuit } from "./hand.js";
import { deal, jokers, meAt, myDeal, myTurn } from "./state.js";

/**
 * The action bar and the piles: ``{drawClosed, drawOpen, buttons}``, where ``buttons`` maps each
 * button's id to ``{visible, enabled}``. At most four show at once on a turn (the "⋯" menu holds
 * the rest).
 */
export function controls(st) {
  const d = deal(st);
  const mine = Boolean(myDeal(st));
  const turn = myTurn(st);
  const drawn = Boolean(turn && d.drawn);
  const picked = st.selected.length;
  const one = picked === 1;
  const declaring = mine && d.phase === "declaring" && d.turn === st.me;
  const showing = mine && d.phase === "show" && d.waiting_for.includes(st.me);
  const on = (visible, enabled = visible) => ({ visible: Boolean(visible), enabled: Boolean(enabled) });
  return {
    drawClosed: turn && !d.drawn,
    drawOpen: Boolean(turn && !d.drawn && d.open_pile.length),
    buttons: {
      drop: on(turn && !d.drawn),
      discard: on(drawn, drawn && one),
      finish: on(drawn, drawn && one),
      declare: on(declaring),
      show: on(showing),
      group: on(mine, picked > 0),
      ungroup: on(mine && picked > 0 && !drawn),
      sort: on(mine && !(drawn && one)),
      "auto-arrange": on(mine && !drawn),
    },
  };
}

/** The menu's table actions: ``{id: {visible, text}}`` for auto drop, leave after this deal, leave. */
export function menuItems(st) {
  const table = st.table;
  const me = meAt(st);
  const seated = Boolean(me && me.status !== "left");
  const over = table.waiting_for === "";
  return {
    "auto-drop": { visible: Boolean(me && me.status === "in") && !over, text: me && me.auto_drop ? "I'm back" : "Auto drop next deals" },
    "leave-after-deal": { visible: seated && table.phase === "playing", text: me && me.leaving ? "Stay for the next deal" : "Leave after this deal" },
    leave: { visible: seated && !over, text: "Leave table" },
  };
}

/**
 * The Sort button names the sort on screen ("Sorted by suit", "Sorted by colour"), or "Sort"
 * when the groups are the player's own; ``next`` is the sort a tap gives: the other one.
 */
export function sortButton(st) {
  const mine = myDeal(st);
  const shown = JSON.stringify(st.groups);
  const j = jokers(st);
  let by = null;
  if (mine && shown === JSON.stringify(sortBySuit(mine.hand, j))) by = "suit";
  else if (mine && shown === JSON.stringify(sortByColour(mine.hand, j))) by = "colour";
  const next = by === "suit" ? "colour" : "suit";
  return {
    label: by ? `Sorted by ${by}` : "Sort",
    title: next === "colour" ? "Tap to sort by colour and rank" : "Tap to sort by suit",
    next,
  };
}
