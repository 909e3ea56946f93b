// Who is signed in, on a server with accounts (`browsey serve --config`): a Sign in / name
// button in the bar, a small sign-in form, and the write actions shown only where the signed-in
// user may write.

import { post } from "./api.js";
import { $ } from "./dom.js";
import { state } from "./state.js";
import { toast } from "./toast.js";
import { showWrites } from "./writes.js";

/** What the server said at start: whether it writes at all, whether it has accounts, who is signed in. */
const server = { writes: false, accounts: false, user: "" };

/** Whether someone is signed in (on a server with accounts): they may make share links. */
export function isSignedIn() { return Boolean(server.user); }

/**
 * Makes a read-only share link to `path` (`POST /api/share`) and shows its address in the info
 * sheet, copied when the browser allows it.
 *
 * @param {string} path
 */
export async function makeLink(path) {
  const answer = await post("share", { path });
  if (!answer.ok) { toast(answer.message); return; }
  const address = location.origin + answer.body.url;
  const field = $("info-link-address", HTMLInputElement);
  field.value = address;
  field.hidden = false;
  field.select();
  try { await navigator.clipboard.writeText(address); toast("Share link copied"); } catch { toast("Share link made: copy it from the box"); }
}

/**
 * Asks who is signed in and what they may do in `folder`, then shows the writes allowed there.
 *
 * @param {string} folder
 */
export async function updateRights(folder) {
  if (!server.accounts) return;
  try {
    const response = await fetch("/api/session?path=" + encodeURIComponent(folder), { headers: { Accept: "application/json" } });
    const session = await response.json();
    state.writable = server.writes && Array.isArray(session.rights) && session.rights.includes("write");
    showWrites();
  } catch { /* the last answer stands */ }
}

/**
 * Starts the account button once the server's health is known.
 *
 * @param {boolean} writes whether the server writes at all (not read-only)
 */
export async function startAccount(writes) {
  server.writes = writes;
  let session;
  try {
    session = await (await fetch("/api/session?path=" + encodeURIComponent(state.folder || "/"), { headers: { Accept: "application/json" } })).json();
  } catch { return; }
  if (!session || !session.accounts) return;
  server.accounts = true;
  server.user = session.username || "";
  const button = document.createElement("button");
  button.id = "account";
  button.className = "small-button";
  button.textContent = session.username ? session.username : "Sign in";
  button.title = session.username ? "Signed in as " + session.username + ": sign out" : "Sign in";
  button.setAttribute("aria-label", button.title);
  $("folder-more").before(button);
  button.addEventListener("click", () => (session.username ? signOut() : showForm()));
  await updateRights(state.folder || "/");
}

async function signOut() {
  await post("logout", {});
  location.reload();
}

function showForm() {
  if ($("login-form")) { $("login-name").focus(); return; }
  const form = document.createElement("form");
  form.id = "login-form";
  form.className = "inline-form";
  const name = document.createElement("input");
  name.id = "login-name"; name.autocomplete = "username"; name.placeholder = "User name"; name.required = true;
  name.setAttribute("aria-label", "User name");
  const password = document.createElement("input");
  password.id = "login-password"; password.type = "password"; password.autocomplete = "current-password";
  password.placeholder = "Password"; password.required = true; password.setAttribute("aria-label", "Password");
  const submit = document.createElement("button");
  submit.className = "small-button"; submit.type = "submit"; submit.textContent = "Sign in";
  const message = document.createElement("span");
  message.id = "login-message"; message.className = "muted"; message.setAttribute("role", "status");
  form.append(name, password, submit, message);
  $("toolbar").before(form);
  name.focus();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await post("login", { username: name.value, password: password.value });
    if (answer.ok) { location.reload(); return; }
    password.value = "";
    message.textContent = answer.message;
  });
}
