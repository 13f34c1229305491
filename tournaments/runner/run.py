"""Running a tournament: the one place where its I/O happens.

``run_tournament(plan, out)``:

1. takes the output directory's lock and opens its journal (``tournaments.store.journal``):
   a new one, or with ``resume`` the existing one, whose finished games are kept;
2. opens the game slots: ``concurrency`` slots, in this event loop (``workers=0``,
   the default for concurrency 1) or spread over worker processes
   (``tournaments.play.worker``; by default one per core, up to the concurrency). A
   worker's slot is kept two jobs deep, so it never waits for this loop between
   games; or, with ``[cluster] address``, a Dask cluster (``tournaments.cluster.client``)
   whose reports come back here to the same journaling path. A new journal's header is
   written only then: a run whose games cannot start (a cluster out of reach, too few
   open files, a worker that fails to start) leaves no tournament behind, and the same
   command can be run again;
3. feeds every unfinished fixture to the slots (Swiss: round by round, pairing each
   round from the results so far). Each game's report is journaled and synced,
   then appended to ``games.tgn``, before the game counts (``Recorder``: off the
   slots' path, in groups); ``results.json`` is refreshed as the games start and at the end,
   and with worker processes also every ``RESULTS_INTERVAL`` seconds (in a single
   loop that work would delay the games: ``referee standings`` is the live view),
   always computed and written in a thread (``ResultsFile``), so a big field's tables
   never hold up the loop or a stop signal; a stopped run waits at most
   ``STOPPED_WRITE_SECONDS`` for its last rewrite;
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

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import trio

from tournaments.event import stream
from tournaments.event.plan import Plan
from tournaments.event.wire import to_json
from tournaments.play.slot import PlayerFactory
from tournaments.play.worker import cpu_times
from tournaments.results.counts import Counts
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, Summary, summarize_counts
from tournaments.runner.events import EventLog
from tournaments.runner.phases import knockout_state, phases
from tournaments.runner.records import GamesPlayed, ResultsFile, journal_recorder
from tournaments.runner.slots import open_games, slot_counts, unwrapped
from tournaments.runner.tally import Tally
from tournaments.store.event_dir import read_event
from tournaments.store.journal import RESULTS
from tournaments.store.live_feed import clear_feeds
from tournaments.store.writer import Journal

RESULTS_INTERVAL = 2.0
"""Seconds between rewrites of ``results.json`` while the tournament runs."""
STOPPED_WRITE_SECONDS = 0.5
"""How long a stopped run waits for its last rewrite of ``results.json``."""


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
class RunResult(GamesPlayed):
    """What a run did (what it played: ``GamesPlayed``)."""

    out: Path
    counts: Counts
    """The tables' counts of every finished game, earlier runs included."""
    total: int = 0
    complete: bool = False
    """Every game is finished, or the SPRT decided."""
    sprt_decision: str | None = None
    """``H0``, ``H1`` or None."""
    cpu_runner: float = 0.0
    """CPU seconds of this process from the slots being ready to the end."""
    cpu_workers: float = 0.0
    """CPU seconds of the worker processes over the same span (0 without workers)."""
    cpu_engines: float = 0.0
    """CPU seconds of the engine processes that ended during the run."""

    @property
    def done(self) -> int:
        """Finished games, earlier runs included."""
        return self.counts.done

    @property
    def finished(self) -> dict[int, GameReport]:
        """Every finished game by number, earlier runs included, read back from the
        journal (``read_event``: every record in memory; for tests and small events)."""
        return {game.number: game for game in read_event(self.out).games}


async def run_tournament(
    plan: Plan,
    out: Path,
    *,
    resume: bool = False,
    concurrency: int | None = None,
    workers: int | None = None,
    on_game: Callable[[GameReport, Progress], None] | None = None,
    factory: PlayerFactory | None = None,
    live: bool = False,
    keep_played: bool = True,
    wait: float = 0.0,
    standings_every: int = 0,
    on_standings: Callable[[Summary], None] | None = None,
    events: EventLog | None = None,
) -> RunResult:
    """Run (or with ``resume`` continue) ``plan`` with its output in ``out``.

    ``keep_played``: keep this run's reports in ``RunResult.played`` (records and
    timings: about 2 kB a game; the ``tournament`` command keeps none, so its memory does
    not grow with the games).

    ``live``: each game in play is published in ``out/live/`` for ``referee serve``
    (``tournaments.store.live_feed``).

    ``wait``: seconds each game slot waits between two of its games (``--wait``).

    ``on_standings`` gets the tables (``summarize_counts``) each time the finished games,
    earlier runs' included, reach a multiple of ``standings_every`` (``--rating-interval``).

    ``events``: the run's event stream (``--events``; ``runner.events``): its games are
    fed for it, and every event of the run is written to it.

    ``factory`` replaces engine processes by other players (tests: in-process
    players; it requires ``workers=0``). With ``[cluster] address`` in the plan's
    config the games are played on that Dask cluster instead (``tournaments.cluster.client``;
    ``concurrency`` and ``workers`` are then unused).

    :raises JournalError: the directory is locked, or holds another or no tournament.
    :raises TournamentError: a game stayed void, or a worker failed.
    :raises tournaments.cluster.client.ClusterError: the cluster cannot be used or was lost.
    """
    concurrency, workers = slot_counts(plan, concurrency, workers, factory)
    # On a cluster (``[cluster] address``) no game runs in this process either.
    plays_here = workers == 0 and plan.config.cluster.address is None
    info = EventInfo.from_plan(plan)
    total = info.total
    config_json = plan.config.model_dump(mode="json")
    # A new journal's header is written once the games can be played (the cluster
    # reached, the workers started): a run that fails before leaves nothing a rerun
    # would take for a started tournament.
    with Journal.open(out, config_json, to_json(info), resume=resume, begin=False) as journal:
        result = RunResult(out, journal.counts, total=total)
        tally = Tally(info, journal.counts)
        result.sprt_decision = tally.sprt_decision()
        results = ResultsFile(out / RESULTS, info, journal)
        clear_feeds(out)  # an earlier run's: none of those games is in play
        if events is not None:
            events.start(out, plan.game)
            events.emit(
                stream.tournament_started(
                    event=info.event,
                    game=info.game,
                    players=info.players,
                    format=plan.config.format,
                    entrants=info.names,
                    total=total,
                    done=journal.done,
                    resumed=resume,
                )
            )
        if result.sprt_decision is not None or journal.done >= total:
            journal.begin()
            await results.write()
            result.complete = True
            _events_end(events, plan, out, info, journal.counts, result)
            return result
        earlier = journal.done  # finished by earlier runs (the journal notes games in groups)
        opened = time.perf_counter()
        worker_cpu: list[float] = []
        cpu_start = cpu_times()
        try:
            async with (
                unwrapped(),
                open_games(
                    plan,
                    out,
                    concurrency,
                    workers,
                    factory,
                    worker_cpu,
                    live=live,
                    wait=wait,
                    events=events,
                ) as play_all,
                trio.open_nursery() as nursery,
            ):
                result.startup = time.perf_counter() - opened
                journal.begin()
                # Out of the cyclic collector's reach while games run: the objects alive
                # now (modules, the plan, pydantic's schemas), which its older generations
                # walked whole every few thousand plies (measured at concurrency 1: about
                # 3 us of CPU a ply, gone). Unfrozen at the end, so a process that runs
                # many events collects their garbage as before.
                gc.freeze()
                started = time.perf_counter()
                cpu_start = cpu_times()
                stop = trio.CancelScope()
                refresh = trio.CancelScope()

                async def refreshing() -> None:
                    with refresh:
                        await results.write()  # beside the first games, not before them
                        if not plays_here:  # the runner's loop plays no game: keep it fresh
                            await results.run(RESULTS_INTERVAL)

                nursery.start_soon(refreshing)
                following = trio.CancelScope()
                if events is not None:

                    async def follow(log: EventLog) -> None:
                        with following:
                            await log.follow()

                    nursery.start_soon(follow, events)

                def after(report: GameReport) -> None:
                    if events is not None:
                        events.finished(report)
                    if not result.count(report, keep=keep_played):
                        return  # a void attempt: played again
                    tally.add(report)
                    if info.sprt is not None:
                        result.sprt_decision = tally.sprt_decision()
                        if result.sprt_decision is not None:
                            stop.cancel()
                    if on_game is not None:
                        leader, points, games = tally.leader()
                        progress = Progress(
                            done=journal.done,
                            total=total,
                            played=result.played_count,
                            elapsed=time.perf_counter() - started,
                            leader=leader,
                            leader_points=points,
                            leader_games=games,
                        )
                        on_game(report, progress)
                    if (
                        (on_standings is not None or events is not None)
                        and standings_every > 0
                        and (earlier + result.played_count) % standings_every == 0
                    ):
                        summary = summarize_counts(info, journal.counts)
                        if on_standings is not None:
                            on_standings(summary)
                        if events is not None:
                            events.emit(stream.standings(summary))

                recorder = journal_recorder(journal, after)
                nursery.start_soon(recorder.run)
                played_out = False
                with stop:
                    for fixtures in phases(plan, journal):
                        jobs = (plan.job(f) for f in fixtures if f.number not in journal.numbers)
                        await recorder.record(play_all, jobs)
                    # Every phase played: complete even where the total is only the most
                    # games the format could take (a knockout's unplayed tiebreaks).
                    played_out = True
                await recorder.close()
                refresh.cancel()
                following.cancel()
                result.wall = time.perf_counter() - started
        except BaseException:
            # Stopped (a signal, an error): the file gets what the journal holds, if that
            # is quick; a stop must not wait for a big field's tables (the journal and
            # ``referee standings`` have them anyway).
            if journal.begun:  # else nothing was written, and nothing is now
                with trio.CancelScope(shield=True), trio.move_on_after(STOPPED_WRITE_SECONDS):
                    await results.write()
            if events is not None:
                events.emit(
                    stream.tournament_finished(
                        done=journal.done,
                        total=total,
                        complete=False,
                        sprt=result.sprt_decision,
                        winner=None,
                    )
                )
            raise
        finally:
            gc.unfreeze()
            cpu_end = cpu_times()
            result.cpu_runner = cpu_end[0] - cpu_start[0]
            if worker_cpu:
                result.cpu_workers, result.cpu_engines = worker_cpu
            else:
                result.cpu_engines = cpu_end[1] - cpu_start[1]
        await results.write()
        result.complete = result.sprt_decision is not None or journal.done >= total or played_out
        _events_end(events, plan, out, info, journal.counts, result)
        return result


def _events_end(
    events: EventLog | None,
    plan: Plan,
    out: Path,
    info: EventInfo,
    counts: Counts,
    result: RunResult,
) -> None:
    """The last events of a run that ended by itself: the standings, then
    ``tournament_finished`` (with a knockout's winner)."""
    if events is None:
        return
    summary = summarize_counts(info, counts)
    events.emit(stream.standings(summary))
    winner = None
    if plan.knockout and result.complete:
        found = knockout_state(plan, out).winner
        winner = plan.names[found] if found is not None else None
    events.emit(
        stream.tournament_finished(
            done=summary.done,
            total=info.total,
            complete=result.complete,
            sprt=result.sprt_decision,
            winner=winner,
        )
    )
