"""The table desk: the web page for scorekeepers and players, served at `/`.

The page is plain static files in `static/` (HTML, CSS and JavaScript modules, no build
step) that call the service's own JSON operations; the event it keeps (players, sheets,
rounds) lives in the browser's storage, so the service stays stateless.  Nothing it needs
comes from another host, and neither do the assets of the API docs at `/schema`: Redoc's
and Swagger UI's bundles are served from the `openapi-ui-bundles` package (a maintained
wheel of the upstream files) under `/docs-assets/`, instead of the CDNs Litestar's render
plugins default to.  A service worker at `/desk-sw.js` keeps the page and its files so
that it opens again without the service, under a version the service computes from them.
See docs/desk.md.
"""

from __future__ import annotations

import functools
import hashlib
import json
import mimetypes
from pathlib import Path
from typing import Any

import openapi_ui_bundles
from litestar import MediaType, get
from litestar.datastructures import CacheControlHeader
from litestar.response import File, Response
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler

STATIC = Path(__file__).parent / "static"
WORKER = Path(__file__).parent / "desk-sw.js"  # the service worker, served at WORKER_PATH
WORKER_PATH = "/desk-sw.js"  # at the root, so that its scope is the whole origin
DESK_PREFIX = "/desk"
DOCS_ASSETS = "/docs-assets"
REDOC_JS = f"{DOCS_ASSETS}/redoc.standalone.js"  # rewritten: see `redoc_bundle`
SWAGGER_JS = f"{DOCS_ASSETS}/swagger-ui/swagger-ui-bundle.js"
SWAGGER_PRESET_JS = f"{DOCS_ASSETS}/swagger-ui/swagger-ui-standalone-preset.js"
SWAGGER_CSS = f"{DOCS_ASSETS}/swagger-ui/swagger-ui.css"
FAVICON = f"<link rel='icon' type='image/svg+xml' href='{DESK_PREFIX}/favicon.svg'>"

# A page that a scorekeeper reloads at the table must get a fresh copy after an upgrade,
# yet a phone on poor Wi-Fi should not fetch it again on every view: revalidate after a
# minute (the files are small; the docs bundles change only with the package).
_SHORT = CacheControlHeader(max_age=60, public=True)
_LONG = CacheControlHeader(max_age=3600, public=True)


# The page runs only what this service serves: its own script, styles and images, calls
# only to this service, no inline script or style, no plugin, no other page framing it
# (`frame-ancestors`, and X-Frame-Options for browsers that predate it); `nosniff` keeps a
# browser from running a file as a type other than the one it was sent as.  A name that
# reaches the page can therefore never run as script, even if an escaping bug let it in.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


# The API docs' bundles get all but the policy: the pages at /schema that run them are
# Litestar's, with inline scripts, and a policy sent with a script would bind a worker
# the bundle starts from it.
ASSET_HEADERS = {k: v for k, v in SECURITY_HEADERS.items() if k != "Content-Security-Policy"}


async def secured(response: Response[Any]) -> Response[Any]:
    """The desk's security headers on one of its answers (an `after_request` hook)."""
    response.headers.update(SECURITY_HEADERS)
    return response


async def typed(response: Response[Any]) -> Response[Any]:
    """`nosniff` and the framing refusal on an API docs asset (an `after_request` hook)."""
    response.headers.update(ASSET_HEADERS)
    return response


@get(
    "/",
    include_in_schema=False,
    cache_control=_SHORT,
    sync_to_thread=False,
    after_request=secured,
)
def desk_page() -> File:
    """The desk's page; its scripts and styles come from `/desk/`."""
    return File(STATIC / "index.html", content_disposition_type="inline", media_type=MediaType.HTML)


# The one URL of another host in Redoc's bundle: the logo of its "API docs by Redocly" line,
# which the same package ships beside the bundle.
_REDOC_LOGO = (
    b"https://cdn.redoc.ly/redoc/logo-mini.svg",
    f"{DOCS_ASSETS}/redoc/logo-mini.svg".encode(),
)


@functools.cache
def _redoc_bundle() -> bytes:
    bundle = (openapi_ui_bundles.redoc.static_path / "redoc.standalone.js").read_bytes()
    if _REDOC_LOGO[0] not in bundle:
        raise RuntimeError("Redoc's bundle changed: look again for URLs of other hosts in it")
    return bundle.replace(*_REDOC_LOGO)


@get(
    REDOC_JS,
    include_in_schema=False,
    cache_control=_LONG,
    sync_to_thread=False,
    after_request=typed,
)
def redoc_bundle() -> Response[bytes]:
    """Redoc's bundle with its logo served from here (otherwise it loads it from a CDN)."""
    return Response(_redoc_bundle(), media_type="text/javascript; charset=utf-8")


# The web app manifest, by the name the standard gives it (Python's `mimetypes` knows no
# `.webmanifest`, and Litestar's static files take their type from it).
mimetypes.add_type("application/manifest+json", ".webmanifest")


def _desk_files(folder: Path) -> list[str]:
    """The files of `static/` and of its folders (the views' modules are in `views/`), as
    paths relative to it; not an editor's or a file manager's hidden files or folders."""
    relative = (p.relative_to(folder) for p in folder.rglob("*") if p.is_file())
    return sorted(
        path.as_posix() for path in relative if not any(part.startswith(".") for part in path.parts)
    )


def desk_assets(folder: Path = STATIC) -> list[str]:
    """The paths the service worker keeps: the page at `/` and every file it may load."""
    return ["/", *(f"{DESK_PREFIX}/{name}" for name in _desk_files(folder))]


def desk_version(folder: Path = STATIC, worker: Path = WORKER) -> str:
    """A hash of the desk's files and of the worker: the name of the worker's cache.

    Computed from the files themselves, so that a changed file is a new version (a new
    worker, which fetches the files again into a new cache and deletes the old one), with
    nothing to bump by hand."""
    digest = hashlib.sha256()
    files = [(name, folder / name) for name in _desk_files(folder)]
    for name, path in [*files, (worker.name, worker)]:
        for part in (name.encode(), path.read_bytes()):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
    return digest.hexdigest()[:16]


def _worker_script() -> bytes:
    # Not cached: read at every request (a few small files, asked for when a page opens),
    # so a file edited under a running service is a new version too.
    script = WORKER.read_text()
    for placeholder in ('"__DESK_VERSION__"', "__DESK_ASSETS__"):
        if placeholder not in script:
            raise RuntimeError(f"{WORKER.name} lost its placeholder {placeholder}")
    script = script.replace('"__DESK_VERSION__"', json.dumps(desk_version()))
    return script.replace("__DESK_ASSETS__", json.dumps(desk_assets())).encode()


@get(
    WORKER_PATH,
    include_in_schema=False,
    cache_control=CacheControlHeader(no_cache=True),
    sync_to_thread=False,
    after_request=secured,
)
def desk_worker() -> Response[bytes]:
    """The desk's service worker, with the version and the list of the files it keeps."""
    return Response(_worker_script(), media_type="text/javascript; charset=utf-8")


def desk_routes() -> list[ControllerRouterHandler]:
    """The page at `/`, its files under `/desk/`, its service worker at `/desk-sw.js`, the
    API docs' assets under `/docs-assets/`."""
    return [
        desk_page,
        desk_worker,
        redoc_bundle,
        create_static_files_router(
            DESK_PREFIX,
            [STATIC],
            name="desk",
            cache_control=_SHORT,
            include_in_schema=False,
            after_request=secured,
        ),
        *(
            create_static_files_router(
                f"{DOCS_ASSETS}/{name}",
                [bundle.static_path],
                name=f"{name}-assets",
                cache_control=_LONG,
                include_in_schema=False,
                after_request=typed,
            )
            for name, bundle in (
                ("redoc", openapi_ui_bundles.redoc),
                ("swagger-ui", openapi_ui_bundles.swagger_ui),
            )
        ),
    ]
