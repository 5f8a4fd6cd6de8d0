// The score sheets tab: a sheet per player, every entry checked by the service
// (POST /scorecards/check) as it is typed, dice scored in their box (POST /score), the
// house rules of the game, the totals and the ranking.

import { latestOnly, parseDice, resultsCsv, ruleHint, sheetRequest, withRules } from "../pure.js";
import { addPlayerForm, download, field, gameSelect, h, problemBox, say } from "../dom.js";
import { catalogue, gameDetails, post } from "../service.js";
import { change, event } from "../state.js";
import { chicagoRuling } from "./chicago.js";
import { yardkleRuling } from "./yardkle.js";

// Results of the last check (not stored: recomputed from the entries on every load).
const sheetState = { check: null, error: null, pending: false, localProblems: {}, scoreProblems: {}, ruleProblems: {}, rulesOpen: false };
let checkTimer = null;
const sheetCheck = latestOnly();

export function scheduleCheck() {
  clearTimeout(checkTimer);
  sheetState.pending = true;
  checkTimer = setTimeout(runCheck, 120);
}

async function runCheck() {
  const current = sheetCheck.ask();
  if (!event().sheets.players.length) { sheetState.check = null; sheetState.pending = false; renderSheetResults(); return; }
  const { body, local } = sheetRequest(event().sheets);
  sheetState.localProblems = local;
  say("sheets", "Checking…");
  const answer = await post("/scorecards/check", body);
  if (!current()) return; // the entries changed since: the later check's answer is shown
  sheetState.pending = false;
  if (answer.ok) {
    sheetState.check = answer.data;
    sheetState.error = null;
    say("sheets", "Sheets checked");
  } else {
    sheetState.error = answer;
    if (!answer.offline) say("sheets", "The service refused the sheets");
    else setTimeout(scheduleCheck, 5000); // poor Wi-Fi: try again until the service answers
  }
  renderSheetResults();
}

/** Dice entered without points: the service scores them in that box. */
async function scoreDice(index, box) {
  const player = event().sheets.players[index];
  const dice = parseDice(player.entries[box]?.dice);
  delete sheetState.scoreProblems[`${index}/${box}`];
  if (dice === null || !dice.length) return;
  // The card the dice go on: the player's other boxes that the service found possible.
  clearTimeout(checkTimer);
  await runCheck();
  const filled = {};
  const bad = new Set((sheetState.check?.sheets?.[index]?.problems ?? []).map((p) => p.box));
  for (const [other, entry] of Object.entries(player.entries)) {
    const points = String(entry.points ?? "").trim();
    if (other !== box && /^\d+$/.test(points) && !bad.has(other)) filled[other] = Number(points);
  }
  const scorecard = { filled };
  const answer = await post("/score", withRules({ game: event().sheets.game, dice, scorecard }, event().sheets.rules));
  if (!answer.ok) { sheetState.scoreProblems[`${index}/${box}`] = answer.message; renderSheetResults(); return; }
  const option = answer.data.options.find((o) => o.box === box);
  const blocked = (answer.data.blocked ?? []).find((b) => b.box === box);
  if (option) {
    change((e) => { e.sheets.players[index].entries[box].points = String(option.points); }, { redraw: false });
    const input = document.getElementById(`points-${index}-${box}`);
    if (input) input.value = String(option.points);
    scheduleCheck();
  } else {
    sheetState.scoreProblems[`${index}/${box}`] = blocked?.reason ?? "these dice cannot be written in this box now";
    renderSheetResults(); // the reason beside the box, without redrawing the boxes being typed in
  }
}

function boxProblem(index, box) {
  const key = `${index}/${box}`;
  if (sheetState.localProblems[key]) return sheetState.localProblems[key];
  if (sheetState.scoreProblems[key]) return sheetState.scoreProblems[key];
  const problems = sheetState.check?.sheets?.[index]?.problems ?? [];
  const found = problems.filter((p) => p.box === box).map((p) => p.reason);
  return found.length ? found.join("; ") : null;
}

function focusCell(index, boxIndex) {
  const next = document.querySelector(`input.points[data-player="${index}"][data-row="${boxIndex}"]`);
  if (next) { next.focus(); next.select(); }
}

function sheetCell(index, box, boxIndex) {
  const entry = event().sheets.players[index].entries[box.id] ?? { points: "", dice: "" };
  const player = event().sheets.players[index].name;
  const reason = boxProblem(index, box.id);
  const reasonId = `reason-${index}-${box.id}`;
  const commit = (kind, value) => {
    const current = event().sheets.players[index].entries[box.id]?.[kind] ?? "";
    if (current === value) return false;
    change((e) => {
      const entries = e.sheets.players[index].entries;
      entries[box.id] = { points: "", dice: "", ...entries[box.id], [kind]: value };
    }, { redraw: false });
    return true;
  };
  const points = h("input", {
    class: "points", id: `points-${index}-${box.id}`, inputmode: "numeric", autocomplete: "off", value: entry.points ?? "",
    "data-player": index, "data-row": boxIndex, "data-box": box.id,
    "aria-label": `${player}: ${box.name} points`,
    "aria-invalid": reason ? "true" : null, "aria-describedby": reason ? reasonId : null,
    onchange: (e) => { if (commit("points", e.target.value.trim())) scheduleCheck(); },
    onkeydown: (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      if (commit("points", e.target.value.trim())) scheduleCheck();
      focusCell(index, boxIndex + 1);
    },
  });
  const dice = h("input", {
    class: "dice", autocomplete: "off", value: entry.dice ?? "", placeholder: "dice",
    "data-player": index, "data-box": box.id,
    "aria-label": `${player}: ${box.name} dice (optional)`,
    onchange: (e) => {
      if (!commit("dice", e.target.value.trim())) return;
      if (!String(event().sheets.players[index].entries[box.id].points ?? "").trim()) scoreDice(index, box.id);
      else scheduleCheck();
    },
    onkeydown: (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      e.target.dispatchEvent(new Event("change"));
      focusCell(index, boxIndex + 1);
    },
  });
  return h("td", {}, h("div", { class: `cell${reason ? " bad" : ""}`, "data-cell": `${index}/${box.id}` },
    points, dice, reason ? h("span", { class: "reason", id: reasonId }, reason) : null));
}

// What a rule control sets when it is cleared: the game's own value (no override sent).
const DEFAULT_RULE = Symbol("the game's default");

const rulesSummary = () => `House rules (${Object.keys(event().sheets.rules).length} changed)`;

/** The control, read with the text of the element `id` as its description. */
function described(control, id) {
  control.setAttribute("aria-describedby", id);
  return control;
}

/** After a rule changes: the summary's count and the rule's hint follow it at once. */
function showRuleChange(parameter, chosen, cleared) {
  const summary = document.getElementById("rules-summary");
  if (summary) summary.textContent = rulesSummary();
  const hint = document.getElementById(`rule-hint-${parameter.name}`);
  if (hint) hint.textContent = ruleHint(parameter, chosen, cleared);
}

/** A control for one rule parameter, typed as `GET /games/{game}` describes it. */
function ruleControl(parameter, id, chosen, set) {
  const disabled = parameter.settable === false;
  const type = parameter.value_type ?? typeof parameter.value;
  if (parameter.choices) {
    return h("select", { id, disabled, onchange: (e) => set(e.target.value) },
      parameter.choices.map((c) => h("option", { value: c, selected: c === chosen }, String(c))));
  }
  if (type === "boolean") {
    return h("input", { type: "checkbox", id, checked: chosen, disabled, onchange: (e) => set(e.target.checked) });
  }
  if (type === "integer" || type === "number") {
    // An empty field is the game's default (the override dropped), never 0.
    return h("input", { type: "number", id, value: chosen, disabled, min: parameter.minimum, max: parameter.maximum,
      placeholder: `default ${parameter.value}`, step: type === "integer" ? 1 : "any",
      onchange: (e) => set(e.target.value.trim() === "" ? DEFAULT_RULE : Number(e.target.value)) });
  }
  if (type === "string") return h("input", { id, value: chosen, disabled, onchange: (e) => set(e.target.value) });
  // lists and other values: written as JSON, as the service shows them
  return h("input", { id, value: JSON.stringify(chosen), disabled, onchange: (e) => {
    try { set(JSON.parse(e.target.value)); } catch { sheetState.ruleProblems[parameter.name] = "write the value as shown, e.g. [1, 2]"; renderSheetResults(); }
  } });
}

async function renderRules(container) {
  const details = await gameDetails(event().sheets.game);
  container.replaceChildren();
  if (!details) { container.append(problemBox("The service did not describe this game.")); return; }
  const note = "Change a rule to play a house variant: the sheets, the dice and the coach of this game follow the rules chosen here.";
  container.append(h("p", { class: "hint" }, note));
  if (Object.keys(event().sheets.rules).length) {
    container.append(h("button", { type: "button", onclick: () => { change((e) => { e.sheets.rules = {}; }); scheduleCheck(); } }, "Back to the built-in rules"));
  }
  for (const parameter of details.parameters ?? []) {
    const id = `rule-${parameter.name}`;
    const chosen = parameter.name in event().sheets.rules ? event().sheets.rules[parameter.name] : parameter.value;
    const set = (value) => {
      delete sheetState.ruleProblems[parameter.name];
      const cleared = value === DEFAULT_RULE;
      change((e) => {
        if (cleared || JSON.stringify(value) === JSON.stringify(parameter.value)) delete e.sheets.rules[parameter.name];
        else e.sheets.rules[parameter.name] = value;
      }, { redraw: false });
      showRuleChange(parameter, cleared ? parameter.value : value, cleared);
      scheduleCheck();
    };
    const hintId = `rule-hint-${parameter.name}`;
    // The service's human label, with the id a request sets as secondary text.
    const name = h("label", { for: id }, parameter.label ?? parameter.name, " ",
      h("span", { class: "rule-id" }, parameter.name));
    container.append(h("div", { class: "row rule" }, name,
      described(ruleControl(parameter, id, chosen, set), hintId),
      h("span", { class: "hint", id: hintId, "aria-live": "polite" }, ruleHint(parameter, chosen)),
      h("span", { class: "reason", "data-rule-reason": parameter.name })));
  }
  renderSheetResults();
}

export function renderSheets(panel) {
  const { game, players } = event().sheets;
  const info = catalogue.byId[game];
  panel.replaceChildren();
  panel.append(h("h2", { class: "no-print" }, "Score sheets"));
  panel.append(h("h2", { class: "print-only" }, `${info?.name ?? game}: final sheets, ${new Date().toLocaleDateString()}`));
  const rulesBox = h("div", {});
  panel.append(h("div", { class: "card no-print" },
    h("div", { class: "row" }, field("Game", gameSelect("sheet-game", catalogue.games, "scorecard", game, (value) => {
      change((e) => { e.sheets.game = value; e.sheets.rules = {}; });
      scheduleCheck();
    }))),
    h("details", { open: sheetState.rulesOpen, ontoggle: (e) => { sheetState.rulesOpen = e.target.open; } },
      h("summary", { id: "rules-summary" }, rulesSummary()), rulesBox),
    addPlayerForm("sheet", (name) => {
      change((e) => e.sheets.players.push({ name, entries: {}, extra_bonus: "" }));
      scheduleCheck();
    }, players.map((p) => p.name)),
    h("p", { class: "hint" }, "Type the points of a box, or the dice that made them (e.g. 6 6 6 2 3). Enter confirms and moves down; Tab moves across.")));
  renderRules(rulesBox);
  if (!info) { panel.append(problemBox("Loading the games from the service…")); return; }
  if (!players.length) { panel.append(h("p", { class: "hint" }, "Add the players to start their sheets.")); return; }

  const head = h("tr", {}, h("th", { scope: "col" }, "Box"), players.map((p, index) =>
    h("th", { scope: "col" }, h("div", { class: "player-head" }, p.name,
      h("button", { type: "button", "aria-label": `Remove ${p.name}`, onclick: () => {
        change((e) => e.sheets.players.splice(index, 1)); scheduleCheck();
      } }, "✕")))));
  const body = h("tbody", {});
  const sumRow = (label, key) => h("tr", { class: "sum" }, h("th", { scope: "row" }, label),
    players.map((_, index) => h("td", { class: "num", "data-sum": key, "data-player": index }, "")));
  info.boxes.forEach((box, boxIndex) => {
    if (boxIndex > 0 && info.boxes[boxIndex - 1].section === "upper" && box.section !== "upper") {
      body.append(sumRow("Upper subtotal", "upper_subtotal"), sumRow("Upper bonus", "upper_bonus"));
    }
    body.append(h("tr", {}, h("th", { scope: "row" }, box.name), players.map((_, index) => sheetCell(index, box, boxIndex))));
  });
  body.append(h("tr", {}, h("th", { scope: "row" }, "Extra bonus (claimed)"), players.map((p, index) => {
    const reason = sheetState.localProblems[`${index}/extra_bonus`];
    return h("td", {}, h("div", { class: `cell${reason ? " bad" : ""}` }, h("input", {
      class: "points", inputmode: "numeric", value: p.extra_bonus ?? "", "aria-label": `${p.name}: extra bonus points`,
      "data-player": index, "data-row": info.boxes.length,
      onchange: (e) => { change((ev) => { ev.sheets.players[index].extra_bonus = e.target.value.trim(); }, { redraw: false }); scheduleCheck(); },
      onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); e.target.dispatchEvent(new Event("change")); } },
    }), reason ? h("span", { class: "reason" }, reason) : null));
  })));
  body.append(sumRow("Extra bonus", "extra_bonus"), sumRow("Total", "total"));
  panel.append(h("div", { class: "scroll" }, h("table", { class: "sheet", "aria-label": "Score sheets" }, h("thead", {}, head), body)));
  panel.append(h("div", { id: "sheet-messages" }));
  panel.append(h("div", { class: "card" }, h("h3", {}, "Ranking"), h("ol", { class: "ranking", id: "ranking" })));
  panel.append(h("div", { class: "row no-print" },
    h("button", { type: "button", onclick: () => window.print() }, "Print sheets and ranking"),
    h("button", { type: "button", onclick: exportCsv }, "Export CSV")));
  renderSheetResults();
}

/** Totals, ranking and the sheet-wide problems from the last check, without redrawing inputs. */
function renderSheetResults() {
  const check = sheetState.check;
  for (const cell of document.querySelectorAll("td[data-sum]")) {
    const sheet = check?.sheets?.[Number(cell.dataset.player)];
    cell.textContent = sheet && sheet.player === event().sheets.players[Number(cell.dataset.player)]?.name
      ? String(sheet[cell.dataset.sum]) : "";
  }
  for (const cell of document.querySelectorAll("div.cell[data-cell]")) {
    const [index, box] = cell.dataset.cell.split("/");
    const reason = boxProblem(Number(index), box);
    const input = cell.querySelector("input.points");
    const reasonId = `reason-${index}-${box}`;
    cell.classList.toggle("bad", Boolean(reason));
    input.setAttribute("aria-invalid", reason ? "true" : "false");
    let span = cell.querySelector(".reason");
    if (reason && !span) { span = h("span", { class: "reason", id: reasonId }); cell.append(span); }
    if (span) { if (reason) span.textContent = reason; else span.remove(); }
    if (reason) input.setAttribute("aria-describedby", reasonId); else input.removeAttribute("aria-describedby");
  }
  const ranking = document.getElementById("ranking");
  if (ranking) {
    // The service's ranks (equal totals share one), and a sheet with problems never shown
    // as a valid total.
    const valid = Object.fromEntries((check?.sheets ?? []).map((sheet) => [sheet.player, sheet.valid]));
    ranking.replaceChildren(...(check?.standings ?? []).map((s) => h("li", { "data-rank": s.rank, value: s.rank },
      `${s.player}: ${s.total}`,
      valid[s.player] === false ? " (not valid: see the problems below)" : s.rank === 1 ? " (leads)" : "")));
  }
  // A refused house rule: its reason beside it (the service names the field rules.<name>).
  const refused = Object.fromEntries((sheetState.error?.errors ?? [])
    .filter((e) => String(e.field).startsWith("rules.")).map((e) => [e.field.slice(6), e.reason]));
  for (const span of document.querySelectorAll("[data-rule-reason]")) {
    const name = span.dataset.ruleReason;
    span.textContent = sheetState.ruleProblems[name] ?? refused[name] ?? "";
    document.getElementById(`rule-${name}`)?.setAttribute("aria-invalid", span.textContent ? "true" : "false");
  }
  const messages = document.getElementById("sheet-messages");
  if (messages) {
    messages.replaceChildren();
    if (sheetState.error) messages.append(problemBox(sheetState.error.message));
    for (const sheet of check?.sheets ?? []) {
      for (const p of sheet.problems) messages.append(problemBox(`${sheet.player}: ${p.box ? `${p.box}: ` : ""}${p.reason}`));
      if (sheet.complete && sheet.valid) messages.append(h("p", { class: "ok" }, `${sheet.player}'s sheet is complete and valid: ${sheet.total}.`));
    }
  }
}

const boxesOf = (game) => catalogue.byId[game]?.boxes ?? [];

/** The event's results as CSV (the sheets' boxes and totals, Chicago's lives, Yardkle's
 * totals), from both this tab and the event tab. */
export function exportCsv() {
  const text = resultsCsv(event(), boxesOf(event().sheets.game),
    { check: sheetState.check, chicago: chicagoRuling(), yardkle: yardkleRuling() });
  download(`diceref-event-${event().created.slice(0, 10)}.csv`, "text/csv", text);
}
