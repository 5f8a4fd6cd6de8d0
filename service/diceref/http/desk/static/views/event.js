// The event tab: what the event holds, exported as JSON (to move it to another device) or
// its results as CSV, an event imported from a file, or a new one.

import { asEvent, newEvent } from "../pure.js";
import { consumedAll, download, field, h, problemBox } from "../dom.js";
import { change, event, refreshAll, render, replaceEvent } from "../state.js";
import { exportCsv } from "./sheets.js";

export function renderEvent(panel) {
  const message = h("div", { "aria-live": "polite", id: "event-message" });
  const file = h("input", { type: "file", id: "event-import", accept: "application/json,.json", onchange: async (e) => {
    const chosen = e.target.files?.[0];
    if (!chosen) return;
    let parsed;
    try { parsed = asEvent(JSON.parse(await chosen.text())); } catch (err) { parsed = new Error("the file is not JSON"); }
    if (parsed instanceof Error) { message.replaceChildren(problemBox(`Not imported: ${parsed.message}.`)); return; }
    consumedAll(); // nothing typed for the event replaced
    change(() => replaceEvent(parsed));
    await refreshAll();
    render();
    document.getElementById("event-message")?.replaceChildren(h("p", { class: "ok" }, `Imported the event of ${parsed.created.slice(0, 10)}.`));
  } });
  const clear = h("button", { type: "button", id: "event-clear-yes", class: "primary", hidden: true, onclick: async () => {
    consumedAll();
    change(() => { const fresh = newEvent(); fresh.tab = "event"; replaceEvent(fresh); });
    await refreshAll(); render();
  } }, "Yes, start a new event");
  panel.replaceChildren(h("h2", {}, "Event"),
    h("p", {}, `Started ${new Date(event().created).toLocaleString()}. ${event().sheets.players.length} score sheets, ${event().chicago.rounds.length} Chicago rounds, ${event().yardkle.turns.length} Yardkle turns.`),
    h("p", { class: "hint" }, "The service keeps nothing: the event lives in this browser. Export it to move it to another device or keep it."),
    h("div", { class: "row" },
      h("button", { type: "button", id: "event-export", onclick: () => download(`diceref-event-${event().created.slice(0, 10)}.json`, "application/json", JSON.stringify(event(), null, 2)) }, "Export the event (JSON)"),
      h("button", { type: "button", onclick: exportCsv }, "Export the results (CSV)")),
    h("div", { class: "row" }, field("Import an event (JSON)", file)),
    message,
    h("div", { class: "row" }, h("button", { type: "button", onclick: () => { clear.hidden = false; clear.focus(); } }, "New event…"), clear));
}
