"""An event table's scorekeeping on the diceref SDK: check every sheet, then rank them.

At a tournament table each player hands in a sheet; `/scorecards/check` finds every problem
(a value no throw can score, points that do not match the dice written beside them, a bonus
without a basis, a wrong total) and ranks the players on the totals the rules give.

    uv run python examples/event_table.py --url http://127.0.0.1:8000 [sheets.json]

`sheets.json` holds `{"game": ..., "sheets": [...]}` as `/scorecards/check` takes it;
without one, the table below is checked.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import msgspec

from diceref_client import Client, EntryIn, SheetIn
from diceref_client.models import CheckRequest, CheckResponse

# Three sheets from one Yahtzee table, as the players wrote them.
TABLE = CheckRequest(
    game="yahtzee",
    sheets=[
        SheetIn(
            player="Ann",
            entries=[
                EntryIn(box="sixes", points=24, dice=[6, 6, 6, 6, 2]),
                EntryIn(box="fives", points=15),
                EntryIn(box="full_house", points=25, dice=[3, 3, 5, 5, 5]),
                EntryIn(box="large_straight", points=40),
                EntryIn(box="chance", points=23),
            ],
            claimed_total=127,
        ),
        SheetIn(
            player="Bob",
            entries=[
                EntryIn(box="fours", points=9),  # no throw scores 9 in fours
                EntryIn(box="yahtzee", points=50, dice=[2, 2, 2, 2, 2]),
                EntryIn(box="small_straight", points=30, dice=[1, 2, 3, 4, 6]),
            ],
        ),
        SheetIn(
            player="Cy",
            entries=[
                EntryIn(box="three_of_a_kind", points=17, dice=[4, 4, 4, 2, 3]),
                EntryIn(box="four_of_a_kind", points=0),
                EntryIn(box="chance", points=26),
            ],
            claimed_total=45,  # the boxes add up to 43
        ),
    ],
)


def check_table(client: Client, table: CheckRequest = TABLE) -> CheckResponse:
    """Every sheet checked and ranked by the service."""
    return client.scorecards_check(table.game, table.sheets)


def report(result: CheckResponse) -> str:
    lines = [f"{result.game}: {len(result.sheets)} sheets"]
    for sheet in result.sheets:
        verdict = "ok" if sheet.valid else f"{len(sheet.problems)} problem(s)"
        lines.append(f"  {sheet.player}: {sheet.total} points, {verdict}")
        lines += [f"    - {p.field}: {p.reason}" for p in sheet.problems]
    lines.append("ranking:")
    lines += [f"  {s.rank}. {s.player} {s.total}" for s in result.standings]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check an event table's score sheets.")
    parser.add_argument("--url", help="the API's base URL (default: $DICEREF_URL)")
    parser.add_argument("sheets", nargs="?", type=Path, help="a /scorecards/check body (JSON)")
    args = parser.parse_args(argv)
    table = TABLE
    if args.sheets is not None:
        table = msgspec.json.decode(args.sheets.read_bytes(), type=CheckRequest)
    with Client(args.url) as client:
        result = check_table(client, table)
    print(report(result))
    return 0 if all(s.valid for s in result.sheets) else 1


if __name__ == "__main__":
    raise SystemExit(main())
