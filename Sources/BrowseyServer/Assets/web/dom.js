// Finding the page's elements.

/**
 * The element with this id. Give its class (`HTMLInputElement`) where the caller uses what only
 * that kind of element has: the type checker then knows it, and nothing changes at run time.
 *
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{ new (): T, prototype: T }} [type]
 * @returns {T}
 */
export function $(id, type) { // eslint-disable-line no-unused-vars
  return /** @type {T} */ (document.getElementById(id));
}

/**
 * The elements that match a selector, as HTML elements.
 *
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {HTMLElement[]}
 */
export function all(selector, root = document) {
  return /** @type {HTMLElement[]} */ ([...root.querySelectorAll(selector)]);
}
