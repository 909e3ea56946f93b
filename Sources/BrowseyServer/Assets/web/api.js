// Talking to the server.

import { accessRequired, askForAccess, isGated } from "./access.js";
import { isNetworkError, unreachableText, wentOffline } from "./offline.js";
import { prefs } from "./prefs.js";
import { shared } from "./shared.js";
import { state } from "./state.js";

// encodeURIComponent, not URLSearchParams: the server reads `+` as a plus sign, as RFC 3986 has it.
export function apiURL(name, params) {
  // Through a share link, the link's own endpoints: paths are the link's, nothing else is reachable.
  return (shared ? "/api/shared/" + shared.id + "/" : "/api/") + name + "?" + Object.entries(params).map(([key, value]) => key + "=" + encodeURIComponent(value)).join("&");
}
export async function api(name, params) {
  return readAnswer(await reach(fetch(apiURL(name, params), { headers: { Accept: "application/json" } })));
}
/**
 * A request's answer; when no answer comes at all (the server is away), the page goes offline
 * and the error says so in words.
 *
 * @param {Promise<Response>} request
 */
export async function reach(request) {
  try { return await request; } catch (error) {
    if (!isNetworkError(error)) throw error;
    wentOffline();
    const away = new Error(unreachableText);
    away.name = "Unreachable";
    throw away;
  }
}
/** A JSON answer's body; an error with the server's message for any status but 2xx (behind the access-token gate: the token form, and an `AccessRequired` error). */
export async function readAnswer(response) {
  if (isGated(response)) throw accessRequired();
  let body = {};
  try { body = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) throw new Error(body.message || body.error || ("The server answered " + response.status));
  return body;
}
export function withHidden(params) { if (prefs.get("hidden", false) && state.hiddenAllowed !== false) params.hidden = "1"; return params; }
/// A JSON write; answers the status and the body, whatever the status.
export async function post(name, body) {
  let response;
  try {
    response = await reach(fetch("/api/" + name, {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body),
    }));
  } catch (error) {
    return { status: 0, ok: false, body: {}, message: error.message };
  }
  if (isGated(response)) askForAccess();
  let answer = {};
  try { answer = await response.json(); } catch { /* not JSON */ }
  return { status: response.status, ok: response.ok, body: answer, message: answer.message || answer.error || ("The server answered " + response.status) };
}
