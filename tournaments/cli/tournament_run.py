"""What ``referee tournament`` does once its plan is made (the command is declared in
``tournament``).

``run_and_report`` runs the checked plan (``run_tournament``) with a line per game, the
``--live`` page, the ``--events`` stream and the ``--rating-interval`` standings, then
prints the final tables; a stop signal ends it with what was kept and how to go on.
The command imports this module when it runs, so no other command reads the runner.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import replace
from pathlib import Path
from typing import NoReturn, TextIO

import typer

from tournaments.cli.options import TOURNAMENT_NOT_STARTED
from tournaments.cli.progress import ProgressDisplay
from tournaments.cli.serve import live_server, parse_live
from tournaments.cli.signals import run_until_signalled
from tournaments.cli.tournament_setup import TournamentOptions, TournamentSetup
from tournaments.event.config import ConfigError
from tournaments.event.knockout import bracket_lines
from tournaments.event.plan import Plan
from tournaments.play.worker import WorkerError
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, Summary, summarize_counts
from tournaments.results.tables import render
from tournaments.runner.events import EventLog, open_events
from tournaments.runner.phases import knockout_state
from tournaments.runner.run import Progress, RunResult, run_tournament
from tournaments.store.event_dir import open_event
from tournaments.store.journal import GAMES, JOURNAL, JournalError, read_header


def _interrupted(directory: Path | None, done: int | None = None) -> NoReturn:
    """Say what an interrupted run kept (``done`` finished games, when known) and how to
    go on; exit 130."""
    if directory is not None and (done is not None or _started(directory)):
        done = done if done is not None else _finished(directory)
        typer.echo(
            f"referee: interrupted with {done} finished game(s) in {directory}; "
            f"continue with: referee tournament --resume --out {directory}",
            err=True,
        )
    else:
        typer.echo(f"referee: {TOURNAMENT_NOT_STARTED}", err=True)
    raise typer.Exit(130)


def _started(directory: Path) -> bool:
    """Whether ``directory`` holds a tournament's journal (a complete header line)."""
    try:
        return read_header(directory / JOURNAL) is not None
    except (OSError, JournalError):
        return False


def run_and_report(setup: TournamentSetup, options: TournamentOptions) -> None:
    """Run the plan (``run_tournament``) with a line per game, the ``--live`` page, the
    ``--events`` stream and the ``--rating-interval`` standings, then print the final
    tables. A stop signal ends it with what was kept and how to go on (exit 130).

    :raises ConfigError: a bad ``--live`` address or ``--events`` target.
    :raises TournamentError: a worker process was killed (one line, with the resume hint);
        ``WorkerError``: a worker failed of a bug (its traceback shows).
    """
    plan, directory = setup.plan, setup.directory
    live_address = parse_live(options.live) if options.live is not None else None
    lines = _RunLines(options)
    log, log_file = _event_log(options.events, options.events_moves)
    view = (
        live_server(directory, live_address)
        if live_address is not None
        else contextlib.nullcontext()
    )
    try:
        with view as line:
            if line:
                typer.echo(line, err=True)
            result: RunResult = run_until_signalled(
                lambda: run_tournament(
                    plan,
                    directory,
                    resume=options.resume,
                    on_game=lines.game,
                    live=live_address is not None,
                    keep_played=False,
                    wait=options.wait / 1000,
                    standings_every=options.rating_interval,
                    on_standings=lines.standings,
                    events=log,
                )
            )
        lines.display.clear()
        _final_tables(plan, directory, result, err=lines.err)
    except WorkerError as exc:  # a killed worker: one line, and how to go on (a bug: its trace)
        lines.display.clear()
        raise exc.reported("; continue with --resume") from None
    except KeyboardInterrupt:  # a signal during the games or the final tables
        lines.display.clear()
        _interrupted(directory, lines.done)
    finally:
        if log_file is not None and log_file is not sys.stdout:
            log_file.close()
        if log is not None and log.error is not None:
            typer.echo(f"referee: note: the event stream stopped: {log.error}", err=True)


class _RunLines:
    """What a run prints as it goes: a line per game (and the progress line on a
    terminal) and the ``--rating-interval`` standings; on the standard error with
    ``--events -`` (the standard output then holds the JSON lines only). Keeps the
    finished games as of the last one journaled, which an interrupt's line names
    without reading the directory back."""

    def __init__(self, options: TournamentOptions) -> None:
        self.err = options.events == "-"
        self.display = ProgressDisplay(sys.stderr if self.err else sys.stdout, quiet=options.quiet)
        self.done: int | None = None

    def game(self, report: GameReport, progress: Progress) -> None:
        self.done = progress.done
        self.display.game(report, progress)

    def standings(self, summary: Summary) -> None:
        self.display.clear()
        typer.echo("", err=self.err)
        typer.echo(render(summary, "plain"), err=self.err)


def _final_tables(plan: Plan, directory: Path, result: RunResult, *, err: bool) -> None:
    """The standings (and a knockout's bracket) with this run's void games under the
    title, an SPRT's stop, and where the records are; on the standard error with
    ``err`` (``--events -``)."""

    def say(text: str, nl: bool = True) -> None:
        typer.echo(text, nl=nl, err=err)

    summary = replace(
        summarize_counts(EventInfo.from_plan(plan), result.counts),
        voids=result.voids,  # this run's, said under the title as `standings` says them
        runner_voids=result.runner_voids,
    )
    say("")
    say(render(summary, "plain"), nl=False)
    if plan.knockout:
        say("\nKnockout")
        say("\n".join(bracket_lines(knockout_state(plan, directory), plan.names)))
    if result.sprt_decision is not None and summary.done < summary.info.total:
        say(f"stopped by the SPRT ({result.sprt_decision} accepted)")
    say(f"records in {directory / GAMES}")


def _event_log(target: str | None, moves: bool) -> tuple[EventLog | None, TextIO | None]:
    """The event stream of ``--events`` (None without it) and the file it writes.

    :raises ConfigError: ``--events-moves`` without ``--events``, or a file that cannot
        be opened.
    """
    if target is None:
        if moves:
            raise ConfigError("--events-moves needs --events FILE|-")
        return None, None
    try:
        out = open_events(target, on_wait=lambda note: typer.echo(f"referee: {note}", err=True))
    except OSError as exc:
        raise ConfigError(f"cannot open --events {target}: {exc.strerror or exc}") from None
    return EventLog(out, moves=moves), out


def _finished(directory: Path) -> int:
    """Finished games in ``directory`` (0 if it holds no readable tournament)."""
    try:
        return open_event(directory).counts().done
    except JournalError:
        return 0
