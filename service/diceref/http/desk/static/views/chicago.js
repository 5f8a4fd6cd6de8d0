// The Chicago tab: the players, each round's throws as they are made (each one scored by
// POST /chicago/throws), and the service's ruling of the rounds (POST /chicago/games): who
// loses a life, who is out, who starts next, who wins.

import { joined, latestOnly, parseDice, rotation, roundEventLines, throwNote } from "../pure.js";
import { addPlayerForm, consumed, diceFaces, field, h, problemBox, say, typedField } from "../dom.js";
import { post } from "../service.js";
import { change, changeThen, event, render } from "../state.js";

const chicagoState = { game: null, error: null, throwNotes: {} };
const chicagoGame = latestOnly();
// The fields of one throw, emptied once it is added or the turn or round ends.
const CHICAGO_THROW = ["chicago-dice", "chicago-call", "chicago-kept", "chicago-conversion", "chicago-victim"];

export async function refreshChicago() {
  const ch = event().chicago;
  const current = chicagoGame.ask();
  if (ch.players.length < 2) { chicagoState.game = null; chicagoState.error = null; return; }
  const answer = await post("/chicago/games", { players: ch.players, rounds: ch.rounds });
  if (!current()) return; // the event changed since: the later answer is the one shown
  chicagoState.game = answer.ok ? answer.data : null;
  chicagoState.error = answer.ok ? null : answer.message;
}

function alivePlayers() {
  const standings = chicagoState.game?.standings;
  if (!standings) return [...event().chicago.players];
  const alive = new Set(standings.filter((s) => s.lives > 0).map((s) => s.player));
  return event().chicago.players.filter((p) => alive.has(p));
}

function roundOrder(starter) { return rotation(alivePlayers(), starter); }

function describeRound(round, number) {
  const lines = roundEventLines(round);
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

export function renderChicago(panel) {
  const ch = event().chicago;
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
  const ch = event().chicago;
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
      const now = event().chicago.draft;
      if (now !== draft || now.current !== at || now.turns[at].throws.length !== number) {
        say("chicago", `${turn.player}'s throw ${number + 1} was not added: the turn moved on before it was checked.`);
        return;
      }
      chicagoState.throwNotes[`${at}/${number}`] = throwNote(answer.data);
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
  const ch = event().chicago;
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

/** The game as the service last ruled it (its standings), for the results' export. */
export const chicagoRuling = () => chicagoState.game;
