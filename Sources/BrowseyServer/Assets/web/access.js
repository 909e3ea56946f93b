// The access-token gate (`BROWSEY_ACCESS_TOKEN`): until the browser holds the server's
// `browsey_access` cookie every API answer is 401, so the page asks its person for the token,
// once, hands it to `POST /api/access` in the header, and starts again with the cookie. The
// token goes into no address, no storage and no variable that outlives the request.

import { $ } from "./dom.js";

/** Whether the form is up: every refusal meanwhile is the same question, asked once. */
let asking = false;

/**
 * Whether an answer is the gate's refusal (not a `--auth` or account one, which say `Bearer`).
 *
 * @param {Response} response
 */
export function isGated(response) {
  return response.status === 401 && /^Browsey-Access\b/i.test(response.headers.get("WWW-Authenticate") || "");
}

/** The error an API call ends in behind the gate: nothing to show of it, the form says it all. */
export function accessRequired() {
  askForAccess();
  const error = new Error("This server asks for its access token");
  error.name = "AccessRequired";
  return error;
}

/** Shows the token form over the page (once, however many answers were refused). */
export function askForAccess() {
  if (asking) return;
  asking = true;
  $("access").hidden = false;
  $("access-token").focus();
  $("access-form").addEventListener("submit", send);
}

/** @param {SubmitEvent} event */
async function send(event) {
  event.preventDefault();
  const field = $("access-token", HTMLInputElement);
  const submit = $("access-go", HTMLButtonElement);
  let headers;
  // A token no header can carry (a line break, a letter outside Latin-1) is not the server's.
  try { headers = new Headers({ "X-Browsey-Access-Token": field.value.trim(), Accept: "application/json" }); } catch { headers = null; }
  field.value = "";
  if (!headers) { refused("That token is not right."); return; }
  submit.disabled = true;
  $("access-error").hidden = true;
  let response;
  try {
    response = await fetch("/api/access", { method: "POST", headers, cache: "no-store" });
  } catch {
    submit.disabled = false;
    refused("The server is not reachable. Try again in a moment.");
    return;
  }
  // The cookie is set: the page starts again and everything it asks for now passes the gate.
  if (response.ok) { location.reload(); return; }
  submit.disabled = false;
  refused(isGated(response) ? "That token is not right." : "The server answered " + response.status + ".");
}

/** @param {string} text */
function refused(text) {
  const error = $("access-error");
  error.textContent = text;
  error.hidden = false;
  $("access-token").focus();
}
