"""`diceref` command line: serve the API, score a throw, review a game, precompute tables."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from diceref.core import kernel
from diceref.settings import Settings, SettingsError


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from diceref.logs import configure_logging, granian_log_config

    level, fmt = settings.log_level, settings.log_format or "json"
    refused = _unbindable(args.host, args.port)
    if refused is not None:
        print(f"diceref serve: error: {refused}", file=sys.stderr)
        return 2
    configure_logging(level, fmt)
    metrics_dir = _metrics_directory(args.workers)
    try:
        if args.workers > 1 or args.server == "granian":
            import multiprocessing

            from granian.constants import Interfaces, Loops
            from granian.log import LogLevels

            from diceref.serving import BoundedSendGranian as Granian

            if multiprocessing.get_start_method() == "fork":
                # Import the app once here: forked workers share its pages copy-on-write
                # instead of each importing (and holding) their own copy.
                import diceref.http.app  # noqa: F401

            Granian(
                "diceref.http.app:app",
                address=args.host,
                port=args.port,
                interface=Interfaces.ASGI,
                loop=Loops.uvloop if _has_uvloop() else Loops.asyncio,
                workers=args.workers,
                log_level=LogLevels(level.lower()),
                log_dictconfig=granian_log_config(level, fmt),
                log_access=settings.access_log,
                respawn_failed_workers=True,
                **_connection_limits(settings),
            ).serve()
            return 0
        import uvicorn

        uvicorn.run(
            "diceref.http.app:app",
            host=args.host,
            port=args.port,
            log_config=None,
            access_log=False,
            backlog=settings.backlog,
            timeout_keep_alive=max(1, round(settings.header_timeout)),
            timeout_graceful_shutdown=settings.shutdown_timeout,
        )
        return 0
    finally:
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)


def _unbindable(host: str, port: int) -> str | None:
    """Why `host:port` cannot be listened on (taken, not allowed, no such address), or None.

    Tried before granian starts: granian reports a taken port as a Python and Rust
    traceback, where a port is a setting like any other and deserves one line.  The trial
    socket sets SO_REUSEADDR as the servers do, so a port that only has connections in
    TIME_WAIT is not taken for a busy one.
    """
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as trial:
            trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            trial.bind((host, port))
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return (
            f"cannot listen on {host}:{port}: {reason} "
            "(choose another with --port or DICEREF_PORT, --host or DICEREF_HOST)"
        )
    return None


def _connection_limits(settings: Settings) -> dict[str, Any]:
    """granian's limits and timeouts, from the settings (README, "What the service
    withstands").

    HTTP/1.1 only: in granian's `auto` mode hyper first reads the bytes that tell HTTP/1
    from an HTTP/2 preface, with no timeout, so a connection that sends nothing would hold
    its slot for ever (docs/reliability.md).  hyper's HTTP/1
    header timer starts as soon as the connection is served and again after each response,
    so `DICEREF_HEADER_TIMEOUT` closes silent, half-sent and idle keep-alive connections
    alike.  The body timeout is the app's (`diceref.http.lean`): granian has none; the send
    timeout is the kernel's, on the listener (`diceref.serving`).
    `workers_kill_timeout` is the shutdown deadline: SIGTERM closes the listeners, lets the
    workers finish what is in flight and kills those still busy after it.
    """
    from granian.constants import HTTPModes
    from granian.http import HTTP1Settings

    return {
        "http": HTTPModes.http1,
        "backlog": settings.backlog,
        "backpressure": settings.max_connections,
        "http1_settings": HTTP1Settings(
            header_read_timeout=max(1, round(settings.header_timeout * 1000)),
            keep_alive=settings.keep_alive,
        ),
        "workers_kill_timeout": settings.shutdown_timeout,
        "send_timeout": settings.send_timeout,
    }


def _has_uvloop() -> bool:
    """uvloop (a dependency except on Windows) hands a request body from granian's Rust
    threads to the event loop faster than asyncio's loop (docs/solver.md, "The request
    path").  Named explicitly, since granian's `auto` would prefer rloop, an experimental
    loop, if it happened to be installed."""
    import importlib.util

    return importlib.util.find_spec("uvloop") is not None


MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"  # diceref.http.metrics.MULTIPROC_ENV


def _metrics_directory(workers: int) -> str | None:
    """Prometheus multiprocess mode for several workers: a directory for their samples.

    Set before any worker imports prometheus_client (which picks its mode on import, so this
    module must not import it first).  An operator's PROMETHEUS_MULTIPROC_DIR is used (and
    emptied of a previous run's files); otherwise a temporary directory is made, and returned
    so that it is removed on exit.
    """
    given = os.environ.get(MULTIPROC_ENV)
    if given:
        directory = Path(given)
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("*.db"):
            stale.unlink(missing_ok=True)
        return None
    if workers <= 1:
        return None
    made = tempfile.mkdtemp(prefix="diceref-metrics-")
    os.environ[MULTIPROC_ENV] = made
    return made


def _house_rules(command: str, raw: str | None) -> dict[str, Any] | None:
    """`--rules` as the object of parameter overrides it must be (None without it); a
    malformed value raises `_Refused` with the message to print."""
    if raw is None:
        return None
    try:
        rules = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise _Refused(command, f"--rules is not JSON ({exc})") from None
    if not isinstance(rules, dict):
        raise _Refused(
            command, '--rules is a JSON object of parameters, e.g. \'{"joker": "none"}\''
        )
    return rules


class _Refused(Exception):
    """A command line the command refuses: its message, printed as argparse prints one."""

    def __init__(self, command: str, reason: str) -> None:
        super().__init__(f"diceref {command}: error: {reason}")


def _variant(command: str, game: str, rules: dict[str, Any] | None) -> Any:
    """`game` under house rules, as a request's `rules` builds it (the same checks and
    messages: `rules.<name>: ...`); the built-in game without them."""
    from diceref.core.game import RuleParameterError
    from diceref.games.families import family_of

    try:
        return family_of(game).with_rules(game, rules)
    except RuleParameterError as exc:
        raise _Refused(command, f"rules.{exc.name}: {exc.reason}") from None


def _score(args: argparse.Namespace, settings: Settings) -> int:
    from diceref.core.errors import RuleViolation
    from diceref.games.families import family_cli, family_of

    score = family_cli(family_of(args.game)).score
    assert score is not None  # the parser offers the games of families that score
    try:
        game = _variant("score", args.game, _house_rules("score", args.rules))
    except _Refused as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        lines = score(game, args.dice, args.throw, args.rules is not None)
    except RuleViolation as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def _precompute(args: argparse.Namespace, settings: Settings) -> int:
    """Solve (or load) every table of the games named, all games by default."""
    from diceref.games.families import GAME_IDS, table_specs
    from diceref.tables.drivers import sync_store
    from diceref.tables.spec import load_sync

    unknown = [g for g in args.games if g not in GAME_IDS]
    if unknown:  # checked here: argparse's `choices` refuses an empty list on Python 3.11
        print(
            f"diceref precompute: error: unknown game(s) {', '.join(unknown)}; "
            f"choose from {', '.join(GAME_IDS)}",
            file=sys.stderr,
        )
        return 2
    if args.rules is not None:
        try:
            specs = _variant_specs(args.games, _house_rules("precompute", args.rules), args.target)
        except _Refused as exc:
            print(exc, file=sys.stderr)
            return 2
    else:
        specs = list(table_specs(args.games or None))  # the families of the games named
        if args.target:
            specs += _target_specs(args.games or GAME_IDS)
    store = sync_store(settings.tables)
    for spec in specs:
        bar = _ProgressBar(f"{spec.game} {spec.kind}")
        loaded = load_sync(store, spec, bar)
        bar.close()
        print(f"{spec.game:14} {spec.kind:7} {loaded.source:9} {loaded.seconds:7.2f} s")
        # Written to the cache: its mapping, read through once when verified, would
        # otherwise stay resident beside the next tables' solves (GBs for the targets').
        del loaded
        store.forget(spec.key)
    return 0


def _target_specs(games: Sequence[str]) -> list[Any]:
    """The play-to-win tables of the built-in games named (those whose family has them)."""
    from diceref.games.families import family_of

    specs: list[Any] = []
    for game in games:
        family = family_of(game)
        specs += family.target_tables_of(family.games[game])
    return specs


def _variant_specs(
    games: list[str], rules: dict[str, Any] | None, target: bool = False
) -> list[Any]:
    """The tables of one game under `--rules` (keyed by the rules' hash, where a request's
    `rules` looks them up), with `target` its play-to-win tables too."""
    from diceref.games.families import family_of

    if len(games) != 1:
        raise _Refused(
            "precompute",
            "--rules applies to one game: name it "
            '(diceref precompute yahtzee --rules \'{"joker": "none"}\')',
        )
    game = _variant("precompute", games[0], rules)
    family = family_of(games[0])
    specs = list(family.tables_of(game))
    if target:
        from diceref.core.game import RuleParameterError

        try:
            specs += family.target_tables_of(game)
        except RuleParameterError as exc:  # beyond what a play-to-win table is solved for
            raise _Refused("precompute", f"--target: rules.{exc.name}: {exc.reason}") from None
    if not specs:
        raise _Refused("precompute", f"{games[0]} has no tables to solve under house rules")
    print(f"{game.id} house rules {game.ruleset_id}: {json.dumps(rules, sort_keys=True)}")
    return specs


class _ProgressBar:
    """Progress of one table's solve on stderr: a bar drawn by rich on a terminal, and on
    anything else (a build log, CI) a plain line at 0, 25, 50, 75 and 100%, since a bar
    redrawn with `\\r` floods a log.  Nothing is shown for a table found in a cache."""

    STEPS = (0, 25, 50, 75, 100)

    def __init__(self, label: str) -> None:
        self.label = label
        self.console: Any = None  # rich, imported at the first progress (not for a cached table)
        self.bar: Any = None
        self.task: Any = None
        self.printed = -1  # the last plain-line step printed

    def __call__(self, done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        if self.console is None and sys.stderr.isatty():  # rich: imported only for a terminal
            from rich.console import Console

            self.console = Console(stderr=True)
        if self.console is not None and self.console.is_terminal:
            if self.bar is None:
                from rich.progress import Progress

                self.bar = Progress(console=self.console, transient=False)
                self.bar.start()
                self.task = self.bar.add_task(self.label, total=total)
            self.bar.update(self.task, completed=done)
            return
        step = max(s for s in self.STEPS if s <= percent)
        if step > self.printed:
            self.printed = step
            print(f"{self.label}: solving, {step}%", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _review(args: argparse.Namespace, settings: Settings) -> int:
    """Print the review of the game in the file; 2 for a file that is not a reviewable game.

    A body naming a `game` is reviewed by that game's family; any other by the first family
    whose review it is (a Yardkle review names no game; a custom scorecard `ruleset` none).
    `--target N` is the body's `target` (the families whose review takes one).  The tables
    come from the store as `diceref precompute` leaves them (solved if no cache has them,
    the solve's progress on stderr)."""
    import msgspec
    from rich.console import Console

    from diceref.core.errors import RuleViolation
    from diceref.core.game import RuleParameterError
    from diceref.games.families import GAME_IDS, families_with_command, family_cli, family_of
    from diceref.tables.spec import TableSpec, load_sync
    from diceref.tables.store import TableStore

    def load(spec: TableSpec) -> Any:
        bar = _ProgressBar(f"{spec.game} {spec.kind}")
        try:
            return load_sync(TableStore(settings.tables), spec, bar).array
        finally:
            bar.close()

    console = Console(width=120, highlight=False)
    path = Path(args.file)
    try:
        body = json.loads(path.read_text())
        game = body.get("game") if isinstance(body, dict) else None
        named = [family_of(game)] if game in GAME_IDS else []
        targeted = body
        if args.target is not None and isinstance(body, dict):
            targeted = {**body, "target": args.target}
        refusals: list[msgspec.ValidationError] = []
        for family in named or families_with_command("review"):
            cli = family_cli(family)
            assert cli.review is not None  # the families listed serve `review`
            try:
                review = cli.review(targeted if cli.review_target else body, load)
            except msgspec.ValidationError as exc:
                refusals.append(exc)
                continue
            if args.target is not None and not cli.review_target:
                print(
                    f"diceref review: error: --target: {path} is a {family.name} review, "
                    "which takes no target (scorecard games only)",
                    file=sys.stderr,
                )
                return 2
            _print_review(review, console)
            break
        else:
            raise refusals[0]  # the first family's words on what the file lacks
    except (OSError, json.JSONDecodeError, msgspec.ValidationError) as exc:
        print(f"diceref review: error: {path}: {exc}", file=sys.stderr)
        return 2
    except (RuleViolation, RuleParameterError) as exc:
        print(f"diceref review: error: {exc}", file=sys.stderr)
        return 2
    return 0


def _print_review(review: Any, console: Any) -> None:
    """A family's `ReviewTable` on the console: a row per decision, a section per turn."""
    from rich.table import Table

    table = Table(title=review.title)
    for column in ("turn", "throw", "dice", *review.columns):
        numeric = column in ("expected", "loss", "chance", "win loss")
        table.add_column(column, justify="right" if numeric else "left")
    for i, turn in enumerate(review.turns):
        for j, (throw, dice, cells) in enumerate(turn):
            table.add_row(
                str(i + 1) if j == 0 else "", str(throw), " ".join(map(str, dice)), *cells
            )
        table.add_section()
    console.print(table)
    for line in review.lines:
        console.print(line)


def _openapi(args: argparse.Namespace, settings: Settings) -> int:
    from diceref.http.app import create_app
    from diceref.http.openapi import render_document

    # The published defaults, not this environment's: the document is committed.
    app = create_app(Settings())
    sys.stdout.buffer.write(render_document(app).encode())
    sys.stdout.flush()
    return 0


def _whole(raw: str, least: int) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{value} must be at least {least}")
    return value


def _positive(raw: str) -> int:
    return _whole(raw, 1)


def _at_least_zero(raw: str) -> int:
    return _whole(raw, 0)


RULES_HELP = (
    'house rules: parameter overrides as GET /games/{game} lists them, e.g. \'{"joker": '
    '"none"}\' (docs/rules/house-rules.md)'
)


def build_parser(settings: Settings | None = None) -> argparse.ArgumentParser:
    """The parser; `serve`'s defaults come from the settings (the environment)."""
    from diceref.games.families import games_with_command

    settings = settings or Settings()
    parser = argparse.ArgumentParser(prog="diceref", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the HTTP API")
    serve.add_argument("--host", default=settings.host)
    serve.add_argument("--port", type=int, default=settings.port)
    serve.add_argument("--workers", type=_positive, default=settings.workers)
    serve.add_argument(
        "--server",
        choices=("uvicorn", "granian"),
        default="granian",
        help="uvicorn runs one process, for development",
    )
    serve.set_defaults(func=_serve)
    score = sub.add_parser("score", help="list every box a throw may fill on an empty card")
    score.add_argument("game", choices=sorted(games_with_command("score")))
    score.add_argument("dice", type=int, nargs=5, metavar="D")
    score.add_argument("--throw", type=int, choices=(1, 2, 3, 4), default=3)
    score.add_argument("--rules", metavar="JSON", help=RULES_HELP)
    score.set_defaults(func=_score)
    pre = sub.add_parser(
        "precompute", help="solve the tables the caches lack (every game's by default)"
    )
    pre.add_argument("games", nargs="*", metavar="GAME", help="games to solve (default: all)")
    pre.add_argument("--rules", metavar="JSON", help=RULES_HELP + " (one GAME)")
    pre.add_argument(
        "--target",
        action="store_true",
        help="also the play-to-win tables (scorecard games: win and distribution; yardkle: "
        "the two-player duel table), which the service otherwise solves when a request "
        "first needs them (minutes for a built-in game)",
    )
    pre.set_defaults(func=_precompute)
    review = sub.add_parser(
        "review",
        help="print what each decision of a played game cost (a POST /reviews or "
        "/yardkle/reviews body)",
    )
    review.add_argument("file", metavar="FILE.json")
    review.add_argument(
        "--target",
        type=_at_least_zero,
        metavar="N",
        help="play to win: also what each decision gave up of the chance to reach a final "
        "total of N (scorecard games; the game's win table is solved if no cache has it)",
    )
    review.set_defaults(func=_review)
    openapi = sub.add_parser(
        "openapi",
        help="print the OpenAPI document (as committed: uv run diceref openapi > "
        "openapi/openapi.json)",
    )
    openapi.set_defaults(func=_openapi)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        settings = Settings.from_env()  # once, for every command, before anything starts
    except SettingsError as exc:
        print(f"diceref: error: {exc}", file=sys.stderr)
        return 2
    kernel.use_cache(settings.tables.kernel_dir)
    parser = build_parser(settings)
    args = parser.parse_args(argv)
    if args.command == "serve" and args.server == "uvicorn" and args.workers > 1:
        parser.error("--server uvicorn runs one process: drop --workers or use granian")
    result: int = args.func(args, settings)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
