// The desk's pure helpers: no page, no storage, no service. desk.js imports them, and the
// unit tests under tests/desk/unit run them under Node (node --test), without a browser.

export const EVENT_VERSION = 1;

/** A new, empty event: what the page starts with and what "New event" resets to. */
export function newEvent() {
  return {
    version: EVENT_VERSION,
    created: new Date().toISOString(),
    tab: "sheets",
    sheets: { game: "yahtzee", rules: {}, players: [] },
    coach: { game: "yahtzee", dice: "", throwsLeft: 2, card: "", target: "", play: null },
    chicago: { players: [], rounds: [], draft: null },
    yardkle: { players: [], turns: [], draft: null },
  };
}

/** An event read from storage or a file, or an Error saying why it is not one. */
export function asEvent(value) {
  if (!value || typeof value !== "object" || value.version !== EVENT_VERSION) {
    return new Error(`not a desk event (version ${EVENT_VERSION} expected)`);
  }
  const fresh = newEvent();
  for (const key of ["sheets", "coach", "chicago", "yardkle"]) {
    if (typeof value[key] !== "object" || value[key] === null) return new Error(`the event has no ${key}`);
    value[key] = { ...fresh[key], ...value[key] };
  }
  if (!Array.isArray(value.sheets.players) || !Array.isArray(value.chicago.rounds) || !Array.isArray(value.yardkle.turns)) {
    return new Error("the event's players, rounds or turns are not lists");
  }
  return value;
}

/** Dice typed as "6 6 6 2 3", "6,6,6,2,3" or "66623": a list of numbers, or null. */
export function parseDice(text) {
  const trimmed = String(text ?? "").trim();
  if (!trimmed) return [];
  const parts = /[\s,;]/.test(trimmed) ? trimmed.split(/[\s,;]+/).filter(Boolean) : [...trimmed];
  if (!parts.every((p) => /^\d+$/.test(p))) return null;
  return parts.map(Number);
}

export const diceText = (dice) => (dice && dice.length ? dice.join(" ") : "none");

/** A number as the page shows points: an integer as it is, anything else with 2 decimals. */
export const num = (value) => (Number.isInteger(value) ? String(value) : Number(value).toFixed(2));

/** A probability as a percentage with one decimal; never "0.0%" or "100.0%" for one that is not. */
export function percent(p) {
  if (p <= 0) return "0%";
  if (p >= 1) return "100%";
  if (p < 0.0005) return "< 0.1%";
  if (p > 0.9995) return "> 99.9%";
  return `${(p * 100).toFixed(1)}%`;
}

/** Round steps for the axis (1, 2 or 5 times a power of ten), about `count` of them over `span`. */
export function tickStep(span, count) {
  const raw = Math.max(span / count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}

/** One CSV cell (RFC 4180): quoted when it holds a quote, a comma or a line break. */
export function csvCell(value) {
  const text = String(value ?? "");
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A Chicago round's order: the players still in, from the starter on, round the table
 * (the first of them when the starter is not among them). */
export function rotation(players, starter) {
  const at = Math.max(0, players.indexOf(starter));
  return [...players.slice(at), ...players.slice(0, at)];
}
