"""The desk under axe-core (the npm package, tests/desk/axe): no serious or critical
violation of WCAG 2 A/AA, colour contrast (4.5:1) included, on every tab, at a laptop's
and a phone's width, with the house-rules panel open, a sheet showing a problem and the
coach showing an answer.

axe-core is installed by `npm ci` in tests/desk/axe once per session (its committed
package-lock.json).  The page's Content-Security-Policy forbids inline script, so the
test's browser context bypasses it only to inject axe.min.js; the desk's own tests
(test_desk.py) check the page under its policy.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_desk import (  # noqa: F401  (the fixtures, shared with the desk's tests)
    BOB,
    LAPTOP,
    Watched,
    add_players,
    browser,
    server,
    watched_page,
)

from helpers import require_tools
from live_server import LiveServer

AXE = Path(__file__).resolve().parent / "axe"
PHONE = {"width": 375, "height": 800}
LAPTOP_900 = {"width": LAPTOP["width"], "height": 900}
BLOCKING = ("serious", "critical")


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """`npm ci` in tests/desk/axe once per session; the path of axe.min.js."""
    require_tools(("node", "npm"), "axe-core is installed with npm")
    command = ["npm", "ci", "--no-audit", "--no-fund"]
    try:
        done = subprocess.run(command, cwd=AXE, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"npm ci: no end in 300 s\n{exc.stdout!s}\n{exc.stderr!s}")
    if done.returncode != 0:
        pytest.fail(f"npm ci failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    script = AXE / "node_modules" / "axe-core" / "axe.min.js"
    assert script.is_file(), f"npm ci did not install {script}"
    return script


@pytest.fixture
def audited(server: LiveServer, browser: Any) -> Iterator[Watched]:  # noqa: F811
    # bypass_csp only so that axe.min.js can be injected; no other request is let through
    with watched_page(browser, server.base, viewport=LAPTOP_900, bypass_csp=True) as watched:
        yield watched


def violations(page: Any, script: Path, where: str) -> list[str]:
    """axe-core's serious and critical WCAG 2 A/AA violations on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(script))
    page.wait_for_timeout(100)  # transitions settle before colours are measured
    results = page.evaluate(
        """async () => {
          const r = await axe.run(document, {
            runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
            resultTypes: ["violations", "incomplete"],
          });
          // Contrast axe could not decide (a background it cannot see through, text
          // overlapped) counts as failed, but for symbol-only text ("nonBmp": a glyph such
          // as the decorative die or a ✕), whose contrast it does not measure.
          const undecided = r.incomplete.filter((rule) => rule.id === "color-contrast")
            .map((rule) => ({ ...rule, id: "color-contrast (undecided)", nodes: rule.nodes
              .filter((n) => !n.any.some((c) => c.data && c.data.messageKey === "nonBmp")) }))
            .filter((rule) => rule.nodes.length);
          return [...r.violations, ...undecided];
        }"""
    )
    found = []
    for rule in results:
        if rule["impact"] not in BLOCKING:
            continue
        for node in rule["nodes"]:
            if node["impact"] not in BLOCKING:
                continue
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            found.append(
                f"{where}: {rule['id']} ({node['impact']}) at {json.dumps(node['target'])}:"
                f" {summary[:240]}"
            )
    return found


def show_tab(page: Any, tab: str) -> None:
    page.click(f'button.tab[data-tab="{tab}"]')
    page.wait_for_selector(f"#{tab}:not([hidden])")


@pytest.mark.parametrize("viewport", [LAPTOP_900, PHONE], ids=["laptop", "phone"])
def test_no_serious_or_critical_axe_violation_on_any_tab(
    audited: Watched, axe_script: Path, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    page = audited.page
    page.set_viewport_size(viewport)
    page.goto(audited.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    found: list[str] = []

    # Score sheets: two players, an impossible value (its reason shown), house rules open.
    show_tab(page, "sheets")
    add_players(page, "sheet", ["Ann", "Bob"])
    page.fill("#points-1-fours", BOB["fours"])  # 9 fours: impossible
    page.press("#points-1-fours", "Enter")
    expect(page.locator('[data-cell="1/fours"] .reason')).to_contain_text("no throw can score 9")
    page.get_by_text("House rules (0 changed)").click()
    expect(page.locator("#rule-upper_bonus_points")).to_be_visible()
    found += violations(page, axe_script, "sheets")

    # The coach with an answer shown, then a game of its own in play.
    show_tab(page, "coach")
    page.fill("#coach-dice", "2 3 4 6 6")
    page.select_option("#coach-throws-left", "2")
    page.get_by_role("button", name="Ask the coach").click()
    expect(page.locator("#coach-advice tbody tr").first).to_contain_text("★ best")
    found += violations(page, axe_script, "coach, an answer")
    page.get_by_role("button", name="Start a game of Yahtzee (official rules)").click()
    page.click("#play-roll")
    expect(page.locator("#play tbody tr.best").first).to_be_visible()
    found += violations(page, axe_script, "coach, a game in play")

    # Chicago: a throw in the draft, then the service's refusal in words.
    show_tab(page, "chicago")
    found += violations(page, axe_script, "chicago, empty")
    add_players(page, "chicago", ["Ann", "Bob"])
    page.get_by_role("button", name="Start the round").click()
    page.fill("#chicago-dice", "2 3 4")
    page.press("#chicago-dice", "Enter")
    expect(page.locator("#chicago-draft ol")).to_contain_text("throw 1: 2 3 4")
    page.get_by_role("button", name="End turn").click()
    for throw, dice in enumerate(["1 2 2", "1 2 3"], start=1):  # more throws than the starter's
        page.fill("#chicago-dice", dice)
        page.press("#chicago-dice", "Enter")
        # each throw recorded before the turn ends (the page answers one throw at a time)
        expect(page.locator("#chicago-draft ol")).to_contain_text(f"throw {throw}: {dice}")
    page.get_by_role("button", name="End turn").click()
    audited.allow_status(422)
    page.click("#chicago-rule")
    expect(page.locator("#chicago-draft .problem")).to_contain_text("Breaks a rule")
    found += violations(page, axe_script, "chicago, a refused round")

    # Yardkle: the coach's advice on a throw.
    show_tab(page, "yardkle")
    add_players(page, "yardkle", ["Ann", "Bob"])
    page.fill("#yardkle-dice", "5 5 5 1 2 3")
    page.get_by_role("button", name="Coach: what to set aside?").click()
    expect(page.locator("#yardkle-advice tbody tr").first).to_contain_text("★ best")
    found += violations(page, axe_script, "yardkle, advice")

    # The event: its page, then the confirmation before a new event.
    show_tab(page, "event")
    found += violations(page, axe_script, "event")
    page.get_by_role("button", name="New event…").click()
    expect(page.locator("#event-clear-yes")).to_be_visible()
    found += violations(page, axe_script, "event, confirming a new event")

    assert not found, f"{len(found)} axe-core violations:\n" + "\n".join(found)
