"""A game slot: plays one game after another, keeping its engines between games.

A tournament with concurrency N has N slots (in the runner's own event loop, or
spread over worker processes). A slot keeps the players it has started, keyed by
entrant, and reuses them in its next games (an ``EnginePlayer`` restarts its process
by itself after a failure); when more entrants pass through than ``cache_size``,
the least recently used player is closed. So engines are started per seat of a
slot and reused across that slot's games, as fastchess does.

The slot is the only code that plays a game for a command: ``referee tournament``
and ``referee play`` (``tournaments.runner``) both hand it jobs. For each game it builds
the ``.tgn`` record (``game_tags``: the one list of a record's tags), writes the engines'
transcripts of that game to its process's store in ``logs/``, or to ``play``'s one
transcript file (``store.transcripts``, per the ``transcripts`` setting), and returns a
``GameReport``: the only thing that travels back to the runner.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from operator import attrgetter, sub
from pathlib import Path

import trio

from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from referee.clock import seats_tag
from referee.clock_audit import clock_tags
from referee.core import Termination
from referee.match import GameResult, play_game
from referee.players import EnginePlayer, Player, warm_up
from referee.record import record_text, timing_comment
from referee.score_rules import TAG as ADJUDICATION_TAG
from tournaments.event.engines import hide_path
from tournaments.event.jobs import Job, SlotSetup
from tournaments.event.stream import game_started
from tournaments.results.game import GameReport
from tournaments.store import transcripts
from tournaments.store.live_feed import live_game

_SENT_AT = attrgetter("sent_at")
_ARRIVED_AT = attrgetter("arrived_at")
_ELAPSED = attrgetter("elapsed")

TranscriptSink = Callable[[Transcript], None]
PlayerFactory = Callable[[EngineSpec, TranscriptSink], AbstractAsyncContextManager[Player]]
"""Opens the player of an entrant; the sink receives transcripts of ended processes."""


def engine_factory(start_timeout: float) -> PlayerFactory:
    """The default factory: an ``EnginePlayer`` per entrant."""

    def factory(spec: EngineSpec, sink: TranscriptSink) -> AbstractAsyncContextManager[Player]:
        return EnginePlayer.open(spec, start_timeout=start_timeout, on_transcript=sink)

    return factory


class _Cached:
    """A player kept by a slot, hosted by its own task (so any can be closed first)."""

    def __init__(self) -> None:
        self.player: Player | None = None
        self.release = trio.Event()
        self.released = trio.Event()
        self.ended: list[Transcript] = []
        """Transcripts of processes that ended since the current game began."""

    @property
    def live(self) -> Player:
        assert self.player is not None  # set before the host task reports started
        return self.player


class Slot:
    """Plays jobs one at a time; use ``async with Slot.open(setup) as slot``.

    One task drives a slot. Each kept player lives in a host task of the slot's
    nursery, so players can be closed in any order (nurseries must nest per task).
    """

    def __init__(
        self,
        setup: SlotSetup,
        factory: PlayerFactory,
        cache_size: int,
        nursery: trio.Nursery,
        *,
        shared_loop: bool = True,
    ) -> None:
        self.setup = setup
        self.shared_loop = shared_loop
        """Other slots play in this event loop: file writes go to a thread."""
        self.game = setup.make_game()
        self._store = transcripts.store_of(setup.out, setup.transcript_file)
        """Where this slot's kept transcripts go (this process's store), or None."""
        self._factory = factory
        self._cache_size = max(cache_size, setup.players)
        self._cache: OrderedDict[int, _Cached] = OrderedDict()
        self._nursery = nursery
        self._played = False
        """Whether this slot has played a game (``setup.wait`` comes before the next)."""
        self._clock_tags: dict[tuple[int, ...], list[tuple[str, str]]] = {}
        """The clock's record tags of each table seen (``clock_tags``), made once."""

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        setup: SlotSetup,
        *,
        factory: PlayerFactory | None = None,
        cache_size: int | None = None,
        shared_loop: bool = True,
    ) -> AsyncIterator[Slot]:
        """A slot whose players are all closed when the block ends.

        With ``shared_loop=False`` (the only slot of its event loop) the slot writes
        its transcripts directly: between its games nothing waits on this loop, and
        a thread hop per game costs more than the write.
        """
        size = cache_size if cache_size is not None else default_cache_size(setup)
        async with trio.open_nursery() as nursery:
            slot = cls(
                setup,
                factory or engine_factory(setup.start_timeout),
                size,
                nursery,
                shared_loop=shared_loop,
            )
            try:
                yield slot
            finally:
                with trio.CancelScope(shield=True):
                    await slot.close()

    async def close(self) -> None:
        """Close every player and wait until they are gone."""
        while self._cache:
            _, cached = self._cache.popitem(last=False)
            await _release(cached)

    async def _host(
        self, entrant: int, *, task_status: trio.TaskStatus[_Cached] = trio.TASK_STATUS_IGNORED
    ) -> None:
        cached = _Cached()
        # A sandboxed engine never sees the output directory (records, journal, logs)
        # nor the transcript file.
        spec = hide_path(self.setup.entrants[entrant], self.setup.out)
        spec = hide_path(spec, self.setup.transcript_file)
        try:
            async with self._factory(spec, cached.ended.append) as player:
                cached.player = player
                task_status.started(cached)
                await cached.release.wait()
        finally:
            cached.released.set()

    async def _player(self, entrant: int) -> _Cached:
        cached = self._cache.get(entrant)
        if cached is not None:
            self._cache.move_to_end(entrant)
            return cached
        while len(self._cache) >= self._cache_size:
            _, old = self._cache.popitem(last=False)
            await _release(old)
        started: _Cached = await self._nursery.start(self._host, entrant)
        self._cache[entrant] = started
        return started

    async def play(self, job: Job) -> GameReport:
        """Play one game and report it. Never raises for anything an engine does.

        From the slot's second game on, waits ``setup.wait`` seconds first (``--wait``:
        time for the engines to settle between games, per slot, as cutechess's ``-wait``).
        """
        if self._played and self.setup.wait > 0:
            await trio.sleep(self.setup.wait)
        self._played = True
        seats = [await self._player(entrant) for entrant in job.table]
        await warm_up([cached.live for cached in seats])
        before: list[tuple[Transcript | None, int]] = []
        for cached in seats:
            cached.ended.clear()
            transcript = _transcript_of(cached.live)
            before.append((transcript, transcript.mark if transcript is not None else 0))
        names = tuple(self.setup.entrants[i].name for i in job.table)
        setup = self.setup
        controls = setup.seat_controls(job.table)
        live = Path(setup.out) if setup.live and setup.out is not None else None
        # The feed's header (a timestamped event) is made only for a feed.
        header = (
            game_started(
                number=job.number,
                round_no=job.round,
                seats=names,
                game=self.game.name,
                options=setup.options,
                start=job.start,
                tc=seats_tag(controls),
            )
            if live is not None
            else {}
        )
        with live_game(live, header) as feed:
            result = await play_game(
                self.game,
                [cached.live for cached in seats],
                controls,
                seed=job.seed,
                start=job.start,
                max_plies=setup.max_plies,
                on_move=feed.on_move if feed is not None and setup.feed_moves else None,
                adjudication=setup.adjudication,
            )
            void = result.outcome.termination is Termination.VOID
            if feed is not None and setup.keep_feed and not void:
                feed.keep()  # for the runner's event stream: it removes the file
        record = self._record(job, names, result)
        kept = ""
        store = self._store
        if store is not None and transcripts.wanted(setup.transcripts, result.outcome.termination):
            text = self._transcript(job, names, result, seats, before)
            rotate = transcripts.rotates(setup.transcripts, setup.transcript_file)
            if self.shared_loop:  # a slow disk must not hold up other slots' games
                await trio.to_thread.run_sync(
                    functools.partial(transcripts.append_file, store, text, rotate=rotate)
                )
            else:
                transcripts.append_file(store, text, rotate=rotate)
            kept = str(store)
        moves = result.moves
        return GameReport(
            number=job.number,
            round=job.round,
            block=job.block,
            table=job.table,
            seats=names,
            outcome=result.outcome,
            plies=len(moves),
            record=record,
            transcript=kept,
            # Per move: mapped in C (``b.sent_at - a.arrived_at`` for each pair, ``m.elapsed``).
            overheads=tuple(map(sub, map(_SENT_AT, moves[1:]), map(_ARRIVED_AT, moves))),
            round_trips=tuple(map(_ELAPSED, moves)),
        )

    def _record(self, job: Job, names: Sequence[str], result: GameResult) -> str:
        played = result.moves
        texts = [m.text for m in played]
        comments = [timing_comment(m.elapsed, m.remaining, m.search) for m in played]
        clock = self._clock_tags.get(job.table)
        if clock is None:
            clock = self._clock_tags[job.table] = clock_tags(self.setup.seat_controls(job.table))
        tags = game_tags(self.setup, job, clock=clock)
        return record_text(
            self.game, list(names), texts, comments, result.outcome, tags, start=job.start
        )

    def _transcript(
        self,
        job: Job,
        names: Sequence[str],
        result: GameResult,
        seats: Sequence[_Cached],
        before: Sequence[tuple[Transcript | None, int]],
    ) -> str:
        """The transcript block of one game (``transcripts.GAME_HEADER`` first)."""
        texts = [
            transcripts.seat_lines(cached.ended, _transcript_of(cached.live), old, mark)
            for cached, (old, mark) in zip(seats, before, strict=True)
        ]
        return transcripts.game_block(job.number, job.round, names, result.outcome, texts)


def game_tags(
    setup: SlotSetup, job: Job, *, clock: Sequence[tuple[str, str]] | None = None
) -> list[tuple[str, str]]:
    """The event's tags of one game's record, the same for every command that plays
    games (``build_record`` adds the game's own: ``Game``, seats, result, termination):
    ``Round`` is the job's round of the schedule, ``GameNumber`` its number in the
    event, ``Opening`` its opening moves (when it has one). ``clock``: the clock's tags
    of the job's table when the caller kept them (``clock_tags``; else made here)."""
    if clock is None:
        clock = clock_tags(setup.seat_controls(job.table))
    tags = [
        ("Event", setup.event),
        ("Round", str(job.round)),
        ("GameNumber", str(job.number)),
        ("Date", utc_date()),
        *clock,
        ("Seed", str(job.seed)),
    ]
    if job.opening:
        tags.append(("Opening", " ".join(job.opening)))
    if setup.adjudication:
        tags.append((ADJUDICATION_TAG, setup.adjudication.tag_text()))
    return tags


_DATE: list[tuple[int, str]] = [(-1, "")]
"""The last ``utc_date``: its day number and text."""


def utc_date() -> str:
    """Today's UTC date as a record's ``Date`` tag writes it (``2026.11.27``); formatted
    once a day, not once a game."""
    day = int(time.time() // 86400)  # Unix time has no leap seconds: days are 86,400 s
    known, text = _DATE[0]
    if day != known:
        text = dt.datetime.fromtimestamp(day * 86400, dt.UTC).strftime("%Y.%m.%d")
        _DATE[0] = (day, text)
    return text


async def _release(cached: _Cached) -> None:
    cached.release.set()
    await cached.released.wait()


def _transcript_of(player: Player) -> Transcript | None:
    transcript = getattr(player, "transcript", None)
    return transcript if isinstance(transcript, Transcript) else None


def default_cache_size(setup: SlotSetup) -> int:
    """Players a slot keeps: every entrant up to 8, and at least one table's worth."""
    return max(setup.players, min(len(setup.entrants), 8))
