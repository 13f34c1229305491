"""``referee play``: a one-encounter plan played by the tournament's own driver.

``run_match(plan, records)`` hands every fixture of ``plan`` (its entrants meeting at one
table: seats rotated game by game, an opening per block of seat arrangements) to where a
tournament's games are played (``runner.slots.open_games``: game slots in this event
loop, in worker processes from concurrency 2, or a Dask cluster's workers) through
``play_all`` (the cluster's dispatcher on a cluster), which play a void game again as
the one void policy says (``play.errors.VoidTally``: ``VOID_ATTEMPTS`` engine voids,
``RUNNER_VOID_ATTEMPTS`` runner-late ones, then ``TournamentError``). So ``play``
records carry the tags of ``tournament`` records (``play.slot.game_tags``) and
its transcripts are kept by the same slot code.

What differs from a tournament is only where finished games go: there is no event
directory and no journal. Each scored game's record is appended to ``records`` (a file,
a device, a named pipe or the standard output: ``runner.record_out``) as it finishes, in
finishing order, off the event loop and before its report is passed on (so a stopped
match has every game it reported on disk), in groups as a tournament's journal is
(``runner.records.Recorder``: the games that end while a write is under way, or within
its ``SYNC_INTERVAL``, go in the next write together). A void game is never written there.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import trio

from tournaments.event.plan import Plan
from tournaments.play.slot import PlayerFactory
from tournaments.results.game import GameReport
from tournaments.runner.record_out import open_record_out
from tournaments.runner.records import GamesPlayed, Recorder
from tournaments.runner.slots import open_games, slot_counts, unwrapped


@dataclass(kw_only=True)
class MatchResult(GamesPlayed):
    """What a match did: its scored games are those written to the record file."""


def _passed_on(
    result: MatchResult, on_game: Callable[[GameReport], None] | None, keep_played: bool
) -> Callable[[GameReport], None]:
    """What is done with each report once its record is written: it is counted in
    ``result``, then passed to ``on_game``."""

    def count(report: GameReport) -> None:
        result.count(report, keep=keep_played)
        if on_game is not None:
            on_game(report)

    return count


async def run_match(
    plan: Plan,
    records: Path | None,
    *,
    concurrency: int | None = None,
    workers: int | None = None,
    on_game: Callable[[GameReport], None] | None = None,
    factory: PlayerFactory | None = None,
    transcript_file: Path | None = None,
    keep_played: bool = True,
    on_wait: Callable[[str], None] | None = None,
) -> MatchResult:
    """Play every game of ``plan`` (a round robin or gauntlet; not Swiss), appending each
    scored game's record to ``records`` (None: nowhere) and calling ``on_game`` with every
    report, void attempts included, once its record is written.

    ``concurrency``/``workers``/``factory`` as for ``run_tournament`` (defaults: the plan's
    config; with ``[cluster] address`` the games are played on that cluster);
    ``transcript_file``: the one file the kept transcripts go to (None: none kept);
    ``on_wait``: told once when ``records`` is a named pipe with no reader yet (the
    games wait for one).

    :raises TournamentError: a game stayed void (its records so far are written).
    :raises PathError: the record file cannot be written, or a named pipe's reader went
        away (one line naming it).
    :raises tournaments.cluster.client.ClusterError: the cluster cannot be used or was lost.
    :raises ValueError: a Swiss plan (its rounds are paired from a journal's results).
    """
    if plan.swiss:
        raise ValueError("a match is a round robin or gauntlet, not a Swiss event")
    concurrency, workers = slot_counts(plan, concurrency, workers, factory)
    result = MatchResult()
    jobs = (plan.job(fixture) for fixture in plan.iter_static_fixtures())
    opened = time.perf_counter()
    async with unwrapped(), contextlib.AsyncExitStack() as stack:
        out = None
        if records is not None:
            out = await stack.enter_async_context(open_record_out(records, on_wait=on_wait))

        async def write(batch: list[GameReport]) -> None:
            text = "".join(report.record for report in batch if not report.void)
            if text and out is not None:
                await out.write(text)

        recorder = Recorder(write, _passed_on(result, on_game, keep_played))
        play_all = await stack.enter_async_context(
            open_games(
                plan,
                None,
                concurrency,
                workers,
                factory,
                [],
                transcript_file=transcript_file,
                resumable=False,
            )
        )
        async with trio.open_nursery() as nursery:
            nursery.start_soon(recorder.run)
            started = time.perf_counter()
            result.startup = started - opened
            await recorder.record(play_all, jobs)  # on an error: the games that finished
            await recorder.close()
        result.wall = time.perf_counter() - started
    return result
