"""The body of ``referee play`` (its options are declared in ``app``): a match is a
one-encounter event.

``match_plan`` makes the match's config (the event model a tournament has: entrants,
the game, the clock, the number of games, the seed, openings, adjudication) and checks it
with ``Plan.from_config``, as ``tournament`` does; ``play_match`` runs it through the
tournament's driver (``tournaments.runner.match``) and prints a line per game and the
standings. So ``play`` and ``tournament`` play, retry and record games the same way.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import typer
from tabulate import tabulate

from referee.core import Outcome
from referee.errors import UserError
from referee.record import sync_file
from tournaments.cli.progress import game_line, void_line
from tournaments.cli.sandbox import SandboxLimits, with_limits
from tournaments.cli.signals import run_until_signalled
from tournaments.cli.tournament_setup import (
    check_local_engines,
    with_command_line_adjudication,
    with_shared_limits,
)
from tournaments.event.config import SandboxMode, parse_config, with_sandbox
from tournaments.event.plan import Plan
from tournaments.play.errors import TournamentError
from tournaments.play.worker import WorkerError
from tournaments.results.game import GameReport
from tournaments.results.standings import has_game_points, standings, standings_table
from tournaments.runner.match import MatchResult, run_match

MATCH_EVENT = "referee match"
"""The ``Event`` tag of ``play``'s records."""

NOT_STARTED = "interrupted before the first game (nothing written): run the same command again"
"""What a stop while the match is set up (the config read, the engines checked) ends with."""


def match_plan(
    settings: dict[str, Any],
    entrants: list[dict[str, Any]],
    *,
    shared: dict[str, int] | None = None,
    max_plies: int,
    resign: str | None,
    draw: str | None,
    sandbox: SandboxMode | None,
    limits: SandboxLimits | None = None,
    hidden: list[Path],
) -> Plan:
    """The checked plan of a match: ``entrants`` (one per seat) meet at one table,
    seats rotated every game (``seat_order = "cyclic"``: with two seats the same as every
    arrangement), plus the config keys in ``settings`` (``game``, ``games``, ``seed``,
    ``tc``, ...). ``hidden`` paths (the record file) are hidden from sandboxed engines.
    ``shared`` search limits (``--nodes``, ``--each nodes=``) go to the engines that
    declare the feature; a note names each one left without (``with_shared_limits``).

    :raises UserError: a bad setting, or an engine that cannot run (one line).
    """
    data = {
        "event": MATCH_EVENT,
        "players": len(entrants),
        "seat_order": "cyclic",
        "entrants": entrants,
        **settings,
    }
    cfg = parse_config(data, "command line")
    cfg = with_command_line_adjudication(cfg, max_plies=max_plies, resign=resign, draw=draw)
    if sandbox is not None:
        cfg = with_sandbox(cfg, sandbox)
    if limits is not None:
        cfg = with_limits(cfg, limits)
    if shared:
        cfg, notes = with_shared_limits(cfg, "command line", shared)
        for note in notes:
            typer.echo(f"referee: note: {note}", err=True)
    plan = Plan.from_config(cfg, "command line").hiding(hidden)
    if limits is not None:  # --sandbox-* with no engine in the sandbox: one line, not ignored
        limits.refuse_unsandboxed(plan.entrants)
    check_local_engines(plan)
    return plan


def check_appendable(path: Path) -> None:
    """Fail before the first game if records cannot be appended (and synced) to ``path``
    (any writable file: a device such as ``/dev/null`` has nothing to sync)."""
    try:
        with open(path, "ab") as f:
            sync_file(f.fileno())
    except OSError as exc:
        raise UserError(f"cannot write records to {path}: {exc.strerror or exc}") from None


def transcript_file(out: Path | None) -> Path:
    """Where ``play`` keeps transcripts: beside the record file (``games.tgn``:
    ``games.transcripts.log``), else in the temporary folder, one file per run."""
    if out is not None:
        return out.with_name(out.stem + ".transcripts.log")
    return Path(tempfile.gettempdir()) / f"referee-play-{os.getpid()}.transcripts.log"


def play_match(plan: Plan, out: Path | None, *, quiet: bool) -> None:
    """Play the match, a line per game (void attempts too), then the standings.

    A stop signal ends it with one line on what was kept, exit 130.

    :raises UserError: a game stayed void (``VOID_ATTEMPTS``), or a worker process or the
        cluster failed; the games before are in ``out``.
    """
    kept = None if plan.config.transcripts == "none" else transcript_file(out)
    total = plan.total()
    scored: list[tuple[tuple[str, ...], Outcome]] = []
    """Seats and outcome of each scored game (the standings need no more)."""

    def on_game(report: GameReport) -> None:
        if not report.void:
            scored.append((report.seats, report.outcome))
        if not quiet:
            typer.echo(game_line(report, total))

    try:
        result: MatchResult = run_until_signalled(
            lambda: run_match(plan, out, on_game=on_game, transcript_file=kept, keep_played=False)
        )
    except KeyboardInterrupt:
        saved = f"; they are in {out}" if out is not None and scored else ""
        typer.echo(f"referee: interrupted after {len(scored)} finished game(s){saved}", err=True)
        raise typer.Exit(130) from None
    except WorkerError as exc:  # a killed worker process: one line, the games kept
        saved = f"; the {len(scored)} finished game(s) are in {out}" if out and scored else ""
        raise exc.reported(saved) from None  # a bug in the worker: its traceback
    except TournamentError as exc:  # a game stayed void: the match cannot go on
        if not scored:
            raise UserError(f"no game could be played: {exc}") from None
        saved = f"; the {len(scored)} finished game(s) are in {out}" if out is not None else ""
        raise UserError(f"{exc}{saved}") from None
    _print_standings(plan, scored, result)
    if out is not None:
        typer.echo(f"records appended to {out}")


def _print_standings(
    plan: Plan, scored: list[tuple[tuple[str, ...], Outcome]], result: MatchResult
) -> None:
    rows = standings(scored, list(plan.names))
    with_points = has_game_points(outcome for _, outcome in scored)
    headers, cells = standings_table(rows, game_points=with_points)
    typer.echo("")
    typer.echo(tabulate(cells, headers=headers))
    if result.voids:
        typer.echo(void_line(result.voids, result.runner_voids))
