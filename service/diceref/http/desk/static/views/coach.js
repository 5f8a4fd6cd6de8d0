// The coach tab: the service's options for a throw, best first (POST /holds), by expected
// total or by the chance to reach a target, with the card's final total as a chart
// (POST /distributions); and a game played with the page rolling, every choice recorded
// and reviewed by the service at the end (POST /reviews).

import { diceText, filledOf, latestOnly, num, optionText, parseDice, percent, roll, sameDice, signed, tickStep, withRules } from "../pure.js";
import { consumed, diceFaces, field, gameSelect, h, nextId, problemBox, svgEl, typedField } from "../dom.js";
import { awaiting, catalogue, post } from "../service.js";
import { change, event, render } from "../state.js";

// `solving`: what the coach waits for while the service solves a table (503), shown calmly
// and asked again; `forecast`: the card's final total (POST /distributions) when playing
// to a target.
const coachState = { advice: null, error: null, busy: false, review: null, final: null,
  solving: {}, forecast: null, forecastError: null };
const coachAdvice = latestOnly();

/** The house rules the coach plays a game under: the sheets' when it is their game. */
const rulesOf = (game) => (game === event().sheets.game ? event().sheets.rules : {});
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

export function renderCoach(panel) {
  const c = event().coach;
  const info = catalogue.byId[c.game];
  panel.replaceChildren(h("h2", {}, "Coach"));
  if (!info) { panel.append(problemBox("Loading the games from the service…")); return; }
  const throwsLeft = h("select", { id: "coach-throws-left", onchange: (e) => change((ev) => { ev.coach.throwsLeft = Number(e.target.value); }, { redraw: false }) },
    Array.from({ length: throwsPerTurn(c.game) }, (_, n) => h("option", { value: n, selected: n === c.throwsLeft }, String(n))));
  const dice = typedField("input", { id: "coach-dice", value: c.dice, autocomplete: "off", inputmode: "numeric",
    onchange: (e) => { consumed("coach-dice"); change((ev) => { ev.coach.dice = e.target.value; }, { redraw: false }); } });
  const card = h("select", { id: "coach-card", onchange: (e) => change((ev) => { ev.coach.card = e.target.value; }, { redraw: false }) },
    h("option", { value: "" }, "an empty scorecard"),
    c.game === event().sheets.game ? event().sheets.players.map((p) => h("option", { value: p.name, selected: p.name === c.card }, `${p.name}'s sheet`)) : []);
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
    const { filled, extraBonus } = c.card ? filledOf(event().sheets.players, c.card) : { filled: {}, extraBonus: 0 };
    coachState.forecast = null; coachState.forecastError = null;
    await askCoach({ game: c.game, dice: parsed, throwsLeft: Number(throwsLeft.value), filled, extraBonus, target: wanted ? Number(wanted) : null });
    render();
  };
  panel.append(h("form", { class: "card", onsubmit: (e) => { e.preventDefault(); ask(); } },
    h("h3", {}, "Ask about a throw"),
    h("div", { class: "row" },
      field("Game", gameSelect("coach-game", catalogue.games, "scorecard", c.game, (value) => change((e) => { e.coach.game = value; e.coach.card = ""; e.coach.throwsLeft = 0; }))),
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
  const play = event().coach.play;
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
  const play = event().coach.play;
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
  await askCoach(playAdviceRequest(event().coach.play));
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
  const play = event().coach.play;
  if (option.kind === "keep") {
    change((e) => {
      const p = e.coach.play;
      const wanted = [...option.keep];
      p.held = p.dice.map((d) => { const at = wanted.indexOf(d); if (at < 0) return false; wanted.splice(at, 1); return true; });
    });
    if (option.keep.length < play.dice.length) {
      await playRoll();
      return;
    }
    // Keeping every die throws nothing: that is standing on these dice (a review takes no
    // keep of all five), so the turn goes on to its box, with the boxes as the options.
    change((e) => { e.coach.play.throwsLeft = 0; });
    coachState.advice = null;
    await askCoach(playAdviceRequest(event().coach.play));
    render();
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
