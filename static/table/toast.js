// Toasts: a short message by the action bar that fades after a few seconds.

import { $ } from "./render.js";

let timer = null;

/** Show ``text`` in the toast ``id`` (an error, or with ``info`` a plain note) for six seconds. */
export function toast(text, id = "action-error", info = false) {
  const box = $(id);
  box.classList.toggle("info", info);
  box.textContent = text;
  clearTimeout(timer);
  timer = setTimeout(() => {
    box.textContent = "";
  }, 6000);
}

export function clearToast(id) {
  $(id).textContent = "";
}
