// Menus of secondary actions (the folder's and the viewer's): a button that opens a list of
// actions under it, closed by a tap elsewhere, by Escape, or by choosing an action that is done
// at once (those marked `data-keeps-open`, such as A− and A+, leave it open for another tap).

import { $, all } from "./dom.js";

/** The menus, by the id of the button that opens each one. */
const menus = { "folder-more": "folder-menu", "viewer-more": "viewer-menu" };

/** Opens the menu of `buttonId` (closing any other), or closes it when it is open. */
export function toggleMenu(buttonId) {
  const menu = $(menus[buttonId]), opening = menu.hidden;
  closeMenus();
  if (!opening) return;
  menu.hidden = false;
  $(buttonId).setAttribute("aria-expanded", "true");
  const first = all(".menu-item", menu).find((item) => !item.hidden);
  if (first) first.focus();
}

/** Closes every menu; answers whether one was open. */
export function closeMenus() {
  let closed = false;
  for (const [buttonId, menuId] of Object.entries(menus)) {
    if (!$(menuId).hidden) closed = true;
    $(menuId).hidden = true;
    $(buttonId).setAttribute("aria-expanded", "false");
  }
  return closed;
}

/** The open menu's button, if a menu is open (Escape gives it focus back). */
export function openMenuButton() {
  const open = Object.entries(menus).find(([, menuId]) => !$(menuId).hidden);
  return open ? $(open[0]) : null;
}

/** Wires the menus' buttons, and closes a menu on a tap elsewhere or on an action in it. */
export function listenMenus() {
  for (const buttonId of Object.keys(menus)) {
    $(buttonId).addEventListener("click", (event) => { event.stopPropagation(); toggleMenu(buttonId); });
  }
  document.addEventListener("click", (event) => {
    if (!(event.target instanceof Element)) return;
    const item = event.target.closest(".menu-item");
    if (item && item.hasAttribute("data-keeps-open")) return;
    closeMenus();
  });
}
