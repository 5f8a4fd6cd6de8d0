"""The table desk in a real browser: Debian's Chromium driven by Playwright for Python.

The server is the real process (tests/live_server.py) with Yahtzee's table preloaded from
the test disk cache, so the coach answers at once, and the play-to-win game's tables on
that disk, found by its solve on demand.  Each test gets a fresh browser context
(empty storage) whose page fails the test on any console error, uncaught exception or
request to a host other than the service's.  Chromium is `/usr/bin/chromium` (Debian's
package; `playwright install` cannot download a browser here): without it the tests skip,
except under CI=true, where they fail.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from conftest import TEST_CACHE, _in_ci, make_test_store
from live_server import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
DOCS = Path(__file__).parents[2] / "docs"
SHOTS = Path(tempfile.gettempdir()) / f"diceref-desk-shots-{os.getpid()}"
# How long an action or an expectation waits for the page (on a loaded CI machine the
# service's answers can take seconds): actions and `expect` share it.
TIMEOUT_MS = float(os.environ.get("DESK_TIMEOUT_MS", "10000"))
PHONE = {"width": 375, "height": 812}
LAPTOP = {"width": 1280, "height": 800}


# Play to reach a target on Yatzy in forced order (every box in scorecard order): its win
# table solves in half a minute (once: it is kept in the test disk cache), not the minutes of a
# free-order game's.
TARGET_GAME = "yatzy"
TARGET_RULES = {"order": "forced"}


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, solved: Callable[[str], Any]
) -> Iterator[LiveServer]:
    solved("yahtzee")  # in the test disk cache, which the server reads at start-up
    target_tables()  # on disk, so that the server's solve on demand finds them there
    log = tmp_path_factory.mktemp("desk") / "server.log"
    env = {
        "DICEREF_CACHE_DIR": str(TEST_CACHE),
        "DICEREF_PRELOAD": "yahtzee",
        "DICEREF_RETRY_AFTER": "1",
    }
    with LiveServer(log, env) as live:
        live.wait("/readyz", timeout=120)
        yield live


def target_tables() -> None:
    """The play-to-win game's tables (value, max, distribution, win) in the test disk cache:
    solved once across runs."""
    from diceref.games.scorecard import FAMILY
    from diceref.games.scorecard.tables import ruleset_specs, target_specs
    from diceref.tables.spec import load_sync

    ruleset = FAMILY.with_rules(TARGET_GAME, TARGET_RULES)
    store = make_test_store()
    for spec in (*ruleset_specs(ruleset), *target_specs(ruleset)):
        load_sync(store, spec)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)"
        if _in_ci():
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield browser
        browser.close()


# Every visible control's accessible name: its aria-label, its <label>, or a button's text.
UNLABELLED = """() => [...document.querySelectorAll("input, select, button, textarea")]
  .filter((el) => el.offsetParent !== null)
  .filter((el) => !((el.getAttribute("aria-label") || "").trim()
    || [...(el.labels || [])].some((l) => l.textContent.trim())
    || (el.tagName === "BUTTON" && el.textContent.trim())))
  .map((el) => el.outerHTML.slice(0, 160))"""

# WCAG's contrast ratio of every visible text against the first opaque background behind
# it; below 4.5:1 is listed (disabled controls are exempt, as WCAG exempts them).
LOW_CONTRAST = """() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const lum = ({ r, g, b }) => { const f = (v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const behind = (el) => { for (let e = el; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) return c; }
    return { r: 255, g: 255, b: 255, a: 1 }; };
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.offsetParent === null) continue;
    if (el.closest(":disabled")) continue;
    const a = lum(parse(getComputedStyle(el).color)), b = lum(behind(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) low.push(`${ratio.toFixed(2)}: ${n.textContent.trim().slice(0, 40)}`);
  }
  return low;
}"""


@dataclass
class Watched:
    """A page and what it did that a test must not see."""

    page: Any
    base: str
    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    # Chromium logs every 4xx answer as a console error; a test that provokes one on
    # purpose says which status it expects, and only those lines are let through.
    expected_statuses: set[int] = field(default_factory=set)
    expected_texts: set[str] = field(default_factory=set)

    def allow_status(self, status: int) -> None:
        self.expected_statuses.add(status)

    def allow_offline(self) -> None:
        self.expected_texts.add("net::ERR_INTERNET_DISCONNECTED")

    def own(self, url: str) -> bool:
        return url.startswith((self.base + "/", "data:", f"blob:{self.base}/"))

    def on_console(self, message: Any) -> None:
        if message.type != "error":
            return
        text = message.text
        if any(f"status of {s} " in text for s in self.expected_statuses):
            return
        if any(expected in text for expected in self.expected_texts):
            return
        self.errors.append(f"console: {text} at {message.location}")

    def check_usable(self) -> None:
        """Every visible control has a label, every visible text a readable contrast."""
        assert self.page.evaluate(UNLABELLED) == [], "controls without a label"
        assert self.page.evaluate(LOW_CONTRAST) == [], "text below 4.5:1 contrast"

    def screenshot(
        self, name: str, viewport: dict[str, int], show: str | None = None, at: str = "center"
    ) -> Path:
        """A capture of the viewport, as a person sees the page: `show` scrolled `at` its
        middle or "start" (else the page's top).  Not a full-page capture, which draws the sticky
        header across the middle of a long page with a blank band above it."""
        self.page.set_viewport_size(viewport)
        if show is None:
            self.page.evaluate("() => window.scrollTo(0, 0)")
        else:
            self.page.locator(show).first.evaluate("(e, at) => e.scrollIntoView({block: at})", at)
        self.page.wait_for_timeout(150)  # the layout settles
        # The pictures in docs/desk.md are made by these steps; a run redraws them only when
        # asked (DICEREF_DOCS_SCREENSHOTS=1), since random dice would change them every run.
        folder = DOCS / "desk" if os.environ.get("DICEREF_DOCS_SCREENSHOTS") == "1" else SHOTS
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path), full_page=False)
        return path


@contextlib.contextmanager
def watched_page(browser: Any, base: str, **context_options: Any) -> Iterator[Watched]:
    """A page in a context of its own, failing the test afterwards on any console error or
    page error (but those a test allows) and on any request to another host."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    watched = Watched(page, base)
    page.on("console", watched.on_console)
    page.on("pageerror", lambda error: watched.errors.append(f"page error: {error}"))
    page.on("request", lambda r: None if watched.own(r.url) else watched.foreign.append(r.url))
    page.set_default_timeout(TIMEOUT_MS)
    try:
        yield watched
    finally:
        context.close()
    assert not watched.foreign, f"requests to other hosts: {watched.foreign}"
    assert not watched.errors, "\n".join(watched.errors)


@pytest.fixture
def desk(server: LiveServer, browser: Any) -> Iterator[Watched]:
    with watched_page(browser, server.base, viewport=LAPTOP) as watched:
        yield watched


# --- the tests ---------------------------------------------------------------------------

ANN = {
    "ones": "3", "twos": "6", "threes": "9", "fours": "12", "fives": "15", "sixes": "18",
    "three_of_a_kind": "24", "four_of_a_kind": "0", "full_house": "25", "small_straight": "30",
    "large_straight": "40", "yahtzee": "50", "chance": "22",
}  # fmt: skip
# 63 in the upper section (bonus 35) + 191 below = 289
BOB = {
    "ones": "2", "twos": "4", "threes": "6", "fours": "9", "fives": "10", "sixes": "12",
    "three_of_a_kind": "20", "four_of_a_kind": "16", "full_house": "0", "small_straight": "30",
    "large_straight": "0", "yahtzee": "0", "chance": "",
}  # fmt: skip
# fours 9 is impossible (corrected to 8); chance from the dice 3 3 4 4 4 (18): 42 + 84 = 126


def open_desk(desk: Watched) -> Any:
    page = desk.page
    page.goto(desk.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    return page


def add_players(page: Any, stem: str, names: list[str]) -> None:
    for name in names:
        page.fill(f"#{stem}-new-player", name)
        page.press(f"#{stem}-new-player", "Enter")


def total_of(page: Any, player: int, key: str = "total") -> Any:
    return page.locator(f'td[data-sum="{key}"][data-player="{player}"]')


def test_two_sheets_one_impossible_entry_corrected_then_totals_ranking_reload(
    desk: Watched, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = open_desk(desk)
    add_players(page, "sheet", ["Ann", "Bob"])
    for player, sheet in enumerate([ANN, BOB]):
        page.focus(f"#points-{player}-ones")  # then the keyboard alone: type, Enter, next box
        for points in sheet.values():
            if points:
                page.keyboard.type(points)
            page.keyboard.press("Enter")
    chance_dice = page.locator('input.dice[data-player="1"][data-box="chance"]')
    chance_dice.fill("3 3 4 4 4")
    chance_dice.press("Enter")
    expect(page.locator("#points-1-chance")).to_have_value("18")  # scored by /score

    fours = page.locator('[data-cell="1/fours"]')
    expect(fours.locator(".reason")).to_contain_text("no throw can score 9 in 'fours'")
    expect(page.locator("#points-1-fours")).to_have_attribute("aria-invalid", "true")
    assert page.locator(".cell .reason").count() == 1  # at that box only
    # and in the summary, under Bob's name; his total is not ranked as a valid one
    summary = page.locator("#sheet-messages")
    expect(summary).to_contain_text("Bob: fours: impossible value: no throw can score 9")
    expect(page.locator("#ranking li").nth(1)).to_contain_text("(not valid")
    desk.check_usable()
    desk.screenshot("sheets-problem-laptop.png", LAPTOP, show="#sheet-messages")

    page.fill("#points-1-fours", "8")
    page.press("#points-1-fours", "Enter")
    expect(fours.locator(".reason")).to_have_count(0)
    expect(total_of(page, 0)).to_have_text("289")
    expect(total_of(page, 1)).to_have_text("126")
    expect(total_of(page, 0, "upper_subtotal")).to_have_text("63")
    expect(total_of(page, 0, "upper_bonus")).to_have_text("35")
    expect(total_of(page, 1, "upper_bonus")).to_have_text("0")
    expect(page.locator("#ranking li")).to_have_text(["Ann: 289 (leads)", "Bob: 126"])
    expect(page.locator("#sheet-messages .ok")).to_have_count(2)  # both complete and valid

    page.click("#undo")  # back to the impossible 9, and its reason
    expect(page.locator("#points-1-fours")).to_have_value("9")
    expect(fours.locator(".reason")).to_contain_text("no throw can score 9")
    page.fill("#points-1-fours", "8")
    page.press("#points-1-fours", "Enter")
    expect(total_of(page, 1)).to_have_text("126")

    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#points-0-yahtzee")).to_have_value("50")
    expect(page.locator("#points-1-fours")).to_have_value("8")
    expect(page.locator("#ranking li")).to_have_text(["Ann: 289 (leads)", "Bob: 126"])
    desk.screenshot("sheets-laptop.png", LAPTOP)
    desk.screenshot("sheets-phone.png", PHONE)
    desk.check_usable()

    page.emulate_media(media="print")  # the print view: sheets and ranking, no controls
    expect(page.locator("header.bar")).to_be_hidden()
    expect(page.locator("#ranking")).to_be_visible()
    expect(page.locator("#sheet-new-player")).to_be_hidden()
    page.emulate_media(media="screen")

    with page.expect_download() as csv_download:
        page.get_by_role("button", name="Export CSV").click()
    csv_text = Path(csv_download.value.path()).read_text()
    assert "sheet:yahtzee,Ann,total,289," in csv_text.splitlines()
    assert "sheet:yahtzee,Bob,chance,18,3 3 4 4 4" in csv_text.splitlines()

    page.click('button.tab[data-tab="event"]')
    with page.expect_download() as json_download:
        page.click("#event-export")
    saved = tmp_path / "event.json"
    json_download.value.save_as(saved)
    page.get_by_role("button", name="New event…").click()
    page.click("#event-clear-yes")
    page.click('button.tab[data-tab="sheets"]')
    expect(page.locator("#points-0-ones")).to_have_count(0)
    page.click('button.tab[data-tab="event"]')
    desk.check_usable()
    page.set_input_files("#event-import", str(saved))
    expect(page.locator("#event-message .ok")).to_contain_text("Imported")
    page.click('button.tab[data-tab="sheets"]')
    expect(page.locator("#ranking li")).to_have_text(["Ann: 289 (leads)", "Bob: 126"])

    # A house rule, sent as `rules` with every check: a 50-point upper bonus.
    page.get_by_text("House rules (0 changed)").click()
    page.fill("#rule-upper_bonus_points", "50")
    page.press("#rule-upper_bonus_points", "Tab")
    expect(total_of(page, 0, "upper_bonus")).to_have_text("50")
    expect(total_of(page, 0)).to_have_text("304")
    desk.allow_status(422)  # a value the rule does not take: the reason beside the rule
    page.fill("#rule-upper_bonus_points", "99999")
    page.press("#rule-upper_bonus_points", "Tab")
    expect(page.locator('[data-rule-reason="upper_bonus_points"]')).to_contain_text("10000")
    page.fill("#rule-upper_bonus_points", "50")
    page.press("#rule-upper_bonus_points", "Tab")
    expect(page.locator('[data-rule-reason="upper_bonus_points"]')).to_have_text("")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(total_of(page, 0)).to_have_text("304")


def test_entries_are_kept_while_the_service_is_out_of_reach(desk: Watched) -> None:
    from playwright.sync_api import expect

    page = open_desk(desk)
    add_players(page, "sheet", ["Ann"])
    expect(total_of(page, 0)).to_have_text("0")
    desk.allow_offline()
    page.context.set_offline(True)
    page.fill("#points-0-sixes", "18")
    page.press("#points-0-sixes", "Enter")
    expect(page.locator("#sheets-status")).to_have_text("Offline: entries kept, not checked")
    expect(total_of(page, 0)).to_have_text("0")
    page.context.set_offline(False)  # checked again without anyone touching the page
    expect(total_of(page, 0)).to_have_text("18", timeout=15_000)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#points-0-sixes")).to_have_value("18")


def start_a_chicago_round(page: Any) -> None:
    """Ann and Bob at the Chicago tab, a round started, Ann's first throw 2 3 4 (a call of
    high) sent."""
    page.click('button.tab[data-tab="chicago"]')
    add_players(page, "chicago", ["Ann", "Bob"])
    page.get_by_role("button", name="Start the round").click()
    page.fill("#chicago-dice", "2 3 4")
    page.select_option("#chicago-call", "high")
    page.press("#chicago-dice", "Enter")


def test_a_chicago_throw_answered_after_its_turn_ended_is_not_added(desk: Watched) -> None:
    """ "End turn" pressed while a throw's check is under way: the answer that comes later
    belongs to a turn that has ended, so it is not added to the next player's (nor does it
    break the page), and the Chicago tab says so."""
    from playwright.sync_api import expect

    page = open_desk(desk)
    page.click('button.tab[data-tab="chicago"]')
    add_players(page, "chicago", ["Ann", "Bob"])
    page.get_by_role("button", name="Start the round").click()
    page.fill("#chicago-dice", "2 3 4")
    page.press("#chicago-dice", "Enter")
    draft = page.locator("#chicago-draft ol")
    expect(draft).to_contain_text("throw 1: 2 3 4")
    held: list[Any] = []
    page.route("**/chicago/throws", lambda route: held.append(route))  # answered when told
    page.fill("#chicago-dice", "5 5 6")
    page.press("#chicago-dice", "Enter")
    for _ in range(200):  # until the check is sent (10 s at most)
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1, "the throw's check was never sent"
    page.get_by_role("button", name="End turn").click()
    expect(draft.locator("li").nth(1)).to_contain_text("throwing")  # Bob's turn now
    held[0].continue_()
    page.unroute("**/chicago/throws")
    expect(page.locator("#chicago-status")).to_contain_text(
        "Ann's throw 2 was not added: the turn moved on before it was checked."
    )
    expect(draft).not_to_contain_text("5 5 6")
    page.fill("#chicago-dice", "1 2 2")
    page.press("#chicago-dice", "Enter")
    expect(draft).to_contain_text("Bob: throw 1: 1 2 2")
    assert desk.errors == []


def test_a_chicago_round_throw_by_throw_and_a_yardkle_turn(desk: Watched) -> None:
    from playwright.sync_api import expect

    page = open_desk(desk)
    start_a_chicago_round(page)
    expect(page.locator("#chicago-draft ol")).to_contain_text("(call high) — high 9")
    page.get_by_role("button", name="End turn").click()
    draft = page.locator("#chicago-draft ol")
    page.fill("#chicago-dice", "1 2 2")
    page.press("#chicago-dice", "Enter")
    expect(draft).to_contain_text("Bob: throw 1: 1 2 2")
    page.fill("#chicago-dice", "1 2 3")  # a second throw: more than the starter's one
    page.press("#chicago-dice", "Enter")
    expect(draft).to_contain_text("throw 2: 1 2 3")
    page.get_by_role("button", name="End turn").click()
    desk.allow_status(422)  # the service refuses the round, and the page says why in words
    page.click("#chicago-rule")
    refusal = page.locator("#chicago-draft .problem")
    expect(refusal).to_contain_text("Breaks a rule of the game")
    assert "{" not in refusal.inner_text() and "errors" not in refusal.inner_text()
    page.get_by_role("button", name="Remove the last throw").click()
    expect(draft).not_to_contain_text("throw 2")
    page.get_by_role("button", name="End turn").click()
    page.click("#chicago-rule")
    expect(page.locator("#chicago-standings li")).to_have_text(["Bob: 4 lives", "Ann: 3 lives"])
    round_one = page.locator('[data-round="1"]')
    expect(round_one).to_contain_text("Ann loses a life")
    expect(round_one.locator(".ruling")).to_have_text("Next starter: Ann.")
    desk.screenshot("chicago-phone.png", PHONE, show='[data-round="1"]')
    desk.check_usable()
    page.set_viewport_size(LAPTOP)

    page.click('button.tab[data-tab="yardkle"]')
    add_players(page, "yardkle", ["Ann", "Bob"])
    page.fill("#yardkle-dice", "5 5 5 1 2 3")
    page.get_by_role("button", name="Coach: what to set aside?").click()
    advice = page.locator("#yardkle-advice tbody tr")
    expect(advice.first).to_have_class("best")
    expect(advice.first).to_contain_text("★ best")
    page.fill("#yardkle-set-aside", "1 5 5 5")
    page.press("#yardkle-set-aside", "Enter")
    expect(page.locator("#yardkle-bank")).to_have_text("Bank 600")
    desk.check_usable()
    page.click("#yardkle-bank")
    expect(page.locator("#yardkle-standings li").first).to_have_text("Ann: 600, 1 turn")
    expect(page.locator("#yardkle-draft h3")).to_have_text("Bob's turn")

    page.reload()  # both games survive a reload
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#yardkle-standings li").first).to_have_text("Ann: 600, 1 turn")
    page.click('button.tab[data-tab="chicago"]')
    expect(page.locator("#chicago-standings li")).to_have_text(["Bob: 4 lives", "Ann: 3 lives"])


def test_an_answer_arriving_while_a_name_is_typed_keeps_it_and_never_overtakes_a_later_one(
    desk: Watched,
) -> None:
    """The service's answers redraw the panel whenever they arrive, and on several connections
    an older one can arrive last: what is being typed must survive the redraw, and the
    standings must stay those of the event as it is.  The answer about Ann alone is held back
    until Bob is added and Cy is being typed, then let through."""
    from playwright.sync_api import expect

    page = open_desk(desk)
    page.click('button.tab[data-tab="yardkle"]')
    held: list[Any] = []

    def hold_ann_alone(route: Any) -> None:
        if route.request.post_data_json == {"players": ["Ann"], "turns": []}:
            held.append(route)
        else:
            route.continue_()

    page.route("**/yardkle/games", hold_ann_alone)
    add_players(page, "yardkle", ["Ann", "Bob"])
    standings = page.locator("#yardkle-standings li")
    expect(standings).to_have_text(
        ["Ann: 0 (not on the pad yet), 0 turns", "Bob: 0 (not on the pad yet), 0 turns"]
    )
    expect(page.locator("body")).to_have_attribute("data-waiting", "1")  # Ann's alone, held
    assert len(held) == 1
    page.fill("#yardkle-new-player", "Cy")  # typed, not yet added
    held[0].continue_()
    expect(page.locator("body")).to_have_attribute("data-waiting", "0")  # arrived and shown
    expect(standings).to_have_count(2)  # the older answer (Ann alone) did not replace it
    expect(page.locator("#yardkle-new-player")).to_have_value("Cy")
    page.press("#yardkle-new-player", "Enter")
    expect(page.locator("#yardkle p").first).to_have_text("Players: Ann, Bob, Cy")
    expect(standings).to_have_count(3)

    # The dice of a throw, typed while an answer redraws the turn, are kept as well.
    page.fill("#yardkle-dice", "5 5 5 1 2 3")
    page.fill("#yardkle-set-aside", "1 5 5 5")
    page.click('button.tab[data-tab="yardkle"]')  # a redraw once the game's answer is in
    expect(page.locator("body")).to_have_attribute("data-waiting", "0")
    expect(page.locator("#yardkle-dice")).to_have_value("5 5 5 1 2 3")
    page.press("#yardkle-set-aside", "Enter")
    expect(page.locator("#yardkle-bank")).to_have_text("Bank 600")
    expect(page.locator("#yardkle-dice")).to_have_value("")  # added: the fields start empty
    expect(page.locator("#yardkle-set-aside")).to_have_value("")


def test_the_coach_ranks_a_throw_then_a_played_game_gets_the_services_review(
    desk: Watched, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    page = open_desk(desk)
    page.click('button.tab[data-tab="coach"]')
    page.fill("#coach-dice", "2 3 4 6 6")
    page.select_option("#coach-throws-left", "2")
    page.get_by_role("button", name="Ask the coach").click()
    rows = page.locator("#coach-advice tbody tr")
    answer = server.client.post(
        "/holds", json={"game": "yahtzee", "dice": [2, 3, 4, 6, 6], "throws_left": 2}
    ).json()
    expect(rows).to_have_count(len(answer["options"]))
    best = answer["options"][0]
    expect(rows.first).to_contain_text(f"{best['expected_total']:.2f}")
    expect(rows.first).to_contain_text("★ best")
    second = answer["options"][1]
    if not second["best"]:
        expect(rows.nth(1)).to_contain_text(f"−{second['loss']:.2f}")
    desk.screenshot("coach-phone.png", PHONE, show="#coach-advice", at="start")
    desk.check_usable()
    page.set_viewport_size(LAPTOP)

    page.get_by_role("button", name="Start a game of Yahtzee (official rules)").click()
    page.click("#play-roll")
    # The first throw's last-ranked option, so that the review has a loss to show; from
    # then on always the coach's best choice.
    expect(page.locator("#play tbody tr.best").first).to_be_visible()
    first_dice = page.evaluate(f"() => {STORED_PLAY}.dice")
    first_options = server.client.post(
        "/holds", json={"game": "yahtzee", "dice": first_dice, "throws_left": 2}
    ).json()["options"]
    page.locator("#play tbody tr").last.get_by_role("button").click()
    turn = page.locator("#play > p").first
    follow_the_coach(page, lambda: "turn 2 of 13" in turn.inner_text())
    expect(turn).to_contain_text("turn 2 of 13")
    expect(page.locator("#play details summary")).not_to_have_text("Decisions recorded (0)")
    desk.check_usable()
    page.reload()  # the turns recorded so far are kept with the event
    page.wait_for_selector("body[data-ready=true]")

    follow_the_coach(page, lambda: page.locator("#play-final").count() > 0)
    final = page.locator("#play-final")
    expect(final).to_contain_text("Game over:")
    expect(final).to_contain_text("upper bonus")

    # The turns the page recorded, in POST /reviews' shape, and the service's review of them.
    play = page.evaluate(f"() => {STORED_PLAY}")
    turns = play["turns"]
    boxes = [b["id"] for b in server.client.get("/games/yahtzee").json()["boxes"]]
    assert sorted(t["box"] for t in turns) == sorted(boxes)
    assert turns[0]["throws"][0] == first_dice
    for t in turns:
        assert set(t) == {"throws", "keeps", "box"}
        assert 1 <= len(t["throws"]) <= 3 and len(t["keeps"]) == len(t["throws"]) - 1
    answer = server.client.post("/reviews", json={"game": "yahtzee", "turns": turns})
    assert answer.status_code == 200, answer.text
    review = answer.json()
    assert review["complete"] and review["decision_count"] == len(play["decisions"])
    worst = first_options[-1]
    assert worst["loss"] > 0
    assert review["turns"][0]["decisions"][0]["loss"] == pytest.approx(worst["loss"], abs=1e-9)
    assert review["expected_loss"] == pytest.approx(worst["loss"], abs=1e-9)  # the only loss

    shown = page.locator("#review")
    item = lambda key: shown.locator(f'[data-review="{key}"]')  # noqa: E731
    expect(item("final_total")).to_contain_text(
        f"Final total {review['final_total']}, against {num(review['optimal_expected_score'])}"
    )
    expect(item("expected_loss")).to_contain_text(
        f"Expected loss: {num(review['expected_loss'])} points over"
        f" {review['decision_count']} decisions"
    )
    expect(item("mean_loss")).to_contain_text(f"{review['mean_loss']:.3f}")
    luck = review["luck"]
    expect(item("luck")).to_contain_text(f"Luck: {'−' if luck < 0 else '+'}{num(abs(luck))}")
    costliest = shown.locator("#review-costliest li")
    expect(costliest).to_have_count(len(review["costliest"]))
    assert 1 <= len(review["costliest"]) <= 3
    for row, d in zip(costliest.all(), review["costliest"], strict=True):
        expect(row).to_contain_text(f"Turn {d['turn_index'] + 1}, throw {d['throw']}")
        expect(row).to_contain_text(f"chose {option_text(d['chosen'])}")
        expect(row).to_contain_text(f"best {option_text(d['best_options'][0])}")
        expect(row).to_contain_text(f"cost {num(d['loss'])}.")
    desk.check_usable()
    desk.screenshot("review-laptop.png", LAPTOP, show="#review-costliest")

    # The service's problem in words, and the review asked for again once it answers.
    desk.allow_status(503)
    problem = {"type": "about:blank", "title": "Table loading", "status": 503, "retry_after": 7}
    sent: list[Any] = []

    def refuse(route: Any) -> None:
        sent.append(route.request.post_data_json)
        route.fulfill(status=503, content_type="application/problem+json", body=json.dumps(problem))

    page.route("**/reviews", refuse)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(shown.locator(".problem")).to_contain_text(
        "The review failed: The coach's solved table is still loading on the service:"
        " try again in 7 s."
    )
    assert sent == [{"game": "yahtzee", "turns": turns}]  # exactly the recorded game, no rules set
    page.unroute("**/reviews")
    page.get_by_role("button", name="Ask for the review again").click()
    expect(item("expected_loss")).to_contain_text(f"Expected loss: {num(review['expected_loss'])}")


def test_the_coach_plays_to_reach_a_target_with_the_cards_chance_and_final_totals(
    desk: Watched, server: LiveServer
) -> None:
    """With a total to reach, the coach's options show the chance to reach it, in the
    service's order, and the card's chance and the chart of its final total come from
    `POST /distributions`: one bar per total the service gives a chance, the target marked,
    the summary in words.  The forecast's table first answers 503 (being solved): the page
    says so calmly and asks again by itself.  All of it under the page's policy."""
    from playwright.sync_api import expect

    page = desk.page
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(desk.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#sheet-game", TARGET_GAME)  # the coach plays the sheets' house rules
    page.get_by_text("House rules (0 changed)").click()
    page.select_option("#rule-order", TARGET_RULES["order"])
    stored_rules = "() => JSON.parse(localStorage.getItem('diceref-desk/event')).sheets.rules"
    page.wait_for_function(f"() => ({stored_rules})().order === 'forced'")

    desk.allow_status(503)
    desk.allow_status(422)  # target play refused for a card this early: asked again so
    solving = {
        "type": "about:blank", "title": "Table being solved", "status": 503,
        "retry_after": 1, "progress": 0.42,
    }  # fmt: skip
    loading = {"type": "about:blank", "title": "Table not loaded yet", "status": 503}
    refused: dict[str, Any] = {}

    def solve_first(route: Any) -> None:
        """Each operation's first request is refused (its table being solved, or loading)."""
        path = route.request.url.rsplit("/", 1)[1]
        if path in refused:
            route.continue_()
            return
        refused[path] = route.request.post_data_json
        route.fulfill(
            status=503,
            headers={"Retry-After": "1"},
            content_type="application/problem+json",
            body=json.dumps(solving if path == "distributions" else loading),
        )

    page.route("**/distributions", solve_first)
    page.route("**/holds", solve_first)
    page.click('button.tab[data-tab="coach"]')
    page.select_option("#coach-game", TARGET_GAME)
    page.fill("#coach-dice", "6 6 6 2 3")
    page.select_option("#coach-throws-left", "2")
    target = 140
    page.fill("#coach-target", str(target))
    page.evaluate(RECORD_SOLVING_NOTES)
    page.get_by_role("button", name="Ask the coach").click()
    note = page.locator("#coach-solving")
    expect(note).to_contain_text("asks again in 1 s")
    expect(note).to_have_count(0)  # asked again by itself, and answered
    expect(page.locator("body")).to_have_attribute("data-waiting", "0")
    notes = page.evaluate("window.solvingNotes")
    assert any("the options (loading)" in n for n in notes), notes
    assert any("the final-total forecast (42% solved)" in n for n in notes), notes

    card = {"filled": {}, "extra_bonus": 0}
    rules = {"game": TARGET_GAME, "rules": TARGET_RULES, "scorecard": card}
    holds = {**rules, "dice": [6, 6, 6, 2, 3], "throws_left": 2, "target": target}
    # the throw for the options; the card alone, from its next turn, for the forecast
    assert refused == {"holds": holds, "distributions": {**rules, "target": target}}
    answer = server.client.post("/holds", json=holds)
    assert answer.status_code == 200, answer.text
    options = answer.json()["options"]
    chances = [o["win_probability"] for o in options]
    assert chances == sorted(chances, reverse=True) and 0 < chances[0] < 1
    rows = page.locator("#coach-advice tbody tr")
    expect(rows).to_have_count(len(options))
    expect(rows.locator("td[data-chance]")).to_have_text([percent(p) for p in chances])
    expect(rows.first).to_contain_text("★ best")
    expect(rows.first).to_contain_text(f"{options[0]['expected_total']:.2f}")
    worst = options[-1]
    if not worst["best"]:
        expect(rows.last).to_contain_text(f"−{percent(worst['loss'])}")
    expect(page.locator("#coach-advice thead")).to_contain_text(f"Chance to reach {target}")

    forecast = server.client.post("/distributions", json={**rules, "target": target})
    if forecast.status_code == 422:  # too early a card for target play: the page asks so
        assert forecast.json()["errors"][0]["code"] == "target_too_early", forecast.text
        forecast = server.client.post(
            "/distributions", json={**rules, "target": target, "play": "expected_points"}
        )
    assert forecast.status_code == 200, forecast.text
    f = forecast.json()
    followed = (
        "the greatest expected total"
        if f["play"] == "expected_points"
        else f"the greatest chance to reach {target}"
    )
    expect(page.locator("#coach-chance")).to_have_text(
        f"Chance to reach {target} from the start of this card's next turn, playing for it:"
        f" {percent(f['win_probability'])}."
    )
    chart = page.locator("#coach-forecast svg.chart")
    bars = chart.locator("rect.bar")
    expect(bars).to_have_count(len(f["distribution"]))
    drawn = bars.evaluate_all(
        "(bars) => bars.map((b) => [Number(b.dataset.total), Number(b.dataset.probability),"
        " b.classList.contains('reach'), Number(b.getAttribute('height'))])"
    )
    assert [d[0] for d in drawn] == [d["total"] for d in f["distribution"]]
    assert [d[1] for d in drawn] == [d["probability"] for d in f["distribution"]]
    assert all(p > 0 for _, p, _, _ in drawn)
    assert [reach for total, _, reach, _ in drawn] == [total >= target for total, *_ in drawn]
    peak = max(p for _, p, _, _ in drawn)  # the heights in proportion to the chances
    tallest = max(height for *_, height in drawn)
    for _, p, _, height in drawn:
        assert height == pytest.approx(p / peak * tallest, abs=0.01)
    expect(chart.locator(".target-mark")).to_have_attribute("data-target", str(target))
    expect(chart.locator(".target-mark text")).to_have_text(f"target {target}")
    summary = page.locator("#coach-forecast figcaption")
    expect(summary).to_have_text(
        f"Final total, playing every decision for {followed}:"
        f" mean {num(f['mean'])} (standard deviation {num(f['sd'])}), median {f['p50']};"
        f" 9 games in 10 end between {f['p5']} and {f['p95']} (p5–p95);"
        f" from {f['min']} to {f['max']}."
    )
    summary_id = summary.get_attribute("id")
    expect(chart).to_have_attribute("aria-labelledby", summary_id or "")
    expect(chart).to_have_attribute("role", "img")
    desk.check_usable()
    desk.screenshot("coach-target-laptop.png", LAPTOP, show="#coach-forecast")
    page.set_viewport_size(PHONE)
    desk.check_usable()
    page.set_viewport_size(LAPTOP)
    assert page.evaluate("window.violations") == []

    page.unroute("**/holds")
    page.unroute("**/distributions")
    beyond = 2000  # above the game's maximum: no chance, the mark drawn past the bars
    page.fill("#coach-target", str(beyond))
    page.get_by_role("button", name="Ask the coach").click()
    expect(page.locator("#coach-chance")).to_contain_text(f"Chance to reach {beyond} ")
    expect(page.locator("#coach-chance strong")).to_have_text("0%")
    expect(rows.locator("td[data-chance]").first).to_have_text("0%")
    expect(chart.locator(".target-mark text")).to_have_text(f"target {beyond} (beyond)")
    expect(bars).to_have_count(len(f["distribution"]))  # the same card, the same totals
    expect(chart.locator("rect.reach")).to_have_count(0)

    page.fill("#coach-target", "")  # no target: the expected totals alone, no forecast
    page.get_by_role("button", name="Ask the coach").click()
    expect(page.locator("#coach-advice thead")).not_to_contain_text("Chance to reach")
    expect(page.locator("#coach-forecast")).to_have_count(0)
    expect(rows.first).to_contain_text("★ best")


# Every text the coach's note on a table being solved shows (its answers come apart).
RECORD_SOLVING_NOTES = """() => { window.solvingNotes = [];
  new MutationObserver(() => { const note = document.getElementById("coach-solving");
    if (note) window.solvingNotes.push(note.textContent); })
    .observe(document.body, { childList: true, subtree: true, characterData: true }); }"""


def percent(p: float) -> str:
    """A probability as the desk writes it (pure.js `percent`)."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < 0.0005:
        return "< 0.1%"
    if p > 0.9995:
        return "> 99.9%"
    return f"{p * 100:.1f}%"


STORED_PLAY = "JSON.parse(localStorage.getItem('diceref-desk/event')).coach.play"

# The desk is settled when the coach's options are shown, the game is over, or it may roll.
SETTLED = """() => document.querySelector("#play tbody tr.best")
    || document.querySelector("#play-final")
    || document.querySelector("#play-roll:not(:disabled)")"""


def test_keeping_every_die_on_the_coachs_advice_is_standing_not_a_throw(
    desk: Watched, server: LiveServer
) -> None:
    """/holds lists keeping all five dice (throwing none) beside the boxes; chosen in a
    played game it stands on the dice, so the turn goes to a box and its record is one a
    review takes (a review refuses a keep of all five)."""
    from playwright.sync_api import expect

    page = desk.page
    # Every die the page rolls is a 6: crypto.getRandomValues fills 5 (5 % 6 + 1 = 6).
    page.add_init_script("crypto.getRandomValues = (a) => a.fill(5);")
    page = open_desk(desk)
    page.click('button.tab[data-tab="coach"]')
    page.get_by_role("button", name="Start a game of Yahtzee (official rules)").click()
    page.click("#play-roll")
    rows = page.locator("#play tbody tr")
    keep_all = rows.filter(has_text="keep 6 6 6 6 6")
    expect(keep_all).to_have_count(1)
    keep_all.get_by_role("button").click()
    expect(page.locator("#play")).to_contain_text("Throws left: 0")
    expect(rows.filter(has_text="keep")).to_have_count(0)  # boxes only: the turn stood
    page.wait_for_function(SETTLED)
    assert page.evaluate(f"() => {STORED_PLAY}.dice") == [6] * 5
    rows.filter(has_text="score Yahtzee").get_by_role("button").click()
    expect(page.locator("#play > p").first).to_contain_text("turn 2 of 13")
    turns = page.evaluate(f"() => {STORED_PLAY}.turns")
    assert turns == [{"throws": [[6] * 5], "keeps": [], "box": "yahtzee"}]
    answer = server.client.post("/reviews", json={"game": "yahtzee", "turns": turns})
    assert answer.status_code == 200, answer.text
    assert answer.json()["decision_count"] == 1


def follow_the_coach(page: Any, done: Callable[[], bool]) -> None:
    """Take the coach's best option (or roll) until `done`."""
    for _ in range(13 * 4):
        page.wait_for_function(SETTLED)
        if done():
            return
        best = page.locator("#play tbody tr.best")
        if best.count():
            best.first.get_by_role("button").click()
        else:
            page.click("#play-roll")
    raise AssertionError("the game did not get there")


def num(value: float) -> str:
    """A number as the desk writes it (pure.js `num`)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def option_text(option: dict[str, Any]) -> str:
    """An option of the service's answer as the desk names it."""
    if option["kind"] == "keep":
        return "keep " + (" ".join(map(str, option["keep"])) or "none")
    return f"score {option['name']} ({option['points']}"


# Every Content-Security-Policy violation the page reports, kept from before its first script.
RECORD_VIOLATIONS = """window.violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));"""
HOSTILE_NAME = '<img src=x onerror="window.ran = 1">'


def test_the_page_runs_under_its_policy_and_names_stay_text(desk: Watched) -> None:
    """The desk under its strict Content-Security-Policy: it loads, every section draws,
    a sheet scores, and the browser reports no violation; a player named with markup is
    shown as that text and nothing in it runs."""
    from playwright.sync_api import expect

    page = desk.page
    page.add_init_script(RECORD_VIOLATIONS)
    answer = page.goto(desk.base + "/")
    assert answer is not None
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"
    page.wait_for_selector("body[data-ready=true]")
    add_players(page, "sheet", [HOSTILE_NAME])
    page.fill("#points-0-ones", "3")
    page.press("#points-0-ones", "Enter")
    expect(total_of(page, 0)).to_have_text("3")
    expect(page.locator("#sheets")).to_contain_text(HOSTILE_NAME)
    for tab in ("coach", "chicago", "yardkle", "event", "sheets"):
        page.click(f'button.tab[data-tab="{tab}"]')
        expect(page.locator(f"#{tab}")).to_be_visible()
    assert page.evaluate("window.ran") is None
    assert page.evaluate("window.violations") == []


def test_the_api_docs_load_their_assets_from_the_service(desk: Watched) -> None:
    from playwright.sync_api import expect

    page = desk.page
    page.goto(desk.base + "/schema")
    expect(page.get_by_role("heading", name="diceref (0.1.0)")).to_be_visible()
    logo = page.get_by_role("img", name="redocly logo")  # Redoc's own, served from here
    expect(logo).to_have_attribute("src", "/docs-assets/redoc/logo-mini.svg")
    assert logo.evaluate("img => img.complete && img.naturalWidth > 0")
    page.goto(desk.base + "/schema/swagger")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()


# The service worker (docs/desk.md, "Installing and offline").
WORKER_READY = """(timeout) => Promise.race([
  new Promise((_, fail) => setTimeout(() => fail(new Error("no worker controls it")), timeout)),
  (async () => {
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      const change = (done) => navigator.serviceWorker.addEventListener("controllerchange", done);
      await new Promise(change);
    }
    return registration.scope;
  })(),
])"""
CACHES = "async () => (await caches.keys()).filter((name) => name.startsWith('diceref-desk-'))"
CONTROLLER_VERSION = """() => new Promise((done) => {
  navigator.serviceWorker.addEventListener("message", (e) => done(e.data.version), { once: true });
  navigator.serviceWorker.controller.postMessage("version");
})"""


def worker_version(page: Any) -> str:
    script = page.request.get(page.url.rstrip("/") + "/desk-sw.js").text()
    match = re.search(r'const VERSION = "([0-9a-f]+)";', script)
    assert match, script[:200]
    return match[1]


def test_once_opened_the_page_opens_again_without_the_service(desk: Watched) -> None:
    from playwright.sync_api import expect

    page = open_desk(desk)
    assert page.evaluate(WORKER_READY, TIMEOUT_MS) == desk.base + "/"
    assert page.evaluate(CACHES) == [f"diceref-desk-{worker_version(page)}"]
    add_players(page, "sheet", ["Ann"])
    page.fill("#points-0-sixes", "18")
    page.press("#points-0-sixes", "Enter")
    expect(total_of(page, 0)).to_have_text("18")

    desk.allow_offline()
    page.context.set_offline(True)
    answer = page.reload()
    assert answer is not None and answer.from_service_worker
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator('button.tab[data-tab="sheets"]')).to_be_visible()
    expect(page.locator("#points-0-sixes")).to_have_value("18")
    expect(page.locator("#sheets-status")).to_have_text("Offline: entries kept, not checked")
    # the service's operations are never answered from the cache: they fail offline
    failed = page.evaluate("() => fetch('/healthz').then(() => 'answered', () => 'failed')")
    assert failed == "failed"
    page.context.set_offline(False)
    expect(total_of(page, 0)).to_have_text("18", timeout=15_000)


class RewritingProxy:
    """The service behind a small HTTP proxy (in a thread of the test) that, once `version`
    is set, sends the worker with that version in place of the service's: what a browser
    sees when the desk's files change between two of its visits."""

    def __init__(self, target: str) -> None:
        import http.server
        import threading

        import httpx

        self.version: tuple[str, str] | None = None
        proxy = self
        upstream = httpx.Client(base_url=target, timeout=60)

        class Handler(http.server.BaseHTTPRequestHandler):
            def relay(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                answer = upstream.request(
                    self.command,
                    self.path,
                    content=self.rfile.read(length) if length else None,
                    headers={k: v for k, v in self.headers.items() if k.lower() != "host"},
                )
                body = answer.content
                if self.path == "/desk-sw.js" and proxy.version:
                    body = body.replace(*(v.encode() for v in proxy.version))
                self.send_response(answer.status_code)
                for name, value in answer.headers.items():
                    if name.lower() not in {
                        "content-length",
                        "content-encoding",
                        "transfer-encoding",
                        "connection",
                    }:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = relay

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.upstream = upstream

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.upstream.close()


def test_the_page_opens_again_once_the_service_is_gone(desk: Watched) -> None:
    """As above, but the service's address refuses connections (its proxy is closed)."""
    from playwright.sync_api import expect

    proxy = RewritingProxy(desk.base)
    desk.base = proxy.base
    try:
        page = open_desk(desk)
        page.evaluate(WORKER_READY, TIMEOUT_MS)
        add_players(page, "sheet", ["Ann", "Bob"])
        page.fill("#points-1-fives", "15")
        page.press("#points-1-fives", "Enter")
        expect(total_of(page, 1)).to_have_text("15")
    finally:
        proxy.close()
    desk.expected_texts.add("net::ERR_CONNECTION_REFUSED")
    answer = page.reload()
    assert answer is not None and answer.from_service_worker
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#points-1-fives")).to_have_value("15")
    expect(page.locator("#sheets-status")).to_have_text("Offline: entries kept, not checked")


def test_a_new_version_of_the_desk_replaces_the_old_cache(desk: Watched) -> None:
    """The worker as a new version of the desk would send it (another version in the same
    script): the browser installs it, it fetches the files into its own cache, deletes the
    old one, takes over the open page, and the page offers to reload."""
    proxy = RewritingProxy(desk.base)
    desk.base = proxy.base  # the page's own origin is the proxy's
    try:
        new_version_replaces_old(desk, proxy)
    finally:
        proxy.close()


def new_version_replaces_old(desk: Watched, proxy: RewritingProxy) -> None:
    from playwright.sync_api import expect

    page = open_desk(desk)
    page.evaluate(WORKER_READY, TIMEOUT_MS)
    old = worker_version(page)
    assert page.evaluate(CONTROLLER_VERSION) == old
    new = "0123456789abcdef"
    assert new != old

    proxy.version = (old, new)
    page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
    expect(page.locator("#new-version")).to_contain_text("A new version of the desk is ready")
    assert page.evaluate(CONTROLLER_VERSION) == new
    # the page changes hands as the new worker activates; it then deletes the old cache
    for _ in range(100):
        if page.evaluate(CACHES) == [f"diceref-desk-{new}"]:
            break
        page.wait_for_timeout(TIMEOUT_MS / 100)
    assert page.evaluate(CACHES) == [f"diceref-desk-{new}"]
    desk.check_usable()
    page.get_by_role("button", name="Reload").click()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#new-version")).to_have_count(0)
    assert page.evaluate(CONTROLLER_VERSION) == new


# --- the desk at the table ---------------------------------------------------------------


def test_each_tab_says_its_own_status(desk: Watched) -> None:
    """The sheets' "Sheets checked" is said on the sheets' status only: on the Chicago tab
    no visible status says it, and every tab's status is a polite live region."""
    from playwright.sync_api import expect

    page = open_desk(desk)
    add_players(page, "sheet", ["Ann"])
    expect(page.locator("#sheets-status")).to_have_text("Sheets checked")
    page.click('button.tab[data-tab="chicago"]')
    expect(page.locator("#chicago")).to_be_visible()
    chicago = page.locator("#chicago-status")
    assert chicago.evaluate("e => !e.hidden")  # shown (if empty) on its tab
    expect(chicago).to_have_attribute("aria-live", "polite")
    expect(chicago).not_to_contain_text("Sheets checked")
    assert page.locator("#sheets-status").evaluate("e => e.hidden")
    shown = page.locator('[role="status"]:visible')
    assert "Sheets checked" not in " ".join(shown.all_inner_texts())


def checked_with(rules: dict[str, Any]) -> Callable[[Any], bool]:
    """A request predicate: the sheets' check sent with exactly these house rules."""

    def matches(request: Any) -> bool:
        if not request.url.endswith("/scorecards/check"):
            return False
        return bool(request.post_data_json.get("rules", {}) == rules)

    return matches


def test_the_house_rules_panel_follows_the_rules_sent(desk: Watched) -> None:
    """The summary counts the changed rules at once; a rule's hint never describes a value
    other than the chosen one; a cleared number is the game's default, not 0."""
    from playwright.sync_api import expect

    page = open_desk(desk)
    page.select_option("#sheet-game", "yatzy")
    add_players(page, "sheet", ["Ann"])
    summary = page.locator("#rules-summary")
    summary.click()
    expect(summary).to_have_text("House rules (0 changed)")
    # each rule by the service's human label, its id beside it
    expect(page.locator('label[for="rule-order"]')).to_have_text("Box order order")
    expect(page.locator('label[for="rule-order"] .rule-id')).to_have_text("order")
    expect(page.get_by_label("Upper bonus threshold")).to_have_value("63")
    hint = page.locator("#rule-hint-order")
    expect(hint).to_contain_text("Any open box may be filled on any turn.")
    page.select_option("#rule-order", "forced")
    expect(summary).to_have_text("House rules (1 changed)")
    expect(hint).not_to_contain_text("Any open box")
    # what the chosen value plays, in the service's words for that choice
    expect(hint).to_contain_text('Set here to "forced"')
    expect(hint).to_contain_text("Every box in scorecard order: the only legal box is the first")
    page.fill("#rule-throws_per_turn", "2")
    with page.expect_request(checked_with({"order": "forced", "throws_per_turn": 2})):
        page.press("#rule-throws_per_turn", "Tab")
    expect(summary).to_have_text("House rules (2 changed)")
    page.fill("#rule-throws_per_turn", "")  # cleared: the game's default, the override dropped
    with page.expect_request(checked_with({"order": "forced"})):
        page.press("#rule-throws_per_turn", "Tab")
    expect(summary).to_have_text("House rules (1 changed)")
    expect(page.locator("#rule-hint-throws_per_turn")).to_contain_text("the game's default, 3")
    page.select_option("#rule-order", "free")
    expect(summary).to_have_text("House rules (0 changed)")
    expect(hint).to_contain_text("Any open box may be filled on any turn.")


def test_the_page_never_fetches_the_openapi_document(desk: Watched) -> None:
    """The page is served by the service it calls: it knows that service takes house rules
    and a target without reading the 300 KB OpenAPI document."""
    from playwright.sync_api import expect

    paths: list[str] = []
    desk.page.on("request", lambda r: paths.append(r.url.removeprefix(desk.base)))
    page = open_desk(desk)
    for tab in ("coach", "chicago", "yardkle", "event", "sheets"):
        page.click(f'button.tab[data-tab="{tab}"]')
        expect(page.locator(f"#{tab}")).to_be_visible()
    page.click('button.tab[data-tab="coach"]')
    expect(page.locator("#coach-target")).to_be_visible()  # play to reach: always offered
    page.click('button.tab[data-tab="sheets"]')
    page.locator("#rules-summary").click()
    expect(page.locator("#rule-upper_bonus_points")).to_be_enabled()  # house rules: taken
    assert not [p for p in paths if p.startswith("/schema")], paths


def test_dice_are_drawn_as_dice_and_read_as_numbers(desk: Watched) -> None:
    """A Chicago throw and the Yardkle coach's set-asides show dice faces (⚁ ⚂ ⚃), with the
    numbers ("2 3 4") as the text a screen reader reads."""
    from playwright.sync_api import expect

    page = open_desk(desk)
    start_a_chicago_round(page)
    faces = page.locator("#chicago-draft ol .dice-faces").first
    expect(faces.locator('[aria-hidden="true"]')).to_have_text("⚁⚂⚃")
    expect(faces.locator(".visually-hidden")).to_have_text("2 3 4")
    assert "2 3 4" in page.locator("#chicago-draft ol").evaluate("e => e.textContent")
    # drawn, not written: the digits take no room on the screen
    digits = faces.locator(".visually-hidden").bounding_box()
    assert digits is not None and digits["width"] <= 1 and digits["height"] <= 1

    page.click('button.tab[data-tab="yardkle"]')
    add_players(page, "yardkle", ["Ann", "Bob"])
    page.fill("#yardkle-dice", "5 5 5 1 2 3")
    page.get_by_role("button", name="Coach: what to set aside?").click()
    expect(page.locator("#yardkle-advice h3 [aria-hidden='true']")).to_have_text(
        "⚀⚁⚂⚄⚄⚄"
    )  # the service's order
    best = page.locator("#yardkle-advice tbody tr").first.locator(".dice-faces")
    expect(best.locator('[aria-hidden="true"]')).to_contain_text("⚄")
    desk.check_usable()


PHONE_375 = {"width": 375, "height": 800}
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


def test_on_a_phone_no_tab_scrolls_sideways(desk: Watched) -> None:
    """At 375×800 no tab is wider than the screen, and the Yardkle coach's "Use" buttons
    are inside their card."""
    from playwright.sync_api import expect

    page = desk.page
    page.set_viewport_size(PHONE_375)
    open_desk(desk)
    add_players(page, "sheet", ["Ann", "Bob"])
    page.click('button.tab[data-tab="yardkle"]')
    add_players(page, "yardkle", ["Ann", "Bob"])
    page.fill("#yardkle-dice", "5 5 5 1 2 3")
    page.get_by_role("button", name="Coach: what to set aside?").click()
    uses = page.locator("#yardkle-advice tbody button")
    expect(uses.first).to_be_visible()
    card = page.locator("#yardkle-advice").bounding_box()
    assert card is not None
    for index in range(uses.count()):
        box = uses.nth(index).bounding_box()
        assert box is not None
        assert card["x"] <= box["x"] and box["x"] + box["width"] <= card["x"] + card["width"], (
            index,
            box,
            card,
        )
    for tab in ("sheets", "coach", "chicago", "yardkle", "event"):
        page.click(f'button.tab[data-tab="{tab}"]')
        expect(page.locator(f"#{tab}")).to_be_visible()
        assert page.evaluate(OVERFLOW) <= 0, tab


def test_the_sticky_header_never_covers_the_focused_control(desk: Watched) -> None:
    """A box scrolled under the sticky header, then focused, comes out below the header."""
    from playwright.sync_api import expect

    page = open_desk(desk)
    add_players(page, "sheet", ["Ann", "Bob"])
    field = page.locator("#points-1-twos")
    expect(field).to_be_visible()
    header = page.locator("header.bar").bounding_box()
    assert header is not None
    page.locator("body").click(position={"x": 5, "y": 300})  # nothing in focus
    box = field.bounding_box()
    assert box is not None
    # the field's top half under the header, then focused (as Tab or a click on it would)
    page.evaluate(f"window.scrollBy(0, {box['y'] - header['height'] + box['height'] / 2})")
    covered = field.bounding_box()
    assert covered is not None and covered["y"] < header["height"]
    field.focus()
    shown = field.bounding_box()
    assert shown is not None
    assert shown["y"] >= page.locator("header.bar").bounding_box()["height"], (shown, header)


PWNED_NAME = "<img src=x onerror=window.__pwned=1>"


def test_an_imported_event_with_markup_in_its_names_runs_nothing(
    desk: Watched, tmp_path: Path
) -> None:
    """An event file whose player names carry markup: every tab shows the names as text,
    and nothing in them runs."""
    from playwright.sync_api import expect

    page = desk.page
    page.add_init_script(RECORD_VIOLATIONS)
    open_desk(desk)
    players = [PWNED_NAME, "Bob"]
    event = {
        "version": 1,
        "created": "2026-12-01T18:00:00.000Z",
        "tab": "event",
        "sheets": {
            "game": "yahtzee",
            "rules": {},
            "players": [{"name": name, "entries": {}, "extra_bonus": ""} for name in players],
        },
        "coach": {},
        "chicago": {"players": players, "rounds": [], "draft": None},
        "yardkle": {"players": players, "turns": [], "draft": None},
    }
    saved = tmp_path / "hostile-event.json"
    saved.write_text(json.dumps(event))
    page.click('button.tab[data-tab="event"]')
    page.set_input_files("#event-import", str(saved))
    expect(page.locator("#event-message .ok")).to_contain_text("Imported")
    for tab in ("sheets", "chicago", "yardkle", "coach", "event"):
        page.click(f'button.tab[data-tab="{tab}"]')
        if tab in ("sheets", "chicago", "yardkle"):
            expect(page.locator(f"#{tab}")).to_contain_text(PWNED_NAME)
    assert page.locator("main img").count() == 0  # the name is text, not an element
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.evaluate("window.violations") == []
