// The table desk: score sheets, coach, Chicago and Yardkle for one event, kept in this
// browser (localStorage).  Every score, total and ruling comes from the service's JSON
// operations; the page only adds up the set-asides the service scored in a Yardkle turn.  Plain ES modules, no build step, nothing from another host.

import { EVENT_VERSION, asEvent, csvCell, diceText, newEvent, num, parseDice, percent, rotation, tickStep } from "./pure.js";

const STORAGE_KEY = "diceref-desk/event";
const TABS = ["sheets", "coach", "chicago", "yardkle", "event"];

// ---------------------------------------------------------------- the service -------------

// How many answers the page still awaits, on <body data-waiting>: "0" when every answer
// has arrived and been shown (the browser tests wait for it rather than for a fixed time).
let waiting = 0;
function awaiting(change) {
  waiting += change;
  document.body.dataset.waiting = String(waiting);
}

/** A service answer: {ok, status, data} or {ok: false, status, message, errors}. */
async function call(method, path, body) {
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
const post = (path, body) => call("POST", path, body);
const get = (path) => call("GET", path);

/**
 * Answers that replace a state (a game's standings, the sheets' check) applied in the order
 * they were asked: `const current = latest.ask()` before the request, `if (!current())`
 * after it drops an answer that a later question overtook.  Requests travel on several
 * connections, so a slow answer about the event as it was (two players) can arrive after
 * the answer about the event as it is (three players), and must not overwrite it.
 */
function latestOnly() {
  let asked = 0;
  return { ask() { const ticket = ++asked; return () => ticket === asked; } };
}

/** A problem+json answer in words: its title and each error's reason, never raw JSON. */
function problemWords(response, problem) {
  if (!problem || typeof problem !== "object") {
    return { message: `The service answered ${response.status} ${response.statusText || ""}`.trim(), errors: [] };
  }
  const errors = Array.isArray(problem.errors) ? problem.errors : [];
  let message = problem.title || `The service answered ${response.status}`;
  if (response.status === 503) {
    const wait = problem.retry_after ?? response.headers.get("Retry-After");
    message = `The coach's solved table is still loading on the service${wait ? `: try again in ${wait} s` : ""}.`;
    const retryAfter = Number(wait);
    const progress = typeof problem.progress === "number" ? problem.progress : null;
    return { message, errors, retryAfter: Number.isFinite(retryAfter) ? retryAfter : null, progress };
  } else if (errors.length) {
    message += ": " + errors.map((e) => e.reason).join("; ");
  } else if (problem.detail) {
    message += ": " + problem.detail;
  }
  return { message, errors };
}

/** The connection's state, said on the status of the tab being shown (where the person is). */
function online(up) {
  const status = statusOf(shownTab());
  if (!up) status.textContent = "Offline: entries kept, not checked";
  else if (status.textContent.startsWith("Offline")) status.textContent = "Back online";
}

// The page is served by the service it calls, so it knows what that service takes (house
// rules, a target to reach, its distributions) without asking: no OpenAPI document is read.

/** The body with the chosen house rules, when any are set. */
function withRules(body, rules) {
  if (rules && Object.keys(rules).length) return { ...body, rules };
  return body;
}

const catalogue = { games: [], byId: {}, details: {} };
async function gameDetails(id) {
  if (!catalogue.details[id]) {
    const answer = await get(`/games/${encodeURIComponent(id)}`);
    if (!answer.ok) return null;
    catalogue.details[id] = answer.data;
  }
  return catalogue.details[id];
}

// ---------------------------------------------------------------- the event -------------

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

let event = loadEvent();
const undoStack = [];

function save() {
  try { localStorage.setItem(STORAGE_KEY, JSON.stringify(event)); }
  catch { showBanner("This browser refused to store the event: export it before closing the page."); }
}

/** Every change goes through here: it can be undone, it is stored, the page redraws. */
function change(mutate, { redraw = true } = {}) {
  undoStack.push(JSON.stringify(event));
  if (undoStack.length > 200) undoStack.shift();
  mutate(event);
  save();
  updateUndo();
  if (redraw) render();
}

/** A change whose rulings come from the service: stored at once, redrawn when they arrive. */
async function changeThen(mutate, refresh) {
  change(mutate);
  await refresh();
  render();
}

function undo() {
  const previous = undoStack.pop();
  if (previous === undefined) return;
  event = JSON.parse(previous);
  save();
  updateUndo();
  render();
  say(shownTab(), "Undone");
  refreshAll().then(render); // the rulings of the event as it is again
}

function updateUndo() {
  document.getElementById("undo").disabled = undoStack.length === 0;
}

// ---------------------------------------------------------------- small helpers ----------

/** An element: h("td", {class: "num"}, "12", child...). */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "value") node.value = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) { // nested lists of pieces: one line of text and dice
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

let uid = 0;
const nextId = (stem) => `${stem}-${++uid}`;

// What is typed (or chosen) in a form field and not yet added: a player's name, a throw's
// dice.  A service answer redraws the panel, and with it every field, at any moment; the
// text someone is typing then must survive the redraw, so such fields are made with
// `typedField` (by id) and read their text back from here until `consumed` forgets it.
const typed = {};

/** A field whose typed text (or chosen option) survives redraws until it is consumed. */
function typedField(tag, attrs, ...children) {
  const node = h(tag, attrs, ...children);
  const id = attrs.id;
  if (id in typed && (tag !== "select" || [...node.options].some((o) => o.value === typed[id]))) node.value = typed[id];
  // "input" is what a person does (typing, choosing an option), not a page's own `change`.
  node.addEventListener("input", () => { typed[id] = node.value; });
  return node;
}

/** The fields' text is used (the throw added, the player added): they start empty again. */
function consumed(...ids) {
  for (const id of ids) delete typed[id];
}

/** A labelled control: <label>text <input ...></label>. */
function field(text, control, hint) {
  return h("label", {}, text, control, hint ? h("span", { class: "hint" }, hint) : null);
}

// Each tab has its own status line (index.html: `#<tab>-status`, aria-live polite); a tab
// writes only its own, so the Chicago tab never says "Sheets checked".
const statusOf = (tab) => document.getElementById(`${tab}-status`);
const shownTab = () => (TABS.includes(event.tab) ? event.tab : "sheets");
function say(tab, text) { statusOf(tab).textContent = text; }

function showBanner(text) {
  const banner = document.getElementById("banner");
  banner.hidden = !text;
  banner.className = text ? "problem" : "";
  banner.textContent = text || "";
}

function problemBox(text) { return h("p", { class: "problem", role: "alert" }, text); }

const FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

/** Dice drawn as dice (⚁ ⚂ ⚃) for the eye, read as their numbers ("2 3 4"): the numbers are
 * visually hidden text (first, so the line reads "throw 1: 2 3 4 (call high)"), the faces
 * hidden from screen readers. */
function diceFaces(dice) {
  if (!dice || !dice.length) return "none";
  return h("span", { class: "dice-faces" }, h("span", { class: "visually-hidden" }, diceText(dice)),
    h("span", { "aria-hidden": "true", title: diceText(dice) }, dice.map((d) => FACES[d - 1] ?? String(d)).join("")));
}

/** Children with `separator` between each: the pieces of one line of text and dice. */
const joined = (pieces, separator) => pieces.flatMap((piece, i) => (i ? [separator, piece] : [piece]).flat());
const roll = (count) => Array.from({ length: count }, () => 1 + (crypto.getRandomValues(new Uint32Array(1))[0] % 6));
const sameDice = (a, b) => [...a].sort().join() === [...b].sort().join();

function download(name, type, text) {
  const link = h("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

function addPlayerForm(idStem, onAdd, existing) {
  const input = typedField("input", { id: `${idStem}-new-player`, name: "player", autocomplete: "off", required: true, maxlength: 40 });
  const message = h("span", { class: "hint", "aria-live": "polite" });
  const form = h("form", { class: "row no-print", onsubmit: (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    if (existing.includes(name)) { message.textContent = `${name} is already playing.`; return; }
    consumed(input.id);
    onAdd(name);
    document.getElementById(`${idStem}-new-player`)?.focus();
  } }, h("label", { for: `${idStem}-new-player` }, "Player name"), input,
  h("button", { type: "submit", class: "primary" }, "Add player"), message);
  return form;
}

function gameSelect(id, family, value, onChange) {
  const select = h("select", { id, onchange: (e) => onChange(e.target.value) },
    catalogue.games.filter((g) => g.family === family).map((g) =>
      h("option", { value: g.id, selected: g.id === value }, g.name)));
  return select;
}

// ---------------------------------------------------------------- score sheets -------------

// Results of the last check (not stored: recomputed from the entries on every load).
const sheetState = { check: null, error: null, pending: false, localProblems: {}, scoreProblems: {}, ruleProblems: {}, rulesOpen: false };
let checkTimer = null;
const sheetCheck = latestOnly();

function sheetRequest() {
  const { game, rules, players } = event.sheets;
  const local = {};
  const sheets = players.map((player, index) => {
    const entries = [];
    for (const [box, entry] of Object.entries(player.entries)) {
      const points = String(entry.points ?? "").trim();
      if (!points) continue;
      if (!/^-?\d+$/.test(points)) { local[`${index}/${box}`] = "the points are a whole number"; continue; }
      const item = { box, points: Number(points) };
      const dice = parseDice(entry.dice);
      if (dice === null) { local[`${index}/${box}`] = "the dice are faces 1 to 6, e.g. 6 6 6 2 3"; continue; }
      if (dice.length) item.dice = dice;
      entries.push(item);
    }
    const sheet = { player: player.name, entries };
    const extra = String(player.extra_bonus ?? "").trim();
    if (extra && /^\d+$/.test(extra)) sheet.extra_bonus = Number(extra);
    else if (extra) local[`${index}/extra_bonus`] = "the extra bonus is a whole number of points";
    return sheet;
  });
  return { body: withRules({ game, sheets }, rules), local };
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  sheetState.pending = true;
  checkTimer = setTimeout(runCheck, 120);
}

async function runCheck() {
  const current = sheetCheck.ask();
  if (!event.sheets.players.length) { sheetState.check = null; sheetState.pending = false; renderSheetResults(); return; }
  const { body, local } = sheetRequest();
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
  const player = event.sheets.players[index];
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
  const answer = await post("/score", withRules({ game: event.sheets.game, dice, scorecard }, event.sheets.rules));
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
  const entry = event.sheets.players[index].entries[box.id] ?? { points: "", dice: "" };
  const player = event.sheets.players[index].name;
  const reason = boxProblem(index, box.id);
  const reasonId = `reason-${index}-${box.id}`;
  const commit = (kind, value) => {
    const current = event.sheets.players[index].entries[box.id]?.[kind] ?? "";
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
      if (!String(event.sheets.players[index].entries[box.id].points ?? "").trim()) scoreDice(index, box.id);
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

const rulesSummary = () => `House rules (${Object.keys(event.sheets.rules).length} changed)`;

/** The hint under a rule: the service describes the game's own value only, so once another
 * value is chosen the hint says so instead of describing a rule that is no longer played. */
function ruleHint(parameter, chosen, cleared = false) {
  const notes = [parameter.reading ? " (a reading of the rulebook)" : "", parameter.settable === false ? " (fixed in this game)" : ""];
  if (cleared) return [`Empty: the game's default, ${JSON.stringify(parameter.value)}, is played.`, ...notes].join("");
  if (JSON.stringify(chosen) === JSON.stringify(parameter.value)) return [parameter.description, ...notes].join("");
  return `Set here to ${JSON.stringify(chosen)} (the game's own: ${JSON.stringify(parameter.value)}).`;
}

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
  const details = await gameDetails(event.sheets.game);
  container.replaceChildren();
  if (!details) { container.append(problemBox("The service did not describe this game.")); return; }
  const note = "Change a rule to play a house variant: the sheets, the dice and the coach of this game follow the rules chosen here.";
  container.append(h("p", { class: "hint" }, note));
  if (Object.keys(event.sheets.rules).length) {
    container.append(h("button", { type: "button", onclick: () => { change((e) => { e.sheets.rules = {}; }); scheduleCheck(); } }, "Back to the built-in rules"));
  }
  for (const parameter of details.parameters ?? []) {
    const id = `rule-${parameter.name}`;
    const chosen = parameter.name in event.sheets.rules ? event.sheets.rules[parameter.name] : parameter.value;
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

function renderSheets(panel) {
  const { game, players } = event.sheets;
  const info = catalogue.byId[game];
  panel.replaceChildren();
  panel.append(h("h2", { class: "no-print" }, "Score sheets"));
  panel.append(h("h2", { class: "print-only" }, `${info?.name ?? game}: final sheets, ${new Date().toLocaleDateString()}`));
  const rulesBox = h("div", {});
  panel.append(h("div", { class: "card no-print" },
    h("div", { class: "row" }, field("Game", gameSelect("sheet-game", "scorecard", game, (value) => {
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
    cell.textContent = sheet && sheet.player === event.sheets.players[Number(cell.dataset.player)]?.name
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

// ---------------------------------------------------------------- coach -------------------

// `solving`: what the coach waits for while the service solves a table (503), shown calmly
// and asked again; `forecast`: the card's final total (POST /distributions) when playing
// to a target.
const coachState = { advice: null, error: null, busy: false, review: null, final: null,
  solving: {}, forecast: null, forecastError: null };
const coachAdvice = latestOnly();

function boxesOf(game) { return catalogue.byId[game]?.boxes ?? []; }

/** The house rules the coach plays a game under: the sheets' when it is their game. */
const rulesOf = (game) => (game === event.sheets.game ? event.sheets.rules : {});
const throwsPerTurn = (game) => rulesOf(game).throws_per_turn || catalogue.byId[game].throws_per_turn;

const sleep = (seconds) => new Promise((resolve) => { setTimeout(resolve, seconds * 1000); });
const RETRY_LIMIT = 720; // an hour of 5-second waits: a solve that long has failed

/**
 * POST `path` until the service answers otherwise than 503 (a table it is still loading or
 * solving): each 503 is shown as `coachState.solving[what]` and asked again after its
 * Retry-After.  Null when `current()` says a later question overtook this one.  The wait
 * counts as an awaited answer (<body data-waiting>), as it is one.
 */
async function askUntilSolved(what, path, body, current) {
  for (let attempt = 0; ; attempt++) {
    const answer = await post(path, body);
    if (!current()) return null;
    if (answer.status !== 503 || attempt >= RETRY_LIMIT) {
      delete coachState.solving[what];
      return answer;
    }
    const seconds = Math.min(Math.max(answer.retryAfter ?? 5, 1), 30);
    coachState.solving[what] = { progress: answer.progress, seconds };
    render();
    awaiting(+1);
    try { await sleep(seconds); } finally { awaiting(-1); }
    if (!current()) return null;
  }
}

async function askCoach({ game, dice, throwsLeft, filled, extraBonus, target = null }) {
  const current = coachAdvice.ask();
  coachState.busy = true;
  coachState.error = null;
  coachState.solving = {};
  const scorecard = { filled, extra_bonus: extraBonus };
  const body = withRules({ game, dice, throws_left: throwsLeft, scorecard }, rulesOf(game));
  if (target !== null) body.target = target;
  const forecast = target !== null ? askForecast(game, scorecard, target, current) : null;
  const answer = await askUntilSolved("options", "/holds", body, current);
  if (answer === null) return; // asked again since: that answer is the one shown
  coachState.busy = false;
  if (answer.ok) coachState.advice = answer.data;
  else { coachState.advice = null; coachState.error = answer.message; }
  if (forecast) { render(); await forecast; }
}

/** The card's final total from the start of its next turn, and its chance to reach `target`. */
async function askForecast(game, scorecard, target, current) {
  coachState.forecast = null;
  coachState.forecastError = null;
  const body = withRules({ game, scorecard, target }, rulesOf(game));
  let answer = await askUntilSolved("forecast", "/distributions", body, current);
  // Target play is followed turn by turn, so the service gives it for cards near their
  // end; earlier, the chart shows expected-points play (the chance is still target play's).
  if (answer?.status === 422 && answer.errors?.some((e) => e.code === "target_too_early")) {
    answer = await askUntilSolved("forecast", "/distributions", { ...body, play: "expected_points" }, current);
  }
  if (answer === null) return;
  if (answer.ok) coachState.forecast = answer.data;
  else coachState.forecastError = answer.message;
}

/** What the coach waits for while the service solves a table, in words, calmly. */
function solvingNote() {
  const waits = Object.entries(coachState.solving);
  if (!waits.length) return null;
  const parts = waits.map(([what, { progress }]) =>
    `${what === "forecast" ? "the final-total forecast" : "the options"} (${typeof progress === "number" ? `${Math.round(progress * 100)}% solved` : "loading"})`);
  const seconds = Math.min(...waits.map(([, w]) => w.seconds));
  return h("p", { class: "waiting", role: "status", id: "coach-solving" },
    `The service is preparing the tables for these rules: ${parts.join(" and ")}. The coach asks again in ${seconds} s.`);
}

// The options as the service ranks them: by expected total, or, with a target, by the
// chance to reach it (each option's cost is then the chance it gives up).
function adviceTable(advice, onChoose) {
  if (!advice) return null;
  const toTarget = advice.target !== undefined;
  const rows = advice.options.map((o, index) => h("tr", { class: o.best ? "best" : "", "data-option": index },
    h("td", { class: "num" }, index + 1),
    h("td", {}, o.kind === "keep" ? ["Keep ", diceFaces(o.keep)] : `Score ${o.name}: ${o.points}` +
      (o.upper_bonus ? ` + upper bonus ${o.upper_bonus}` : "") + (o.extra_bonus ? ` + extra bonus ${o.extra_bonus}` : ""),
    o.best ? h("span", { class: "best-mark" }, " ★ best") : null),
    toTarget ? h("td", { class: "num", "data-chance": o.win_probability }, percent(o.win_probability)) : null,
    h("td", { class: "num" }, num(o.expected_total)),
    h("td", { class: "num" }, o.best ? "—" : toTarget ? `−${percent(o.loss)}` : `−${num(o.loss)}`),
    onChoose ? h("td", {}, h("button", { type: "button", onclick: () => onChoose(o),
      "aria-label": o.kind === "keep" ? `Keep, throw: keep ${diceText(o.keep)} and throw the rest` : `Score ${o.name}` }, o.kind === "keep" ? "Keep, throw" : "Score")) : null));
  return h("div", { class: "scroll" }, h("table", { "aria-label": toTarget ? `The coach's options, the best chance to reach ${advice.target} first` : "The coach's options, best first" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Choice"),
      toTarget ? h("th", { scope: "col", class: "num" }, `Chance to reach ${advice.target}`) : null,
      h("th", { scope: "col", class: "num" }, "Expected total"),
      h("th", { scope: "col", class: "num" }, toTarget ? "Cost (chance)" : "Cost"),
      onChoose ? h("th", { scope: "col" }, "Play") : null)),
    h("tbody", {}, rows)));
}

// ---- the final-score chart: inline SVG made with DOM calls, every label a text node ----

const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  for (const child of children) if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  return node;
}

/**
 * The forecast as a figure: one bar per final total the service gives a chance (its
 * height the chance), the target marked, and a caption in words (mean, median, p5–p95)
 * that the chart's image role points to for screen readers.
 */
function forecastFigure(forecast) {
  const W = 560, H = 200, left = 12, right = 12, top = 26, bottom = 32;
  const target = forecast.target;
  const lo = forecast.min;
  // A target beyond the totals is marked at most one span past them, so the bars stay legible.
  const span = Math.max(forecast.max - lo, 1);
  const markAt = target === undefined ? null : Math.min(Math.max(target, lo - span), forecast.max + 1 + span);
  const first = Math.min(lo, markAt ?? lo), last = Math.max(forecast.max + 1, markAt ?? 0);
  const x = (total) => left + ((total - first) / (last - first)) * (W - left - right);
  // A bar per total; narrow bars overlap a little, so that no hairline shows between them.
  const step = x(first + 1) - x(first);
  const peak = Math.max(...forecast.distribution.map((d) => d.probability));
  const base = H - bottom;
  const captionId = nextId("forecast-summary");
  const bars = svgEl("g", { class: "bars" }, ...forecast.distribution.map((d) => {
    const height = (d.probability / peak) * (base - top);
    return svgEl("rect", { class: target !== undefined && d.total >= target ? "bar reach" : "bar",
      x: x(d.total).toFixed(2), width: (step > 4 ? step - 1 : step + 0.4).toFixed(2), y: (base - height).toFixed(2), height: height.toFixed(2),
      "data-total": d.total, "data-probability": d.probability }, svgEl("title", {}, `${d.total}: ${percent(d.probability)}`));
  }));
  const every = tickStep(last - first, 5);
  const ticks = svgEl("g", { class: "axis" }, svgEl("line", { x1: left, x2: W - right, y1: base, y2: base }));
  for (let t = Math.ceil(first / every) * every; t <= last; t += every) {
    ticks.append(svgEl("line", { x1: x(t + 0.5).toFixed(2), x2: x(t + 0.5).toFixed(2), y1: base, y2: base + 4 }),
      svgEl("text", { x: x(t + 0.5).toFixed(2), y: base + 20, "text-anchor": "middle" }, String(t)));
  }
  const svg = svgEl("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": captionId }, bars, ticks);
  if (markAt !== null) {
    const at = x(markAt).toFixed(2);
    svg.append(svgEl("g", { class: "target-mark", "data-target": target },
      svgEl("line", { x1: at, x2: at, y1: top - 6, y2: base }),
      svgEl("text", { x: at, y: top - 10, "text-anchor": markAt > (first + last) / 2 ? "end" : "start" },
        markAt === target ? `target ${target}` : `target ${target} (beyond)`)));
  }
  const play = forecast.play === "expected_points" ? "playing every decision for the greatest expected total"
    : `playing every decision for the greatest chance to reach ${forecast.target}`;
  const summary = `Final total, ${play}: mean ${num(forecast.mean)} (standard deviation ${num(forecast.sd)}), median ${forecast.p50}; ` +
    `9 games in 10 end between ${forecast.p5} and ${forecast.p95} (p5–p95); from ${forecast.min} to ${forecast.max}.`;
  return h("figure", { class: "forecast" }, svg, h("figcaption", { id: captionId, "data-summary": "" }, summary));
}

/** The card's chance to reach the target and the chart of its final total. */
function forecastCard() {
  const forecast = coachState.forecast;
  if (!forecast && !coachState.forecastError) return null;
  const card = h("div", { class: "card", id: "coach-forecast" }, h("h3", {}, "This card's final total"));
  if (coachState.forecastError) { card.append(problemBox(coachState.forecastError)); return card; }
  card.append(h("p", { id: "coach-chance" }, `Chance to reach ${forecast.target} from the start of this card's next turn, playing for it: `,
    h("strong", {}, percent(forecast.win_probability)), "."), forecastFigure(forecast),
  h("p", { class: "hint" }, "Bars: the chance of each final total; the darker bars reach the target."));
  return card;
}

function filledOfPlayer(name) {
  const player = event.sheets.players.find((p) => p.name === name);
  const filled = {};
  for (const [box, entry] of Object.entries(player?.entries ?? {})) {
    if (/^\d+$/.test(String(entry.points ?? "").trim())) filled[box] = Number(entry.points);
  }
  return { filled, extraBonus: /^\d+$/.test(String(player?.extra_bonus ?? "")) ? Number(player.extra_bonus) : 0 };
}

function renderCoach(panel) {
  const c = event.coach;
  const info = catalogue.byId[c.game];
  panel.replaceChildren(h("h2", {}, "Coach"));
  if (!info) { panel.append(problemBox("Loading the games from the service…")); return; }
  const throwsLeft = h("select", { id: "coach-throws-left", onchange: (e) => change((ev) => { ev.coach.throwsLeft = Number(e.target.value); }, { redraw: false }) },
    Array.from({ length: throwsPerTurn(c.game) }, (_, n) => h("option", { value: n, selected: n === c.throwsLeft }, String(n))));
  const dice = typedField("input", { id: "coach-dice", value: c.dice, autocomplete: "off", inputmode: "numeric",
    onchange: (e) => { consumed("coach-dice"); change((ev) => { ev.coach.dice = e.target.value; }, { redraw: false }); } });
  const card = h("select", { id: "coach-card", onchange: (e) => change((ev) => { ev.coach.card = e.target.value; }, { redraw: false }) },
    h("option", { value: "" }, "an empty scorecard"),
    c.game === event.sheets.game ? event.sheets.players.map((p) => h("option", { value: p.name, selected: p.name === c.card }, `${p.name}'s sheet`)) : []);
  const target = typedField("input", { id: "coach-target", value: c.target, type: "number", min: 0, step: 1, inputmode: "numeric",
    onchange: (e) => { consumed("coach-target"); change((ev) => { ev.coach.target = e.target.value.trim(); }, { redraw: false }); } });
  const ask = async () => {
    const parsed = parseDice(dice.value);
    if (parsed === null) { coachState.error = "The dice are faces 1 to 6, e.g. 2 3 4 6 6."; render(); return; }
    const wanted = target.value.trim();
    if (wanted && !/^\d+$/.test(wanted)) {
      coachState.error = "The total to reach is a whole number of points, e.g. 250 (or leave it empty)."; render(); return;
    }
    if (wanted !== c.target) { consumed("coach-target"); change((ev) => { ev.coach.target = wanted; }, { redraw: false }); }
    const { filled, extraBonus } = c.card ? filledOfPlayer(c.card) : { filled: {}, extraBonus: 0 };
    coachState.forecast = null; coachState.forecastError = null;
    await askCoach({ game: c.game, dice: parsed, throwsLeft: Number(throwsLeft.value), filled, extraBonus, target: wanted ? Number(wanted) : null });
    render();
  };
  panel.append(h("form", { class: "card", onsubmit: (e) => { e.preventDefault(); ask(); } },
    h("h3", {}, "Ask about a throw"),
    h("div", { class: "row" },
      field("Game", gameSelect("coach-game", "scorecard", c.game, (value) => change((e) => { e.coach.game = value; e.coach.card = ""; e.coach.throwsLeft = 0; }))),
      field("Dice", dice, `${info.dice_count} dice, e.g. 2 3 4 6 6`),
      h("button", { type: "button", onclick: () => { dice.value = roll(info.dice_count).join(" "); dice.dispatchEvent(new Event("change")); } }, "Roll"),
      field("Throws left", throwsLeft),
      field("Scorecard", card),
      field("Play to reach", target, "a final total; empty: the best expected total"),
      h("button", { type: "submit", class: "primary" }, "Ask the coach"))));
  panel.append(solvingNote() ?? "");
  if (!c.play) {
    if (coachState.error) panel.append(problemBox(coachState.error));
    const advice = coachState.advice;
    if (advice) {
      panel.append(h("div", { class: "card", id: "coach-advice" },
        h("h3", {}, "Options for ", diceFaces(advice.dice), ` with ${advice.throws_left} throws left` +
          (advice.target !== undefined ? `, playing to reach ${advice.target}` : "")), adviceTable(advice)));
    }
    panel.append(forecastCard() ?? "");
  }
  panel.append(renderPlay(info));
}

// "Play a game": the page rolls, the coach advises on every throw, every choice is recorded.
function renderPlay(info) {
  const play = event.coach.play;
  const box = h("div", { class: "card", id: "play" }, h("h3", {}, "Play a game"));
  if (!play) {
    box.append(h("p", { class: "hint" }, "The page rolls the dice; the coach ranks every choice; every throw, keep and box is recorded, and at the end the service reviews the game."),
      h("button", { type: "button", class: "primary", onclick: () => {
        coachState.advice = null; coachState.review = null; coachState.final = null;
        change((e) => { e.coach.play = { game: e.coach.game, filled: {}, extraBonus: 0, dice: [], held: [], throwsLeft: null, turn: 1, decisions: [],
          turns: [], throws: [], keeps: [] }; });
      } }, `Start a game of ${info.name}`));
    return box;
  }
  const game = catalogue.byId[play.game];
  const total = Object.values(play.filled).reduce((a, b) => a + b, 0) + play.extraBonus;
  const over = Object.keys(play.filled).length === game.boxes.length;
  box.append(h("p", {}, `${game.name}, turn ${Math.min(play.turn, game.boxes.length)} of ${game.boxes.length}. Boxes so far: ${total} points.`));
  if (!over) {
    const dice = h("div", { class: "dice", role: "group", "aria-label": "Dice (press a die to keep it)" },
      play.dice.map((d, i) => h("button", { type: "button", class: "die", "aria-pressed": play.held[i] ? "true" : "false",
        "aria-label": `Die ${i + 1}: ${d}${play.held[i] ? ", kept" : ""}`, disabled: !play.throwsLeft,
        onclick: () => change((e) => { e.coach.play.held[i] = !e.coach.play.held[i]; }) }, String(d))));
    // Keeping all five dice is standing, not a throw: the player scores a box instead.
    const allKept = play.dice.length > 0 && play.held.every(Boolean);
    const canRoll = play.throwsLeft === null || (play.throwsLeft > 0 && !allKept);
    box.append(dice, h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "play-roll", disabled: !canRoll || coachState.busy, onclick: () => playRoll() },
        play.throwsLeft === null ? "Roll" : "Roll the others"),
      h("span", {}, play.throwsLeft === null ? "" : `Throws left: ${play.throwsLeft}`)));
    if (allKept && play.throwsLeft > 0) box.append(h("p", { class: "hint" }, "All five dice are kept: score a box, or release a die to throw it."));
    if (coachState.error) box.append(problemBox(coachState.error));
    if (coachState.advice && play.throwsLeft !== null) {
      box.append(h("h3", {}, "The coach's options"), adviceTable(coachState.advice, (o) => playChoose(o)));
    }
  } else {
    const final = coachState.final;
    if (!final) playFinal(play);
    box.append(h("p", { class: "ok", id: "play-final" }, final?.sheet
      ? `Game over: ${final.sheet.total} points (upper section ${final.sheet.upper_subtotal}, upper bonus ${final.sheet.upper_bonus}, extra bonus ${final.sheet.extra_bonus}).`
      : final?.error ?? `Game over: ${total} points in the boxes; the service adds the bonuses…`));
    box.append(renderReview(play));
  }
  box.append(h("details", {}, h("summary", {}, `Decisions recorded (${play.decisions.length})`),
    h("ol", {}, play.decisions.map((d) => h("li", {}, `Turn ${d.turn}: `, diceFaces(d.dice), `, ${d.throws_left} left: ${d.choice}` +
      (d.loss > 1e-9 ? ` (cost ${num(d.loss)} against ${d.best})` : " (best)"))))));
  box.append(h("button", { type: "button", onclick: () => { coachState.advice = null; coachState.review = null; coachState.final = null;
    change((e) => { e.coach.play = null; }); } }, "Leave this game"));
  return box;
}

/** The played card's total with its bonuses, as the service's sheet check counts it. */
async function playFinal(play) {
  coachState.final = { pending: true };
  const sheet = { player: "You", extra_bonus: play.extraBonus,
    entries: Object.entries(play.filled).map(([box, points]) => ({ box, points })) };
  const answer = await post("/scorecards/check", withRules({ game: play.game, sheets: [sheet] }, rulesOf(play.game)));
  coachState.final = answer.ok ? { sheet: answer.data.sheets[0] } : { error: answer.message };
  render();
}

function playAdviceRequest(play) {
  return { game: play.game, dice: play.dice, throwsLeft: play.throwsLeft, filled: play.filled, extraBonus: play.extraBonus };
}

async function playRoll() {
  const play = event.coach.play;
  const game = catalogue.byId[play.game];
  const first = play.throwsLeft === null;
  if (!first) {
    const kept = play.dice.filter((_, i) => play.held[i]);
    const option = coachState.advice?.options.find((o) => o.kind === "keep" && sameDice(o.keep, kept));
    recordDecision(play, `keep ${diceText(kept)}`, option);
  }
  coachState.advice = null; // no stale options, and no second roll, while the coach thinks
  coachState.busy = true;
  change((e) => {
    const p = e.coach.play;
    if (!first) p.keeps?.push(p.dice.filter((_, i) => p.held[i]));
    p.dice = first ? roll(game.dice_count) : p.dice.map((d, i) => (p.held[i] ? d : roll(1)[0]));
    p.held = p.dice.map((_, i) => (first ? false : p.held[i]));
    if (first && p.turns) { p.throws = []; p.keeps = []; }
    p.throws?.push([...p.dice]); // as they lie after the throw, kept dice included
    p.throwsLeft = first ? throwsPerTurn(p.game) - 1 : p.throwsLeft - 1;
  });
  await askCoach(playAdviceRequest(event.coach.play));
  render();
}

function recordDecision(play, choice, option) {
  const advice = coachState.advice;
  const best = advice?.options.find((o) => o.best);
  const bestText = best ? (best.kind === "keep" ? `keep ${diceText(best.keep)}` : `score ${best.name}`) : "";
  play.decisions.push({ turn: play.turn, dice: [...play.dice], throws_left: play.throwsLeft, choice,
    best: bestText, loss: option ? option.loss : null, expected_total: option?.expected_total ?? null });
}

async function playChoose(option) {
  const play = event.coach.play;
  if (option.kind === "keep") {
    change((e) => {
      const p = e.coach.play;
      const wanted = [...option.keep];
      p.held = p.dice.map((d) => { const at = wanted.indexOf(d); if (at < 0) return false; wanted.splice(at, 1); return true; });
    });
    await playRoll();
    return;
  }
  change((e) => {
    const p = e.coach.play;
    recordDecision(p, `score ${option.name} (${option.points})`, option);
    if (p.turns) { // the turn as POST /reviews takes it
      p.turns.push({ throws: p.throws, keeps: p.keeps, box: option.box });
      p.throws = []; p.keeps = [];
    }
    p.filled[option.box] = option.points;
    p.extraBonus += option.extra_bonus ?? 0;
    p.turn += 1;
    p.dice = []; p.held = []; p.throwsLeft = null;
  });
  coachState.advice = null;
  render();
}

/** The service's review of the game as played: every turn's throws, keeps and box. */
async function playReview(play) {
  coachState.review = { pending: true };
  const answer = await post("/reviews", withRules({ game: play.game, turns: play.turns }, rulesOf(play.game)));
  coachState.review = answer.ok ? { data: answer.data } : { error: answer.message };
  render();
}

const optionText = (o) => (o.kind === "keep" ? `keep ${diceText(o.keep)}`
  : `score ${o.name} (${o.points}${o.bonus ? ` + bonus ${o.bonus}` : ""})`);
const signed = (value) => (value < 0 ? `−${num(-value)}` : `+${num(value)}`);

function renderReview(play) {
  const box = h("div", { id: "review" }, h("h3", {}, "Review"));
  if (!Array.isArray(play.turns)) {
    box.append(problemBox("This game was started before the desk recorded its throws, so the service cannot review it. Start a new game for a review."));
    return box;
  }
  const review = coachState.review;
  if (!review) playReview(play);
  if (!review || review.pending) { box.append(h("p", { class: "hint" }, "The service is reviewing the game…")); return box; }
  if (review.error) {
    box.append(problemBox(`The review failed: ${review.error}`),
      h("button", { type: "button", id: "review-again", onclick: () => { coachState.review = null; render(); } }, "Ask for the review again"));
    return box;
  }
  const r = review.data;
  const line = (key, text) => h("li", { "data-review": key }, text);
  box.append(h("ul", {},
    line("final_total", `Final total ${r.final_total}, against ${num(r.optimal_expected_score)} expected from the empty card under optimal play (${signed(r.final_total - r.optimal_expected_score)}).`),
    line("expected_loss", `Expected loss: ${num(r.expected_loss)} points over ${r.decision_count} decisions.`),
    line("mean_loss", `Mean loss per decision: ${r.mean_loss.toFixed(3)} (Verhoeff's proficiency test aims below 0.2).`),
    r.complete && r.luck !== null && r.luck !== undefined
      ? line("luck", `Luck: ${signed(r.luck)} (final total − optimal expected score + expected loss).`)
      : line("luck", "Luck is given for a complete game only.")));
  box.append(h("h4", {}, "The costliest decisions"));
  box.append(r.costliest.length
    ? h("ol", { id: "review-costliest" }, r.costliest.map((d) => h("li", {},
      `Turn ${d.turn_index + 1}, throw ${d.throw} (`, diceFaces(d.dice), `, ${d.throws_left} throw${d.throws_left === 1 ? "" : "s"} left): ` +
      `chose ${optionText(d.chosen)}; best ${d.best_options.map(optionText).join(" or ")}; cost ${num(d.loss)}.`)))
    : h("p", { class: "ok" }, "No decision cost anything: every choice was one of the best."));
  return box;
}

// ---------------------------------------------------------------- Chicago -----------------

const chicagoState = { game: null, error: null, throwNotes: {} };
const chicagoGame = latestOnly();
// The fields of one throw, emptied once it is added or the turn or round ends.
const CHICAGO_THROW = ["chicago-dice", "chicago-call", "chicago-kept", "chicago-conversion", "chicago-victim"];

async function refreshChicago() {
  const ch = event.chicago;
  const current = chicagoGame.ask();
  if (ch.players.length < 2) { chicagoState.game = null; chicagoState.error = null; return; }
  const answer = await post("/chicago/games", { players: ch.players, rounds: ch.rounds });
  if (!current()) return; // the event changed since: the later answer is the one shown
  chicagoState.game = answer.ok ? answer.data : null;
  chicagoState.error = answer.ok ? null : answer.message;
}

function alivePlayers() {
  const standings = chicagoState.game?.standings;
  if (!standings) return [...event.chicago.players];
  const alive = new Set(standings.filter((s) => s.lives > 0).map((s) => s.player));
  return event.chicago.players.filter((p) => alive.has(p));
}

function roundOrder(starter) { return rotation(alivePlayers(), starter); }

function describeRound(round, number) {
  const lines = [];
  for (const ev of round.events) {
    const who = ev.losers?.length ? `${ev.losers.join(", ")} ${ev.losers.length > 1 ? "lose" : "loses"} a life` : "";
    const by = ev.player ? `${ev.player}` : "";
    const what = ev.kind.replaceAll("_", " ");
    lines.push(`${what}${by ? ` (${by}${ev.score !== null && ev.score !== undefined ? `, ${ev.score}` : ""})` : ""}${who ? `: ${who}` : ""}` +
      (ev.victim ? `; ${ev.victim} is the victim` : "") + (ev.knocked_out?.length ? `; out: ${ev.knocked_out.join(", ")}` : ""));
  }
  return h("div", { class: "card", "data-round": number },
    h("h3", {}, `Round ${number}: ${round.call ? `call ${round.call}` : "no call"}, ${round.throw_limit} throw${round.throw_limit === 1 ? "" : "s"} each`),
    h("ul", {}, lines.map((l) => h("li", {}, l))),
    h("div", { class: "scroll" }, h("table", { "aria-label": `Round ${number} turns` },
      h("thead", {}, h("tr", {}, ["Player", "Dice", "Score", "Throws", "Lives"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, round.turns.map((t) => h("tr", {}, h("td", {}, t.player), h("td", {}, diceFaces(t.dice)),
        h("td", { class: "num" }, t.score ?? "—"), h("td", { class: "num" }, t.throw_count),
        h("td", {}, `${t.lives} → ${t.lives_after}${t.out ? " (out)" : ""}`)))))),
    h("p", { class: "ruling" }, round.game_over ? `Game over: ${round.winner ?? "no one"} wins.` : `Next starter: ${round.next_starter ?? "drawn by lot"}.`));
}

function renderChicago(panel) {
  const ch = event.chicago;
  panel.replaceChildren(h("h2", {}, "Chicago"));
  if (!ch.rounds.length && !ch.draft) {
    panel.append(addPlayerForm("chicago", (name) => changeThen((e) => { e.chicago.players.push(name); }, refreshChicago), ch.players));
  }
  panel.append(h("p", {}, ch.players.length ? `Players: ${ch.players.join(", ")}` : "Add two to six players."));
  if (chicagoState.error) panel.append(problemBox(chicagoState.error));
  const game = chicagoState.game;
  if (game) {
    panel.append(h("div", { class: "card" }, h("h3", {}, "Lives"), h("ol", { class: "ranking", id: "chicago-standings" },
      game.standings.map((s) => h("li", {}, `${s.player}: ${s.lives} ${s.lives === 1 ? "life" : "lives"}${s.out_in_round ? ` (out in round ${s.out_in_round})` : ""}`))),
    game.winner ? h("p", { class: "ok" }, `${game.winner} wins the game.`) : null));
    game.rounds.forEach((round, i) => panel.append(describeRound(round, i + 1)));
  }
  if (ch.players.length >= 2 && !game?.game_over) panel.append(renderChicagoDraft());
}

function renderChicagoDraft() {
  const ch = event.chicago;
  const card = h("div", { class: "card", id: "chicago-draft" });
  if (!ch.draft) {
    const suggested = chicagoState.game?.next_starter ?? alivePlayers()[0];
    const starter = typedField("select", { id: "chicago-starter" }, alivePlayers().map((p) => h("option", { value: p, selected: p === suggested }, p)));
    card.append(h("h3", {}, `Round ${ch.rounds.length + 1}`), h("div", { class: "row" }, field("Starter", starter),
      h("button", { type: "button", class: "primary", onclick: () => { consumed("chicago-starter", ...CHICAGO_THROW); change((e) => {
        e.chicago.draft = { turns: roundOrder(starter.value).map((player) => ({ player, throws: [] })), current: 0 };
      }); } }, "Start the round")));
    return card;
  }
  const draft = ch.draft;
  card.append(h("h3", {}, `Round ${ch.rounds.length + 1}: recording`));
  card.append(h("ol", {}, draft.turns.map((t, ti) => h("li", { class: ti === draft.current ? "best" : "" },
    `${t.player}: `, t.throws.length ? joined(t.throws.map((th, i) => {
      const note = chicagoState.throwNotes[`${ti}/${i}`];
      return [`throw ${i + 1}: `, diceFaces(th.dice), th.call ? ` (call ${th.call})` : "", th.kept ? [" (kept ", diceFaces(th.kept), ")"] : "",
        th.conversion ? ` (${th.conversion.replace("_", " ")} converted)` : "", th.victim ? ` (victim ${th.victim})` : "", note ? ` — ${note}` : ""];
    }), "; ") : (ti === draft.current ? "throwing" : "waits")))));
  if (draft.current < draft.turns.length) {
    const turn = draft.turns[draft.current];
    const firstOfRound = draft.current === 0 && turn.throws.length === 0;
    const dice = typedField("input", { id: "chicago-dice", autocomplete: "off", inputmode: "numeric" });
    const call = typedField("select", { id: "chicago-call" }, h("option", { value: "" }, "no call"), h("option", { value: "high" }, "high"), h("option", { value: "low" }, "low"));
    const kept = typedField("input", { id: "chicago-kept", autocomplete: "off", inputmode: "numeric" });
    const conversion = typedField("select", { id: "chicago-conversion" }, h("option", { value: "" }, "none"),
      h("option", { value: "two_sixes" }, "two 6s: one becomes a 1"), h("option", { value: "three_sixes" }, "three 6s: two become 1s"));
    const victim = typedField("select", { id: "chicago-victim" }, h("option", { value: "" }, "no one"), alivePlayers().filter((p) => p !== turn.player).map((p) => h("option", { value: p }, p)));
    const message = h("div", { "aria-live": "polite" });
    const addThrow = async () => {
      const parsed = parseDice(dice.value);
      if (!parsed || parsed.length === 0) { message.replaceChildren(problemBox("Type the three dice, e.g. 2 3 4.")); return; }
      const item = { dice: parsed };
      if (firstOfRound && call.value) item.call = call.value;
      if (victim.value) item.victim = victim.value;
      if (conversion.value) item.conversion = conversion.value;
      const keptDice = parseDice(kept.value);
      if (keptDice === null) { message.replaceChildren(problemBox("The dice kept are faces 1 to 6, e.g. 1 1.")); return; }
      if (keptDice.length) item.kept = keptDice;
      // the turn and throw this answer is for: "End turn" (or undo) may move on meanwhile
      const at = draft.current, number = turn.throws.length;
      const answer = await post("/chicago/throws", { dice: parsed, throw: number + 1, ...(item.call ? { call: item.call } : {}) });
      if (!answer.ok) { message.replaceChildren(problemBox(answer.message)); return; }
      const now = event.chicago.draft;
      if (now !== draft || now.current !== at || now.turns[at].throws.length !== number) {
        say("chicago", `${turn.player}'s throw ${number + 1} was not added: the turn moved on before it was checked.`);
        return;
      }
      const s = answer.data;
      const note = `${Object.entries(s.scores).map(([call, score]) => `${call} ${score}`).join(", ")}${s.special ? `, ${String(s.special).replaceAll("_", " ")}` : ""}`;
      chicagoState.throwNotes[`${at}/${number}`] = note;
      consumed(...CHICAGO_THROW);
      change((e) => { e.chicago.draft.turns[at].throws.push(item); });
      document.getElementById("chicago-dice")?.focus();
    };
    card.append(h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); addThrow(); } },
      field(`${turn.player}'s throw ${turn.throws.length + 1}: dice`, dice, "three dice, e.g. 2 3 4; Enter adds the throw"),
      firstOfRound ? field("Call (the starter's)", call) : null,
      field("Kept for the next throw", kept, "dice left on the table, if any"),
      field("Conversion", conversion),
      field("Victim (1-6-5)", victim),
      h("button", { type: "submit", class: "primary" }, "Add throw"),
      h("button", { type: "button", disabled: !turn.throws.length, onclick: () => { consumed(...CHICAGO_THROW); change((e) => { e.chicago.draft.current += 1; }); } }, "End turn")), message);
  } else {
    card.append(h("button", { type: "button", class: "primary", id: "chicago-rule", onclick: ruleRound }, "Get the ruling"));
  }
  card.append(h("div", { class: "row" },
    h("button", { type: "button", onclick: () => change((e) => {
      const d = e.chicago.draft;
      if (d.current < d.turns.length && d.turns[d.current].throws.length) d.turns[d.current].throws.pop();
      else if (d.current > 0) { d.current -= 1; d.turns[d.current].throws.pop(); }
    }) }, "Remove the last throw"),
    h("button", { type: "button", onclick: () => { chicagoState.draftError = null; consumed(...CHICAGO_THROW); change((e) => { e.chicago.draft = null; }); } }, "Discard the round")));
  if (chicagoState.draftError) card.append(problemBox(chicagoState.draftError));
  return card;
}

async function ruleRound() {
  const ch = event.chicago;
  const round = { turns: ch.draft.turns.filter((t) => t.throws.length) };
  const answer = await post("/chicago/games", { players: ch.players, rounds: [...ch.rounds, round] });
  if (!answer.ok) { chicagoState.draftError = answer.message; render(); return; }
  chicagoState.draftError = null;
  chicagoState.throwNotes = {};
  change((e) => { e.chicago.rounds.push(round); e.chicago.draft = null; }, { redraw: false });
  chicagoGame.ask(); // an answer still awaited is about the rounds before this one
  chicagoState.game = answer.data;
  render();
}

// ---------------------------------------------------------------- Yardkle -----------------

const yardkleState = { game: null, error: null, advice: null, draftError: null, turnPoints: 0 };
const yardkleGame = latestOnly();
const yardkleTurn = latestOnly();
const YARDKLE_THROW = ["yardkle-dice", "yardkle-set-aside"];

async function refreshYardkle() {
  const y = event.yardkle;
  const current = yardkleGame.ask();
  if (!y.players.length) { yardkleState.game = null; return; }
  const answer = await post("/yardkle/games", { players: y.players, turns: y.turns });
  if (!current()) return; // the event changed since: the later answer is the one shown
  yardkleState.game = answer.ok ? answer.data : null;
  yardkleState.error = answer.ok ? null : answer.message;
  await refreshYardkleDraft();
}

/** What a set-aside of these dice scores, as the service counts it, or a reason why not. */
async function setAsidePoints(dice, setAside) {
  const answer = await post("/yardkle/throws", { dice });
  if (!answer.ok) return { reason: answer.message };
  const found = answer.data.set_asides.find((s) => sameDice(s.dice, setAside));
  if (found) return { points: found.points };
  if (answer.data.yardkle) return { reason: `${diceText(dice)} is a yardkle: nothing scores, end the turn with "Yardkle"` };
  return { reason: `${diceText(setAside)} does not score on ${diceText(dice)}; scoring set-asides: ` +
    answer.data.set_asides.map((s) => `${diceText(s.dice)} (${s.points})`).join(", ") };
}

/** The points of the turn so far: the sum of its set-asides as the service scores them. */
async function refreshYardkleDraft() {
  const current = yardkleTurn.ask();
  let points = 0;
  for (const t of event.yardkle.draft?.throws ?? []) points += (await setAsidePoints(t.dice, t.set_aside)).points ?? 0;
  if (current()) yardkleState.turnPoints = points;
}

function renderYardkle(panel) {
  const y = event.yardkle;
  panel.replaceChildren(h("h2", {}, "Yardkle"));
  if (!y.turns.length && !y.draft) {
    panel.append(addPlayerForm("yardkle", (name) => changeThen((e) => { e.yardkle.players.push(name); }, refreshYardkle), y.players));
  }
  panel.append(h("p", {}, y.players.length ? `Players: ${y.players.join(", ")}` : "Add the players."));
  if (yardkleState.error) panel.append(problemBox(yardkleState.error));
  const game = yardkleState.game;
  if (!game) return;
  panel.append(h("div", { class: "card" }, h("h3", {}, "Totals"),
    h("ol", { class: "ranking", id: "yardkle-standings" }, game.standings.map((s) =>
      h("li", {}, `${s.player}: ${s.total}${s.on_pad ? "" : " (not on the pad yet)"}, ${s.turn_count} turn${s.turn_count === 1 ? "" : "s"}`))),
    game.reached ? h("p", {}, `${game.reached.player} reached the target with ${game.reached.total}: ` +
      (game.last_turns_due.length ? `last turns for ${game.last_turns_due.join(", ")}.` : "every last turn is played.")) : null,
    game.finished ? h("p", { class: "ok" }, `Game over: ${game.winners.join(" and ")} ${game.winners.length > 1 ? "win" : "wins"}.`) : null));
  if (game.turns.length) {
    panel.append(h("details", { class: "card" }, h("summary", {}, `Turns (${game.turns.length})`),
      h("ol", {}, game.turns.map((t) => h("li", {}, `${t.player}: ${t.end === "bank" ? `banked ${t.points}` : "yardkle, nothing"} → ${t.total}${t.last_turn ? " (last turn)" : ""}`)))));
  }
  if (!game.finished) panel.append(renderYardkleDraft(game));
}

function renderYardkleDraft(game) {
  const y = event.yardkle;
  const player = game.next_player;
  const card = h("div", { class: "card", id: "yardkle-draft" }, h("h3", {}, `${player}'s turn${game.last_turns_due.includes(player) ? " (last turn)" : ""}`));
  const throws = y.draft?.throws ?? [];
  const onPad = game.standings.find((s) => s.player === player)?.on_pad ?? false;
  card.append(h("p", {}, throws.length ? ["Throws: ", joined(throws.map((t) => [diceFaces(t.dice), " → set aside ", diceFaces(t.set_aside)]), "; "),
    `. Turn so far: ${yardkleState.turnPoints}.`] : "No throw yet."));
  const dice = typedField("input", { id: "yardkle-dice", autocomplete: "off", inputmode: "numeric" });
  const setAside = typedField("input", { id: "yardkle-set-aside", autocomplete: "off", inputmode: "numeric" });
  const message = h("div", { "aria-live": "polite" });
  const advise = async () => {
    const parsed = parseDice(dice.value);
    if (!parsed || !parsed.length) { message.replaceChildren(problemBox("Type the dice thrown first, e.g. 1 5 2 3 4 6.")); return; }
    const answer = await post("/yardkle/holds", { dice: parsed, on_pad: onPad, turn_points: yardkleState.turnPoints });
    yardkleState.advice = answer.ok ? answer.data : null;
    if (!answer.ok) { message.replaceChildren(problemBox(answer.message)); return; }
    renderYardkleAdvice(adviceBox, setAside);
  };
  const addThrow = async () => {
    const d = parseDice(dice.value);
    const s = parseDice(setAside.value);
    if (!d || !d.length || s === null) { message.replaceChildren(problemBox("Type the dice thrown and the dice set aside, e.g. 1 5 2 3 4 6 and 1 5.")); return; }
    const next = [...throws, { dice: d, set_aside: s }];
    const scored = await setAsidePoints(d, s);
    if (scored.reason) { message.replaceChildren(problemBox(scored.reason)); return; }
    yardkleState.advice = null;
    consumed(...YARDKLE_THROW);
    change((e) => { e.yardkle.draft = { throws: next }; }, { redraw: false });
    await refreshYardkleDraft();
    render();
    document.getElementById("yardkle-dice")?.focus();
  };
  const end = async (how) => {
    const turn = { player, end: how, throws };
    const answer = await post("/yardkle/games", { players: y.players, turns: [...y.turns, turn] });
    if (!answer.ok) { message.replaceChildren(problemBox(answer.message)); return; }
    yardkleGame.ask(); yardkleTurn.ask(); // answers still awaited are about the turns before this one
    consumed(...YARDKLE_THROW);
    yardkleState.game = answer.data; yardkleState.advice = null; yardkleState.turnPoints = 0;
    change((e) => { e.yardkle.turns.push(turn); e.yardkle.draft = null; });
  };
  const adviceBox = h("div", { id: "yardkle-advice" });
  card.append(h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); addThrow(); } },
    field("Dice thrown", dice, "all six at first, then the dice left"),
    h("button", { type: "button", onclick: advise }, "Coach: what to set aside?"),
    field("Set aside", setAside, "the scoring dice kept, e.g. 1 5"),
    h("button", { type: "submit", class: "primary" }, "Add throw")), message, adviceBox,
  h("div", { class: "row" },
    h("button", { type: "button", class: "primary", id: "yardkle-bank", disabled: !throws.length, onclick: () => end("bank") }, `Bank ${yardkleState.turnPoints}`),
    h("button", { type: "button", id: "yardkle-yardkle", onclick: () => end("yardkle") }, "Yardkle (no score)"),
    h("button", { type: "button", disabled: !throws.length, onclick: () => changeThen((e) => { e.yardkle.draft.throws.pop(); }, refreshYardkleDraft) }, "Remove the last throw")));
  if (yardkleState.advice) renderYardkleAdvice(adviceBox, setAside);
  return card;
}

function renderYardkleAdvice(container, setAside) {
  const advice = yardkleState.advice;
  container.replaceChildren(h("h3", {}, "The coach on ", diceFaces(advice.dice)),
    h("div", { class: "scroll" }, h("table", { class: "compact", "aria-label": "The coach's set-asides, best first" },
      h("thead", {}, h("tr", {}, ["#", "Set aside", "Then", "Expected points", "Cost", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, advice.options.map((o) => h("tr", { class: o.best ? "best" : "" },
        h("td", { class: "num" }, o.rank), h("td", {}, diceFaces(o.set_aside), ` (${o.points})`, o.best ? h("span", { class: "best-mark" }, " ★ best") : null),
        h("td", {}, o.decision === "bank" ? `bank ${o.turn_points}` : `throw ${o.dice_left_count} on`),
        h("td", { class: "num" }, num(o.expected_points)), h("td", { class: "num" }, o.best ? "—" : `−${num(o.loss)}`),
        h("td", {}, h("button", { type: "button", "aria-label": `Use: set aside ${diceText(o.set_aside)}`, onclick: () => { setAside.value = o.set_aside.join(" "); setAside.dispatchEvent(new Event("input")); setAside.focus(); } }, "Use"))))))));
}

// ---------------------------------------------------------------- the event tab -----------

function exportCsv() {
  const rows = [["section", "player", "item", "points", "dice"]];
  const check = sheetState.check;
  event.sheets.players.forEach((p, index) => {
    for (const box of boxesOf(event.sheets.game)) {
      const entry = p.entries[box.id];
      if (entry && String(entry.points).trim()) rows.push([`sheet:${event.sheets.game}`, p.name, box.id, entry.points, entry.dice ?? ""]);
    }
    const sheet = check?.sheets?.[index];
    if (sheet) for (const key of ["upper_subtotal", "upper_bonus", "extra_bonus", "total", "rank"]) rows.push([`sheet:${event.sheets.game}`, p.name, key, sheet[key], ""]);
  });
  for (const s of chicagoState.game?.standings ?? []) rows.push(["chicago", s.player, "lives", s.lives, ""]);
  for (const s of yardkleState.game?.standings ?? []) rows.push(["yardkle", s.player, "total", s.total, ""]);
  download(`diceref-event-${event.created.slice(0, 10)}.csv`, "text/csv", rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n");
}

function renderEvent(panel) {
  const message = h("div", { "aria-live": "polite", id: "event-message" });
  const file = h("input", { type: "file", id: "event-import", accept: "application/json,.json", onchange: async (e) => {
    const chosen = e.target.files?.[0];
    if (!chosen) return;
    let parsed;
    try { parsed = asEvent(JSON.parse(await chosen.text())); } catch (err) { parsed = new Error("the file is not JSON"); }
    if (parsed instanceof Error) { message.replaceChildren(problemBox(`Not imported: ${parsed.message}.`)); return; }
    consumed(...Object.keys(typed)); // nothing typed for the event replaced
    change(() => { event = parsed; });
    await refreshAll();
    render();
    document.getElementById("event-message")?.replaceChildren(h("p", { class: "ok" }, `Imported the event of ${parsed.created.slice(0, 10)}.`));
  } });
  const clear = h("button", { type: "button", id: "event-clear-yes", class: "primary", hidden: true, onclick: async () => {
    consumed(...Object.keys(typed));
    change(() => { event = newEvent(); event.tab = "event"; });
    await refreshAll(); render();
  } }, "Yes, start a new event");
  panel.replaceChildren(h("h2", {}, "Event"),
    h("p", {}, `Started ${new Date(event.created).toLocaleString()}. ${event.sheets.players.length} score sheets, ${event.chicago.rounds.length} Chicago rounds, ${event.yardkle.turns.length} Yardkle turns.`),
    h("p", { class: "hint" }, "The service keeps nothing: the event lives in this browser. Export it to move it to another device or keep it."),
    h("div", { class: "row" },
      h("button", { type: "button", id: "event-export", onclick: () => download(`diceref-event-${event.created.slice(0, 10)}.json`, "application/json", JSON.stringify(event, null, 2)) }, "Export the event (JSON)"),
      h("button", { type: "button", onclick: exportCsv }, "Export the results (CSV)")),
    h("div", { class: "row" }, field("Import an event (JSON)", file)),
    message,
    h("div", { class: "row" }, h("button", { type: "button", onclick: () => { clear.hidden = false; clear.focus(); } }, "New event…"), clear));
}

// ---------------------------------------------------------------- the page ----------------

const RENDERERS = { sheets: renderSheets, coach: renderCoach, chicago: renderChicago, yardkle: renderYardkle, event: renderEvent };

function render() {
  const tab = shownTab();
  const focused = document.activeElement?.id;
  for (const button of document.querySelectorAll("button.tab")) {
    button.setAttribute("aria-current", button.dataset.tab === tab ? "page" : "false");
  }
  for (const name of TABS) {
    const panel = document.getElementById(name);
    panel.hidden = name !== tab;
    panel.classList.toggle("printing", name === tab);
    statusOf(name).hidden = name !== tab;
  }
  RENDERERS[tab](document.getElementById(tab));
  if (focused) document.getElementById(focused)?.focus();
}

async function refreshAll() {
  await Promise.all([refreshChicago(), refreshYardkle()]);
  scheduleCheck();
}

/** --bar-height: the sticky header's height (it wraps on narrow screens, and is not sticky
 * on a phone), which the page keeps clear when it scrolls to a control (desk.css). */
function trackHeaderHeight() {
  const bar = document.querySelector("header.bar");
  const measure = () => {
    const sticky = getComputedStyle(bar).position === "sticky";
    document.documentElement.style.setProperty("--bar-height", `${sticky ? bar.offsetHeight : 0}px`);
  };
  new ResizeObserver(measure).observe(bar);
  measure();
}

async function start() {
  awaiting(0);
  trackHeaderHeight();
  document.getElementById("undo").addEventListener("click", undo);
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "z" && !["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement?.tagName)) {
      e.preventDefault(); undo();
    }
  });
  for (const button of document.querySelectorAll("button.tab")) {
    button.addEventListener("click", async () => {
      event.tab = button.dataset.tab; save();
      if (event.tab === "chicago") await refreshChicago();
      if (event.tab === "yardkle") await refreshYardkle();
      render();
    });
  }
  window.addEventListener("online", () => { scheduleCheck(); });
  updateUndo();
  render();
  const games = await get("/games");
  // The games are kept too, so that a page reopened while the service is out of reach
  // still shows the sheets (they are checked once it answers).
  let list = games.ok ? games.data : null;
  if (list) localStorage.setItem(`${STORAGE_KEY}/games`, JSON.stringify(list));
  else {
    try { list = JSON.parse(localStorage.getItem(`${STORAGE_KEY}/games`) ?? "null"); } catch { list = null; }
    showBanner(games.message);
    if (!list) return;
  }
  catalogue.games = list;
  catalogue.byId = Object.fromEntries(list.map((g) => [g.id, g]));
  await refreshAll();
  render();
  document.body.dataset.ready = "true";
}

start();
