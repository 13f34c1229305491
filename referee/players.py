"""Players: what the match loop talks to, whether an engine process or in-process code.

``Player`` is the small async interface the match loop needs. ``EnginePlayer``
adapts a protocol ``EngineSession`` (and restarts the process after any failure,
so one misbehaving game never poisons the next); ``LocalPlayer`` runs a Python
function in-process, which lets the referee loop be tested without processes.

Failures reach the match loop only as ``protocol.errors.EngineError`` subclasses.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import NamedTuple, Protocol

import trio

from protocol.errors import EngineError, EngineStartError, EngineTimeoutError
from protocol.keeper import Keeper
from protocol.keeper import available as keeper_available
from protocol.messages import GameOver, Go, NewGame, Position
from protocol.session import EngineSession, MoveAnswer
from protocol.spec import EngineSpec
from protocol.transcript import Transcript


@dataclass(frozen=True, slots=True)
class GameSetup:
    """What a player learns at the start of a game."""

    game: str
    """The game id."""
    options: tuple[tuple[str, str], ...]
    """Every rule option, defaults included."""
    players: int
    """Number of seats."""
    seat: int
    """This player's seat, 0-based."""
    seed: int
    """A seed the player may use for its own randomness."""


class MoveRequest(NamedTuple):
    """One ``go``: the position as start plus history, and every seat's clock.

    Immutable, as a frozen dataclass would be, and made once per ply: a ``NamedTuple``
    is several times cheaper to build."""

    seat: int
    """The seat asked to move, 0-based."""
    start: str | None
    """Encoded start position, or None for the game's initial position."""
    moves: Sequence[str]
    """Every move played so far, canonical text (the match loop's ``MoveHistory``)."""
    go: Go
    """The clocks as sent to the engine (an engine player adds its own search limits)."""
    timeout: float
    """Seconds after sending the request at which the referee stops waiting."""


PlayerReply = MoveAnswer
"""A player's answer to a ``MoveRequest``, with the referee's own timing: the protocol's
``MoveAnswer`` (move text or None for a resignation, ``info`` texts, send and arrival
times, search items; ``elapsed`` is what the player's clock is charged). An engine
player hands on the session's answer as it is: no copy per ply."""


class Player(Protocol):
    """The interface the match loop drives. Errors are ``EngineError`` subclasses only."""

    name: str

    async def start_game(self, setup: GameSetup) -> None:
        """Prepare for a new game. :raises EngineError: the player cannot play it."""

    async def choose_move(self, request: MoveRequest) -> PlayerReply:
        """Return a move within ``request.timeout``.

        :raises EngineTimeoutError: no reply in time.
        :raises EngineError: any other failure.
        """

    async def game_over(self, over: GameOver) -> None:
        """Learn the result. Never raises: a player that fails here has no effect."""


class EnginePlayer:
    """An external engine, reused across games and restarted after any failure.

    The spec's search limits (``nodes``, ``depth``) go with every ``go``; the session
    refuses, at start, an engine that did not declare the features they need.

    Use ``async with EnginePlayer.open(spec) as player:``; the process never
    outlives the block. After a crash, timeout or protocol violation the session
    is discarded (a late reply could otherwise be taken for the next game's move)
    and a fresh process is started at the next ``start_game``. An engine in the
    sandbox (``spec.sandbox``) gets a fresh process for every game: its scratch
    directory, ``/tmp`` and memory end with the game, so nothing of one game (nor of
    an opponent seen in it) reaches the next; so does one whose spec says ``restart``.

    A sandboxed engine plays its games in a kept sandbox (``protocol.keeper``; on by
    default, ``keep_sandbox``): one sandbox set up at the first game and kept for the
    player's life, which starts each game's engine fresh, in new PID, mount, IPC and
    network namespaces with empty scratch of their own, for about a millisecond of CPU
    where a sandbox of its own costs bubblewrap's whole set-up. Where a kept sandbox
    cannot be had (no C compiler for the compiled warden, a kernel that refuses) or
    breaks, the games get a sandbox each, as below, and the game's transcript says why.

    Otherwise a sandboxed engine's next sandbox is started ahead (``prestart``, on by
    default):
    as soon as a game has its process, the next one's sandbox is set up and waits,
    its engine held (``EngineSession.open``'s ``hold``), and the next game lets that
    engine start instead of setting up a sandbox of its own. The engine still starts
    fresh when its game comes, in scratch nobody has used; what is done ahead is
    bubblewrap's and the warden's work, a few milliseconds of CPU. One such idle
    sandbox per player at most; it ends, unused, with the block.

    Each process lives in a host task inside the player's own nursery, opened
    with the block, so a restart in the middle of a match nests correctly with
    the other players' blocks (entering a session's nursery lazily from the
    match task would interleave with theirs).
    """

    def __init__(
        self,
        spec: EngineSpec,
        nursery: trio.Nursery,
        *,
        start_timeout: float,
        on_transcript: Callable[[Transcript], None] | None,
    ) -> None:
        self.spec = spec
        self.name = spec.name
        self._limited = bool(spec.required_features)
        self._nursery = nursery
        self._start_timeout = start_timeout
        self._on_transcript = on_transcript
        self._session: EngineSession | None = None
        self._release: trio.Event | None = None
        self._released: trio.Event | None = None
        self.prestart = spec.sandbox is not None
        """Start the next sandbox ahead of the next game (sandboxed engines without a
        kept sandbox only)."""
        self.keep_sandbox = spec.sandbox is not None
        """Play the games in a kept sandbox (``protocol.keeper``) where one can be had."""
        self._keeper: Keeper | None = None
        self._keeper_end = trio.Event()
        """Set to end the kept sandbox (with the player, or when it broke)."""
        self._keeper_note: str | None = None
        """Why the games have no kept sandbox (noted in the next game's transcript)."""
        self._spare: _Spare | None = None
        """The sandbox started ahead, waiting for the next game."""
        self.pids: list[int] = []
        self._now = trio.lowlevel.current_clock().current_time
        """The run's clock, read directly (``trio.current_time`` without its dispatch):
        each move's deadline is read from it."""
        """Process ids of every engine process started, in order (1 + restarts)."""

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        spec: EngineSpec,
        *,
        start_timeout: float = 10.0,
        on_transcript: Callable[[Transcript], None] | None = None,
    ) -> AsyncIterator[EnginePlayer]:
        """A player whose processes all end when the block ends."""
        async with trio.open_nursery() as nursery:
            player = cls(spec, nursery, start_timeout=start_timeout, on_transcript=on_transcript)
            try:
                yield player
            finally:
                player._drop_spare()
                with trio.CancelScope(shield=True):
                    await player._discard()
                player._keeper_end.set()

    @property
    def stops_after_game(self) -> bool:
        """Whether ``game_over`` stops the process and waits for its end (in the sandbox,
        or with ``restart``), rather than only telling it."""
        return self.spec.sandbox is not None or self.spec.restart

    @property
    def starts(self) -> int:
        """How many processes were started (1 + restarts)."""
        return len(self.pids)

    @property
    def transcript(self) -> Transcript | None:
        """The running process's transcript, or None when no process runs.

        A transcript of a process that ended goes to ``on_transcript``."""
        return self._session.transcript if self._session is not None else None

    @property
    def engine_name(self) -> str:
        """The engine's ``id name`` if it gave one, else the entrant name."""
        if self._session is not None:
            return self._session.engine_id.get("name", self.name)
        return self.name

    async def _host(
        self,
        *,
        task_status: trio.TaskStatus[_Hosted],
        spare: _Spare | None = None,
        keeper: Keeper | None = None,
    ) -> None:
        """Run one process for as long as the player keeps it (until ``release`` is set);
        a ``spare``'s engine starts when its ``go`` is set; with a ``keeper``, as a game
        of that kept sandbox."""
        release, released = trio.Event(), trio.Event()
        transcript = Transcript(origin=trio.current_time())
        note, self._keeper_note = self._keeper_note, None
        if note is not None:
            transcript.note(trio.current_time(), note)
        try:
            async with EngineSession.open(
                self.spec,
                transcript=transcript,
                start_timeout=self._start_timeout,
                hold=None if spare is None else spare.go,
                keeper=keeper,
            ) as session:
                task_status.started((session, release, released))
                await release.wait()
        finally:
            # A process that failed to start has a transcript too: its last words. A
            # spare's goes with the game that takes it (none, if no game does).
            if spare is not None and not spare.go.is_set():
                spare.transcript = transcript
            elif self._on_transcript is not None:
                self._on_transcript(transcript)
            released.set()

    async def _prepare(self, spare: _Spare) -> None:
        """Host a spare: its sandbox now, its engine at ``go`` (``_take``)."""
        with spare.scope:
            try:
                spare.hosted = await self._nursery.start(partial(self._host, spare=spare))
            except (EngineError, BaseExceptionGroup) as exc:
                spare.error = _engine_error(exc)
            finally:
                spare.done.set()

    async def _take(self, spare: _Spare) -> _Hosted:
        """Let the spare's engine start and wait for its handshake.

        :raises EngineError: it did not start."""
        spare.go.set()
        try:
            await spare.done.wait()
        except BaseException:  # cancelled: its engine may start all the same; end it
            self._nursery.start_soon(self._abandon, spare)
            raise
        if spare.transcript is not None and self._on_transcript is not None:
            self._on_transcript(spare.transcript)  # it failed before its game came
        if spare.hosted is None:
            raise spare.error or EngineStartError(f"{self.name}: the engine did not start")
        return spare.hosted

    async def _abandon(self, spare: _Spare) -> None:
        """End a spare whose game gave up waiting for it, started or not."""
        spare.scope.cancel()  # still starting: its host ends with the scope
        with trio.CancelScope(shield=True):
            await spare.done.wait()
        if spare.hosted is not None:  # it had started: release it like a discarded one
            _, release, _ = spare.hosted
            release.set()

    def _drop_spare(self) -> None:
        """End the spare, if any, unused."""
        spare, self._spare = self._spare, None
        if spare is not None:
            spare.scope.cancel()

    async def _discard(self) -> None:
        """Stop the current process, if any, and wait until it is gone."""
        release, released = self._release, self._released
        self._session = self._release = self._released = None
        if release is not None and released is not None:
            release.set()
            await released.wait()

    async def _kept(self) -> Keeper | None:
        """The player's kept sandbox, set up at the first call; None where none can be
        had, or once it broke (it is then ended, and the games get a sandbox each)."""
        keeper = self._keeper
        if keeper is not None and keeper.broken is None:
            return keeper
        if keeper is not None:
            self._keeper_note = f"{keeper.broken}: from now on a sandbox per game"
            self._keeper, self.keep_sandbox = None, False
            self._keeper_end.set()
        if not self.keep_sandbox or not keeper_available(self.spec):
            self.keep_sandbox = False
            return None
        try:
            self._keeper = await self._nursery.start(self._keep)
        except (EngineError, BaseExceptionGroup) as exc:
            error = _engine_error(exc)
            self._keeper_note = f"{error}: a sandbox per game"
            self.keep_sandbox = False
        return self._keeper

    async def _keep(self, *, task_status: trio.TaskStatus[Keeper]) -> None:
        """Host the kept sandbox until the player ends it."""
        async with Keeper.open(self.spec, Transcript(origin=trio.current_time())) as keeper:
            task_status.started(keeper)
            await self._keeper_end.wait()

    async def _start_fresh(self) -> _Hosted:
        """A fresh process: a game of the kept sandbox if there is one (and a sandbox of
        its own if the kept one broke meanwhile), else one of its own."""
        keeper = await self._kept() if self.keep_sandbox else None
        try:
            return await self._nursery.start(partial(self._host, keeper=keeper))  # type: ignore[no-any-return]
        except (EngineError, BaseExceptionGroup) as exc:
            error = _engine_error(exc)
            if keeper is None or keeper.broken is None:
                raise error from None
        return await self._start_fresh()  # the kept sandbox broke: the games go on without

    async def _ensure_session(self) -> EngineSession:
        if self._session is not None and self._session.alive:
            return self._session
        await self._discard()
        spare, self._spare = self._spare, None
        if spare is not None:
            session, release, released = await self._take(spare)
        else:
            session, release, released = await self._start_fresh()
        self._session, self._release, self._released = session, release, released
        self.pids.append(session.pid)
        if self.prestart and self.spec.sandbox is not None and self._keeper is None:
            self._spare = _Spare()
            self._nursery.start_soon(self._prepare, self._spare)
        return self._session

    async def warm_up(self) -> None:
        """Start a process now if none runs, so several engines can start at once.

        Never raises for an engine failure: the failed process is discarded and
        ``start_game`` starts (and reports) the next attempt.
        """
        try:
            await self._ensure_session()
        except EngineError:
            await self._discard()

    async def _guarded(self, error: EngineError) -> EngineError:
        await self._discard()
        return error

    async def start_game(self, setup: GameSetup) -> None:
        """Send ``newgame`` to a live process, starting one if needed.

        A reused process that fails here (it exited between games, or wrote
        something after the last ``gameover``) is replaced by a fresh one once
        before the failure counts: between games nobody is to blame on the board.
        """
        command = NewGame(
            game=setup.game,
            players=setup.players,
            seat=setup.seat + 1,
            seed=setup.seed,
            options=setup.options,
        )
        reused = self._session is not None and self._session.alive
        try:
            session = await self._ensure_session()
            await session.new_game(command, timeout=self._start_timeout)
            return
        except EngineStartError as error:
            raise await self._guarded(error) from None
        except EngineError as error:
            await self._discard()
            if not reused:
                raise error from None
        try:
            session = await self._ensure_session()
            await session.new_game(command, timeout=self._start_timeout)
        except EngineError as error:
            raise await self._guarded(error) from None

    async def choose_move(self, request: MoveRequest) -> PlayerReply:
        session = self._session
        if session is None:
            raise EngineStartError(f"{self.name}: no running engine")
        go = request.go
        if self._limited:
            go = go._replace(nodes=self.spec.nodes, depth=self.spec.depth)
        try:
            answer = await session.request_move(
                Position(request.moves, request.start),
                go,
                deadline=self._now() + request.timeout,
            )
        except EngineError as error:
            raise await self._guarded(error) from None
        return answer

    async def game_over(self, over: GameOver) -> None:
        session = self._session
        if session is None:
            return
        failed = True
        # An engine that stopped reading its input could block this write forever.
        with trio.move_on_after(self._start_timeout):
            try:
                await session.notify(over)
                failed = False
            except EngineError:
                pass
        if failed or self.stops_after_game:
            await self._discard()


_Hosted = tuple[EngineSession, trio.Event, trio.Event]
"""A hosted process: its session, and the events that end it (``release``) and say it
has ended (``released``)."""


class _Spare:
    """A sandbox started ahead of the player's next game, its engine held until ``go``."""

    __slots__ = ("done", "error", "go", "hosted", "scope", "transcript")

    def __init__(self) -> None:
        self.go = trio.Event()
        """Set by the game that takes it: the engine starts."""
        self.done = trio.Event()
        """Set when the engine has shaken hands (``hosted``) or failed (``error``)."""
        self.scope = trio.CancelScope()
        """Cancelled to end it unused."""
        self.hosted: _Hosted | None = None
        self.error: EngineError | None = None
        self.transcript: Transcript | None = None
        """Its transcript, when it ended before its game came."""


def _engine_error(exc: BaseException) -> EngineError:
    """The one ``EngineError`` a failed start raised (bare, or alone in a group).

    :raises BaseException: ``exc`` itself when it is anything else.
    """
    if isinstance(exc, EngineError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        errors = exc.subgroup(EngineError)
        if errors is not None and len(errors.exceptions) == 1:
            leaf = errors.exceptions[0]
            if isinstance(leaf, EngineError):
                return leaf
    raise exc


async def warm_up(players: Sequence[Player]) -> None:
    """Start the engines of a table that have no process at the same time
    (``EnginePlayer.warm_up``), rather than one after the other at ``start_game``."""
    waiting = [p for p in players if isinstance(p, EnginePlayer) and p.transcript is None]
    if len(waiting) < 2:
        return
    async with trio.open_nursery() as nursery:
        for player in waiting:
            nursery.start_soon(player.warm_up)


async def tell_game_over(players: Sequence[Player], over: GameOver) -> None:
    """Tell every player of a table that the game is over (``Player.game_over``).

    Engines that stop after every game (``EnginePlayer.stops_after_game``) each wait for
    their process to end: when there are several, they are told side by side, so that
    the table waits for the slowest stop rather than for their sum; otherwise each
    player in turn (no task is started for them).
    """
    stopping = sum(isinstance(p, EnginePlayer) and p.stops_after_game for p in players)
    if stopping < 2:
        for player in players:
            await player.game_over(over)
        return
    async with trio.open_nursery() as nursery:
        for player in players:
            nursery.start_soon(player.game_over, over)


LocalBrain = Callable[[GameSetup, MoveRequest], str | None]
"""An in-process move chooser: returns move text, or None to resign."""


class LocalPlayer:
    """A Python function playing in-process, timed by the same rules as an engine."""

    def __init__(self, name: str, brain: LocalBrain) -> None:
        self.name = name
        self._brain = brain
        self._setup: GameSetup | None = None

    async def start_game(self, setup: GameSetup) -> None:
        self._setup = setup

    async def choose_move(self, request: MoveRequest) -> PlayerReply:
        if self._setup is None:
            raise EngineStartError(f"{self.name}: asked to move before a game started")
        sent_at = trio.current_time()
        move = self._brain(self._setup, request)
        arrived_at = trio.current_time()
        if arrived_at - sent_at > request.timeout:
            raise EngineTimeoutError(
                f"{self.name}: no move within {request.timeout:.3f}s",
                overrun=arrived_at - sent_at - request.timeout,
            )
        return PlayerReply(move, (), sent_at, arrived_at)

    async def game_over(self, over: GameOver) -> None:
        self._setup = None
