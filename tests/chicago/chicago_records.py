"""Builders for Chicago request bodies, so a test reads like the round it describes."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

Json = dict[str, Any]


def throw(
    dice: list[int],
    kept: list[int] | None = None,
    conversion: str | None = None,
    call: str | None = None,
    victim: str | None = None,
) -> Json:
    out: Json = {"dice": dice}
    if kept is not None:
        out["kept"] = kept
    if conversion is not None:
        out["conversion"] = conversion
    if call is not None:
        out["call"] = call
    if victim is not None:
        out["victim"] = victim
    return out


def turn(name: str, *throws: Json, lives: int | None = None) -> Json:
    out: Json = {"player": name, "throws": list(throws)}
    if lives is not None:
        out["lives"] = lives
    return out


def one(name: str, dice: list[int], lives: int | None = None, **kw: str) -> Json:
    """A turn of a single throw."""
    return turn(name, throw(dice, **kw), lives=lives)


def post(client: TestClient[Any], path: str, body: Json, status: int = 200) -> Json:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    if status == 422:
        assert response.headers["content-type"].startswith("application/problem+json")
    data: Json = response.json()
    return data


def rejected(client: TestClient[Any], path: str, body: Json) -> tuple[str, str]:
    """The (field, reason) of a 422 problem+json with exactly one error."""
    problem = post(client, path, body, 422)
    assert problem["type"].endswith("/rule-violation")
    [error] = problem["errors"]
    return error["field"], error["reason"]
