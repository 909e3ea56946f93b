// Short messages at the bottom, with an optional action.

import { $ } from "./dom.js";

let timer = 0;

/** Takes the message away now: an error shown elsewhere must not sit under an old one. */
export function hideToast() { clearTimeout(timer); $("toast").hidden = true; }

export function toast(text, action) {
  const box = $("toast");
  box.textContent = text; box.hidden = false;
  if (action) {
    const button = document.createElement("button");
    button.textContent = action.label;
    button.addEventListener("click", () => { box.hidden = true; action.run(); });
    box.append(button);
  }
  clearTimeout(timer);
  timer = setTimeout(() => { box.hidden = true; }, action ? 6000 : 1800);
}
