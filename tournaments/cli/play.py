"""The body of ``referee play`` (its options are declared in ``app``): a match is a
one-encounter event.

``play_command`` bundles its options into a ``PlayOptions``; ``play_setup`` checks the
ones the config does not (the seat count, the record file), ``match_config`` makes the
match's config (the event model a tournament has: entrants,
the game, the clock, the number of games, the seed, openings) and ``play_setup`` hands
it to the tournament's own ``checked_plan`` (adjudication, sandbox, search limits, notes, engine
checks: the same steps in the same order); ``play_match`` runs it through the
tournament's driver (``tournaments.runner.match``) and prints a line per game and the
standings. So ``play`` and ``tournament`` play, retry and record games the same way.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import typer
from tabulate import tabulate

from referee.core import DEFAULT_MAX_PLIES
from referee.errors import UserError
from referee.record import sync_file
from referee.registry import make_game
from tournaments.cli.progress import game_line
from tournaments.cli.signals import run_until_signalled
from tournaments.cli.tournament_setup import (
    RunOptions,
    checked_plan,
    clock_flag,
    common_option_settings,
    engine_entrants,
)
from tournaments.event.config import TournamentConfig, parse_config
from tournaments.event.plan import Plan
from tournaments.play.errors import TournamentError
from tournaments.play.worker import WorkerError
from tournaments.results.counts import Counts
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, summarize_counts
from tournaments.results.tables import standings_rows, voids_text
from tournaments.runner.match import MatchResult, run_match
from tournaments.runner.record_out import is_named_pipe, same_as_stdout

MATCH_EVENT = "referee match"
"""The ``Event`` tag of ``play``'s records."""
MATCH_SOURCE = "command line"
"""Where a match's config comes from, as its errors name it."""

@dataclass(frozen=True)
class PlayOptions:
    """``referee play``'s options as given (None: not given); the names are the command's
    parameters (``play --help`` says what each means), ``game`` its GAME argument."""

    game: str
    engine: list[str]
    tc: str | None = None
    movetime: int | None = None
    margin: int = 50
    games: int = 2
    seed: int = 1
    option: list[str] | None = None
    out: Path | None = None
    max_plies: int = DEFAULT_MAX_PLIES
    quiet: bool = False
    nodes: int | None = None
    depth: int | None = None
    each: list[str] | None = None
    resign: str | None = None
    draw: str | None = None
    sandbox: str | None = None
    sandbox_memory: int | None = None
    sandbox_cpu: int | None = None
    sandbox_procs: int | None = None
    transcripts: str = "failures"
    concurrency: int = 1
    openings: Path | None = None
    opening_plies: int | None = None
    cluster: str | None = None


def play_setup(options: PlayOptions) -> Plan:
    """The checked plan of the match ``options`` describe: its config (``match_config``),
    then, once the record file (``--out``) is known to take records, the options
    ``tournament`` shares laid over it (``checked_plan``: the notes, the ``Engines:``
    line, the engine checks, as ``tournament``'s).

    :raises UserError: a seat count the game does not have (its own line, before the
        config), a bad setting (as ``tournament``'s config), a record file that cannot
        be written, or as ``checked_plan``.
    """
    settings, _ = common_option_settings(options)
    make_game(options.game, settings.get("options", {})).check_players(len(options.engine))
    settings["games"] = options.games  # in all (tournament's --games: per encounter)
    entrants, shared = engine_entrants(
        options.engine,
        options.each,
        nodes=options.nodes,
        depth=options.depth,
        clock=clock_flag(options.tc, options.movetime),
    )
    cfg = match_config(settings, entrants)
    if options.out is not None:
        check_appendable(options.out)
    run = RunOptions.given(options, shared)
    hidden = [options.out] if options.out is not None else []
    return checked_plan(cfg, MATCH_SOURCE, run, hidden=hidden)


def match_config(settings: dict[str, Any], entrants: list[dict[str, Any]]) -> TournamentConfig:
    """The config of a match: ``entrants`` (one per seat) meet at one table, seats
    rotated every game (``seat_order = "cyclic"``: with two seats the same as every
    arrangement), plus the config keys in ``settings`` (``game``, ``games``, ``seed``,
    ``tc``, ...). ``checked_plan`` makes its plan, as it does a tournament's.

    :raises ConfigError: a bad setting (one line naming the key, as ``tournament``'s).
    """
    data = {
        "event": MATCH_EVENT,
        "players": len(entrants),
        "seat_order": "cyclic",
        "entrants": entrants,
        **settings,
    }
    return parse_config(data, MATCH_SOURCE)


def check_appendable(path: Path) -> None:
    """Fail before the first game if records cannot be appended (and synced) to ``path``
    (any writable file: a device such as ``/dev/null`` has nothing to sync). A named
    pipe is only checked for the right to write: opening it would wait for its reader,
    and closing it would end the reader's input before the first game."""
    if is_named_pipe(path):
        if not os.access(path, os.W_OK):
            raise UserError(f"cannot write records to {path}: Permission denied")
        return
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
    """Play the match, a line per game (void attempts too), then the standings: the
    table ``tournament`` prints of the same games (``results.tables.standings_rows``).

    A stop signal ends it with one line on what was kept, exit 130.

    :raises UserError: a game stayed void (``VOID_ATTEMPTS``), or a worker process or the
        cluster failed; the games before are in ``out``.
    """
    kept = None if plan.config.transcripts == "none" else transcript_file(out)
    total = plan.total()
    info = EventInfo.from_plan(plan)
    counts = Counts(info.names, info.paired)
    """The scored games, folded as a tournament's are (memory does not grow with them)."""
    finished = 0
    # With the records on the standard output (--out /dev/stdout), it holds them only.
    err = out is not None and same_as_stdout(out)

    def on_game(report: GameReport) -> None:
        nonlocal finished
        if not report.void:
            finished += 1
            counts.add(report)
        if not quiet:
            typer.echo(game_line(report, total), err=err)

    def on_wait(note: str) -> None:
        typer.echo(f"referee: {note}", err=True)

    try:
        result: MatchResult = run_until_signalled(
            lambda: run_match(
                plan,
                out,
                on_game=on_game,
                transcript_file=kept,
                keep_played=False,
                on_wait=on_wait,
            )
        )
    except KeyboardInterrupt:
        saved = f"; they are in {out}" if out is not None and finished else ""
        typer.echo(f"referee: interrupted after {finished} finished game(s){saved}", err=True)
        raise typer.Exit(130) from None
    except WorkerError as exc:  # a killed worker process: one line, the games kept
        saved = f"; the {finished} finished game(s) are in {out}" if out and finished else ""
        raise exc.reported(saved) from None  # a bug in the worker: its traceback
    except TournamentError as exc:  # a game stayed void: the match cannot go on
        if not finished:
            raise UserError(f"no game could be played: {exc}") from None
        saved = f"; the {finished} finished game(s) are in {out}" if out is not None else ""
        raise UserError(f"{exc}{saved}") from None
    summary = replace(
        summarize_counts(info, counts), voids=result.voids, runner_voids=result.runner_voids
    )
    headers, cells = standings_rows(summary)
    typer.echo("", err=err)
    typer.echo(tabulate(cells, headers=headers, disable_numparse=True), err=err)
    voids = voids_text(summary)  # the sentence of tournament's tables and report
    if voids is not None:
        typer.echo(voids, err=err)
    if out is not None:
        typer.echo(f"records appended to {out}", err=err)
