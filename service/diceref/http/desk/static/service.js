// The service the desk calls: its JSON operations (every answer {ok, status, data} or a
// problem in words), the connection's state, and the catalogue of its games.

import { problemWords } from "./pure.js";
import { statusOf } from "./dom.js";
import { shownTab } from "./state.js";

// How many answers the page still awaits, on <body data-waiting>: "0" when every answer
// has arrived and been shown (the browser tests wait for it rather than for a fixed time).
let waiting = 0;
export function awaiting(change) {
  waiting += change;
  document.body.dataset.waiting = String(waiting);
}

/** A service answer: {ok, status, data} or {ok: false, status, message, errors}. */
export async function call(method, path, body) {
  awaiting(+1);
  try { return await answerOf(method, path, body); } finally { awaiting(-1); }
}

async function answerOf(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? { Accept: "application/json" }
        : { "Content-Type": "application/json", Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    online(false);
    return { ok: false, status: 0, offline: true, errors: [],
      message: "The service did not answer (is the network up?). Your entries are kept on this device; they are checked again when it answers." };
  }
  online(true);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (response.ok) return { ok: true, status: response.status, data };
  return { ok: false, status: response.status, ...problemWords(response, data) };
}
export const post = (path, body) => call("POST", path, body);
export const get = (path) => call("GET", path);

/** The connection's state, said on the status of the tab being shown (where the person is). */
function online(up) {
  const status = statusOf(shownTab());
  if (!up) status.textContent = "Offline: entries kept, not checked";
  else if (status.textContent.startsWith("Offline")) status.textContent = "Back online";
}

/** The service's games (GET /games, filled in by desk.js), by id, and their details. */
export const catalogue = { games: [], byId: {}, details: {} };

/** A game's description (GET /games/{game}: its rule parameters), asked once. */
export async function gameDetails(id) {
  if (!catalogue.details[id]) {
    const answer = await get(`/games/${encodeURIComponent(id)}`);
    if (!answer.ok) return null;
    catalogue.details[id] = answer.data;
  }
  return catalogue.details[id];
}
