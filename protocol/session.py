"""The conversation with a live engine: ``EngineSession`` (over ``protocol.process``).

Use ``async with EngineSession.open(spec) as session:``. Inside ``open``, the
engine's program is started as an ``EngineProcess`` (``protocol.process``: its own
process group, stderr drained into the transcript, its exit noticed, resource
limits, nothing left behind), then the handshake runs (``rgp 1`` ... ``rgpok``)
and ``spec.options`` are set. This module owns the protocol's exchanges (handshake,
options, ``newgame``, move requests with their ``info``, pings as barriers);
``protocol.channel`` (``EngineChannel``, the session's base) owns the lines on the
pipes: writing with deadlines, reading, framing and stamping replies, the first fatal
failure; ``protocol.process`` owns the process and the pipes themselves.

When the block ends, however it ends (return, exception, cancellation), the
session sends ``quit`` and closes stdin under a shielded grace period, waits for
the exit and copies output the engine left unread to the transcript (a bounded
amount); then the process's block ends: the whole process group is signalled
(SIGTERM, then SIGKILL), what left the group with ``setsid`` is reaped too
(``protocol.reaper``), and so is the engine itself. Nothing the engine started
outlives the block.

Every failure is an ``EngineError`` subclass, raised bare (never inside an
``ExceptionGroup``), so callers can write ``except EngineError``. POSIX only
(process groups, non-blocking pipes).
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import AsyncIterator, Iterable
from itertools import count
from typing import TYPE_CHECKING, NamedTuple

import trio

from protocol.channel import EngineChannel, shown_line
from protocol.codec import format_command, format_reply
from protocol.errors import (
    EXCHANGE_TAIL_LINES,
    STDERR_TAIL_LINES,
    EngineError,
    EngineRefusedError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProtocolViolation,
)
from protocol.lag import lag_monitor
from protocol.lines import MAX_LINE_BYTES
from protocol.messages import (
    PROTOCOL_NAME,
    PROTOCOL_VERSION,
    Command,
    ErrorReply,
    Feature,
    GameOver,
    Go,
    Hello,
    HelloOk,
    IdReply,
    Info,
    MoveReply,
    NewGame,
    Ok,
    OptionReply,
    Ping,
    Pong,
    Position,
    Reply,
    Resign,
    SetOption,
)
from protocol.process import EngineProcess, describe_exit
from protocol.search_info import KEYS, NO_SEARCH, SearchInfo, merge, parse_info
from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from protocol.words import BLANKS

if TYPE_CHECKING:
    from protocol.keeper import Keeper

__all__ = ["EngineSession", "MoveAnswer", "describe_exit"]

MAX_INFOS = 100
"""``info`` texts kept per move request (the last ones); all are in the transcript."""
STDERR_SETTLE = 0.25
"""After an exit, how long a failure waits for the rest of the engine's stderr."""
STDERR_GLANCE = 0.05
"""For a failure of an engine still running, how long its stderr gets to catch up."""
NO_OUTPUT_HINT = "nothing was read from the engine: does it flush stdout after each line?"
"""Added to a handshake timeout when the engine wrote nothing on stdout."""
MAX_OPTIONS = 256
"""``option`` lines an engine may declare in its handshake (SPEC.md §3)."""
MAX_HANDSHAKE_BYTES = 64 * 1024
"""Total length of the ``option``, ``feature`` and ``id`` lines of one handshake, in bytes."""


class MoveAnswer(NamedTuple):
    """The engine's answer to one ``position`` + ``go``, with the referee's timing.

    Immutable, as a frozen dataclass would be, and made once per ply: a ``NamedTuple``
    is several times cheaper to build (a frozen dataclass sets each field through
    ``object.__setattr__``)."""

    move: str | None
    """The move token as sent, unchecked by the protocol; None if the engine resigned."""
    infos: tuple[str, ...]
    """The texts of the ``info`` lines before the answer (at most the last ``MAX_INFOS``)."""
    sent_at: float
    """Trio time just before the request was written (the engine may read it at once)."""
    arrived_at: float
    """Trio time at which the reply line was read from the pipe."""
    search: SearchInfo = NO_SEARCH
    """The structured items of the ``info`` lines, merged: each item's last value."""
    late: float = 0.0
    """The referee's own lateness during the request: the longest stall of its event
    loop between ``sent_at`` and ``arrived_at`` (``protocol.lag``), seconds. Part of
    ``elapsed`` may be this wait, not the engine's."""

    @property
    def elapsed(self) -> float:
        """Seconds from the request to the reply: what the engine's clock is charged."""
        return self.arrived_at - self.sent_at


_PRIVATE = object()


class EngineSession(EngineChannel):
    """A running engine that has completed the handshake.

    No public constructor: use ``async with EngineSession.open(spec) as session:``.
    The methods are for one task at a time (the match loop); calling them from
    two tasks at once is a bug (trio raises ``BusyResourceError``).

    Times are trio times (``trio.current_time()``); deadlines are absolute.
    After a fatal failure (EOF, exit, an overlong line) every later ``receive``
    raises the same error at once.
    """

    def __init__(
        self, key: object, spec: EngineSpec, transcript: Transcript, *, max_line_bytes: int
    ) -> None:
        if key is not _PRIVATE:
            raise TypeError("use 'async with EngineSession.open(spec)' to start an engine")
        super().__init__(spec, transcript, max_line_bytes=max_line_bytes)
        self._lag = lag_monitor()
        """The run's measure of the referee's own stalls (``MoveAnswer.late``)."""
        self.engine_id: dict[str, str] = {}
        """``id`` replies of the handshake: ``name`` and ``author`` when the engine sent them."""
        self.engine_options: tuple[OptionReply, ...] = ()
        """``option`` replies of the handshake, in the engine's order."""
        self.engine_features: frozenset[str] = frozenset()
        """The names of the handshake's ``feature`` lines (``nodes``, ``depth``, ...)."""
        self._ping_counter = count(1)

    # --- lifetime ----------------------------------------------------------------------

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        spec: EngineSpec,
        *,
        transcript: Transcript | None = None,
        start_timeout: float = 10.0,
        quit_grace: float = 1.0,
        max_line_bytes: int = MAX_LINE_BYTES,
        hold: trio.Event | None = None,
        keeper: Keeper | None = None,
    ) -> AsyncIterator[EngineSession]:
        """Start the engine, shake hands, set ``spec.options``; stop it when the block ends.

        ``start_timeout`` bounds the spawn, the handshake and the options together.
        ``quit_grace`` is how long the engine has to exit after ``quit`` before
        its process group is killed. A new ``transcript`` (origin: now) is made
        if none is given.

        ``hold``: start the engine's sandbox now, and the engine (then the handshake,
        within ``start_timeout`` from then) once ``hold`` is set; a plain process
        starts now and shakes hands then. Cancelled while it waits, the sandbox ends
        without the engine having run. ``keeper``: start the engine as a fresh game of
        that kept sandbox (``protocol.keeper``) rather than in a sandbox of its own.

        :raises EngineStartError: the program cannot be run, or it did not answer
            the handshake with ``rgpok`` in time (it exited, refused the version,
            sent a bad line, or said nothing), or it lacks one of ``spec.options``
            (``EngineRefusedError`` if it answered ``error`` to one), or it does not
            declare a feature that ``spec.nodes`` or ``spec.depth`` needs.

        Exceptions from the body propagate unchanged (a single exception is never
        wrapped in an ``ExceptionGroup``).
        """
        if transcript is None:
            transcript = Transcript(origin=trio.current_time())
        session = cls(_PRIVATE, spec, transcript, max_line_bytes=max_line_bytes)
        session._now = trio.lowlevel.current_clock().current_time
        deadline = trio.current_time() + start_timeout
        async with EngineProcess.open(
            spec,
            transcript,
            held=hold is not None,
            new_game=None if keeper is None else keeper.new_game,
        ) as process:
            if keeper is not None:
                process.on_sandbox_failure = keeper.failed
            session._attach(process)
            if hold is not None:
                await hold.wait()
                process.go()
                deadline = trio.current_time() + start_timeout
            try:
                # A failed start gets no quit: the process's block signals the group at once.
                await session._start(deadline, start_timeout)
                try:
                    yield session
                finally:
                    await session._stop(quit_grace)
            finally:
                # The process closes the pipes as its block ends; a later call must
                # not reach whatever file reuses their numbers.
                session._stdin_fd = session._stdout_fd = -1

    async def _start(self, deadline: float, start_timeout: float) -> None:
        """Shake hands and set ``spec.options`` by ``deadline``; failures as ``open``'s,
        with the engine's last words (``_diagnosed``)."""
        spec = self.spec
        try:
            await self._handshake(deadline)
            self._check_features()
            if spec.options:
                await self._apply_options(spec.options, deadline)
        except EngineStartError as exc:
            self._note(str(exc))
            raise await self._diagnosed(exc) from None
        except EngineTimeoutError:
            message = (
                f"engine {spec.name!r} did not complete the handshake within {start_timeout:g} s"
            )
            self._note(message)
            said = self.transcript.last_exchanged(len(self.transcript))
            silent = not any(line.startswith("<") for line in said)
            raise await self._diagnosed(
                EngineStartError(message), NO_OUTPUT_HINT if silent else ""
            ) from None
        except EngineError as exc:
            # The inner error's own diagnostics would repeat: the outer one gets them.
            message = f"engine {spec.name!r} failed the handshake: {exc}"
            self._note(message)
            raise await self._diagnosed(EngineStartError(message)) from None

    async def _diagnosed(self, error: EngineError, hint: str = "") -> EngineError:
        """``error`` with what the engine said last added to it (``EngineError.add_diagnostics``):
        its last stderr lines and the last protocol lines of the transcript, and ``hint``.

        After an exit the rest of stderr is waited for a moment (``STDERR_SETTLE``): a
        program's last words (``fatal: ...``) come just before it exits.
        """
        if error.diagnosed:
            return error
        process = self._process
        if process is not None:
            # After an exit, until stderr's end; while it runs, a moment for the drain to
            # read what it wrote just before the bad line (the two pipes are read apart).
            ended = isinstance(error, (EngineTerminatedError, EngineStartError))
            await process.stderr_settled(
                STDERR_SETTLE if ended or self._exited.is_set() else STDERR_GLANCE
            )
        transcript = self.transcript
        error.add_diagnostics(
            transcript.last_stderr(STDERR_TAIL_LINES),
            transcript.last_exchanged(EXCHANGE_TAIL_LINES),
            hint,
        )
        return error

    # --- the protocol's exchanges ------------------------------------------------------
    # ``timeout`` parameters are deliberate (ASYNC109): running out of time is the
    # engine's failure, reported as EngineTimeoutError, unlike a caller's cancellation.

    async def _handshake(self, deadline: float) -> None:
        """``rgp 1`` ... ``rgpok``, keeping what the engine declares, within its caps.

        :raises EngineStartError: more than ``MAX_OPTIONS`` options or
            ``MAX_HANDSHAKE_BYTES`` of declarations, a refusal or another reply.
        :raises EngineTimeoutError: no ``rgpok`` by ``deadline``, whatever else it wrote.
        """
        name = self.spec.name
        data, since = self._encode_stamped((Hello(),))
        await self._write(data, deadline, "handshake")
        options: list[OptionReply] = []
        features: set[str] = set()
        kept = 0  # bytes of the declarations kept (options, features, ids)
        while True:
            reply, _ = await self.receive(deadline, since)
            if not isinstance(reply, (Info, HelloOk)):
                kept += len(format_reply(reply))
                if kept > MAX_HANDSHAKE_BYTES:
                    raise EngineStartError(
                        f"engine {name!r} declared over {MAX_HANDSHAKE_BYTES // 1024} KiB of"
                        " options, features and ids in its handshake (the limit)"
                    )
            if isinstance(reply, IdReply):
                self.engine_id[reply.key] = reply.value
            elif isinstance(reply, OptionReply):
                if len(options) == MAX_OPTIONS:
                    raise EngineStartError(
                        f"engine {name!r} declared over {MAX_OPTIONS} options in its"
                        f" handshake (the limit), e.g. {shown_line(format_reply(reply))}"
                    )
                options.append(reply)
            elif isinstance(reply, Feature):
                features.update(reply.names)
            elif isinstance(reply, HelloOk):
                break
            elif isinstance(reply, Info):
                continue
            elif isinstance(reply, ErrorReply):
                raise EngineStartError(
                    f"engine {name!r} refused protocol {PROTOCOL_NAME} {PROTOCOL_VERSION}:"
                    f" {reply.text}"
                )
            else:
                raise EngineStartError(
                    f"engine {name!r}: {self._unexpected(reply, 'during the handshake')}"
                )
        self.engine_options = tuple(options)
        self.engine_features = frozenset(features)
        self._note(f"handshake done: {self.engine_id.get('name', '(no name)')}")

    def _check_features(self) -> None:
        """Refuse an engine lacking a feature the spec's search limits need.

        :raises EngineStartError: e.g. a node limit for an engine without ``feature nodes``.
        """
        for name in self.spec.required_features:
            if name not in self.engine_features:
                what = "a node limit" if name == "nodes" else "a depth limit"
                raise EngineStartError(
                    f"engine {self.spec.name!r} does not declare 'feature {name}' in its"
                    f" handshake: it cannot play with {what}"
                )

    async def _apply_options(self, options: Iterable[tuple[str, str]], deadline: float) -> None:
        pairs = tuple(options)
        declared = {option.name for option in self.engine_options}
        for key, _ in pairs:
            if key not in declared:
                known = ", ".join(sorted(declared)) or "none"
                raise EngineStartError(
                    f"engine {self.spec.name!r} has no option {key!r} (it declares: {known})"
                )
        await self._barrier([SetOption(key, value) for key, value in pairs], deadline)

    async def _barrier(self, commands: list[Command], deadline: float) -> float:
        """Send ``commands`` and a ``ping`` in one write; wait for the ``pong``; return its arrival.

        An ``error`` before the ``pong`` is the engine refusing one of the commands.
        """
        token = str(next(self._ping_counter))
        self._pings.add(token)
        try:
            data, since = self._encode_stamped((*commands, Ping(token)))
            await self._write(data, deadline, "ping")
            while True:
                reply, arrived = await self.receive(deadline, since)
                if isinstance(reply, Pong):
                    if reply.token == token:
                        return arrived
                elif isinstance(reply, ErrorReply) and commands:
                    raise EngineRefusedError(
                        f"engine {self.spec.name!r} refused a command: {reply.text}"
                    )
                elif not isinstance(reply, Info):
                    raise ProtocolViolation(
                        f"engine {self.spec.name!r}: "
                        f"{self._unexpected(reply, 'while waiting for pong')}"
                    )
        finally:
            self._pings.discard(token)

    async def request_move(self, position: Position, go: Go, *, deadline: float) -> MoveAnswer:
        """Send ``position`` and ``go`` in one write and wait for ``move`` or ``resign``.

        ``info`` lines before the answer are collected. The time charged is from
        just before the write to the arrival of the answer's line.

        :raises EngineTimeoutError: no answer by ``deadline`` (absolute trio time).
        :raises EngineTerminatedError: the engine exited or closed a pipe.
        :raises ProtocolViolation: a bad line, ``error <text>`` (message ``engine
            error: <text>``), or any other reply during the search.
        """
        try:  # ``_encode_stamped``, unrolled for the two commands of every ply
            lines = [self._position_text.format(position), format_command(go)]
        except ProtocolViolation as exc:
            raise ValueError(f"cannot send to engine {self.spec.name!r}: {exc}") from None
        data = f"{lines[0]}\n{lines[1]}\n".encode()
        lag = self._lag
        if lag.dozing:
            lag.rouse()
        lag.watched += 1  # the monitor ticks while a request is out (``protocol.lag``)
        try:
            self._refuse_stale("go")
            sent_at = self._now()
            self.transcript.sent_lines(sent_at, lines)
            await self._write(data, deadline, "position and go")
            infos: deque[str] | None = None
            search = NO_SEARCH
            while True:
                reply, arrived = await self.receive(deadline, sent_at)
                if type(reply) is MoveReply:
                    late = lag.stalled(sent_at, arrived)
                    if late:
                        self._note_late(late)
                    return MoveAnswer(
                        reply.move, tuple(infos or ()), sent_at, arrived, search, late
                    )
                if isinstance(reply, Info):
                    if infos is None:
                        infos = deque(maxlen=MAX_INFOS)
                    infos.append(reply.text)
                    search = self._searched(search, reply.text)
                elif isinstance(reply, Resign):
                    return MoveAnswer(None, tuple(infos or ()), sent_at, arrived, search)
                elif isinstance(reply, ErrorReply):
                    raise ProtocolViolation(
                        f"engine {self.spec.name!r}: engine error: {reply.text}"
                    )
                elif not isinstance(reply, Pong):  # a late pong of an outstanding ping is harmless
                    raise ProtocolViolation(
                        f"engine {self.spec.name!r}: {self._unexpected(reply, 'during a search')}"
                    )
        except EngineError as exc:
            if isinstance(exc, EngineTimeoutError):  # raised after ``sent_at`` was taken
                exc.late = lag.stalled(sent_at, self._now())
                if exc.late:
                    self._note_late(exc.late)
            raise await self._diagnosed(exc) from None
        finally:
            lag.watched -= 1

    def _note_late(self, late: float) -> None:
        """Keep the referee's lateness during a move in the transcript."""
        self._note(
            f"referee late: its event loop stalled {late * 1000:.1f} ms while this move ran"
            " (charged to the engine's clock; a time loss it explains voids the game)"
        )

    def _searched(self, search: SearchInfo, text: str) -> SearchInfo:
        """``search`` with the items of one ``info`` text merged in.

        A structured item that does not parse is not a violation: it stays in the
        transcript as sent, and a note says why it was not taken.
        """
        head = text.lstrip(BLANKS).split(" ", 1)[0].split("\t", 1)[0]  # the first word
        if head not in KEYS:
            return search  # free text, as in version 1 before structured items
        info = parse_info(text)
        for item in info.rejected:
            self._note(f"info item {shown_line(item.text)} kept as text: {item.reason}")
        return merge(search, info)

    async def request_move_with_ping(
        self, position: Position, go: Go, *, deadline: float
    ) -> tuple[MoveAnswer, bool]:
        """Like ``request_move``, with a ``ping`` in the same write, right behind ``go``.

        Waits for the move (or resignation) and the ``pong``, in either order, until
        ``deadline``; returns the answer and whether the pong came before it. This is
        the compliance check that an engine answers ``ping`` while it searches.

        :raises EngineTimeoutError: the move or the pong did not arrive by ``deadline``.
        :raises EngineTerminatedError, ProtocolViolation: as ``request_move``.
        """
        token = str(next(self._ping_counter))
        self._pings.add(token)
        try:
            self._refuse_stale("go")
            data, sent_at = self._encode_stamped((position, go, Ping(token)))
            await self._write(data, deadline, "position, go and ping")
            answer: MoveAnswer | None = None
            pong_first = False
            infos: list[str] = []
            search = NO_SEARCH
            while True:
                reply, arrived = await self.receive(deadline, sent_at)
                if isinstance(reply, Pong):
                    if reply.token == token:
                        pong_first = answer is None
                        self._pings.discard(token)
                        if answer is not None:
                            return answer, pong_first
                elif isinstance(reply, Info):
                    infos.append(reply.text)
                    search = self._searched(search, reply.text)
                elif isinstance(reply, (MoveReply, Resign)) and answer is None:
                    move = reply.move if isinstance(reply, MoveReply) else None
                    infos_kept = tuple(infos[-MAX_INFOS:])
                    answer = MoveAnswer(move, infos_kept, sent_at, arrived, search)
                    if token not in self._pings:
                        return answer, True
                elif isinstance(reply, ErrorReply):
                    raise ProtocolViolation(
                        f"engine {self.spec.name!r}: engine error: {reply.text}"
                    )
                else:
                    raise ProtocolViolation(
                        f"engine {self.spec.name!r}: {self._unexpected(reply, 'during a search')}"
                    )
        except EngineError as exc:
            raise await self._diagnosed(exc) from None
        finally:
            self._pings.discard(token)

    async def new_game(self, cmd: NewGame, *, timeout: float) -> None:  # noqa: ASYNC109
        """Send ``newgame`` and wait up to ``timeout`` seconds for ``ok``.

        :raises EngineRefusedError: the engine answered ``error <text>``.
        :raises EngineTimeoutError: no answer in time.
        :raises EngineTerminatedError: the engine exited or closed a pipe.
        :raises ProtocolViolation: a bad line or another reply.
        """
        deadline = trio.current_time() + timeout
        try:
            data, since = self._encode_stamped((cmd,))
            await self._write(data, deadline, "newgame")
            while True:
                reply, _ = await self.receive(deadline, since)
                if isinstance(reply, Ok):
                    return
                if isinstance(reply, ErrorReply):
                    raise EngineRefusedError(
                        f"engine {self.spec.name!r} refused the game: {reply.text}"
                    )
                if not isinstance(reply, (Info, Pong)):
                    raise ProtocolViolation(
                        f"engine {self.spec.name!r}: {self._unexpected(reply, 'to newgame')}"
                    )
        except EngineError as exc:
            raise await self._diagnosed(exc) from None

    async def ping(self, timeout: float) -> float:  # noqa: ASYNC109
        """Send ``ping <n>`` and wait up to ``timeout`` seconds for ``pong <n>``; return the
        round-trip time in seconds. Detects an engine that stopped reading its input.

        :raises EngineTimeoutError: no matching ``pong`` in time.
        :raises EngineTerminatedError: the engine exited or closed a pipe.
        :raises ProtocolViolation: a bad line or a reply other than ``info``/``pong``.
        """
        started = trio.current_time()
        try:
            arrived = await self._barrier([], started + timeout)
        except EngineError as exc:
            raise await self._diagnosed(exc) from None
        return arrived - started

    async def probe(self, line: str, *, timeout: float) -> list[Reply]:  # noqa: ASYNC109
        """Send ``line`` as it is (a command outside the protocol: the compliance check's
        unknown command) and a ``ping`` in one write; return the replies before the
        ``pong`` (SPEC §5: an engine answers an unknown command with ``error``).

        :raises EngineTimeoutError: no ``pong`` in time.
        :raises EngineTerminatedError: the engine exited or closed a pipe.
        :raises ProtocolViolation: a line that is not a reply.
        """
        token = str(next(self._ping_counter))
        self._pings.add(token)
        deadline = trio.current_time() + timeout
        try:
            ping = format_command(Ping(token))
            self.transcript.sent_lines(self._now(), [line, ping])
            await self._write(f"{line}\n{ping}\n".encode(), deadline, "probe")
            replies: list[Reply] = []
            while True:
                reply, _ = await self.receive(deadline)
                if isinstance(reply, Pong) and reply.token == token:
                    return replies
                replies.append(reply)
        except EngineError as exc:
            raise await self._diagnosed(exc) from None
        finally:
            self._pings.discard(token)

    async def set_options(
        self,
        options: Iterable[tuple[str, str]],
        *,
        timeout: float,  # noqa: ASYNC109
    ) -> None:
        """Send one ``setoption`` per pair, then wait for a ``ping`` barrier.

        Names are not checked against ``engine_options`` (``open`` does that for
        ``spec.options``).

        :raises EngineRefusedError: the engine answered ``error <text>`` to one of them.
        :raises EngineTimeoutError, EngineTerminatedError, ProtocolViolation: as ``ping``.
        """
        commands: list[Command] = [SetOption(key, value) for key, value in options]
        try:
            await self._barrier(commands, trio.current_time() + timeout)
        except EngineError as exc:
            raise await self._diagnosed(exc) from None

    async def notify(self, *commands: Command, deadline: float | None = None) -> None:
        """Send commands that have no reply (``gameover``, an unknown command, ``quit``), in
        one write; as ``send``, with the engine's last words on a failure."""
        try:
            await self.send(*commands, deadline=deadline)
        except EngineError as exc:
            raise await self._diagnosed(exc) from None

    async def game_over(self, result: str, reason: str, detail: str = "") -> None:
        """Send ``gameover result <result> reason <reason> [detail <detail>]`` (no reply)."""
        await self.notify(GameOver(result, reason, detail))
