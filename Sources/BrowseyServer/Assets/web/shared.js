// A share link's page (`/s/ID`): the same web UI, reading through the link (`/api/shared/ID/…`),
// its folders addressed as `/s/ID?path=/sub`, with nothing that writes, searches or signs in.

const match = /^\/s\/([0-9a-f]{32})$/.exec(location.pathname);

/**
 * The link this page was opened from, or null on the server's own pages. `name` is the shared
 * item's name (the breadcrumbs' first crumb), set once the server has said what it is.
 *
 * @type {{ id: string, page: string, name: string } | null}
 */
export const shared = match ? { id: match[1], page: match[0], name: "Shared" } : null;

/**
 * What the link opens: its name, whether it is a folder, and its path inside the link.
 *
 * @returns {Promise<{ name: string, folder: boolean, path: string }>}
 */
export async function readShared() {
  if (!shared) throw new Error("not a share link");
  const response = await fetch("/api/shared/" + shared.id, { headers: { Accept: "application/json" } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message || "This link does not open anything");
  shared.name = body.name;
  return body;
}
