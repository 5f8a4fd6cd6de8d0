"""The app answers its liveness probe (the full API tests live beside this file)."""

from litestar.testing import TestClient

from conftest import make_test_app

# The app of the tests: test disk cache, no Redis, no preloading (never the env's).
app = make_test_app()


def test_healthz() -> None:
    with TestClient(app) as client:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
