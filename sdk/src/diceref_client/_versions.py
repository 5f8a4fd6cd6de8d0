"""Which API versions this client and a service can talk across.

The client was generated from one version of the API document (`API_VERSION`, its
`info.version`); every answer of the service names the version it speaks in
`X-API-Version`.  They are compatible when their major versions are equal, semver's
major being the first number, or for a 0.x version the first two: semver lets a 0.x API
break on any minor release, so `0.1.0` and `0.2.0` differ while `0.1.0` and `0.1.4` do not.
A service that sends no `X-API-Version` (or a version that is not semver) is not checked:
services older than the header answer as they always did.
"""

from __future__ import annotations

import re

import httpx

from diceref_client._api_version import API_VERSION

API_VERSION_HEADER = "x-api-version"
_SEMVER = re.compile(r"^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?$")


def compatibility_line(version: str) -> tuple[int, ...] | None:
    """The part of a version that every compatible version shares: `(major,)`, or for a
    0.x version `(0, minor)`; None when the text is not a semver version."""
    found = _SEMVER.match(version.strip())
    if found is None:
        return None
    major, minor = int(found.group(1)), int(found.group(2))
    return (0, minor) if major == 0 else (major,)


def service_version(response: httpx.Response) -> str | None:
    """The version the service says it speaks, if it says one."""
    return response.headers.get(API_VERSION_HEADER) or None


def incompatible_version(response: httpx.Response) -> str | None:
    """The service's version when it is of another major version than this client's;
    None when it is compatible, absent or not semver."""
    theirs = service_version(response)
    if theirs is None:
        return None
    line = compatibility_line(theirs)
    if line is None or line == compatibility_line(API_VERSION):
        return None
    return theirs


def mismatch_note(version: str) -> str:
    return f"the service speaks API {version}, this client was generated for {API_VERSION}"
