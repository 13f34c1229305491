"""The ``referee tournament`` and ``referee standings`` commands (registered in ``app``).

Thin: ``tournament_command`` declares the options, bundles them into a
``TournamentOptions`` and makes the checked plan of them (``tournament_setup``: the
options override the file's keys, ``Plan.from_config`` checks the result); one call,
``run_and_report`` (``tournament_run``), runs it (``run_tournament``) with a line per
game and prints the final tables. Every user error is a ``UserError`` with one line,
which the console script prints as ``referee: error: ...`` (exit status 2).

This module holds the declarations only: what the commands run is imported when they
run, so reading it (``referee --help`` does) costs no runner, pydantic or html code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tournaments.cli.options import (
    TOURNAMENT_NOT_STARTED,
    DepthOption,
    DrawOption,
    EachOption,
    EngineOption,
    NodesOption,
    ResignOption,
    SandboxCpuOption,
    SandboxMemoryOption,
    SandboxOption,
    SandboxProcsOption,
    TcOption,
    written_path,
)
from tournaments.cli.signals import stoppable


@stoppable(TOURNAMENT_NOT_STARTED)
def tournament_command(
    config: Annotated[
        Path | None,
        typer.Argument(metavar="[CONFIG.toml]", help="Tournament file (TOML or JSON)."),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the tournament in --out.")
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", metavar="DIR", parser=written_path, help="Output directory."
        ),
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
    tc: TcOption = None,
    movetime: Annotated[
        int | None, typer.Option("--movetime", min=1, help="Fixed ms per move.")
    ] = None,
    margin: Annotated[
        int | None, typer.Option("--margin", min=0, help="Grace per move, ms.")
    ] = None,
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
    from tournaments.play import prestart

    # Before the runner's code is read: the workers start up beside it.
    prestart.start_for_flags(concurrency, workers, elsewhere=cluster is not None or resume)
    try:
        from tournaments.cli.tournament_run import run_and_report
        from tournaments.cli.tournament_setup import TournamentOptions, tournament_setup

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
    finally:
        prestart.discard()


def standings_command(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="A tournament's --out.")],
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="plain, github, html (a whole page) or json.")
    ] = "plain",
) -> None:
    """Print the standings, crosstable and ratings of a tournament (also while it runs);
    a knockout's bracket too."""
    import html
    import json

    from tournaments.event.config import ConfigError
    from tournaments.event.knockout import bracket_json, bracket_lines
    from tournaments.html.page import page
    from tournaments.results.summary import summary_json
    from tournaments.results.tables import FORMATS, render, title
    from tournaments.runner.phases import event_knockout
    from tournaments.store.event_dir import open_event

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
