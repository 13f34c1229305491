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
directory and no journal. Each scored game's record is appended to the ``records`` file
(any writable file) and synced as it finishes, in finishing order, before its report is
passed on (so a stopped match has every game it reported on disk); a void game is
never written there.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from referee.record import append_text
from tournaments.event.plan import Plan
from tournaments.play.slot import PlayerFactory
from tournaments.results.game import GameReport
from tournaments.runner.slots import open_games, slot_counts, unwrapped


@dataclass
class MatchResult:
    """What a match did."""

    played: list[GameReport] = field(default_factory=list)
    """Scored games in finishing order (empty unless ``keep_played``)."""
    played_count: int = 0
    """Scored games (written to the record file)."""
    voids: int = 0
    """Void attempts (each game was played again)."""
    runner_voids: int = 0
    """Of ``voids``, those voided by the referee's own lateness (no engine blamed)."""
    startup: float = 0.0
    """Seconds to open the slots (start workers)."""
    wall: float = 0.0
    """Seconds from the slots being ready to the last game."""


async def _always_ready() -> None:
    """A match has no recorder backlog: each record is written as its report arrives."""


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
) -> MatchResult:
    """Play every game of ``plan`` (a round robin or gauntlet; not Swiss), appending each
    scored game's record to ``records`` (None: nowhere) and calling ``on_game`` with every
    report, void attempts included, once its record is written.

    ``concurrency``/``workers``/``factory`` as for ``run_tournament`` (defaults: the plan's
    config; with ``[cluster] address`` the games are played on that cluster);
    ``transcript_file``: the one file the kept transcripts go to (None: none kept).

    :raises TournamentError: a game stayed void (its records so far are written).
    :raises PathError: the record file cannot be written (one line naming it).
    :raises tournaments.cluster.client.ClusterError: the cluster cannot be used or was lost.
    :raises ValueError: a Swiss plan (its rounds are paired from a journal's results).
    """
    if plan.swiss:
        raise ValueError("a match is a round robin or gauntlet, not a Swiss event")
    concurrency, workers = slot_counts(plan, concurrency, workers, factory)
    result = MatchResult()

    def submit(report: GameReport) -> None:
        if report.void:
            result.voids += 1
            result.runner_voids += report.runner_fault
        else:
            if records is not None:
                append_text(records, report.record)
            result.played_count += 1
            if keep_played:
                result.played.append(report)
        if on_game is not None:
            on_game(report)

    jobs = (plan.job(fixture) for fixture in plan.iter_static_fixtures())
    opened = time.perf_counter()
    async with (
        unwrapped(),
        open_games(
            plan,
            None,
            concurrency,
            workers,
            factory,
            [],
            transcript_file=transcript_file,
            resumable=False,
        ) as play_all,
    ):
        started = time.perf_counter()
        result.startup = started - opened
        await play_all(jobs, submit, _always_ready)
        result.wall = time.perf_counter() - started
    return result
