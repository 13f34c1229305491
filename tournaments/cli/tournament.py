"""The ``referee tournament`` and ``referee standings`` commands (registered in ``cli.py``).

Thin: options become a config mapping (command-line options override the file's
keys), ``Plan.from_config`` checks it, ``run_tournament`` runs it, ``report``
renders it. Every user error is a ``UserError`` with one line, which the
console script prints as ``referee: error: ...`` (exit status 2).
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn, TextIO

import typer

from referee.clock import TC_HELP
from referee.score_rules import DrawRule, ResignRule
from tournaments.cli.adjudication_options import DrawOption, ResignOption
from tournaments.cli.progress import ProgressDisplay, void_line
from tournaments.cli.sandbox import (
    SandboxCpuOption,
    SandboxLimits,
    SandboxMemoryOption,
    SandboxOption,
    SandboxProcsOption,
    require_sandbox,
    sandbox_mode,
    with_limits,
)
from tournaments.cli.serve import live_server, parse_live
from tournaments.cli.signals import run_until_signalled, stoppable
from tournaments.event.cluster_settings import LOCAL, ClusterConfig
from tournaments.event.config import (
    AdjudicationConfig,
    ConfigError,
    TournamentConfig,
    load_config,
    parse_config,
    read_config_data,
    with_sandbox,
)
from tournaments.event.engine_args import (
    EngineArgError,
    command_line_entrants,
    each_settings,
    key_values,
)
from tournaments.event.knockout import bracket_json, bracket_lines
from tournaments.event.plan import Plan
from tournaments.html.page import page
from tournaments.play.errors import TournamentError
from tournaments.play.features import check_features, shared_limits
from tournaments.play.worker import WorkerError
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, Summary, summarize_counts, summary_json
from tournaments.results.tables import FORMATS, render, title
from tournaments.runner.events import EventLog, open_events
from tournaments.runner.phases import event_knockout, knockout_state
from tournaments.runner.run import Progress, RunResult, run_tournament
from tournaments.store.event_dir import open_event
from tournaments.store.journal import GAMES, JOURNAL, JournalError, read_header


def _sprt(text: str) -> dict[str, Any]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) not in (2, 4):
        raise ConfigError(f"bad --sprt {text!r}: expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise ConfigError(f"bad --sprt {text!r}: expected numbers") from None
    keys = ("elo0", "elo1", "alpha", "beta")
    return dict(zip(keys, values, strict=False))


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


def clock_flag(tc: str | None, movetime: int | None) -> str | None:
    """``--tc T`` or ``--movetime MS`` as given, for messages; None when neither is."""
    if tc is not None:
        return f"--tc {tc}"
    return f"--movetime {movetime}" if movetime is not None else None


def shared_settings(
    each: list[str] | None,
    *,
    nodes: int | None,
    depth: int | None,
    clock: str | None = None,
) -> tuple[dict[str, int], dict[str, Any]]:
    """``--each`` with ``--nodes``/``--depth`` folded in: the shared search limits (which
    only engines declaring the feature get: ``features.shared_limits``) and the other
    settings. ``clock``: the event's ``--tc``/``--movetime`` as given (``clock_flag``).

    :raises EngineArgError: a bad ``--each``, ``--nodes``/``--depth`` contradicting it,
        or ``--each tc=`` beside ``--tc``/``--movetime`` (each engine would have its own
        clock: the event's would be moot).
    """
    settings = each_settings(each)
    if "tc" in settings and clock is not None:
        raise EngineArgError(
            f"{clock} and --each tc={settings['tc']} contradict (every engine without its"
            " own tc= gets --each's): give one"
        )
    for key, value in (("nodes", nodes), ("depth", depth)):
        if value is None:
            continue
        if settings.get(key, value) != value:
            raise EngineArgError(
                f"--{key} {value} and --each {key}={settings[key]} contradict: give one"
            )
        settings[key] = value
    limits: dict[str, int] = {}
    for key in ("nodes", "depth"):
        if key in settings:
            limits[key] = settings.pop(key)
    return limits, settings


def engine_entrants(
    engines: list[str],
    each: list[str] | None,
    *,
    nodes: int | None,
    depth: int | None,
    clock: str | None = None,
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """``-e`` engines with ``--each`` filled in, as config entrants (``play``'s engines, a
    tournament's without a file), and the shared search limits for ``with_shared_limits``.

    :raises EngineArgError: as ``shared_settings`` and ``command_line_entrants``.
    """
    limits, settings = shared_settings(each, nodes=nodes, depth=depth, clock=clock)
    entrants, _ = command_line_entrants(
        None, engines, settings, mode=None, source="", here=os.getcwd()
    )
    return entrants or [], limits


def engines_line(plan: Plan) -> str | None:
    """``Engines: a (5+0.1, nodes 200), greedy (10+0.1, no node limit)``: each engine's
    clock and search limits, when they differ between the engines (time odds, a limit
    some have and others not), else None (nothing worth a line)."""
    kinds = [
        (key, label)
        for key, label in (("nodes", "node"), ("depth", "depth"))
        if any(getattr(spec, key) is not None for spec in plan.entrants)
    ]
    descriptions = []
    for i, spec in enumerate(plan.entrants):
        parts = [plan.tcs[i].tag()] if plan.tcs else []
        for key, label in kinds:
            value = getattr(spec, key)
            parts.append(f"{key} {value}" if value is not None else f"no {label} limit")
        descriptions.append(", ".join(parts))
    if len(set(descriptions)) < 2:
        return None
    pairs = zip(plan.entrants, descriptions, strict=True)
    named = (f"{spec.name} ({text})" for spec, text in pairs)
    return "Engines: " + ", ".join(named)


def _same_value(*flags: tuple[str, int | None]) -> int | None:
    """The one value of flags that mean the same, or None. :raises ConfigError: two differ."""
    given = [(flag, value) for flag, value in flags if value is not None]
    if len({value for _, value in given}) > 1:
        named = " and ".join(f"{flag} {value}" for flag, value in given)
        raise ConfigError(f"{named} contradict: they are the same setting")
    return given[0][1] if given else None


def _earlier_settings(config_path: Path | None, resume_dir: Path | None) -> dict[str, Any]:
    """The settings the options override: the config file's, or those a resumed
    tournament started with; empty when neither can be read (``build_config`` then says
    why)."""
    if config_path is not None:
        return read_config_data(config_path)
    if resume_dir is not None:
        try:
            header = read_header(resume_dir / JOURNAL)
        except (OSError, JournalError):
            return {}
        return dict(header[0]) if header is not None else {}
    return {}


_EITHER_OR = (("rounds", "games"), ("games", "rounds"), ("tc", "movetime_ms"),
              ("movetime_ms", "tc"))  # fmt: skip
"""Keys of which the first, given on the command line, makes the second of the file moot."""


def override_notes(
    earlier: dict[str, Any], overrides: dict[str, Any], flags: dict[str, str]
) -> list[str]:
    """A note for every option that overrides a different value of the file (or of the
    resumed tournament), and for a file key an option makes moot (``--rounds`` beside a
    file's total ``games``, ``--tc`` beside its ``movetime_ms``, and the reverse: the
    moot key is dropped from ``overrides``' result, except ``rounds``, which a total
    ignores)."""
    notes: list[str] = []
    for key, flag in flags.items():
        value = overrides[key]
        if key in earlier and earlier[key] != value:
            was = _shown(earlier[key])
            notes.append(f"{flag} {_shown(value)} overrides the config's {key} = {was}")
    for key, moot in _EITHER_OR:
        if key in flags and moot not in flags and earlier.get(moot) is not None:
            if moot == "rounds":
                if earlier[moot] != 1:
                    notes.append(
                        f"{flags[key]} {overrides[key]}: the config's rounds = {earlier[moot]}"
                        " is ignored (the schedule repeats until that many games)"
                    )
                continue
            overrides[moot] = None
            notes.append(
                f"{flags[key]} {_shown(overrides[key])} replaces the config's"
                f" {moot} = {_shown(earlier[moot])}"
            )
    return notes


def _shown(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)


def with_shared_limits(
    cfg: TournamentConfig, source: str, limits: dict[str, int]
) -> tuple[TournamentConfig, list[str]]:
    """``cfg`` with the shared search limits given to every entrant without its own that
    declares the feature (each such entrant is started once to see), and the notes of
    those left without. On a cluster the workers run the engines: every entrant without
    its own limit gets it (the workers' preflight refuses one lacking the feature).

    :raises ConfigError: as ``Plan.from_config``; EngineSetupError: an engine that does not start.
    """
    if cfg.cluster.address is not None:
        entrants = [
            entrant.model_copy(
                update={k: v for k, v in limits.items() if getattr(entrant, k) is None}
            )
            for entrant in cfg.entrants
        ]
        return cfg.model_copy(update={"entrants": entrants}), []
    probe = Plan.from_config(cfg, source)
    require_sandbox(probe.entrants)
    specs, notes = run_until_signalled(  # a stop signal stops the engine being probed
        lambda: shared_limits(probe.entrants, limits, start_timeout=cfg.start_timeout)
    )
    entrants = [
        entrant.model_copy(update={"nodes": spec.nodes, "depth": spec.depth})
        for entrant, spec in zip(cfg.entrants, specs, strict=True)
    ]
    return cfg.model_copy(update={"entrants": entrants}), notes


def build_config(
    config_path: Path | None,
    resume_dir: Path | None,
    overrides: dict[str, Any],
) -> tuple[TournamentConfig, str]:
    """The config from the file, or a resumed directory's journal, or options alone.

    :raises ConfigError: see ``tournaments.event.config``.
    """
    if config_path is not None:
        return load_config(config_path, overrides), str(config_path)
    if resume_dir is not None:
        try:
            header = read_header(resume_dir / JOURNAL)  # JournalError: one line as it is
        except OSError as exc:
            raise ConfigError(f"cannot read {resume_dir}: {exc.strerror or exc}") from None
        if header is None:
            raise ConfigError(f"nothing to resume: {resume_dir} holds no tournament")
        data = dict(header[0])
        data.update(overrides)
        return parse_config(data, f"{resume_dir}/journal.jsonl"), str(resume_dir)
    return parse_config(overrides, "command line"), "command line"


def with_command_line_adjudication(
    cfg: TournamentConfig, *, max_plies: int | None, resign: str | None, draw: str | None
) -> TournamentConfig:
    """``--max-plies``, ``--resign`` and ``--draw`` over the config's ``[adjudication]``,
    key by key (the section's other keys stay).

    :raises ConfigError: a rule that does not parse (``referee.score_rules``' one line).
    """
    update: dict[str, Any] = {}
    if max_plies is not None:
        update["max_plies"] = max_plies
    try:
        if resign is not None:
            rule = ResignRule.parse(resign)
            update["resign"] = {"movecount": rule.movecount, "share": rule.share}
        if draw is not None:
            drawn = DrawRule.parse(draw)
            update["draw"] = {
                "movenumber": drawn.movenumber,
                "movecount": drawn.movecount,
                "spread": drawn.spread,
            }
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if not update:
        return cfg
    section = AdjudicationConfig.model_validate({**cfg.adjudication.model_dump(), **update})
    return cfg.model_copy(update={"adjudication": section})


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
    per = _same_value(("--games", games), ("--games-per-encounter", per_encounter))
    if rounds is not None and max_games is not None:
        raise ConfigError(
            "give --rounds or --max-games, not both (--max-games repeats the schedule until"
            " that many games, whatever the rounds)"
        )
    plain = {
        "game": (game, "--game"),
        "format": (fmt, "--format"),
        "rounds": (rounds, "--rounds"),
        "games": (max_games, "--max-games"),
        "games_per_encounter": (per, "--games"),
        "players": (players, "--players"),
        "challengers": (challengers, "--challengers"),
        "seat_order": (seat_order, "--seat-order"),
        "tc": (tc, "--tc"),
        "movetime_ms": (movetime, "--movetime"),
        "margin_ms": (margin, "--margin"),
        "seed": (seed, "--seed"),
        "event": (event, "--event"),
        "concurrency": (concurrency, "--concurrency"),
        "workers": (workers, "--workers"),
        "transcripts": (transcripts, "--transcripts"),
    }
    overrides: dict[str, Any] = {k: v for k, (v, _) in plain.items() if v is not None}
    flags = {k: flag for k, (v, flag) in plain.items() if v is not None}
    if option:
        overrides["options"] = key_values(option, "--option")
        flags["options"] = "--option"
    if openings is not None or opening_plies is not None:
        section: dict[str, Any] = {}
        if openings is not None:
            section["file"] = str(openings.resolve())
        if opening_plies is not None:
            section["plies"] = opening_plies
        overrides["openings"] = section
    if sprt is not None:
        overrides["sprt"] = _sprt(sprt)
    shared, each_settings_ = shared_settings(
        each, nodes=nodes, depth=depth, clock=clock_flag(tc, movetime)
    )
    resumed = resume and config is None
    if resumed and (engine or each_settings_ or shared):
        raise ConfigError(
            "--resume goes on with the tournament's own entrants: -e, --each, --nodes and"
            " --depth cannot change them"
        )
    earlier = _earlier_settings(config, out if resumed else None)
    notes = override_notes(earlier, overrides, flags)
    for key in ("tc", "movetime_ms"):
        if "tc" in each_settings_ and earlier.get(key) is not None:
            notes.append(
                f"--each tc={each_settings_['tc']} replaces the config's {key} ="
                f" {_shown(earlier[key])} for every entrant without its own tc"
            )
    entrants, entrant_notes = command_line_entrants(
        earlier.get("entrants") if config is not None else None,
        engine or [],
        each_settings_,
        mode=entrants_mode,
        source=str(config),
        here=os.getcwd(),
    )
    notes += entrant_notes
    if entrants is not None:
        overrides["entrants"] = entrants
    cfg, source = build_config(config, out if resumed else None, overrides)
    cfg = with_command_line_adjudication(cfg, max_plies=max_plies, resign=resign, draw=draw)
    if cluster is not None:  # a nested key: the [cluster] section's other keys stay
        address = None if cluster == LOCAL else cluster
        try:
            settings = ClusterConfig(**{**dict(cfg.cluster), "address": address})
        except ValueError:
            raise ConfigError(f"bad --cluster {cluster!r}: expected tcp://HOST:PORT") from None
        cfg = cfg.model_copy(update={"cluster": settings})
    mode = sandbox_mode(sandbox)
    if mode is not None:  # every entrant, whatever the file says (kept for --resume)
        cfg = with_sandbox(cfg, mode)
    limits = SandboxLimits(sandbox_memory, sandbox_cpu, sandbox_procs)
    cfg = with_limits(cfg, limits)
    if shared:
        cfg, limit_notes = with_shared_limits(cfg, source, shared)
        notes += limit_notes
    for note in notes:
        typer.echo(f"referee: note: {note}", err=True)
    directory = out if out is not None else Path(cfg.out) if cfg.out is not None else None
    if directory is None:
        raise ConfigError('give an output directory: --out DIR (or out = "DIR" in the config)')
    plan = Plan.from_config(cfg, source)
    limits.refuse_unsandboxed(plan.entrants)
    engines = engines_line(plan)
    if engines is not None:
        typer.echo(engines)
    if cfg.cluster.address is None:  # a cluster's workers run their own engines (and
        # each worker's preflight checks the sandbox and the features there)
        require_sandbox(plan.entrants)
        run_until_signalled(lambda: check_features(plan.entrants, start_timeout=cfg.start_timeout))
    if cfg.concurrency > 1 and cfg.workers is None and cfg.cluster.address is None:
        cores = os.cpu_count() or 1
        if cfg.concurrency > cores:
            typer.echo(
                f"referee: note: concurrency {cfg.concurrency} on {cores} cores: engines "
                "share CPUs (fine for instant engines, not for thinking ones)",
                err=True,
            )
    live_address = parse_live(live) if live is not None else None
    # With --events - the standard output holds the JSON lines only: the rest goes to stderr.
    to_stderr = events == "-"
    display = ProgressDisplay(sys.stderr if to_stderr else sys.stdout, quiet=quiet)

    def say(text: str, nl: bool = True) -> None:
        typer.echo(text, nl=nl, err=to_stderr)

    log, log_file = _event_log(events, events_moves)

    done: list[int] = []  # finished games as of the last one journaled (an interrupt
    # then says so without reading the directory back)

    def on_game(report: GameReport, progress: Progress) -> None:
        done[:] = [progress.done]
        display.game(report, progress)

    def on_standings(summary: Summary) -> None:  # --rating-interval
        display.clear()
        say("")
        say(render(summary, "plain"))

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
                    resume=resume,
                    on_game=on_game,
                    live=live_address is not None,
                    keep_played=False,
                    wait=wait / 1000,
                    standings_every=rating_interval,
                    on_standings=on_standings,
                    events=log,
                )
            )
        display.clear()
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
    except WorkerError as exc:  # a bug or a killed worker: one line, and how to go on
        display.clear()
        raise TournamentError(f"{exc}; continue with --resume") from None
    except KeyboardInterrupt:  # a signal during the games or the final tables
        display.clear()
        _interrupted(directory, done[0] if done else None)
    finally:
        if log_file is not None and log_file is not sys.stdout:
            log_file.close()
        if log is not None and log.error is not None:
            typer.echo(f"referee: note: the event stream stopped: {log.error}", err=True)


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
