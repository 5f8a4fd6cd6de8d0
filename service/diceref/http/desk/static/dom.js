// The page's pieces: elements made with DOM calls (never HTML from strings, so nothing typed
// or answered can run as markup), the fields whose typed text survives redraws, each tab's
// status line, the banner, problems, dice drawn as dice, downloads and the shared form
// pieces.

import { diceText } from "./pure.js";

/** An element: h("td", {class: "num"}, "12", child...). */
export function h(tag, attrs = {}, ...children) {
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
export const nextId = (stem) => `${stem}-${++uid}`;

// What is typed (or chosen) in a form field and not yet added: a player's name, a throw's
// dice.  A service answer redraws the panel, and with it every field, at any moment; the
// text someone is typing then must survive the redraw, so such fields are made with
// `typedField` (by id) and read their text back from here until `consumed` forgets it.
const typed = {};

/** A field whose typed text (or chosen option) survives redraws until it is consumed. */
export function typedField(tag, attrs, ...children) {
  const node = h(tag, attrs, ...children);
  const id = attrs.id;
  if (id in typed && (tag !== "select" || [...node.options].some((o) => o.value === typed[id]))) node.value = typed[id];
  // "input" is what a person does (typing, choosing an option), not a page's own `change`.
  node.addEventListener("input", () => { typed[id] = node.value; });
  return node;
}

/** The fields' text is used (the throw added, the player added): they start empty again. */
export function consumed(...ids) {
  for (const id of ids) delete typed[id];
}

/** Every field starts empty again: the event they were typed for is replaced. */
export function consumedAll() { consumed(...Object.keys(typed)); }

/** A labelled control: <label>text <input ...></label>. */
export function field(text, control, hint) {
  return h("label", {}, text, control, hint ? h("span", { class: "hint" }, hint) : null);
}

// Each tab has its own status line (index.html: `#<tab>-status`, aria-live polite); a tab
// writes only its own, so the Chicago tab never says "Sheets checked".
export const statusOf = (tab) => document.getElementById(`${tab}-status`);
export function say(tab, text) { statusOf(tab).textContent = text; }

export function showBanner(text) {
  const banner = document.getElementById("banner");
  banner.hidden = !text;
  banner.className = text ? "problem" : "";
  banner.textContent = text || "";
}

export function problemBox(text) { return h("p", { class: "problem", role: "alert" }, text); }

const FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];

/** Dice drawn as dice (⚁ ⚂ ⚃) for the eye, read as their numbers ("2 3 4"): the numbers are
 * visually hidden text (first, so the line reads "throw 1: 2 3 4 (call high)"), the faces
 * hidden from screen readers. */
export function diceFaces(dice) {
  if (!dice || !dice.length) return "none";
  return h("span", { class: "dice-faces" }, h("span", { class: "visually-hidden" }, diceText(dice)),
    h("span", { "aria-hidden": "true", title: diceText(dice) }, dice.map((d) => FACES[d - 1] ?? String(d)).join("")));
}

export function download(name, type, text) {
  const link = h("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

export function addPlayerForm(idStem, onAdd, existing) {
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

/** A choice of the service's `games` (the catalogue's) of one family. */
export function gameSelect(id, games, family, value, onChange) {
  const select = h("select", { id, onchange: (e) => onChange(e.target.value) },
    games.filter((g) => g.family === family).map((g) =>
      h("option", { value: g.id, selected: g.id === value }, g.name)));
  return select;
}

// The coach's chart is inline SVG made with DOM calls, every label a text node.
const SVG = "http://www.w3.org/2000/svg";
export function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  for (const child of children) if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  return node;
}
