"""From a validated config to what the runner needs: the game, entrants, clock, schedule.

``Plan.from_config`` does every check that needs the game or the engines (unknown
game or option, seat count, duplicate names, openings) and raises ``ConfigError``
naming the key. ``Plan.slot_setup`` and ``Plan.job`` give what game slots need
(``tournaments.event.jobs``).
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields, replace
from pathlib import Path

from bots.cbuild import BuildError
from protocol.sandbox import SandboxSettings
from protocol.spec import EngineSpec
from referee.clock import DEFAULT_TC, TimeControl
from referee.clock import time_control as clock_time_control
from referee.core import AnyGame
from referee.errors import RulesError
from referee.registry import make_game
from tournaments.event.config import ConfigError, EntrantConfig, TournamentConfig, option_texts
from tournaments.event.engines import (
    anchor_paths,
    check_runnable,
    check_sandbox_access,
    hide_each_other,
    hide_path,
    resolve_engine,
)
from tournaments.event.jobs import Job, SlotSetup
from tournaments.event.knockout import most_games
from tournaments.event.openings import OpeningBook, OpeningError, derive_seed, read_openings
from tournaments.event.schedule import (
    Fixture,
    block_size,
    gauntlet_encounters,
    iter_static_schedule,
    round_robin_encounters,
)
from tournaments.results.sprt import Sprt


def _remote(config: TournamentConfig) -> bool:
    """Whether the games run on a cluster's machines (engines need not exist here)."""
    cluster = getattr(config, "cluster", None)
    return cluster is not None and getattr(cluster, "address", None) is not None


def _sandbox(
    config: TournamentConfig, entrant: EntrantConfig, where: str
) -> SandboxSettings | None:
    """The entrant's sandbox settings, or None for a plain process."""
    mode = entrant.sandbox if entrant.sandbox is not None else config.sandbox
    if mode == "none":
        for key in ("max_processes", "max_scratch_mb"):
            if getattr(entrant, key) is not None:
                raise ConfigError(f'{where}.{key}: applies only in the sandbox (sandbox = "bwrap")')
        return None
    defaults = SandboxSettings()
    return SandboxSettings(
        max_processes=entrant.max_processes or defaults.max_processes,
        max_scratch_mb=entrant.max_scratch_mb or defaults.max_scratch_mb,
    )


def _config_folder(source: str) -> str:
    """Where a config's relative engine paths point: its file's folder (a TOML or JSON
    file), else the current directory."""
    if source.endswith((".toml", ".json")) and os.path.isfile(source):
        return os.path.dirname(os.path.abspath(source))
    return os.getcwd()


_CONVERTED = frozenset({"name", "argv", "env", "options", "sandbox"})
"""``EngineSpec`` fields that a config entrant gives in another form (``_entrant_specs``
converts them one by one)."""
CARRIED = tuple(
    f.name
    for f in fields(EngineSpec)
    if f.name in EntrantConfig.model_fields and f.name not in _CONVERTED
)
"""The ``EngineSpec`` fields taken as they are from the config entrant's key of the same
name (``cwd``, the limits, ``restart``...): one added to both travels with no code here."""


def _entrant_specs(config: TournamentConfig, source: str) -> tuple[EngineSpec, ...]:
    specs: list[EngineSpec] = []
    for i, entrant in enumerate(config.entrants):
        try:
            spec = resolve_engine(entrant.command)
        except (ValueError, BuildError) as exc:
            raise ConfigError(f"{source}: entrants[{i}].command: {exc}") from None
        specs.append(
            replace(
                spec,
                **{name: getattr(entrant, name) for name in CARRIED},
                name=entrant.name or spec.name,
                env=dict(entrant.env) or None,
                options=tuple(option_texts(entrant.options).items()),
                sandbox=_sandbox(config, entrant, f"{source}: entrants[{i}]"),
            )
        )
        if not _remote(config):  # a cluster's workers have their own engine paths
            try:
                if specs[-1].sandbox is not None:  # it starts in /scratch, not here
                    specs[-1] = anchor_paths(specs[-1], _config_folder(source))
                check_runnable(specs[-1])
                check_sandbox_access(specs[-1])
            except ValueError as exc:
                raise ConfigError(f"{source}: entrants[{i}].command: {exc}") from None
    seen: dict[str, int] = {}
    renamed: list[EngineSpec] = []
    for i, spec in enumerate(specs):
        count = seen.get(spec.name, 0) + 1
        seen[spec.name] = count
        if count > 1:
            if config.entrants[i].name is not None:
                raise ConfigError(f"{source}: entrants[{i}].name: {spec.name!r} is used twice")
            spec = replace(spec, name=f"{spec.name}#{count}")
        renamed.append(spec)
    # On a cluster each worker hides its own paths (``tournaments.cluster.task``).
    return tuple(renamed) if _remote(config) else hide_each_other(renamed)


MAX_GAMES = 1_000_000
"""Most games one tournament may schedule: the schedule is built in memory, so a typo
(``rounds = 10000000000``) must be refused, not exhaust the machine."""


def _scheduled_games(config: TournamentConfig, players: int) -> int:
    """Games the config schedules, counted without building the schedule."""
    n = len(config.entrants)
    per = config.games_per_encounter or block_size(players, config.seat_order)
    if config.format == "swiss":
        return config.rounds * (n // 2) * per
    if config.format == "knockout":  # the most it can take: every tie played out
        return most_games(n, players, per, config.seat_order) if n >= players else 0
    if config.games is not None:
        return config.games
    if config.format == "gauntlet":
        encounters = config.challengers * math.comb(max(n - config.challengers, 0), players - 1)
    else:
        encounters = math.comb(n, players)
    return config.rounds * encounters * per


def time_control(config: TournamentConfig) -> TimeControl:
    """The clock of every game.

    :raises ValueError: both ``tc`` and ``movetime_ms``, or a bad value.
    """
    margin = config.margin_ms / 1000
    return clock_time_control(config.tc, config.movetime_ms, margin=margin, default=DEFAULT_TC)


def entrant_controls(
    config: TournamentConfig, tc: TimeControl, source: str
) -> tuple[TimeControl, ...]:
    """Each entrant's time control (its own ``tc``, else the event's ``tc``), in entrant
    order; empty when no entrant has its own (every seat then plays ``tc``).

    :raises ConfigError: an entrant's ``tc`` that does not read, naming it.
    """
    if all(entrant.tc is None for entrant in config.entrants):
        return ()
    margin = config.margin_ms / 1000
    controls: list[TimeControl] = []
    for i, entrant in enumerate(config.entrants):
        try:
            own = TimeControl.parse(entrant.tc, margin=margin) if entrant.tc is not None else tc
        except ValueError as exc:
            raise ConfigError(f"{source}: entrants[{i}].tc: {exc}") from None
        controls.append(own)
    return tuple(controls)


@dataclass(frozen=True, slots=True)
class Plan:
    """A checked tournament: everything but the output directory and the running."""

    config: TournamentConfig
    game: AnyGame
    players: int
    entrants: tuple[EngineSpec, ...]
    tc: TimeControl
    book: OpeningBook
    sprt: Sprt | None
    tcs: tuple[TimeControl, ...] = ()
    """Each entrant's time control when one has its own (time odds), else empty."""

    @property
    def names(self) -> tuple[str, ...]:
        """Entrant names in config order."""
        return tuple(spec.name for spec in self.entrants)

    @property
    def swiss(self) -> bool:
        """Whether fixtures are paired round by round."""
        return self.config.format == "swiss"

    @property
    def knockout(self) -> bool:
        """Whether heats are made round by round from the results (``event.knockout``)."""
        return self.config.format == "knockout"

    @property
    def games_per_encounter(self) -> int:
        """Games per pairing or triple per round."""
        per = self.config.games_per_encounter
        return per if per is not None else block_size(self.players, self.config.seat_order)

    @property
    def points_table(self) -> tuple[float, ...] | None:
        """Tournament points per place, or None for the default placement points."""
        points = self.config.points
        return tuple(points) if points is not None else None

    @classmethod
    def from_config(cls, config: TournamentConfig, source: str = "config") -> Plan:
        """Check ``config`` against the game and the engines.

        :raises ConfigError: one line naming the key.
        """
        try:
            game = make_game(config.game, option_texts(config.options))
        except RulesError as exc:
            key = "game" if "unknown game" in str(exc) else "options"
            raise ConfigError(f"{source}: {key}: {exc}") from None
        players = config.players if config.players is not None else game.player_counts[0]
        try:
            game.check_players(players)
        except RulesError as exc:
            raise ConfigError(f"{source}: players: {exc}") from None
        if len(config.entrants) < players:
            raise ConfigError(
                f"{source}: entrants: {len(config.entrants)} entrants cannot fill {players} seats"
            )
        if config.format == "swiss":
            if players != 2:
                raise ConfigError(f"{source}: format: swiss is for two players")
            if config.games is not None:
                raise ConfigError(f"{source}: games: a Swiss tournament is set by rounds")
        if config.format == "knockout":
            if players not in (2, 3):
                raise ConfigError(f"{source}: format: a knockout is for two or three seats")
            if config.games is not None:
                raise ConfigError(f"{source}: games: a knockout's games are set by its bracket")
            if config.rounds != 1:
                raise ConfigError(f"{source}: rounds: a knockout's rounds are set by its bracket")
            if config.sprt is not None:
                raise ConfigError(f"{source}: sprt: not with a knockout")
        if config.format == "gauntlet" and config.challengers >= len(config.entrants):
            raise ConfigError(
                f"{source}: challengers: {config.challengers} challengers leave no field"
            )
        if config.points is not None and len(config.points) != players:
            raise ConfigError(f"{source}: points: {len(config.points)} values for {players} places")
        if config.sprt is not None:
            if len(config.entrants) != 2 or players != 2:
                raise ConfigError(f"{source}: sprt: SPRT needs two entrants and two seats")
            try:
                sprt: Sprt | None = Sprt(**config.sprt.model_dump())
            except ValueError as exc:
                raise ConfigError(f"{source}: sprt: {exc}") from None
        else:
            sprt = None
        scheduled = _scheduled_games(config, players)
        if scheduled > MAX_GAMES:
            key = "games" if config.games is not None else "rounds"
            raise ConfigError(
                f"{source}: {key}: {scheduled} games scheduled; at most {MAX_GAMES} per tournament"
            )
        try:
            tc = time_control(config)
        except ValueError as exc:
            raise ConfigError(f"{source}: tc: {exc}") from None
        tcs = entrant_controls(config, tc, source)
        entrants = _entrant_specs(config, source)
        openings = config.openings
        try:
            book = (
                read_openings(Path(openings.file), game, players)
                if openings.file is not None
                else []
            )
        except OpeningError as exc:
            raise ConfigError(f"{source}: openings.file: {exc}") from None
        opening_book = OpeningBook.build(
            game,
            players,
            config.seed,
            book=book,
            plies=openings.plies if not book else 0,
            shuffle=openings.order == "random",
        )
        plan = cls(config, game, players, entrants, tc, opening_book, sprt, tcs)
        if not plan.swiss and not plan.knockout:
            try:
                plan.static_fixtures(limit=1)  # the checks, without the whole schedule
            except ValueError as exc:
                raise ConfigError(f"{source}: format: {exc}") from None
        try:
            plan.book.opening(0)
        except OpeningError as exc:
            raise ConfigError(f"{source}: openings.plies: {exc}") from None
        return plan

    def hiding(self, paths: Iterable[str | os.PathLike[str]]) -> Plan:
        """This plan with ``paths`` (``referee play``'s record file) hidden from every
        sandboxed entrant (``engines.hide_path``)."""
        entrants = self.entrants
        for path in paths:
            entrants = tuple(hide_path(spec, path) for spec in entrants)
        return replace(self, entrants=entrants)

    def static_fixtures(self, limit: int | None = None) -> list[Fixture]:
        """Every fixture of a round-robin or gauntlet schedule (``limit``: the first few).

        :raises ValueError: a schedule that cannot be made.
        """
        fixtures = self.iter_static_fixtures()
        return list(fixtures if limit is None else itertools.islice(fixtures, limit))

    def iter_static_fixtures(self) -> Iterator[Fixture]:
        """The fixtures of ``static_fixtures``, made as they are taken (a runner plays a
        million-game schedule without holding it).

        :raises ValueError: a schedule that cannot be made (at once).
        """
        config = self.config
        n = len(self.entrants)
        if config.format == "gauntlet":
            encounters = gauntlet_encounters(n, self.players, config.challengers)
        else:
            encounters = round_robin_encounters(n, self.players)
        return iter_static_schedule(
            encounters,
            players=self.players,
            rounds=config.rounds,
            games_per_encounter=self.games_per_encounter,
            seat_order=config.seat_order,
            total_games=config.games,
        )

    def total(self) -> int:
        """Games in the whole tournament (before any SPRT stop)."""
        # Counted, not built: a million fixtures take seconds to make.
        return _scheduled_games(self.config, self.players)

    def game_seed(self, number: int) -> int:
        """The seed of game ``number``: derived from the tournament seed and the number."""
        return derive_seed(self.config.seed, "game", number)

    def job(self, fixture: Fixture) -> Job:
        """The job of a fixture, with its seed and opening."""
        opening = self.book.opening(fixture.block)
        return Job(
            number=fixture.number,
            round=fixture.round,
            block=fixture.block,
            table=fixture.table,
            seed=self.game_seed(fixture.number),
            opening=opening.moves,
            start=opening.start,
        )

    def slot_setup(
        self,
        out: Path | None,
        *,
        live: bool = False,
        wait: float = 0.0,
        events: bool = False,
        event_moves: bool = False,
        transcript_file: Path | None = None,
    ) -> SlotSetup:
        """What the game slots need (``live``: publish the games in play in ``out``;
        ``wait``: seconds each slot waits between its games; ``events``: publish them
        for the runner's event stream too, with their moves if ``event_moves``;
        ``transcript_file``: keep the transcripts there rather than in ``out/logs/``)."""
        config = self.config
        return SlotSetup(
            game=self.game.name,
            options=tuple(self.game.options.items()),
            players=self.players,
            entrants=self.entrants,
            tc=self.tc,
            max_plies=config.adjudication.max_plies,
            adjudication=config.adjudication.score_rules(),
            start_timeout=config.start_timeout,
            event=config.event,
            out=str(out) if out is not None else None,
            transcripts=config.transcripts,
            live=(live or events) and out is not None,
            wait=wait,
            tcs=self.tcs,
            feed_moves=live or event_moves,
            keep_feed=events,
            transcript_file=str(transcript_file) if transcript_file is not None else None,
        )
