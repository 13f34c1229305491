"""From ``referee tournament``'s options to the checked plan it runs, and the steps of that
which ``play`` shares.

``TournamentOptions`` holds the command's options as given; ``tournament_setup`` turns
them into the config model (command-line options override the file's keys, or those of
the tournament being resumed: ``earlier_settings`` reads those once) and notes each
override. ``checked_plan`` is the tail both ``tournament`` and ``play`` (a one-encounter
event, ``cli.play.play_setup``) run their config through, so the two commands take the
same steps in the same order and print the same notes for the same engines and flags:
the ``RunOptions`` (adjudication, cluster, sandbox and its limits, the shared search
limits) laid over the config, the notes, ``Plan.from_config``, the ``Engines:`` line and
the checks of the engines that play here.
Every user error is a ``ConfigError`` (or an engine-setup error) of one line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import typer

from referee.score_rules import DrawRule, ResignRule
from tournaments.cli.sandbox import (
    SandboxLimits,
    require_sandbox,
    sandbox_mode,
    sandbox_override_notes,
    with_limits,
)
from tournaments.cli.signals import run_until_signalled
from tournaments.event.cluster_settings import LOCAL, ClusterConfig
from tournaments.event.config import (
    AdjudicationConfig,
    ConfigError,
    TournamentConfig,
    parse_config,
    read_config_data,
    with_file_paths,
    with_sandbox,
)
from tournaments.event.engine_args import (
    EngineArgError,
    command_line_entrants,
    each_settings,
    key_values,
)
from tournaments.event.plan import Plan
from tournaments.play.features import check_features, shared_limits
from tournaments.store.journal import JOURNAL, read_header


@dataclass(frozen=True)
class TournamentOptions:
    """``referee tournament``'s options as given (None: not given); the names are the
    command's parameters (``tournament --help`` says what each means)."""

    config: Path | None = None
    resume: bool = False
    out: Path | None = None
    concurrency: int | None = None
    workers: int | None = None
    game: str | None = None
    engine: list[str] | None = None
    each: list[str] | None = None
    entrants_mode: str | None = None
    fmt: str | None = None
    rounds: int | None = None
    games: int | None = None
    per_encounter: int | None = None
    max_games: int | None = None
    players: int | None = None
    challengers: int | None = None
    seat_order: str | None = None
    tc: str | None = None
    movetime: int | None = None
    margin: int | None = None
    option: list[str] | None = None
    seed: int | None = None
    openings: Path | None = None
    opening_plies: int | None = None
    sprt: str | None = None
    event: str | None = None
    max_plies: int | None = None
    quiet: bool = False
    cluster: str | None = None
    sandbox: str | None = None
    sandbox_memory: int | None = None
    sandbox_cpu: int | None = None
    sandbox_procs: int | None = None
    transcripts: str | None = None
    live: str | None = None
    nodes: int | None = None
    depth: int | None = None
    resign: str | None = None
    draw: str | None = None
    wait: int = 0
    rating_interval: int = 0
    events: str | None = None
    events_moves: bool = False


@dataclass(frozen=True)
class TournamentSetup:
    """What ``tournament_setup`` made of the options: the checked plan and where it is
    written."""

    plan: Plan
    directory: Path


def tournament_setup(options: TournamentOptions) -> TournamentSetup:
    """The checked plan of ``options`` and its output directory. Prints a note per
    option that overrides the file (or the resumed tournament), and the ``Engines:`` line.
    Engines that play here are started once to check their sandbox and features (a
    cluster's workers check their own).

    :raises ConfigError: a bad or contradictory option or config, no output directory;
        or as ``check_local_engines``.
    """
    overrides, flags = _option_settings(options)
    shared, each = shared_settings(
        options.each,
        nodes=options.nodes,
        depth=options.depth,
        clock=clock_flag(options.tc, options.movetime),
    )
    resumed = options.resume and options.config is None
    if resumed and (options.engine or each or shared):
        raise ConfigError(
            "--resume goes on with the tournament's own entrants: -e, --each, --nodes and"
            " --depth cannot change them"
        )
    earlier = earlier_settings(options.config, options.out if resumed else None)
    notes = override_notes(earlier.settings, overrides, flags)
    notes += _each_clock_notes(each, earlier.settings)
    entrants, entrant_notes = command_line_entrants(
        earlier.settings.get("entrants") if options.config is not None else None,
        options.engine or [],
        each,
        mode=options.entrants_mode,
        source=str(options.config),
        here=os.getcwd(),
    )
    notes += entrant_notes
    if entrants is not None:
        overrides["entrants"] = entrants
    cfg = earlier.config(overrides)
    directory = options.out if options.out is not None else cfg.out
    if directory is None:
        raise ConfigError('give an output directory: --out DIR (or out = "DIR" in the config)')
    run = RunOptions.given(options, shared)
    return TournamentSetup(checked_plan(cfg, earlier.source, run, notes), Path(directory))


def _option_settings(options: TournamentOptions) -> tuple[dict[str, Any], dict[str, str]]:
    """The config keys the options give (overrides of the file's): those ``play`` has
    too (``common_option_settings``), then the tournament's own; and, for the plain
    ones, the flag that gave each (for the override notes).

    :raises ConfigError: ``--games`` and ``--games-per-encounter`` differ, ``--rounds``
        beside ``--max-games``, a bad ``--option`` or ``--sprt``.
    """
    per = _same_value(
        ("--games", options.games), ("--games-per-encounter", options.per_encounter)
    )
    if options.rounds is not None and options.max_games is not None:
        raise ConfigError(
            "give --rounds or --max-games, not both (--max-games repeats the schedule until"
            " that many games, whatever the rounds)"
        )
    overrides, flags = common_option_settings(options)
    own, own_flags = _given(
        {
            "format": (options.fmt, "--format"),
            "rounds": (options.rounds, "--rounds"),
            "games": (options.max_games, "--max-games"),
            "games_per_encounter": (per, "--games"),
            "players": (options.players, "--players"),
            "challengers": (options.challengers, "--challengers"),
            "seat_order": (options.seat_order, "--seat-order"),
            "event": (options.event, "--event"),
            "workers": (options.workers, "--workers"),
        }
    )
    overrides.update(own)
    flags.update(own_flags)
    if options.sprt is not None:
        overrides["sprt"] = _sprt(options.sprt)
    return overrides, flags


def common_option_settings(options: CommonOptions) -> tuple[dict[str, Any], dict[str, str]]:
    """The config keys that ``play`` and ``tournament`` both take from their options of
    the same names (those given: None is not given), and the flag that gave each plain
    one (for ``tournament``'s override notes).

    :raises EngineArgError: a bad ``--option``.
    :raises ConfigError: a bad ``--tc``, or ``--tc`` and ``--movetime`` both.
    """
    check_clock_options(options.tc, options.movetime)
    settings, flags = _given(
        {
            "game": (options.game, "--game"),
            "tc": (options.tc, "--tc"),
            "movetime_ms": (options.movetime, "--movetime"),
            "margin_ms": (options.margin, "--margin"),
            "seed": (options.seed, "--seed"),
            "concurrency": (options.concurrency, "--concurrency"),
            "transcripts": (options.transcripts, "--transcripts"),
        }
    )
    if options.option:
        settings["options"] = key_values(options.option, "--option")
        flags["options"] = "--option"
    if options.openings is not None or options.opening_plies is not None:
        settings["openings"] = openings_section(options.openings, options.opening_plies)
    return settings, flags


def check_clock_options(tc: str | None, movetime: int | None) -> None:
    """Check ``--tc`` and ``--movetime`` (``play``'s, ``tournament``'s, ``bench``'s) where
    the options the user typed are known:
    once they are config keys, the errors would name ``tc`` and ``movetime_ms`` (and the
    config file an option overrides). ``--movetime`` and ``--margin`` bounds are typer's.

    :raises ConfigError: ``--tc`` does not read, or both are given.
    """
    from referee.clock import TimeControl
    from referee.errors import UserError

    if tc is not None and movetime is not None:
        raise ConfigError("give either --tc or --movetime, not both")
    if tc is not None:
        try:
            TimeControl.parse(tc)
        except UserError as exc:
            raise ConfigError(f"--tc: {exc}") from None


def _given(plain: dict[str, tuple[Any, str]]) -> tuple[dict[str, Any], dict[str, str]]:
    """Of config keys with (value, flag): those given, with their values and flags."""
    values = {key: value for key, (value, _) in plain.items() if value is not None}
    return values, {key: flag for key, (value, flag) in plain.items() if value is not None}


def openings_section(file: Path | None, plies: int | None) -> dict[str, Any]:
    """The ``[openings]`` settings of ``--openings FILE`` (resolved here: the command
    line's paths are the current folder's) and ``--opening-plies N``."""
    section: dict[str, Any] = {}
    if file is not None:
        section["file"] = str(file.resolve())
    if plies is not None:
        section["plies"] = plies
    return section


class CommonOptions(Protocol):
    """The options ``play`` and ``tournament`` both have, by the same names
    (``PlayOptions``, ``TournamentOptions``): ``common_option_settings`` and
    ``RunOptions.given`` read them, so each is turned into the config once for both."""

    @property
    def game(self) -> str | None: ...
    @property
    def tc(self) -> str | None: ...
    @property
    def movetime(self) -> int | None: ...
    @property
    def margin(self) -> int | None: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def concurrency(self) -> int | None: ...
    @property
    def transcripts(self) -> str | None: ...
    @property
    def option(self) -> Sequence[str] | None: ...
    @property
    def openings(self) -> Path | None: ...
    @property
    def opening_plies(self) -> int | None: ...
    @property
    def max_plies(self) -> int | None: ...
    @property
    def resign(self) -> str | None: ...
    @property
    def draw(self) -> str | None: ...
    @property
    def cluster(self) -> str | None: ...
    @property
    def sandbox(self) -> str | None: ...
    @property
    def sandbox_memory(self) -> int | None: ...
    @property
    def sandbox_cpu(self) -> int | None: ...
    @property
    def sandbox_procs(self) -> int | None: ...


@dataclass(frozen=True)
class RunOptions:
    """The options that ``checked_plan`` lays over an event's config, the same for
    ``play`` and ``tournament`` (None, empty: not given, the config's value holds)."""

    max_plies: int | None = None
    resign: str | None = None
    draw: str | None = None
    cluster: str | None = None
    """``tcp://HOST:PORT``, or ``local`` (play here whatever the config says)."""
    sandbox: str | None = None
    limits: SandboxLimits = field(default_factory=SandboxLimits)
    shared: dict[str, int] = field(default_factory=dict)
    """The shared search limits (``--nodes``, ``--depth``, ``--each nodes=``: as
    ``shared_settings`` gives them), for the entrants that declare the feature."""

    @classmethod
    def given(cls, options: CommonOptions, shared: dict[str, int]) -> RunOptions:
        """The run options of a command's ``options``, with its ``shared`` limits."""
        return cls(
            max_plies=options.max_plies,
            resign=options.resign,
            draw=options.draw,
            cluster=options.cluster,
            sandbox=options.sandbox,
            limits=SandboxLimits(
                options.sandbox_memory, options.sandbox_cpu, options.sandbox_procs
            ),
            shared=shared,
        )


def checked_plan(
    cfg: TournamentConfig,
    source: str,
    run: RunOptions,
    notes: Sequence[str] = (),
    *,
    hidden: Sequence[Path] = (),
) -> Plan:
    """The plan of ``cfg`` with ``run``'s options over it, checked, for ``play`` and
    ``tournament`` alike: this one function decides the order of the steps and of what
    they print. In order: ``--max-plies``/``--resign``/``--draw`` (the
    ``[adjudication]`` section key by key), ``--cluster`` (the section's other keys
    stay), ``--sandbox`` and ``--sandbox-*`` (every entrant's, over its own keys: kept
    for ``--resume``), the shared search limits (each entrant that declares the feature;
    started once to see); then ``notes`` (the command's own, e.g. the overrides of a
    file), those of an entrant's own sandbox key replaced (``sandbox_override_notes``)
    and those of the shared limits, each a ``referee: note:`` line on the standard
    error; ``Plan.from_config`` (``source`` names the config in its errors), with the
    ``hidden`` paths (``play``'s record file) hidden from sandboxed entrants; the
    ``Engines:`` line (standard output); the engines that play here checked
    (``check_local_engines``); last, a note when more games run at once than there are
    cores.

    :raises ConfigError: a bad adjudication rule or ``--cluster`` address, a bad config;
        UserError: ``--sandbox`` not a mode, ``--sandbox-*`` with no sandboxed engine;
        or as ``with_shared_limits`` and ``check_local_engines``.
    """
    cfg = with_command_line_adjudication(
        cfg, max_plies=run.max_plies, resign=run.resign, draw=run.draw
    )
    cfg = _with_cluster(cfg, run.cluster)
    mode = sandbox_mode(run.sandbox)
    notes = [*notes, *sandbox_override_notes(cfg, mode, run.limits)]
    if mode is not None:
        cfg = with_sandbox(cfg, mode)
    cfg = with_limits(cfg, run.limits)
    if run.shared:
        cfg, limit_notes = with_shared_limits(cfg, source, run.shared)
        notes += limit_notes
    for note in notes:
        typer.echo(f"referee: note: {note}", err=True)
    plan = Plan.from_config(cfg, source).hiding(hidden)
    run.limits.refuse_unsandboxed(plan.entrants)
    engines = engines_line(plan)
    if engines is not None:
        typer.echo(engines)
    check_local_engines(plan)
    _concurrency_note(cfg)
    return plan


def _with_cluster(cfg: TournamentConfig, cluster: str | None) -> TournamentConfig:
    """``cfg`` with ``--cluster``'s address (``local``: none) over its ``[cluster]``
    section's (the section's other keys stay).

    :raises ConfigError: an address that is not ``tcp://HOST:PORT``.
    """
    if cluster is None:
        return cfg
    address = None if cluster == LOCAL else cluster
    try:
        settings = ClusterConfig(**{**dict(cfg.cluster), "address": address})
    except ValueError:
        raise ConfigError(f"bad --cluster {cluster!r}: expected tcp://HOST:PORT") from None
    return cfg.model_copy(update={"cluster": settings})


def _concurrency_note(cfg: TournamentConfig) -> None:
    """A note when more games run at once here than there are cores."""
    if cfg.concurrency > 1 and cfg.workers is None and cfg.cluster.address is None:
        cores = os.cpu_count() or 1
        if cfg.concurrency > cores:
            typer.echo(
                f"referee: note: concurrency {cfg.concurrency} on {cores} cores: engines "
                "share CPUs (fine for instant engines, not for thinking ones)",
                err=True,
            )


def check_local_engines(plan: Plan) -> None:
    """Before the first game, unless a cluster's workers run the engines (each worker's
    preflight checks them there): every sandboxed entrant can be sandboxed here, and every
    engine that needs a feature (a node or depth limit) declares it (started once; a stop
    signal stops it).

    :raises UserError: one line naming the engine.
    """
    if plan.config.cluster.address is None:
        require_sandbox(plan.entrants)
        if any(spec.required_features for spec in plan.entrants):  # else nothing to start
            start_timeout = plan.config.start_timeout
            run_until_signalled(
                lambda: check_features(plan.entrants, start_timeout=start_timeout)
            )


@dataclass(frozen=True)
class EarlierSettings:
    """The settings the options override, read once: a config file's, or those a resumed
    tournament started with (its journal's header), or none."""

    settings: dict[str, Any]
    source: str
    """What the plan names as its source: the file, the resumed directory, or
    ``command line``."""
    where: str
    """Where the settings' errors point: the file, or the resumed journal."""
    file: Path | None = None
    """The config file, against whose folder its relative paths are resolved."""

    def config(self, overrides: dict[str, Any]) -> TournamentConfig:
        """These settings with ``overrides`` over them (top-level keys), validated.

        :raises ConfigError: see ``tournaments.event.config``.
        """
        data = {**self.settings, **overrides}
        if self.file is not None:
            data = with_file_paths(data, self.file)
        return parse_config(data, self.where)


def earlier_settings(config_path: Path | None, resume_dir: Path | None) -> EarlierSettings:
    """The settings of the config file, else of the tournament in ``resume_dir``, else
    none (the options alone make the config).

    :raises ConfigError: the file cannot be read or parsed; ``resume_dir`` cannot be read
        or holds no tournament. ``JournalError``: its journal's header is broken (one line).
    """
    if config_path is not None:
        data = read_config_data(config_path)
        return EarlierSettings(data, str(config_path), str(config_path), config_path)
    if resume_dir is not None:
        try:
            header = read_header(resume_dir / JOURNAL)
        except OSError as exc:
            raise ConfigError(f"cannot read {resume_dir}: {exc.strerror or exc}") from None
        if header is None:
            raise ConfigError(f"nothing to resume: {resume_dir} holds no tournament")
        return EarlierSettings(dict(header[0]), str(resume_dir), f"{resume_dir}/{JOURNAL}")
    return EarlierSettings({}, "command line", "command line")


def _each_clock_notes(each: dict[str, Any], earlier: dict[str, Any]) -> list[str]:
    """A note for each clock of the file that ``--each tc=`` replaces."""
    return [
        f"--each tc={each['tc']} replaces the config's {key} = {_shown(earlier[key])}"
        " for every entrant without its own tc"
        for key in ("tc", "movetime_ms")
        if "tc" in each and earlier.get(key) is not None
    ]


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
