"""Running a tournament: the one place where its I/O happens.

``run_tournament(plan, out)``:

1. takes the output directory's lock and opens its journal (``tournaments.play.journal``):
   a new one, or with ``resume`` the existing one, whose finished games are kept;
2. opens the game slots: ``concurrency`` slots, in this event loop (``workers=0``,
   the default for concurrency 1) or spread over worker processes
   (``tournaments.play.worker``; by default one per core, up to the concurrency). A
   worker's slot is kept two jobs deep, so it never waits for this loop between
   games; or, with ``[cluster] address``, a Dask cluster (``tournaments.cluster.client``)
   whose reports come back here to the same journaling path;
3. feeds every unfinished fixture to the slots (Swiss: round by round, pairing each
   round from the results so far). Each game's report is journaled and synced,
   then appended to ``games.tgn``, before the game counts (``_Recorder``: off the
   slots' path, in groups); ``results.json`` is refreshed at the start and the end,
   and with worker processes also every ``RESULTS_INTERVAL`` seconds (in a single
   loop that work would delay the games: ``referee standings`` is the live view);
4. a void game (an engine failed before its first move request) is journaled as
   void and played again at once, up to ``VOID_ATTEMPTS`` times; then the
   tournament stops with an error (fix the engine and ``--resume``);
5. with an SPRT, the tournament stops as soon as it decides; games in flight are
   abandoned (not recorded).

Resume semantics: a game is finished when its journal line is synced. A resumed
tournament skips exactly the finished games, replays every other one (with the
same number, seed, seats and opening, so with deterministic engines the same
game), and rewrites ``games.tgn`` from the journal. Interrupting (Ctrl+C, SIGTERM,
SIGHUP, even SIGKILL) loses at most the games in flight.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import trio

from tournaments.event.jobs import Job, SlotSetup
from tournaments.event.plan import Plan
from tournaments.event.schedule import Fixture, swiss_pairings, swiss_round_fixtures
from tournaments.play.errors import VOID_ATTEMPTS, TournamentError
from tournaments.play.fdlimit import ensure_open_files, files_needed
from tournaments.play.journal import RESULTS, Journal, write_atomic, write_failed
from tournaments.play.slot import PlayerFactory, Slot, default_cache_size
from tournaments.play.worker import cpu_times, open_workers, split_slots
from tournaments.results.elo import Pentanomial
from tournaments.results.game import GameReport
from tournaments.results.standings import place_points, placement_points
from tournaments.results.summary import EventInfo, summarize
from tournaments.results.tables import render

RESULTS_INTERVAL = 2.0
"""Seconds between rewrites of ``results.json`` while the tournament runs."""


class GameSlot(Protocol):
    """A slot in this loop or in a worker process."""

    async def play(self, job: Job) -> GameReport: ...


@dataclass(frozen=True, slots=True)
class Progress:
    """Where the tournament stands after a game."""

    done: int
    """Finished games, including those of earlier runs."""
    total: int
    played: int
    """Games finished by this run."""
    elapsed: float
    """Seconds since this run started its first game."""
    leader: str | None
    leader_points: float
    leader_games: int

    @property
    def eta(self) -> float | None:
        """Seconds left at this run's pace, or None before its first game."""
        if not self.played:
            return None
        return self.elapsed / self.played * max(self.total - self.done, 0)


@dataclass
class RunResult:
    """What a run did."""

    finished: dict[int, GameReport]
    """Every finished game by number, earlier runs included."""
    played: list[GameReport] = field(default_factory=list)
    """Games finished by this run, in finishing order."""
    total: int = 0
    complete: bool = False
    """Every game is finished, or the SPRT decided."""
    sprt_decision: str | None = None
    """``H0``, ``H1`` or None."""
    voids: int = 0
    """Void games in this run (each was played again)."""
    wall: float = 0.0
    """Seconds from the slots being ready to the last game."""
    startup: float = 0.0
    """Seconds to open the slots (start workers)."""
    cpu_runner: float = 0.0
    """CPU seconds of this process from the slots being ready to the end."""
    cpu_workers: float = 0.0
    """CPU seconds of the worker processes over the same span (0 without workers)."""
    cpu_engines: float = 0.0
    """CPU seconds of the engine processes that ended during the run."""


def default_workers(concurrency: int) -> int:
    """Worker processes for ``concurrency`` games: none for one game, else one per core."""
    if concurrency <= 1:
        return 0
    return min(concurrency, os.cpu_count() or 1)


@contextlib.asynccontextmanager
async def open_slots(
    setup: SlotSetup,
    concurrency: int,
    workers: int,
    factory: PlayerFactory | None = None,
    cpu: list[float] | None = None,
) -> AsyncIterator[Sequence[GameSlot]]:
    """``concurrency`` game slots: here (``workers == 0``) or in worker processes
    (whose CPU seconds, theirs and their engines', go to ``cpu``).

    :raises OpenFilesError: the open-file hard limit is too low for ``concurrency``
        (checked before any engine starts; worker processes inherit the raised limit).
    """
    ensure_open_files(files_needed(concurrency, default_cache_size(setup)))
    if workers > 0:
        if factory is not None:
            raise ValueError("in-process players need workers=0")
        async with open_workers(setup, split_slots(concurrency, workers), cpu) as slots:
            yield slots
        return
    async with contextlib.AsyncExitStack() as stack:
        local = [
            await stack.enter_async_context(
                Slot.open(setup, factory=factory, shared_loop=concurrency > 1)
            )
            for _ in range(concurrency)
        ]
        yield local


PlayAll = Callable[[Sequence[Job], Callable[[GameReport], None]], Awaitable[None]]
"""Plays jobs, handing each report to the callback (void ones too)."""


@contextlib.asynccontextmanager
async def _open_games(
    plan: Plan,
    out: Path,
    concurrency: int,
    workers: int,
    factory: PlayerFactory | None,
    cpu: list[float],
) -> AsyncIterator[PlayAll]:
    """Where this run's games are played: on the Dask cluster of ``[cluster] address``
    (``tournaments.cluster.client``), else in ``open_slots``."""
    if plan.config.cluster.address is not None:
        if factory is not None:
            raise ValueError("in-process players cannot play on a cluster")
        from tournaments.cluster.client import open_cluster  # imports Dask: only when asked for

        async with open_cluster(plan.config.cluster, plan, out) as games:
            yield games.play_all
        return
    async with open_slots(plan.slot_setup(out), concurrency, workers, factory, cpu) as slots:
        yield functools.partial(_play_all, slots)


class _Tally:
    """Running points per entrant (for the progress line) and the SPRT's counts.

    Incremental, so the cost per game does not grow with the tournament; the
    SPRT follows ``tournaments.results.summary.summarize`` exactly (pentanomial over
    completed seat-swapped pairs when the games come in pairs, else W/D/L).
    """

    def __init__(self, info: EventInfo, finished: dict[int, GameReport]) -> None:
        self.info = info
        self.points = dict.fromkeys(info.names, 0.0)
        self.games = dict.fromkeys(info.names, 0)
        self.wdl = [0, 0, 0]
        self.open_pairs: dict[int, float] = {}
        self.penta = [0, 0, 0, 0, 0]
        for report in sorted(finished.values(), key=lambda r: r.number):
            self.add(report)

    def add(self, report: GameReport) -> None:
        ranks = report.outcome.ranks
        points = place_points(ranks, self.info.points_table)
        for name, value in zip(report.seats, points, strict=True):
            self.points[name] = self.points.get(name, 0.0) + value
            self.games[name] = self.games.get(name, 0) + 1
        if self.info.sprt is None or len(self.info.names) != 2:
            return
        first = self.info.names[0]
        mine = placement_points(ranks)[report.seats.index(first)]
        self.wdl[0 if mine == 1.0 else 2 if mine == 0.0 else 1] += 1
        if self.info.paired:
            if report.block in self.open_pairs:
                self.penta[round(2 * (self.open_pairs.pop(report.block) + mine))] += 1
            else:
                self.open_pairs[report.block] = mine

    def leader(self) -> tuple[str | None, float, int]:
        if not any(self.games.values()):
            return None, 0.0, 0
        name = max(self.points, key=lambda n: (self.points[n], -self.games[n]))
        return name, self.points[name], self.games[name]

    def sprt_decision(self) -> str | None:
        sprt = self.info.sprt
        if sprt is None or not any(self.wdl):
            return None
        if self.info.paired and any(self.penta):
            llr = sprt.llr_pentanomial(Pentanomial(*self.penta))
        else:
            wins, draws, losses = self.wdl
            llr = sprt.llr_wdl(wins, draws, losses)
        return sprt.decision(llr)


async def run_tournament(
    plan: Plan,
    out: Path,
    *,
    resume: bool = False,
    concurrency: int | None = None,
    workers: int | None = None,
    on_game: Callable[[GameReport, Progress], None] | None = None,
    factory: PlayerFactory | None = None,
) -> RunResult:
    """Run (or with ``resume`` continue) ``plan`` with its output in ``out``.

    ``factory`` replaces engine processes by other players (tests: in-process
    players; it requires ``workers=0``). With ``[cluster] address`` in the plan's
    config the games are played on that Dask cluster instead (``tournaments.cluster.client``;
    ``concurrency`` and ``workers`` are then unused).

    :raises JournalError: the directory is locked, or holds another or no tournament.
    :raises TournamentError: a game stayed void, or a worker failed.
    :raises tournaments.cluster.client.ClusterError: the cluster cannot be used or was lost.
    """
    concurrency = concurrency if concurrency is not None else plan.config.concurrency
    if workers is None:
        workers = plan.config.workers
    if workers is None:
        workers = 0 if factory is not None else default_workers(concurrency)
    # On a cluster (``[cluster] address``) no game runs in this process either.
    plays_here = workers == 0 and plan.config.cluster.address is None
    info = EventInfo.from_plan(plan)
    total = info.total
    config_json = plan.config.model_dump(mode="json")
    with Journal.open(out, config_json, info.to_json(), resume=resume) as journal:
        result = RunResult(finished=journal.finished, total=total)
        tally = _Tally(info, journal.finished)
        result.sprt_decision = tally.sprt_decision()
        results = _ResultsFile(out / RESULTS, info, journal)
        results.write()
        if result.sprt_decision is not None or len(journal.finished) >= total:
            result.complete = True
            return result
        opened = time.perf_counter()
        worker_cpu: list[float] = []
        cpu_start = cpu_times()
        try:
            async with (
                _unwrapped(),
                _open_games(plan, out, concurrency, workers, factory, worker_cpu) as play_all,
                trio.open_nursery() as nursery,
            ):
                result.startup = time.perf_counter() - opened
                started = time.perf_counter()
                cpu_start = cpu_times()
                stop = trio.CancelScope()

                def after(report: GameReport) -> None:
                    if report.void:
                        result.voids += 1
                        return
                    result.played.append(report)
                    tally.add(report)
                    if not plays_here:  # the runner's loop plays no game: it may take its time
                        results.write(every=RESULTS_INTERVAL)
                    if info.sprt is not None:
                        result.sprt_decision = tally.sprt_decision()
                        if result.sprt_decision is not None:
                            stop.cancel()
                    if on_game is not None:
                        leader, points, games = tally.leader()
                        progress = Progress(
                            done=len(journal.finished),
                            total=total,
                            played=len(result.played),
                            elapsed=time.perf_counter() - started,
                            leader=leader,
                            leader_points=points,
                            leader_games=games,
                        )
                        on_game(report, progress)

                # Without workers, games run in this loop: sync in a thread.
                recorder = _Recorder(journal, after, in_thread=plays_here)
                nursery.start_soon(recorder.run)
                with stop:
                    for fixtures in _phases(plan, journal):
                        jobs = [plan.job(f) for f in fixtures if f.number not in journal.finished]
                        try:
                            await play_all(jobs, recorder.submit)
                        except Exception:
                            await recorder.flush()  # journal the games that did finish
                            raise
                        await recorder.flush()
                await recorder.close()
                result.wall = time.perf_counter() - started
        finally:
            cpu_end = cpu_times()
            result.cpu_runner = cpu_end[0] - cpu_start[0]
            if worker_cpu:
                result.cpu_workers, result.cpu_engines = worker_cpu
            else:
                result.cpu_engines = cpu_end[1] - cpu_start[1]
            results.write()
        result.complete = result.sprt_decision is not None or len(journal.finished) >= total
        return result


class _ResultsFile:
    """``results.json``: rewritten from the journal on demand, at most every so often."""

    def __init__(self, path: Path, info: EventInfo, journal: Journal) -> None:
        self.path = path
        self.info = info
        self.journal = journal
        self.last = -math.inf
        self.cost = 0.0

    def write(self, every: float = 0.0) -> None:
        """Rewrite the file if ``every`` seconds have passed since the last time, and
        ten times what the last rewrite took (so a huge tournament is not slowed)."""
        now = time.monotonic()
        if now - self.last < max(every, 10 * self.cost if every else 0.0):
            return
        summary = summarize(self.info, list(self.journal.finished.values()))
        try:
            write_atomic(self.path, render(summary, "json"))
        except OSError as exc:  # a full disk: stop cleanly, the journal holds the games
            raise write_failed(self.path, exc) from None
        self.last = time.monotonic()
        self.cost = self.last - now


class _Recorder:
    """Journals game reports off the game slots' path, syncing them in groups.

    ``submit`` never blocks a slot: reports queue up, and one task writes whatever
    has queued with a single ``fsync`` (group commit; in a thread when games share
    this loop), then
    counts them (``Journal.note``) and calls ``after`` for each. A game is finished
    once its group is synced, exactly as when each game is synced alone; at high
    game rates the disk's sync latency is paid once per group instead of per game.
    """

    def __init__(
        self, journal: Journal, after: Callable[[GameReport], None], *, in_thread: bool
    ) -> None:
        self.journal = journal
        self.after = after
        self.in_thread = in_thread
        self.send, self.receive = trio.open_memory_channel[GameReport](math.inf)
        self.submitted = 0
        self.recorded = 0
        self.progress = trio.Event()

    def submit(self, report: GameReport) -> None:
        self.submitted += 1
        self.send.send_nowait(report)

    async def run(self) -> None:
        async with self.receive:
            async for report in self.receive:
                batch = [report]
                while True:
                    try:
                        batch.append(self.receive.receive_nowait())
                    except trio.WouldBlock:
                        break
                if self.in_thread:
                    await trio.to_thread.run_sync(self.journal.write_batch, batch)
                else:  # no game waits on this loop: a thread hop would only cost
                    self.journal.write_batch(batch)
                for item in batch:
                    self.journal.note([item])
                    self.recorded += 1
                    self.after(item)
                self.progress.set()
                self.progress = trio.Event()

    async def flush(self) -> None:
        """Wait until every submitted report is recorded."""
        while self.recorded < self.submitted:
            await self.progress.wait()

    async def close(self) -> None:
        """Record what is queued, then end ``run``."""
        await self.flush()
        self.send.close()


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    found: list[BaseException] = []
    for error in group.exceptions:
        if isinstance(error, BaseExceptionGroup):
            found += _leaves(error)
        else:
            found.append(error)
    return found


@contextlib.asynccontextmanager
async def _unwrapped() -> AsyncIterator[None]:
    """Raise the one real error of an exception group bare (one-line errors reach users)."""
    try:
        yield
    except BaseExceptionGroup as group:
        leaves = [e for e in _leaves(group) if not isinstance(e, trio.Cancelled)]
        if len(leaves) == 1:
            raise leaves[0] from None
        raise


def _phases(plan: Plan, journal: Journal) -> Iterable[list[Fixture]]:
    if not plan.swiss:
        return [plan.static_fixtures()]
    return _SwissPhases(plan, journal)


class _SwissPhases:
    """Swiss rounds, each paired when iterated to, from the journal's results so far."""

    def __init__(self, plan: Plan, journal: Journal) -> None:
        self.plan = plan
        self.journal = journal
        self.round = 0

    def __iter__(self) -> _SwissPhases:
        return self

    def __next__(self) -> list[Fixture]:
        plan = self.plan
        self.round += 1
        if self.round > plan.config.rounds:
            raise StopIteration
        n = len(plan.entrants)
        per = plan.games_per_encounter
        scores: dict[int, float] = {}
        played: set[frozenset[int]] = set()
        byes: set[int] = set()
        first_seats: dict[int, int] = {}
        earlier = [r for r in self.journal.finished.values() if r.round < self.round]
        for report in earlier:
            points = place_points(report.outcome.ranks, plan.points_table)
            for entrant, value in zip(report.table, points, strict=True):
                scores[entrant] = scores.get(entrant, 0.0) + value
            played.add(frozenset(report.table))
            first_seats[report.table[0]] = first_seats.get(report.table[0], 0) + 1
        if n % 2:
            # A bye counts as a won encounter for pairing (as in chess Swiss systems).
            for past in range(1, self.round):
                rounds_entrants = {e for r in earlier if r.round == past for e in r.table}
                for e in range(n):
                    if e not in rounds_entrants:
                        byes.add(e)
                        scores[e] = scores.get(e, 0.0) + per
        pairing = swiss_pairings(n, scores, played, byes, first_seats)
        return swiss_round_fixtures(
            pairing, round_no=self.round, entrants=n, games_per_encounter=per
        )


async def _play_all(
    slots: Sequence[GameSlot], jobs: Sequence[Job], submit: Callable[[GameReport], None]
) -> None:
    """Play ``jobs`` on the slots (each slot takes the next job when free; a slot with
    a ``depth`` of 2 holds a second job in its queue)."""
    if not jobs:
        return
    send, receive = trio.open_memory_channel[Job](0)

    async def drive(slot: GameSlot, queue: trio.MemoryReceiveChannel[Job]) -> None:
        async with queue:
            async for job in queue:
                for _attempt in range(VOID_ATTEMPTS):
                    report = await slot.play(job)
                    submit(report)
                    if not report.void:
                        break
                else:
                    raise TournamentError(
                        f"game {job.number} was void {VOID_ATTEMPTS} times "
                        f"({report.outcome.reason}); fix the engine and resume"
                    )

    async with trio.open_nursery() as nursery:
        for slot in slots:
            for _ in range(getattr(slot, "depth", 1)):
                nursery.start_soon(drive, slot, receive.clone())
        receive.close()
        async with send:
            for job in jobs:
                await send.send(job)
