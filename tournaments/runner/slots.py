"""Where a run's games are played: game slots here or in worker processes, or a cluster.

``open_games`` gives ``run_tournament`` one ``PlayAll`` whichever it is; ``play_all``
hands jobs to slots as they come free and plays a void game again while
``play.errors.VoidTally`` allows it (the cluster follows the same policy).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol

import trio

from referee.errors import leaves
from tournaments.event.jobs import Job, SlotSetup
from tournaments.event.plan import Plan
from tournaments.play.errors import VoidTally
from tournaments.play.fdlimit import ensure_open_files, files_needed
from tournaments.play.prestart import default_workers
from tournaments.play.slot import PlayerFactory, Slot, default_cache_size
from tournaments.play.worker import open_workers, split_slots
from tournaments.results.game import GameReport
from tournaments.runner.events import EventLog


class GameSlot(Protocol):
    """A slot in this loop or in a worker process."""

    async def play(self, job: Job) -> GameReport: ...


def slot_counts(
    plan: Plan, concurrency: int | None, workers: int | None, factory: PlayerFactory | None
) -> tuple[int, int]:
    """Games at once and worker processes of a run: as given, else the plan's config,
    else no workers for in-process players (``factory``) and ``default_workers``."""
    concurrency = concurrency if concurrency is not None else plan.config.concurrency
    if workers is None:
        workers = plan.config.workers
    if workers is None:
        workers = 0 if factory is not None else default_workers(concurrency)
    return concurrency, workers


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


Ready = Callable[[], Awaitable[None]]
"""Returns when the next job may be handed out (the recorder's backlog has room)."""
PlayAll = Callable[[Iterable[Job], Callable[[GameReport], None], Ready], Awaitable[None]]
"""Plays jobs, handing each report to the callback (void ones too)."""


@contextlib.asynccontextmanager
async def open_games(
    plan: Plan,
    out: Path | None,
    concurrency: int,
    workers: int,
    factory: PlayerFactory | None,
    cpu: list[float],
    *,
    live: bool = False,
    wait: float = 0.0,
    events: EventLog | None = None,
    transcript_file: Path | None = None,
    resumable: bool = True,
) -> AsyncIterator[PlayAll]:
    """Where this run's games are played: on the Dask cluster of ``[cluster] address``
    (``tournaments.cluster.client``), else in ``open_slots`` (``live``: the slots
    publish their games in play, ``tournaments.store.live_feed``; not on a cluster,
    whose workers do not write into the event directory; ``wait``: seconds each slot
    waits between its games, not on a cluster either; ``events``: the slots feed their
    games to the run's event stream, ``runner.events``; ``transcript_file``: where the
    transcripts are kept instead of ``out/logs/``, ``referee play``'s file; ``resumable``:
    a game that stays void stops the run with a hint to resume, ``VoidTally``)."""
    if plan.config.cluster.address is not None:
        if factory is not None:
            raise ValueError("in-process players cannot play on a cluster")
        from tournaments.cluster.client import open_cluster  # imports Dask: only when asked for

        async with open_cluster(
            plan.config.cluster,
            plan,
            out,
            transcript_file=transcript_file,
            resumable=resumable,
        ) as games:
            yield games.play_all
        return
    async with open_slots(
        plan.slot_setup(
            out,
            live=live,
            wait=wait,
            events=events is not None,
            event_moves=events is not None and events.moves,
            transcript_file=transcript_file,
        ),
        concurrency,
        workers,
        factory,
        cpu,
    ) as slots:
        yield functools.partial(play_all, slots, resumable=resumable)


async def play_all(
    slots: Sequence[GameSlot],
    jobs: Iterable[Job],
    submit: Callable[[GameReport], None],
    ready: Ready,
    *,
    resumable: bool = True,
) -> None:
    """Play ``jobs`` on the slots (each slot takes the next job when free; a slot with
    a ``depth`` of 2 holds a second job in its queue). ``jobs`` is taken one at a time,
    as slots come free, and only once ``ready`` returns: a generator of a million jobs
    is never held whole, and reports never pile up faster than they are recorded.

    A void game is submitted and played again while ``VoidTally`` allows (``resumable``:
    its stop error says to resume).

    :raises TournamentError: a game stayed void.
    """
    send, receive = trio.open_memory_channel[Job](0)

    async def drive(slot: GameSlot, queue: trio.MemoryReceiveChannel[Job]) -> None:
        async with queue:
            async for job in queue:
                tally = VoidTally(resumable=resumable)
                while True:
                    report = await slot.play(job)
                    submit(report)
                    if not report.void:
                        break
                    if (error := tally.count(job.number, report)) is not None:
                        raise error

    async with trio.open_nursery() as nursery:
        for slot in slots:
            for _ in range(getattr(slot, "depth", 1)):
                nursery.start_soon(drive, slot, receive.clone())
        receive.close()
        async with send:
            for job in jobs:
                await ready()
                await send.send(job)


@contextlib.asynccontextmanager
async def unwrapped() -> AsyncIterator[None]:
    """Raise the one real error of an exception group bare (one-line errors reach users)."""
    try:
        yield
    except BaseExceptionGroup as group:
        inner = [e for e in leaves(group) if not isinstance(e, trio.Cancelled)]
        if len(inner) == 1:
            raise inner[0] from None
        raise
