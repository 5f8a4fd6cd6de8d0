// The Yardkle tab: the players, each turn's throws and set-asides (each scored by
// POST /yardkle/throws), the coach's set-asides (POST /yardkle/holds), and the service's
// ruling of the turns (POST /yardkle/games): totals, the pad, the last turns, the winners.

import { diceText, joined, latestOnly, num, parseDice, setAsideScore } from "../pure.js";
import { addPlayerForm, consumed, diceFaces, field, h, problemBox, typedField } from "../dom.js";
import { post } from "../service.js";
import { change, changeThen, event, render } from "../state.js";

const yardkleState = { game: null, error: null, advice: null, draftError: null, turnPoints: 0 };
const yardkleGame = latestOnly();
const yardkleTurn = latestOnly();
const YARDKLE_THROW = ["yardkle-dice", "yardkle-set-aside"];

export async function refreshYardkle() {
  const y = event().yardkle;
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
  return setAsideScore(answer.data, dice, setAside);
}

/** The points of the turn so far: the sum of its set-asides as the service scores them. */
async function refreshYardkleDraft() {
  const current = yardkleTurn.ask();
  let points = 0;
  for (const t of event().yardkle.draft?.throws ?? []) points += (await setAsidePoints(t.dice, t.set_aside)).points ?? 0;
  if (current()) yardkleState.turnPoints = points;
}

export function renderYardkle(panel) {
  const y = event().yardkle;
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
  const y = event().yardkle;
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

/** The game as the service last ruled it (its standings), for the results' export. */
export const yardkleRuling = () => yardkleState.game;
