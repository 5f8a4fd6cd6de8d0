"""A whole event at the desk, played as scorekeepers play it, in one browser (test_desk.py's
live server and watched pages): two Yahtzee sheets under house rules (a bonus changed, a
rule the service refuses), a Chicago round, a Yardkle turn; the event exported, imported
into a fresh browser, and reopened there without the network.

Every total, life and ruling the page shows is compared with what the service itself
answers for the same entries (its HTTP API, called from the test), not with numbers the
page computed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
from test_desk import (  # noqa: F401  (the fixtures, shared with the desk's tests)
    ANN,
    LAPTOP,
    TIMEOUT_MS,
    WORKER_READY,
    Watched,
    add_players,
    browser,
    checked_with,
    open_desk,
    server,
    start_a_chicago_round,
    total_of,
    watched_page,
)

from live_server import LiveServer

GAME = "yahtzee"
# 60 in the upper section: no bonus at the official 63, the house bonus at 60.  Fours is
# first written 14 (no throw scores that), then corrected to 12.
BOB = {
    "ones": "2", "twos": "4", "threes": "9", "fours": "14", "fives": "15", "sixes": "18",
    "three_of_a_kind": "20", "four_of_a_kind": "16", "full_house": "0", "small_straight": "30",
    "large_straight": "0", "yahtzee": "0", "chance": "18",
}  # fmt: skip
BOB_FOURS = "12"
# The house rules: the upper bonus from 60 (not 63), and worth 50 (not 35).
HOUSE = {"upper_bonus_threshold": 60, "upper_bonus_points": 50}

CHICAGO_PLAYERS = ["Ann", "Bob"]
CHICAGO_ROUND = {
    "turns": [
        {"player": "Ann", "throws": [{"dice": [2, 3, 4], "call": "high"}]},
        {"player": "Bob", "throws": [{"dice": [1, 2, 2]}]},
    ]
}
YARDKLE_DICE, YARDKLE_SET_ASIDE = [5, 5, 5, 1, 2, 3], [1, 5, 5, 5]
YARDKLE_TURN = {
    "player": "Ann",
    "end": "bank",
    "throws": [{"dice": YARDKLE_DICE, "set_aside": YARDKLE_SET_ASIDE}],
}


def dice(values: list[int]) -> str:
    return " ".join(map(str, values))


def sheets_body(rules: dict[str, Any], bob: dict[str, str]) -> dict[str, Any]:
    """POST /scorecards/check's body for Ann's and Bob's sheets."""
    sheets = [
        {"player": name, "entries": [{"box": b, "points": int(p)} for b, p in entries.items()]}
        for name, entries in (("Ann", ANN), ("Bob", bob))
    ]
    body: dict[str, Any] = {"game": GAME, "sheets": sheets}
    if rules:
        body["rules"] = rules
    return body


def answer(client: httpx.Client, path: str, body: dict[str, Any]) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def chicago_lives(game: dict[str, Any]) -> list[str]:
    return [
        f"{s['player']}: {s['lives']} {'life' if s['lives'] == 1 else 'lives'}"
        for s in game["standings"]
    ]


def yardkle_totals(game: dict[str, Any]) -> list[str]:
    def line(s: dict[str, Any]) -> str:
        pad = "" if s["on_pad"] else " (not on the pad yet)"
        turns = f"{s['turn_count']} turn{'' if s['turn_count'] == 1 else 's'}"
        return f"{s['player']}: {s['total']}{pad}, {turns}"

    return [line(s) for s in game["standings"]]


def test_a_whole_event_house_rules_chicago_yardkle_export_import_and_offline(
    server: LiveServer,  # noqa: F811
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    # What the service rules for the event as it will be played, asked here, not by the page.
    service = server.client
    corrected = {**BOB, "fours": BOB_FOURS}
    official = answer(service, "/scorecards/check", sheets_body({}, corrected))
    house = answer(service, "/scorecards/check", sheets_body(HOUSE, corrected))
    # the house rules change both totals (Bob's 60 earns a bonus only under them), so the
    # page's totals tell which rules it played
    assert [s["upper_bonus"] for s in official["sheets"]] == [35, 0]
    assert [s["upper_bonus"] for s in house["sheets"]] == [50, 50]
    chicago = answer(
        service, "/chicago/games", {"players": CHICAGO_PLAYERS, "rounds": [CHICAGO_ROUND]}
    )
    yardkle = answer(
        service, "/yardkle/games", {"players": ["Ann", "Bob"], "turns": [YARDKLE_TURN]}
    )

    saved = tmp_path / "event.json"
    with watched_page(browser, server.base, viewport=LAPTOP) as desk:
        page = open_desk(desk)
        two_sheets_under_house_rules(desk, service, house)
        a_chicago_round(page, chicago)
        a_yardkle_turn(page, service, yardkle)
        export_the_event(page, saved)

    # Another device: a browser of its own, the event imported from the file, then the
    # page reopened there with the network down.
    with watched_page(browser, server.base, viewport=LAPTOP) as fresh:
        page = open_desk(fresh)
        assert page.evaluate(WORKER_READY, TIMEOUT_MS) == fresh.base + "/"
        import_the_event(page, saved, house, chicago, yardkle)
        reopen_offline_then_online(fresh, house)


def ranking_of(check: dict[str, Any]) -> list[str]:
    return [
        f"{s['player']}: {s['total']}{' (leads)' if s['rank'] == 1 else ''}"
        for s in check["standings"]
    ]


def two_sheets_under_house_rules(
    desk: Watched, service: httpx.Client, house: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    page = desk.page
    add_players(page, "sheet", ["Ann", "Bob"])
    for player, sheet in enumerate([ANN, BOB]):
        page.focus(f"#points-{player}-ones")  # then the keyboard: type, Enter, the next box
        for points in sheet.values():
            page.keyboard.type(points)
            page.keyboard.press("Enter")

    # Bob's fours: the service's reason at the box and under his name; not ranked as valid.
    invalid = answer(service, "/scorecards/check", sheets_body({}, BOB))
    assert not invalid["sheets"][1]["valid"]
    (problem,) = invalid["sheets"][1]["problems"]
    assert problem["box"] == "fours" and "14" in problem["reason"]
    fours = page.locator('[data-cell="1/fours"]')
    expect(fours.locator(".reason")).to_have_text(problem["reason"])
    expect(page.locator("#points-1-fours")).to_have_attribute("aria-invalid", "true")
    messages = page.locator("#sheet-messages")
    expect(messages.locator(".problem")).to_have_text([f"Bob: fours: {problem['reason']}"])
    expect(page.locator("#ranking li").filter(has_text="Bob")).to_contain_text("(not valid")
    expect(total_of(page, 0)).to_have_text(str(invalid["sheets"][0]["total"]))  # official

    # The house rules: a bonus changed (its threshold and its points).
    summary = page.locator("#rules-summary")
    expect(summary).to_have_text("House rules (0 changed)")
    summary.click()
    page.get_by_label("Upper bonus threshold").fill(str(HOUSE["upper_bonus_threshold"]))
    with page.expect_request(checked_with({"upper_bonus_threshold": 60})):
        page.get_by_label("Upper bonus threshold").press("Tab")
    page.get_by_label("Upper bonus points").fill(str(HOUSE["upper_bonus_points"]))
    with page.expect_request(checked_with(HOUSE)):
        page.get_by_label("Upper bonus points").press("Tab")
    expect(summary).to_have_text("House rules (2 changed)")
    expect(total_of(page, 0, "upper_bonus")).to_have_text("50")
    expect(total_of(page, 0)).to_have_text(str(house["sheets"][0]["total"]))

    # A rule the service refuses with these: boxes in forced order leave no choice of box,
    # which Yahtzee's forced Joker is.  The reason beside the rule and above the sheets.
    forced = {**HOUSE, "order": "forced"}
    refusal = service.post("/scorecards/check", json=sheets_body(forced, BOB))
    assert refusal.status_code == 422, refusal.text
    (error,) = refusal.json()["errors"]
    assert error["field"] == "rules.order" and "forced order" in error["reason"]
    desk.allow_status(422)
    with page.expect_request(checked_with(forced)):
        page.get_by_label("Box order").select_option("forced")
    expect(summary).to_have_text("House rules (3 changed)")
    expect(page.locator('[data-rule-reason="order"]')).to_have_text(error["reason"])
    expect(page.locator("#rule-order")).to_have_attribute("aria-invalid", "true")
    expect(messages.locator(".problem").first).to_have_text(
        f"{refusal.json()['title']}: {error['reason']}"
    )
    expect(page.locator("#sheets-status")).to_have_text("The service refused the sheets")

    # Back to the free order: the rules sent are the valid ones, the refusal gone.
    with page.expect_request(checked_with(HOUSE)):
        page.get_by_label("Box order").select_option("free")
    expect(summary).to_have_text("House rules (2 changed)")
    expect(page.locator('[data-rule-reason="order"]')).to_have_text("")
    expect(page.locator("#rule-order")).to_have_attribute("aria-invalid", "false")
    expect(page.locator("#sheets-status")).to_have_text("Sheets checked")
    expect(messages.locator(".problem")).to_have_text([f"Bob: fours: {problem['reason']}"])

    # Bob's fours corrected: both sheets complete and valid, totals under the house rules.
    page.fill("#points-1-fours", BOB_FOURS)
    with page.expect_request(checked_with(HOUSE)):
        page.press("#points-1-fours", "Enter")
    expect(fours.locator(".reason")).to_have_count(0)
    expect(page.locator("#points-1-fours")).to_have_attribute("aria-invalid", "false")
    for player, sheet in enumerate(house["sheets"]):
        for key in ("upper_subtotal", "upper_bonus", "total"):
            expect(total_of(page, player, key)).to_have_text(str(sheet[key]))
    expect(page.locator("#ranking li")).to_have_text(ranking_of(house))
    expect(messages.locator(".problem")).to_have_count(0)
    expect(messages.locator(".ok")).to_have_text(
        [f"{s['player']}'s sheet is complete and valid: {s['total']}." for s in house["sheets"]]
    )


def a_chicago_round(page: Any, chicago: dict[str, Any]) -> None:
    """Ann throws 2 3 4 and calls high, Bob throws 1 2 2: the service's ruling."""
    from playwright.sync_api import expect

    start_a_chicago_round(page)
    draft = page.locator("#chicago-draft ol")
    # as a screen reader reads it: the dice as numbers (their faces are hidden from it)
    expect(draft).to_match_aria_snapshot(
        """
        - list:
          - listitem: "Ann: throw 1: 2 3 4 (call high) — high 9"
          - listitem: "Bob: waits"
        """
    )
    page.get_by_role("button", name="End turn").click()
    page.get_by_label("Bob's throw 1: dice").fill("1 2 2")
    page.get_by_label("Bob's throw 1: dice").press("Enter")
    expect(draft).to_contain_text("Bob: throw 1: 1 2 2")
    page.get_by_role("button", name="End turn").click()
    page.get_by_role("button", name="Get the ruling").click()
    expect(page.locator("#chicago-standings li")).to_have_text(chicago_lives(chicago))
    (ruled,) = chicago["rounds"]
    losers = [loser for e in ruled["events"] for loser in e.get("losers") or []]
    assert losers, ruled  # someone lost a life in the round
    round_one = page.locator('[data-round="1"]')
    for loser in losers:
        expect(round_one).to_contain_text(f"{loser} loses a life")
    expect(round_one.locator(".ruling")).to_have_text(f"Next starter: {ruled['next_starter']}.")


def a_yardkle_turn(page: Any, service: httpx.Client, yardkle: dict[str, Any]) -> None:
    """Ann throws six dice, sets aside 1 5 5 5 and banks: the points the service scores."""
    from playwright.sync_api import expect

    scored = answer(service, "/yardkle/throws", {"dice": YARDKLE_DICE})
    (points,) = [
        s["points"] for s in scored["set_asides"] if sorted(s["dice"]) == YARDKLE_SET_ASIDE
    ]
    assert yardkle["standings"][0] == {**yardkle["standings"][0], "player": "Ann", "total": points}
    page.click('button.tab[data-tab="yardkle"]')
    add_players(page, "yardkle", ["Ann", "Bob"])
    expect(page.locator("#yardkle-draft h3")).to_have_text("Ann's turn")
    page.get_by_label("Dice thrown").fill(dice(YARDKLE_DICE))
    page.get_by_label("Set aside").fill(dice(YARDKLE_SET_ASIDE))
    page.get_by_label("Set aside").press("Enter")
    expect(page.locator("#yardkle-draft")).to_contain_text(f"Turn so far: {points}.")
    bank = page.get_by_role("button", name=f"Bank {points}")
    expect(bank).to_be_enabled()
    bank.click()
    expect(page.locator("#yardkle-standings li")).to_have_text(yardkle_totals(yardkle))
    expect(page.locator("#yardkle-standings li").first).to_have_text(f"Ann: {points}, 1 turn")
    expect(page.locator("#yardkle-draft h3")).to_have_text("Bob's turn")


def export_the_event(page: Any, saved: Path) -> None:
    from playwright.sync_api import expect

    page.click('button.tab[data-tab="event"]')
    expect(page.locator("#event")).to_contain_text(
        "2 score sheets, 1 Chicago rounds, 1 Yardkle turns."
    )
    with page.expect_download() as download:
        page.get_by_role("button", name="Export the event (JSON)").click()
    download.value.save_as(saved)
    event = json.loads(saved.read_text())
    assert event["sheets"]["rules"] == HOUSE
    assert event["sheets"]["players"][1]["entries"]["fours"]["points"] == BOB_FOURS


def import_the_event(
    page: Any,
    saved: Path,
    house: dict[str, Any],
    chicago: dict[str, Any],
    yardkle: dict[str, Any],
) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#points-0-ones")).to_have_count(0)  # a browser with no event yet
    page.click('button.tab[data-tab="event"]')
    expect(page.locator("#event")).to_contain_text("0 score sheets, 0 Chicago rounds")
    page.get_by_label("Import an event (JSON)").set_input_files(str(saved))
    expect(page.locator("#event-message .ok")).to_contain_text("Imported the event of")
    expect(page.locator("#event")).to_contain_text(
        "2 score sheets, 1 Chicago rounds, 1 Yardkle turns."
    )

    page.click('button.tab[data-tab="chicago"]')
    expect(page.locator("#chicago-standings li")).to_have_text(chicago_lives(chicago))
    expect(page.locator('[data-round="1"] .ruling')).to_have_text(
        f"Next starter: {chicago['rounds'][0]['next_starter']}."
    )
    page.click('button.tab[data-tab="yardkle"]')
    expect(page.locator("#yardkle-standings li")).to_have_text(yardkle_totals(yardkle))

    page.click('button.tab[data-tab="sheets"]')
    expect(page.locator("#rules-summary")).to_have_text("House rules (2 changed)")
    expect(page.locator("#points-1-fours")).to_have_value(BOB_FOURS)
    for player, sheet in enumerate(house["sheets"]):
        expect(total_of(page, player)).to_have_text(str(sheet["total"]))
    expect(page.locator("#ranking li")).to_have_text(ranking_of(house))
    expect(page.locator("#sheet-messages .problem")).to_have_count(0)
    expect(page.locator("#sheet-messages .ok")).to_have_count(2)


def reopen_offline_then_online(desk: Watched, house: dict[str, Any]) -> None:
    """The page reopened from the service worker's cache with the network down: the
    event's entries there, not checked, the service said to be out of reach; then the
    network back, and the entries checked again without anyone touching the page."""
    from playwright.sync_api import expect

    page = desk.page
    desk.allow_offline()
    page.context.set_offline(True)
    reopened = page.reload()
    assert reopened is not None and reopened.from_service_worker
    page.wait_for_selector("body[data-ready=true]")
    for player, sheet in enumerate([ANN, {**BOB, "fours": BOB_FOURS}]):
        for box, points in sheet.items():
            expect(page.locator(f"#points-{player}-{box}")).to_have_value(points)
    expect(page.locator("#sheets-status")).to_have_text("Offline: entries kept, not checked")
    # (the games' list may come from the browser's HTTP cache: the sheets' check cannot)
    expect(page.locator("#sheet-messages .problem")).to_have_text(
        [re.compile(r"^The service did not answer \(is the network up\?\)\. Your entries are kept")]
    )
    expect(page.locator("#rules-summary")).to_have_text("House rules (2 changed)")
    expect(total_of(page, 0)).to_have_text("")  # not checked, so no total is claimed
    expect(page.locator("#ranking li")).to_have_count(0)

    page.context.set_offline(False)
    expect(page.locator("#sheets-status")).to_have_text("Sheets checked", timeout=15_000)
    for player, sheet in enumerate(house["sheets"]):
        expect(total_of(page, player)).to_have_text(str(sheet["total"]))
    expect(page.locator("#ranking li")).to_have_text(ranking_of(house))
    expect(page.locator("#sheet-messages .problem")).to_have_count(0)
    expect(page.locator("#sheet-messages .ok")).to_have_count(2)
