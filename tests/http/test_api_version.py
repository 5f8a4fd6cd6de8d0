"""`X-API-Version` on every response and `api_version` in `GET /healthz`: the document's
`info.version`, which the clients compare with the version they were generated from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from conftest import make_test_app, make_test_store
from diceref.http.app import create_app
from diceref.settings import Settings

DOCUMENT = json.loads((Path(__file__).parents[2] / "openapi" / "openapi.json").read_text())
DOCUMENTED_VERSION: str = DOCUMENT["info"]["version"]


@pytest.fixture(scope="module")
def service() -> TestClient[Litestar]:
    return TestClient(make_test_app())


def test_healthz_reports_the_documents_version(service: TestClient[Litestar]) -> None:
    answer = service.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "api_version": DOCUMENTED_VERSION}
    assert answer.headers["x-api-version"] == DOCUMENTED_VERSION


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/games", None, 200),
        ("GET", "/games/no-such-game", None, 404),  # a problem
        ("GET", "/no/such/route", None, 404),  # no route matched
        ("POST", "/score", {"game": "yahtzee", "dice": [1, 2, 3, 4, 5]}, 200),  # lean path
        ("POST", "/score", {"game": "yahtzee", "dice": "12345"}, 400),
        ("HEAD", "/healthz", None, 200),
    ],
)
def test_every_answer_carries_the_version(
    service: TestClient[Litestar], method: str, path: str, body: object, status: int
) -> None:
    answer = service.request(method, path, json=body)
    assert answer.status_code == status
    assert answer.headers.get_list("x-api-version") == [DOCUMENTED_VERSION]


def test_every_documented_response_declares_the_header() -> None:
    for item in DOCUMENT["paths"].values():
        for operation in item.values():
            for status, response in operation["responses"].items():
                header = response["headers"]["X-API-Version"]
                assert header["required"] is True, (operation["operationId"], status)


def test_a_browser_page_of_another_origin_may_read_the_version() -> None:
    settings = Settings(preload=(), cors_origins=("https://board.example",))
    with TestClient(create_app(settings, store=make_test_store())) as browser:
        preflight = browser.options(
            "/score",
            headers={"Origin": "https://board.example", "Access-Control-Request-Method": "POST"},
        )
        assert preflight.headers["x-api-version"] == DOCUMENTED_VERSION
        answer = browser.get("/healthz", headers={"Origin": "https://board.example"})
        exposed = answer.headers["access-control-expose-headers"].lower().split(", ")
        assert "x-api-version" in exposed
