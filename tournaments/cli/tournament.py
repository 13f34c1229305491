"""The ``referee tournament`` and ``referee standings`` commands (registered in ``app``).

Thin: ``tournament_command`` declares the options, bundles them into a
``TournamentOptions`` and makes the checked plan of them (``tournament_setup``: the
options override the file's keys, ``Plan.from_config`` checks the result); one call,
``run_and_report``, runs it (``run_tournament``) with a line per game and prints the
final tables. Every user error is a ``UserError`` with one line, which the
console script prints as ``referee: error: ...`` (exit status 2).
"""

from __future__ import annotations

import contextlib
import html
import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn, TextIO

import typer

from referee.clock import TC_HELP
from tournaments.cli.adjudication_options import DrawOption, ResignOption
from tournaments.cli.progress import ProgressDisplay, void_line
from tournaments.cli.sandbox import (
    SandboxCpuOption,
    SandboxMemoryOption,
    SandboxOption,
    SandboxProcsOption,
)
from tournaments.cli.serve import live_server, parse_live
from tournaments.cli.signals import run_until_signalled, stoppable
from tournaments.cli.tournament_setup import (
    TournamentOptions,
    TournamentSetup,
    tournament_setup,
)
from tournaments.event.config import (
    ConfigError,
)
from tournaments.event.knockout import bracket_json, bracket_lines
from tournaments.event.plan import Plan
from tournaments.html.page import page
from tournaments.play.worker import WorkerError
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, Summary, summarize_counts, summary_json
from tournaments.results.tables import FORMATS, render, title
from tournaments.runner.events import EventLog, open_events
from tournaments.runner.phases import event_knockout, knockout_state
from tournaments.runner.run import Progress, RunResult, run_tournament
from tournaments.store.event_dir import open_event
from tournaments.store.journal import GAMES, JOURNAL, JournalError, read_header

ENGINE_HELP = (
    "An engine: a built-in name, a command, NAME=COMMAND, or settings"
    " 'name=N cmd=COMMAND tc=… nodes=… depth=… option.NAME=V dir=… sandbox=…"
    " restart=on' (tournaments/README.md). Repeat for each engine."
)
"""The help of ``-e`` in ``play`` and ``tournament``."""
EngineOption = Annotated[
    list[str] | None,
    typer.Option("--engine", "-e", metavar="ENGINE", help=ENGINE_HELP),
]
EachOption = Annotated[
    list[str] | None,
    typer.Option(
        "--each",
        metavar="KEY=VALUE…",
        help="Settings for every engine that does not set the key itself (tc=, nodes=,"
        " depth=, option.NAME=, …; as -e's settings). Repeatable.",
    ),
]
NodesOption = Annotated[
    int | None,
    typer.Option(
        "--nodes",
        min=1,
        metavar="N",
        help="Node limit per move (go nodes N) of every engine without its own that declares"
        " 'feature nodes' (the others play without one, with a note). As --each nodes=N.",
    ),
]
DepthOption = Annotated[
    int | None,
    typer.Option(
        "--depth",
        min=1,
        metavar="D",
        help="Depth limit per move (go depth D), as --nodes: for engines declaring"
        " 'feature depth'. As --each depth=D.",
    ),
]


NOT_STARTED = (
    "interrupted before the tournament started (no game scheduled, nothing to resume):"
    " run the same command again"
)
"""What a stop before the first game is scheduled ends with."""


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
        typer.echo(f"referee: {NOT_STARTED}", err=True)
    raise typer.Exit(130)


def _started(directory: Path) -> bool:
    """Whether ``directory`` holds a tournament's journal (a complete header line)."""
    try:
        return read_header(directory / JOURNAL) is not None
    except (OSError, JournalError):
        return False


@stoppable(NOT_STARTED)
def tournament_command(
    config: Annotated[
        Path | None,
        typer.Argument(metavar="[CONFIG.toml]", help="Tournament file (TOML or JSON)."),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the tournament in --out.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", metavar="DIR", help="Output directory.")
    ] = None,
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", "-c", min=1, help="Games at once.")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=0, help="Worker processes (0: one event loop)."),
    ] = None,
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game id.")] = None,
    engine: EngineOption = None,
    each: EachOption = None,
    entrants_mode: Annotated[
        str | None,
        typer.Option(
            "--entrants",
            metavar="add|replace",
            help="Beside CONFIG.toml: -e entrants are added to the file's (add, the default)"
            " or replace them.",
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option("--format", help="round-robin, gauntlet, swiss or knockout."),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds", min=1, help="Rounds: repetitions of the schedule (Swiss: rounds)."
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            min=1,
            help="Games per encounter (pairing or triple) per round, seats rotated, as"
            " cutechess's -games (default: one per seat arrangement).",
        ),
    ] = None,
    per_encounter: Annotated[
        int | None,
        typer.Option("--games-per-encounter", min=1, help="The same as --games."),
    ] = None,
    max_games: Annotated[
        int | None,
        typer.Option(
            "--max-games",
            min=1,
            help="Total games instead of rounds: the schedule repeats until N games"
            " (the config's games).",
        ),
    ] = None,
    players: Annotated[int | None, typer.Option("--players", min=2, help="Seats.")] = None,
    challengers: Annotated[
        int | None,
        typer.Option("--challengers", min=1, help="Gauntlet: the first N entrants challenge."),
    ] = None,
    seat_order: Annotated[
        str | None, typer.Option("--seat-order", help="all or cyclic (3+ seats).")
    ] = None,
    tc: Annotated[str | None, typer.Option("--tc", help=TC_HELP)] = None,
    movetime: Annotated[int | None, typer.Option("--movetime", help="Fixed ms per move.")] = None,
    margin: Annotated[int | None, typer.Option("--margin", help="Grace per move, ms.")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help="Rule option k=v.")] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=0, help="Seeds the games, random openings and book order."),
    ] = None,
    openings: Annotated[
        Path | None, typer.Option("--openings", help="File of start move sequences.")
    ] = None,
    opening_plies: Annotated[
        int | None, typer.Option("--opening-plies", min=0, help="Random opening plies.")
    ] = None,
    sprt: Annotated[
        str | None, typer.Option("--sprt", help="ELO0,ELO1[,ALPHA,BETA] (two entrants).")
    ] = None,
    event: Annotated[str | None, typer.Option("--event", help="Event name.")] = None,
    max_plies: Annotated[
        int | None,
        typer.Option("--max-plies", min=1, help="Move limit: the game is then scored as it is."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No per-game lines.")] = False,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="tcp://HOST:PORT|local",
            help="Play on this Dask scheduler; local plays here even if the file has [cluster].",
        ),
    ] = None,
    sandbox: SandboxOption = None,
    sandbox_memory: SandboxMemoryOption = None,
    sandbox_cpu: SandboxCpuOption = None,
    sandbox_procs: SandboxProcsOption = None,
    transcripts: Annotated[
        str | None,
        typer.Option(
            "--transcripts",
            metavar="failures|all|none",
            help="Engine transcripts kept in DIR/logs/ (default failures).",
        ),
    ] = None,
    live: Annotated[
        str | None,
        typer.Option(
            "--live",
            metavar="[HOST:]PORT",
            help="Serve a live page of the event (127.0.0.1 unless a host is given).",
        ),
    ] = None,
    nodes: NodesOption = None,
    depth: DepthOption = None,
    resign: ResignOption = None,
    draw: DrawOption = None,
    wait: Annotated[
        int,
        typer.Option(
            "--wait", min=0, metavar="MS", help="Milliseconds each game slot waits between games."
        ),
    ] = 0,
    rating_interval: Annotated[
        int,
        typer.Option(
            "--rating-interval",
            min=0,
            metavar="N",
            help="Print the standings every N finished games (0: only at the end).",
        ),
    ] = 0,
    events: Annotated[
        str | None,
        typer.Option(
            "--events",
            metavar="FILE|-",
            help="Write every event as a JSON line to FILE (appended) or stdout (-): "
            "see tournaments/README.md, 'Event stream'.",
        ),
    ] = None,
    events_moves: Annotated[
        bool,
        typer.Option("--events-moves", help="Add a move event per move to --events."),
    ] = False,
) -> None:
    """Run a tournament from CONFIG.toml and/or options; resume one with --resume.

    Writes DIR/games.tgn, DIR/journal.jsonl, DIR/logs/ and DIR/results.json, prints
    one line per game (and a progress line on a terminal) and the final tables.
    """
    options = TournamentOptions(
        config=config, resume=resume, out=out, concurrency=concurrency, workers=workers,
        game=game, engine=engine, each=each, entrants_mode=entrants_mode, fmt=fmt,
        rounds=rounds, games=games, per_encounter=per_encounter, max_games=max_games,
        players=players, challengers=challengers, seat_order=seat_order, tc=tc,
        movetime=movetime, margin=margin, option=option, seed=seed, openings=openings,
        opening_plies=opening_plies, sprt=sprt, event=event, max_plies=max_plies,
        quiet=quiet, cluster=cluster, sandbox=sandbox, sandbox_memory=sandbox_memory,
        sandbox_cpu=sandbox_cpu, sandbox_procs=sandbox_procs, transcripts=transcripts,
        live=live, nodes=nodes, depth=depth, resign=resign, draw=draw, wait=wait,
        rating_interval=rating_interval, events=events, events_moves=events_moves,
    )  # fmt: skip
    run_and_report(tournament_setup(options), options)


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
    """The standings (and a knockout's bracket), the voids, an SPRT's stop, and where
    the records are; on the standard error with ``err`` (``--events -``)."""

    def say(text: str, nl: bool = True) -> None:
        typer.echo(text, nl=nl, err=err)

    summary = summarize_counts(EventInfo.from_plan(plan), result.counts)
    say("")
    say(render(summary, "plain"), nl=False)
    if plan.knockout:
        say("\nKnockout")
        say("\n".join(bracket_lines(knockout_state(plan, directory), plan.names)))
    if result.voids:
        say(void_line(result.voids, result.runner_voids))
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
        out = open_events(target)
    except OSError as exc:
        raise ConfigError(f"cannot open --events {target}: {exc.strerror or exc}") from None
    return EventLog(out, moves=moves), out


def _finished(directory: Path) -> int:
    """Finished games in ``directory`` (0 if it holds no readable tournament)."""
    try:
        return open_event(directory).counts().done
    except JournalError:
        return 0


def standings_command(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="A tournament's --out.")],
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="plain, github, html (a whole page) or json.")
    ] = "plain",
) -> None:
    """Print the standings, crosstable and ratings of a tournament (also while it runs);
    a knockout's bracket too."""
    if fmt not in FORMATS:
        raise ConfigError(f"unknown --format {fmt!r} (known: {', '.join(FORMATS)})")
    summary = open_event(directory).summary()  # void counts included
    knockout = event_knockout(directory)
    if fmt == "json" and knockout is not None:
        data = {**summary_json(summary), "knockout": bracket_json(*knockout)}
        typer.echo(json.dumps(data, indent=2))
        return
    text = render(summary, fmt)
    if knockout is not None:
        lines = bracket_lines(*knockout)
        if fmt == "html":
            text += "<h3>Knockout</h3>\n<pre>" + html.escape("\n".join(lines)) + "</pre>\n"
        else:
            text += ("\n## Knockout\n\n```\n" if fmt == "github" else "\nKnockout\n")
            text += "\n".join(lines) + ("\n```\n" if fmt == "github" else "\n")
    if fmt == "html":  # a whole page in the report's style, not a fragment to embed
        typer.echo(page(title(summary), text), nl=False)
        return
    typer.echo(text, nl=False)
