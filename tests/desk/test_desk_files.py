"""The desk's files without a browser: served by the app, shipped in the package, and
naming no other host (no CDN, no web font), like the API docs' pages."""

from __future__ import annotations

import re

from litestar import Litestar
from litestar.testing import TestClient

from diceref.http.desk import STATIC

# Any absolute URL, or a protocol-relative one (//host/...), in HTML, CSS or JavaScript.
OTHER_HOST = re.compile(
    r"""(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}|url\(\s*['"]?(?:https?:)?//""", re.I
)


def test_the_desk_files_name_no_other_host() -> None:
    files = sorted(p for p in STATIC.iterdir() if p.suffix in {".html", ".css", ".js", ".svg"})
    assert {p.name for p in files} >= {"index.html", "desk.css", "desk.js"}
    for path in files:
        # SVG's namespace name is an identifier (an `xmlns`, desk.js's createElementNS),
        # never fetched.
        text = path.read_text().replace("http://www.w3.org/2000/svg", "")
        assert not OTHER_HOST.findall(text), f"{path.name} names another host"


def test_the_page_and_its_files_are_served(client: TestClient[Litestar]) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<title>diceref table desk</title>" in page.text
    for asset in re.findall(r'(?:src|href)="(/[^"]+)"', page.text):
        assert client.get(asset).status_code == 200, asset
    assert client.get("/desk/desk.js").headers["content-type"].startswith("text/javascript")


def test_the_api_docs_pages_load_only_the_services_assets(client: TestClient[Litestar]) -> None:
    for path in ("/schema", "/schema/redoc", "/schema/swagger"):
        html = client.get(path).text
        head = html.split("<body>")[0]
        assets = re.findall(r"""(?:src|href)=['"]([^'"]+)['"]""", head)
        assert assets, path
        for asset in assets:
            assert asset.startswith("/"), f"{path} loads {asset}"
            assert client.get(asset).status_code == 200, asset
    bundle = client.get("/docs-assets/redoc.standalone.js").text
    assert "cdn.redoc.ly" not in bundle and "/docs-assets/redoc/logo-mini.svg" in bundle


def test_the_page_and_its_files_carry_the_security_headers(client: TestClient[Litestar]) -> None:
    """A strict policy (this service's own files only, no inline script or style, no
    framing) and `nosniff` on the page and every file it loads; the API docs' bundles get
    `nosniff` and the framing refusal."""
    page = client.get("/")
    files = ["/", *re.findall(r'(?:src|href)="(/desk/[^"]+)"', page.text)]
    assert len(files) >= 4, files  # the page, its script, its styles, its icon
    for path in files:
        headers = client.get(path).headers
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["x-frame-options"] == "DENY", path
        directives = headers["content-security-policy"].split("; ")
        policy = {name: value for name, _, value in (d.partition(" ") for d in directives)}
        assert policy["default-src"] == "'none'", path
        assert policy["frame-ancestors"] == "'none'", path
        for directive in ("script-src", "style-src", "connect-src", "img-src"):
            assert policy[directive] == "'self'", (path, directive)
        assert "unsafe" not in headers["content-security-policy"], path
    for asset in ("/docs-assets/redoc.standalone.js", "/docs-assets/swagger-ui/swagger-ui.css"):
        headers = client.get(asset).headers
        assert (headers["x-content-type-options"], headers["x-frame-options"]) == (
            "nosniff",
            "DENY",
        ), asset
