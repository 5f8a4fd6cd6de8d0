"""Which route serves a game: the answer to a request naming a game that another family's
routes serve (`"game": "chicago"` on `/score`), instead of msgspec's bare `Invalid enum
value`."""

from __future__ import annotations

from diceref.games.families import ALL_GAMES

# A route of the scorecard games and the name of its counterpart in another family's routes.
COUNTERPARTS = {"score": "throws", "holds": "holds", "reviews": "reviews"}


def served_elsewhere(game: str, path: str) -> str | None:
    """The reason to give when `game`, refused by the route at `path`, is a game of
    another family: the route of that family that serves it (the one doing what `path`
    does, when it has one).  None for a game no family serves."""
    if game not in ALL_GAMES:
        return None
    from diceref.http.family import api_of_game  # the family APIs import the problems

    router = api_of_game(game).router
    prefix = router.path.rstrip("/")
    counterpart = COUNTERPARTS.get(path.rstrip("/").rsplit("/", 1)[-1])
    routes = {route.path for route in router.routes}
    if counterpart is not None and f"{prefix}/{counterpart}" in routes:
        where = f"POST {prefix}/{counterpart} serves it"
    else:
        where = f"the {prefix}/ routes serve it"
    return f"{game!r} is not played through {path}: {where}"
