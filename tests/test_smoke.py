"""The app answers its liveness probe (the full API tests live beside this file)."""

from litestar.testing import TestClient

from diceref.api.app import app


def test_healthz() -> None:
    with TestClient(app) as client:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
