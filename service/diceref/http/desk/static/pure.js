// The desk's pure helpers: no page, no storage, no service. The other modules import them,
// and the unit tests under tests/desk/unit run them under Node (node --test), without a
// browser.

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

/** Children with `separator` between each: the pieces of one line of text and dice. */
export const joined = (pieces, separator) => pieces.flatMap((piece, i) => (i ? [separator, piece] : [piece]).flat());
export const roll = (count) => Array.from({ length: count }, () => 1 + (crypto.getRandomValues(new Uint32Array(1))[0] % 6));
export const sameDice = (a, b) => [...a].sort().join() === [...b].sort().join();

// ---------------------------------------------------------------- the service's answers ---

// The page is served by the service it calls, so it knows what that service takes (house
// rules, a target to reach, its distributions) without asking: no OpenAPI document is read.

/** The body with the chosen house rules, when any are set. */
export function withRules(body, rules) {
  if (rules && Object.keys(rules).length) return { ...body, rules };
  return body;
}

/**
 * Answers that replace a state (a game's standings, the sheets' check) applied in the order
 * they were asked: `const current = latest.ask()` before the request, `if (!current())`
 * after it drops an answer that a later question overtook.  Requests travel on several
 * connections, so a slow answer about the event as it was (two players) can arrive after
 * the answer about the event as it is (three players), and must not overwrite it.
 */
export function latestOnly() {
  let asked = 0;
  return { ask() { const ticket = ++asked; return () => ticket === asked; } };
}

/** A problem+json answer in words: its title and each error's reason, never raw JSON. */
export function problemWords(response, problem) {
  if (!problem || typeof problem !== "object") {
    return { message: `The service answered ${response.status} ${response.statusText || ""}`.trim(), errors: [] };
  }
  const errors = Array.isArray(problem.errors) ? problem.errors : [];
  let message = problem.title || `The service answered ${response.status}`;
  if (response.status === 503) {
    const wait = problem.retry_after ?? response.headers.get("Retry-After");
    message = `The coach's solved table is still loading on the service${wait ? `: try again in ${wait} s` : ""}.`;
    // No figure at all (Number(null) would be 0, an instant retry) is no figure, as is text.
    const retryAfter = wait === null || wait === undefined || wait === "" ? NaN : Number(wait);
    const progress = typeof problem.progress === "number" ? problem.progress : null;
    return { message, errors, retryAfter: Number.isFinite(retryAfter) ? retryAfter : null, progress };
  } else if (errors.length) {
    message += ": " + errors.map((e) => e.reason).join("; ");
  } else if (problem.detail) {
    message += ": " + problem.detail;
  }
  return { message, errors };
}

// ---------------------------------------------------------------- score sheets -------------

/** The sheets as POST /scorecards/check takes them (`body`), and the entries it cannot be
 * sent because they are not numbers or dice (`local`: "player index/box" to a reason). */
export function sheetRequest({ game, rules, players }) {
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

/** The hint under a rule: the service's description tells what the game plays, so once
 * another value is chosen the hint says so, with what that choice means where the service
 * describes each choice, instead of describing a rule that is no longer played. */
export function ruleHint(parameter, chosen, cleared = false) {
  const notes = [parameter.reading ? " (a reading of the rulebook)" : "", parameter.settable === false ? " (fixed in this game)" : ""];
  if (cleared) return [`Empty: the game's default, ${JSON.stringify(parameter.value)}, is played.`, ...notes].join("");
  if (JSON.stringify(chosen) === JSON.stringify(parameter.value)) return [parameter.description, ...notes].join("");
  const set = `Set here to ${JSON.stringify(chosen)} (the game's own: ${JSON.stringify(parameter.value)})`;
  const meaning = Object.hasOwn(parameter.choice_descriptions ?? {}, chosen) ? parameter.choice_descriptions[chosen] : null;
  return meaning ? `${set}: ${meaning}` : `${set}.`;
}

/** A player's sheet as the coach's scorecard: the boxes whose points are a whole number. */
export function filledOf(players, name) {
  const player = players.find((p) => p.name === name);
  const filled = {};
  for (const [box, entry] of Object.entries(player?.entries ?? {})) {
    if (/^\d+$/.test(String(entry.points ?? "").trim())) filled[box] = Number(entry.points);
  }
  return { filled, extraBonus: /^\d+$/.test(String(player?.extra_bonus ?? "")) ? Number(player.extra_bonus) : 0 };
}

/**
 * The event's results as CSV (RFC 4180, CRLF lines): every sheet's entered boxes and, from
 * the service's last answers, each sheet's sums and rank, Chicago's lives and Yardkle's
 * totals.  `boxes` are the sheets' game's boxes, in the order of the sheet.
 */
export function resultsCsv(event, boxes, { check, chicago, yardkle }) {
  const rows = [["section", "player", "item", "points", "dice"]];
  event.sheets.players.forEach((p, index) => {
    for (const box of boxes) {
      const entry = p.entries[box.id];
      if (entry && String(entry.points).trim()) rows.push([`sheet:${event.sheets.game}`, p.name, box.id, entry.points, entry.dice ?? ""]);
    }
    const sheet = check?.sheets?.[index];
    if (sheet) for (const key of ["upper_subtotal", "upper_bonus", "extra_bonus", "total", "rank"]) rows.push([`sheet:${event.sheets.game}`, p.name, key, sheet[key], ""]);
  });
  for (const s of chicago?.standings ?? []) rows.push(["chicago", s.player, "lives", s.lives, ""]);
  for (const s of yardkle?.standings ?? []) rows.push(["yardkle", s.player, "total", s.total, ""]);
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

// ---------------------------------------------------------------- coach -------------------

/** A coach's option, or a review's choice, in words: "keep 6 6" or "score Chance (23)". */
export const optionText = (o) => (o.kind === "keep" ? `keep ${diceText(o.keep)}`
  : `score ${o.name} (${o.points}${o.bonus ? ` + bonus ${o.bonus}` : ""})`);
export const signed = (value) => (value < 0 ? `−${num(-value)}` : `+${num(value)}`);

// ---------------------------------------------------------------- Chicago -----------------

/** A Chicago round's events as the service rules them, one line each. */
export function roundEventLines(round) {
  const lines = [];
  for (const ev of round.events) {
    const who = ev.losers?.length ? `${ev.losers.join(", ")} ${ev.losers.length > 1 ? "lose" : "loses"} a life` : "";
    const by = ev.player ? `${ev.player}` : "";
    const what = ev.kind.replaceAll("_", " ");
    lines.push(`${what}${by ? ` (${by}${ev.score !== null && ev.score !== undefined ? `, ${ev.score}` : ""})` : ""}${who ? `: ${who}` : ""}` +
      (ev.victim ? `; ${ev.victim} is the victim` : "") + (ev.knocked_out?.length ? `; out: ${ev.knocked_out.join(", ")}` : ""));
  }
  return lines;
}

/** What a Chicago throw scores (POST /chicago/throws), in words: "high 204, low 4, ...". */
export const throwNote = (scored) =>
  `${Object.entries(scored.scores).map(([call, score]) => `${call} ${score}`).join(", ")}${scored.special ? `, ${String(scored.special).replaceAll("_", " ")}` : ""}`;

// ---------------------------------------------------------------- Yardkle -----------------

/** What setting `setAside` aside from `dice` scores, from the service's scoring of the throw
 * (POST /yardkle/throws): {points}, or {reason} why it does not score. */
export function setAsideScore(scoring, dice, setAside) {
  const found = scoring.set_asides.find((s) => sameDice(s.dice, setAside));
  if (found) return { points: found.points };
  if (scoring.yardkle) return { reason: `${diceText(dice)} is a yardkle: nothing scores, end the turn with "Yardkle"` };
  return { reason: `${diceText(setAside)} does not score on ${diceText(dice)}; scoring set-asides: ` +
    scoring.set_asides.map((s) => `${diceText(s.dice)} (${s.points})`).join(", ") };
}
