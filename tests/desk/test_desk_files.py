"""The desk's files without a browser: served by the app, shipped in the package, and
naming no other host (no CDN, no web font), like the API docs' pages."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin

from litestar import Litestar
from litestar.testing import TestClient

from diceref.http.desk import (
    CONTENT_SECURITY_POLICY,
    STATIC,
    WORKER,
    desk_assets,
    desk_version,
)

# Any absolute URL, or a protocol-relative one (//host/...), in HTML, CSS or JavaScript.
OTHER_HOST = re.compile(
    r"""(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}|url\(\s*['"]?(?:https?:)?//""", re.I
)


def test_the_desk_files_name_no_other_host() -> None:
    suffixes = {".html", ".css", ".js", ".svg", ".webmanifest"}
    files = [*sorted(p for p in STATIC.rglob("*") if p.suffix in suffixes), WORKER]
    assert {p.name for p in files} >= {"index.html", "desk.css", "desk.js", "desk-sw.js"}
    assert (STATIC / "views" / "sheets.js") in files
    for path in files:
        # SVG's namespace name is an identifier (an `xmlns`, dom.js's createElementNS),
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
    shipped = (p.relative_to(STATIC) for p in STATIC.rglob("*") if p.is_file())
    assert set(kept) == {"/", *(f"/desk/{p.as_posix()}" for p in shipped if p.name[0] != ".")}
    assert "/desk/views/coach.js" in kept
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
    for path in (folder / "desk.css", folder / "index.html", folder / "views" / "coach.js", worker):
        path.write_text(path.read_text() + "\n")
        versions.add(desk_version(folder, worker))
    (folder / "views" / "extra.js").write_text("")
    last = desk_version(folder, worker)
    versions.add(last)
    assert len(versions) == 6
    assert "/desk/views/extra.js" in desk_assets(folder)
    (folder / ".extra.js.swp").write_text("")  # not desk files
    (folder / "views" / ".extra.js.swp").write_text("")
    (folder / ".cache").mkdir()
    (folder / ".cache" / "extra.js").write_text("")
    assert desk_version(folder, worker) == last
    assert not any("/." in path for path in desk_assets(folder))


# The modules a desk module imports: `import ... from "./x.js"`, `import "./x.js"`,
# `export ... from "./x.js"` (statements, at the start of a line) and `import("./x.js")`.
IMPORT = re.compile(
    r"""^\s*(?:import\s*|(?:import|export)\b[^"';]*?\bfrom\s*)["']([^"']+)["']"""
    r"""|\bimport\(\s*["']([^"']+)["']""",
    re.M,
)


def _page_modules(client: TestClient[Litestar]) -> set[str]:
    """The script the page loads and every module they import, followed to the last."""
    page = client.get("/").text
    todo = re.findall(r'<script type="module" src="(/[^"]+)"', page)
    assert todo, "the page loads no module"
    seen: set[str] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        answer = client.get(path)
        assert answer.status_code == 200, path
        for target in (static or dynamic for static, dynamic in IMPORT.findall(answer.text)):
            assert target.startswith(("./", "../")), f"{path} imports {target}: not its own"
            todo.append(urljoin(path, target))
    return seen


def test_every_module_the_page_imports_is_kept_and_served_as_javascript(
    client: TestClient[Litestar],
) -> None:
    """The page's modules (desk.js and all it imports, views/ included) are in the worker's
    list, so that the page opens offline, and each is sent as JavaScript (a module sent as
    another type does not run, under `nosniff`) with the desk's policy."""
    modules = _page_modules(client)
    scripts = {f"/desk/{p.relative_to(STATIC).as_posix()}" for p in STATIC.rglob("*.js")}
    assert modules == scripts  # every module found (and none that the page never loads)
    assert {"/desk/desk.js", "/desk/pure.js", "/desk/views/sheets.js"} <= modules
    script = client.get("/desk-sw.js").text
    kept = set(json.loads(re.search(r"const ASSETS = (\[.*\]);", script)[1]))  # type: ignore[index]
    assert modules <= kept, modules - kept
    for path in modules:
        headers = client.get(path).headers
        assert headers["content-type"].startswith("text/javascript"), path
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
