// The event the desk keeps (players, sheets, rounds, turns), stored in this browser
// (localStorage), and its changes: each one stored, undoable and redrawn.  The event is
// read through `event()`, as undoing, importing or starting a new event replaces it.  The
// page's `render` and `refreshAll` live in desk.js, which imports every view: they are
// handed in by `connect` rather than imported, so that no module imports desk.js.

import { asEvent, newEvent } from "./pure.js";
import { say, showBanner } from "./dom.js";

export const STORAGE_KEY = "diceref-desk/event";
export const TABS = ["sheets", "coach", "chicago", "yardkle", "event"];

function loadEvent() {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored) {
      const event = asEvent(JSON.parse(stored));
      if (!(event instanceof Error)) return event;
    }
  } catch { /* unreadable storage: start a new event */ }
  return newEvent();
}

let current = loadEvent();
const undoStack = [];

/** The event as it is now. */
export const event = () => current;

/** Within `change`: the event becomes `next` (one imported, or a new one). */
export function replaceEvent(next) { current = next; }

export const shownTab = () => (TABS.includes(current.tab) ? current.tab : "sheets");

const page = { render() {}, refreshAll: async () => {} };

/** desk.js's `render` (redraw the shown tab) and `refreshAll` (ask the service again for
 * every ruling of the event), for the views and for `undo`. */
export function connect({ render, refreshAll }) {
  page.render = render;
  page.refreshAll = refreshAll;
}
export const render = () => page.render();
export const refreshAll = () => page.refreshAll();

export function save() {
  try { localStorage.setItem(STORAGE_KEY, JSON.stringify(current)); }
  catch { showBanner("This browser refused to store the event: export it before closing the page."); }
}

/** Every change goes through here: it can be undone, it is stored, the page redraws. */
export function change(mutate, { redraw = true } = {}) {
  undoStack.push(JSON.stringify(current));
  if (undoStack.length > 200) undoStack.shift();
  mutate(current);
  save();
  updateUndo();
  if (redraw) render();
}

/** A change whose rulings come from the service: stored at once, redrawn when they arrive. */
export async function changeThen(mutate, refresh) {
  change(mutate);
  await refresh();
  render();
}

export function undo() {
  const previous = undoStack.pop();
  if (previous === undefined) return;
  current = JSON.parse(previous);
  save();
  updateUndo();
  render();
  say(shownTab(), "Undone");
  refreshAll().then(render); // the rulings of the event as it is again
}

export function updateUndo() {
  document.getElementById("undo").disabled = undoStack.length === 0;
}
