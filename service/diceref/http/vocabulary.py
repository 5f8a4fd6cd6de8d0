"""The API's whole vocabulary: what every family shares, joined with what each family
brings (`FamilyApi.error_codes`, `FamilyApi.glossary`).

A name means one thing across the service: a family giving a code or a property name that
the shared lists or another family already give stops the OpenAPI document's generation.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from diceref.http.family import family_apis
from diceref.http.glossary import GLOSSARY
from diceref.http.problem_catalogue import SHARED_ERROR_CODES


@cache
def error_codes() -> dict[str, str]:
    """Every `code` an `errors[]` item may have, and what it means."""
    return _joined(SHARED_ERROR_CODES, {f: api.error_codes for f, api in family_apis().items()})


@cache
def glossary() -> dict[str, str]:
    """Every property name of the document, and what it means."""
    return _joined(GLOSSARY, {f: api.glossary for f, api in family_apis().items()})


def _joined(shared: Mapping[str, str], families: Mapping[str, Mapping[str, str]]) -> dict[str, str]:
    joined = dict(shared)
    for family, own in families.items():
        twice = sorted(set(own) & set(joined))
        if twice:
            raise RuntimeError(f"{family} gives names already given: {twice}")
        joined.update(own)
    return joined
