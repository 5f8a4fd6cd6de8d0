"""The desk's files without a browser: served by the app, shipped in the package, and
naming no other host (no CDN, no web font), like the API docs' pages."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from litestar import Litestar
from litestar.testing import TestClient

from diceref.http.desk import STATIC, WORKER, desk_version

# Any absolute URL, or a protocol-relative one (//host/...), in HTML, CSS or JavaScript.
OTHER_HOST = re.compile(
    r"""(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}|url\(\s*['"]?(?:https?:)?//""", re.I
)


def test_the_desk_files_name_no_other_host() -> None:
    suffixes = {".html", ".css", ".js", ".svg", ".webmanifest"}
    files = [*sorted(p for p in STATIC.iterdir() if p.suffix in suffixes), WORKER]
    assert {p.name for p in files} >= {"index.html", "desk.css", "desk.js", "desk-sw.js"}
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


def test_the_manifest_is_linked_and_served_with_its_type(client: TestClient[Litestar]) -> None:
    page = client.get("/").text
    assert '<link rel="manifest" href="/desk/desk.webmanifest">' in page
    answer = client.get("/desk/desk.webmanifest")
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    css = (STATIC / "desk.css").read_text()
    for key, variable in (("theme_color", "--brand"), ("background_color", "--paper")):
        assert f"{variable}: {manifest[key]};" in css, key  # the page's own colours
    purposes = {icon["purpose"] for icon in manifest["icons"]}
    assert purposes == {"any", "maskable"}
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).headers["content-type"].startswith(icon["type"])


def test_the_worker_keeps_every_desk_file_under_a_version_of_their_content(
    client: TestClient[Litestar],
) -> None:
    answer = client.get("/desk-sw.js")
    assert answer.headers["content-type"].startswith("text/javascript")
    assert "no-cache" in answer.headers["cache-control"]
    assert "worker-src 'self'" in answer.headers["content-security-policy"]
    script = answer.text
    assert f'const VERSION = "{desk_version()}";' in script
    assert "__DESK_" not in script
    kept = json.loads(re.search(r"const ASSETS = (\[.*\]);", script)[1])  # type: ignore[index]
    page = client.get("/").text
    loaded = re.findall(r'(?:src|href)="(/desk/[^"]+)"', page)
    assert {"/", *loaded, "/desk/offline.js", "/desk/desk.webmanifest"} <= set(kept)
    shipped = (p for p in STATIC.iterdir() if p.is_file() and not p.name.startswith("."))
    assert set(kept) == {"/", *(f"/desk/{p.name}" for p in shipped)}
    for path in kept:
        assert client.get(path).status_code == 200, path


def test_the_version_changes_with_any_desk_file(tmp_path: Path) -> None:
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    worker = tmp_path / "desk-sw.js"
    shutil.copy(WORKER, worker)
    first = desk_version(folder, worker)
    assert first == desk_version(STATIC, WORKER)
    versions = {first}
    for path in (folder / "desk.css", folder / "index.html", worker):
        path.write_text(path.read_text() + "\n")
        versions.add(desk_version(folder, worker))
    (folder / "extra.js").write_text("")
    last = desk_version(folder, worker)
    versions.add(last)
    assert len(versions) == 5
    (folder / ".extra.js.swp").write_text("")  # not a desk file
    assert desk_version(folder, worker) == last
