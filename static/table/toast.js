// Toasts: short messages over the seats and the felt (never the hand or the action bar), each
// gone after a few seconds of its own.

import { $ } from "./render.js";

const timers = new Map(); // toast id -> its own timer: a second toast never keeps the first up

/** Show ``text`` in the toast ``id`` (an error, or with ``info`` a plain note) for six seconds. */
export function toast(text, id = "action-error", info = false) {
  const box = $(id);
  box.classList.toggle("info", info);
  box.textContent = text;
  clearTimeout(timers.get(id));
  timers.set(
    id,
    setTimeout(() => {
      box.textContent = "";
      timers.delete(id);
    }, 6000),
  );
}

export function clearToast(id) {
  clearTimeout(timers.get(id));
  timers.delete(id);
  $(id).textContent = "";
}
