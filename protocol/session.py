"""The conversation with a live engine: ``EngineSession`` (over ``protocol.process``).

Use ``async with EngineSession.open(spec) as session:``. Inside ``open``, the
engine's program is started as an ``EngineProcess`` (``protocol.process``: its own
process group, stderr drained into the transcript, its exit noticed, resource
limits, nothing left behind), then the handshake runs (``rgp 1`` ... ``rgpok``)
and ``spec.options`` are set. This module owns everything said over the pipes;
``protocol.process`` owns the process and the pipes themselves. They are the only
modules of ``protocol`` that import trio.

Stdout is read by the task that waits for a reply, straight from the
non-blocking pipe, and framed by a ``LineBuffer`` that belongs to the session:
``os.read`` either returns data or nothing, so a timed-out or cancelled wait
never loses half a line, and lines read ahead wait in the session's queue. Each
line is stamped with ``trio.current_time()`` when read; a move's time runs from
just before the request is written to that stamp. (Not from after the write: the
write wakes the engine, and on a busy machine the kernel may run the engine before
the referee returns from the write, so a stamp taken after it can miss the engine's
whole thinking time.) (A separate reader task feeding
a memory channel costs one more scheduler pass per line: measured 78 against
29 microseconds per round trip with an instant C engine, so this path is direct.)
The process's exit wakes a pending read (``EngineProcess.on_exit``), so a crash is
seen even when a grandchild keeps stdout open and EOF never comes.

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
import math
import os
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable
from itertools import count
from typing import NamedTuple

import trio

from protocol.codec import format_command, format_reply, parse_reply
from protocol.errors import (
    EngineError,
    EngineRefusedError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    ProtocolViolation,
)
from protocol.history import PositionText
from protocol.lines import MAX_LINE_BYTES, LineBuffer
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
    Quit,
    Reply,
    Resign,
    SetOption,
)
from protocol.process import CHUNK_BYTES, DEFAULT_PIPE_BYTES, EngineProcess, describe_exit
from protocol.search_info import KEYS, NO_SEARCH, SearchInfo, merge, parse_info
from protocol.spec import EngineSpec
from protocol.transcript import Transcript

__all__ = ["EngineSession", "MoveAnswer", "describe_exit"]

MAX_INFOS = 100
"""``info`` texts kept per move request (the last ones); all are in the transcript."""
EXIT_AFTER_EOF_GRACE = 0.1
"""After EOF on stdout, how long to wait for the exit status to put in the message."""
SANDBOX_EXIT_GRACE = 0.5
"""The same for a sandboxed engine (its status passes through the warden and bwrap)."""
WRITE_TIMEOUT = 10.0
"""How long ``send`` waits for room in a full input pipe unless given a deadline."""
DRAIN_CHUNKS = 16
"""At the end, at most this many chunks of unread stdout are copied to the transcript."""


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

    @property
    def elapsed(self) -> float:
        """Seconds from the request to the reply: what the engine's clock is charged."""
        return self.arrived_at - self.sent_at


_PRIVATE = object()


def _shown(line: str, limit: int = 80) -> str:
    return repr(line if len(line) <= limit else line[: limit - 3] + "...")


class EngineSession:
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
        self.spec = spec
        self.transcript = transcript
        self.engine_id: dict[str, str] = {}
        """``id`` replies of the handshake: ``name`` and ``author`` when the engine sent them."""
        self.engine_options: tuple[OptionReply, ...] = ()
        """``option`` replies of the handshake, in the engine's order."""
        self.engine_features: frozenset[str] = frozenset()
        """The names of the handshake's ``feature`` lines (``nodes``, ``depth``, ...)."""
        self._buffer = LineBuffer(max_line_bytes)
        self._lines: deque[tuple[str, float]] = deque()
        self._process: EngineProcess | None = None
        # Until ``_attach``: no pipes, and an exit that never comes.
        self._stdin_fd = -1
        self._stdout_fd = -1
        self._exited = trio.Event()
        self._waiting: trio.CancelScope | None = None
        self._fatal: EngineError | None = None
        self._pings: set[str] = set()
        self._ping_counter = count(1)
        self._position_text = PositionText()
        """The last ``position`` line: the next one is built from it (linear games)."""
        self._now: Callable[[], float] = trio.current_time
        """``trio.current_time``; from ``open`` on, the run's clock read directly (the
        per-ply path reads it twice a move: a hop less through trio's dispatch each)."""

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
    ) -> AsyncIterator[EngineSession]:
        """Start the engine, shake hands, set ``spec.options``; stop it when the block ends.

        ``start_timeout`` bounds the spawn, the handshake and the options together.
        ``quit_grace`` is how long the engine has to exit after ``quit`` before
        its process group is killed. A new ``transcript`` (origin: now) is made
        if none is given.

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
        async with EngineProcess.open(spec, transcript) as process:
            session._attach(process)
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

    def _attach(self, process: EngineProcess) -> None:
        """Talk through ``process`` from now on; its exit wakes a waiting read or write."""
        self._process = process
        # Copies of the process's pipe ends and exit event: the per-ply path
        # (``_write``, ``_read``) uses them without a hop through the process.
        self._stdin_fd = process.stdin_fd
        self._stdout_fd = process.stdout_fd
        self._exited = process.exited
        process.on_exit = self._wake_reader

    async def _start(self, deadline: float, start_timeout: float) -> None:
        """Shake hands and set ``spec.options`` by ``deadline``; failures as ``open``'s."""
        spec = self.spec
        try:
            await self._handshake(deadline)
            self._check_features()
            if spec.options:
                await self._apply_options(spec.options, deadline)
        except EngineStartError as exc:
            self._note(str(exc))
            raise
        except EngineTimeoutError:
            message = (
                f"engine {spec.name!r} did not complete the handshake within {start_timeout:g} s"
            )
            self._note(message)
            raise EngineStartError(message) from None
        except EngineError as exc:
            message = f"engine {spec.name!r} failed the handshake: {exc}"
            self._note(message)
            raise EngineStartError(message) from None

    def _wake_reader(self) -> None:
        """``on_exit`` of the process: wake a read or write that waits on a pipe."""
        if self._waiting is not None:
            # The reader re-reads once (whatever the engine wrote before exiting is
            # already in the pipe) and then reports the exit.
            self._waiting.cancel()

    async def _stop(self, quit_grace: float) -> None:
        """Send ``quit``, close stdin, wait for the exit; shielded, at most ``quit_grace``."""
        if isinstance(self._fatal, ProtocolViolation):
            # It broke the framing (e.g. a flood): it is writing, not reading. No grace.
            quit_grace = 0.0
        with trio.CancelScope(shield=True) as scope:
            scope.deadline = trio.current_time() + quit_grace
            if not self._exited.is_set():
                with contextlib.suppress(EngineError):
                    await self._write(self._encode((Quit(),)), math.inf, "quit")
                # EOF on stdin: engines that ignore ``quit`` still see the end of input.
                self._stdin_fd = -1
                assert self._process is not None
                await self._process.close_stdin()
                await self._exited.wait()
        if not self._exited.is_set():
            self._note(f"no exit within {quit_grace:g} s of quit: killing the process group")
        self._drain_stdout()

    def _drain_stdout(self) -> None:
        """Copy output nobody read (a late move, farewell lines) to the transcript."""
        if self._fatal is not None or self._stdout_fd < 0:
            return
        for _ in range(DRAIN_CHUNKS):
            try:
                chunk = os.read(self._stdout_fd, CHUNK_BYTES)
                lines = self._buffer.feed(chunk)
            except (OSError, ProtocolViolation):
                return
            now = trio.current_time()
            for line in lines:
                self.transcript.received(now, line)
            if not chunk:
                return

    # --- properties --------------------------------------------------------------------

    @property
    def pid(self) -> int:
        """The engine's process id, which is also its process group id."""
        assert self._process is not None
        return self._process.pid

    @property
    def alive(self) -> bool:
        """True while the process runs and no fatal error (EOF, exit, bad framing) was seen."""
        return (
            self._process is not None
            and self._fatal is None
            and not self._exited.is_set()
            and self._process.returncode is None
        )

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has exited (negative: killed by that signal)."""
        return None if self._process is None else self._process.returncode

    # --- writing -----------------------------------------------------------------------

    def _note(self, text: str) -> None:
        self.transcript.note(trio.current_time(), text)

    def _encode(self, commands: tuple[Command, ...]) -> bytes:
        """Format ``commands`` as one block of lines and record them in the transcript."""
        return self._encode_stamped(commands)[0]

    def _encode_stamped(self, commands: tuple[Command, ...]) -> tuple[bytes, float]:
        """``_encode``, and the time with which the lines were recorded (read last, so it
        can stand for the moment just before the write)."""
        position = self._position_text.format
        try:
            lines = [
                position(command) if type(command) is Position else format_command(command)
                for command in commands
            ]
        except ProtocolViolation as exc:
            raise ValueError(f"cannot send to engine {self.spec.name!r}: {exc}") from None
        data = ("\n".join(lines) + "\n").encode() if lines else b""
        now = self._now()
        self.transcript.sent_lines(now, lines)
        return data, now

    async def _write(self, data: bytes, deadline: float, what: str) -> None:
        """Write ``data``: one ``os.write`` when the pipe has room, else wait until ``deadline``."""
        fd = self._stdin_fd
        if len(data) > DEFAULT_PIPE_BYTES and self._process is not None:
            self._process.make_room(len(data))
        try:
            written = os.write(fd, data)
        except BlockingIOError:
            written = 0
        except OSError:  # EPIPE: the engine closed its stdin; EBADF: we closed it
            raise self._fail(self._terminated("closed its input")) from None
        if written == len(data):
            return
        # The pipe is full: the engine is not reading. Wait, but not past the deadline,
        # and not past the engine's exit (a grandchild may keep the pipe open).
        process = self._process
        assert process is not None
        with trio.move_on_at(deadline) as scope:
            self._waiting = scope
            try:
                await process.send_all(memoryview(data)[written:])
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                raise self._fail(self._terminated("closed its input")) from None
            finally:
                self._waiting = None
        if scope.cancelled_caught:
            if self._exited.is_set():
                raise self._fail(self._terminated("stopped reading its input"))
            raise EngineTimeoutError(
                f"engine {self.spec.name!r} did not read its input ({what})",
                overrun=max(0.0, trio.current_time() - deadline),
            )

    async def send(self, *commands: Command, deadline: float | None = None) -> None:
        """Write ``commands`` in one write, each on its own line.

        The write returns at once unless the engine stopped reading and its input
        pipe is full; then it waits until ``deadline`` (absolute trio time; default
        ``WRITE_TIMEOUT`` seconds from now).

        :raises EngineTerminatedError: the engine closed its stdin (it exited).
        :raises EngineTimeoutError: the pipe stayed full until the deadline.
        :raises ValueError: a command cannot be formatted (a bug of the caller,
            e.g. a move with a space): nothing is sent.
        """
        if deadline is None:
            deadline = trio.current_time() + WRITE_TIMEOUT
        await self._write(self._encode(commands), deadline, "send")
        await trio.lowlevel.checkpoint()

    # --- reading -----------------------------------------------------------------------

    async def receive(self, deadline: float) -> tuple[Reply, float]:
        """The next reply and the trio time its line was read.

        Blank lines are skipped; a ``pong`` that answers no outstanding ``ping`` is
        ignored (it answers one that already timed out). Returns without yielding
        when a line is already queued.

        :raises EngineTimeoutError: nothing arrived by ``deadline`` (absolute trio time).
        :raises EngineTerminatedError: the engine closed its stdout or exited.
        :raises ProtocolViolation: a line that is not a reply, or one over the length limit.
        """
        lines = self._lines
        started: float | None = None  # read only if the reply has to be waited for
        while True:
            if not lines:
                if started is None:
                    started = self._now()
                await self._read(deadline, started)
                continue
            line, arrived = lines.popleft()
            if not line or line.isspace():
                continue
            try:
                reply = parse_reply(line)
            except ProtocolViolation as exc:
                message = str(exc)
                shown = _shown(line)
                if shown not in message:
                    message = f"{message} in line {shown}"
                raise ProtocolViolation(f"engine {self.spec.name!r}: {message}") from None
            if type(reply) is Pong and reply.token not in self._pings:
                continue
            return reply, arrived

    async def _read(self, deadline: float, started: float) -> None:
        """Read one chunk of stdout into the line queue, waiting up to ``deadline``."""
        if self._fatal is not None:
            raise self._fatal
        fd = self._stdout_fd
        while True:
            try:
                chunk = os.read(fd, CHUNK_BYTES)
                break
            except BlockingIOError:
                pass
            except OSError:
                raise self._fail(self._terminated("closed its output")) from None
            if self._exited.is_set():
                # Exited, and the pipe is empty but open: a grandchild holds it.
                raise self._fail(
                    EngineTerminatedError(f"engine {self.spec.name!r} {self._exit_text()}")
                )
            with trio.move_on_at(deadline) as scope:
                self._waiting = scope
                try:
                    await trio.lowlevel.wait_readable(fd)
                except trio.ClosedResourceError:
                    pass
                finally:
                    self._waiting = None
            if scope.cancelled_caught and not self._exited.is_set():
                now = trio.current_time()
                overrun = max(0.0, now - deadline)
                raise EngineTimeoutError(
                    f"engine {self.spec.name!r} sent no reply within {now - started:.3f} s"
                    f" ({overrun * 1000:.0f} ms over the deadline)",
                    overrun=overrun,
                )
        if not chunk:
            # EOF. The exit status makes a better message; it normally follows at once.
            # In the sandbox the status comes through the warden and bwrap: a bit later.
            grace = EXIT_AFTER_EOF_GRACE if self.spec.sandbox is None else SANDBOX_EXIT_GRACE
            with trio.move_on_after(grace):
                await self._exited.wait()
            what = "closed its output" if self.returncode is None else self._exit_text()
            raise self._fail(EngineTerminatedError(f"engine {self.spec.name!r} {what}"))
        now = self._now()
        try:
            lines = self._buffer.feed(chunk)
        except ProtocolViolation as exc:
            self._note(f"stdout: {exc}")
            raise self._fail(ProtocolViolation(f"engine {self.spec.name!r}: {exc}")) from None
        received = self.transcript.received
        queue = self._lines
        for line in lines:
            received(now, line)
            queue.append((line, now))

    def _fail(self, error: EngineError) -> EngineError:
        """Make ``error`` the session's fatal error (later reads raise it again)."""
        if self._fatal is None:
            self._fatal = error
            self._note(str(error))
        return self._fatal

    def _terminated(self, what: str) -> EngineTerminatedError:
        return EngineTerminatedError(
            f"engine {self.spec.name!r} {what} (process {self._exit_text()})"
        )

    def _exit_text(self) -> str:
        """How the process ended (``describe_exit``, plus the sandbox's limit, if one)."""
        if self._process is None:
            return describe_exit(None)
        return self._process.exit_description()

    @staticmethod
    def _unexpected(reply: Reply, during: str) -> str:
        try:
            text = format_reply(reply)
        except ProtocolViolation:
            text = repr(reply)
        return f"unexpected reply {_shown(text)} {during}"

    # --- the protocol's exchanges ------------------------------------------------------
    # ``timeout`` parameters are deliberate (ASYNC109): running out of time is the
    # engine's failure, reported as EngineTimeoutError, unlike a caller's cancellation.

    async def _handshake(self, deadline: float) -> None:
        name = self.spec.name
        await self._write(self._encode((Hello(),)), deadline, "handshake")
        options: list[OptionReply] = []
        features: set[str] = set()
        while True:
            reply, _ = await self.receive(deadline)
            if isinstance(reply, IdReply):
                self.engine_id[reply.key] = reply.value
            elif isinstance(reply, OptionReply):
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
            await self._write(self._encode((*commands, Ping(token))), deadline, "ping")
            while True:
                reply, arrived = await self.receive(deadline)
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
        sent_at = self._now()
        self.transcript.sent_lines(sent_at, lines)
        await self._write(data, deadline, "position and go")
        infos: deque[str] | None = None
        search = NO_SEARCH
        while True:
            reply, arrived = await self.receive(deadline)
            if isinstance(reply, MoveReply):
                return MoveAnswer(reply.move, tuple(infos or ()), sent_at, arrived, search)
            if isinstance(reply, Info):
                if infos is None:
                    infos = deque(maxlen=MAX_INFOS)
                infos.append(reply.text)
                search = self._searched(search, reply.text)
            elif isinstance(reply, Resign):
                return MoveAnswer(None, tuple(infos or ()), sent_at, arrived, search)
            elif isinstance(reply, ErrorReply):
                raise ProtocolViolation(f"engine {self.spec.name!r}: engine error: {reply.text}")
            elif not isinstance(reply, Pong):  # a late pong of an outstanding ping is harmless
                raise ProtocolViolation(
                    f"engine {self.spec.name!r}: {self._unexpected(reply, 'during a search')}"
                )

    def _searched(self, search: SearchInfo, text: str) -> SearchInfo:
        """``search`` with the items of one ``info`` text merged in.

        A structured item that does not parse is not a violation: it stays in the
        transcript as sent, and a note says why it was not taken.
        """
        words = text.split(None, 1)
        if not words or words[0] not in KEYS:
            return search  # free text, as in version 1 before structured items
        info = parse_info(text)
        for item in info.rejected:
            self._note(f"info item {_shown(item.text)} kept as text: {item.reason}")
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
            data, sent_at = self._encode_stamped((position, go, Ping(token)))
            await self._write(data, deadline, "position, go and ping")
            answer: MoveAnswer | None = None
            pong_first = False
            infos: list[str] = []
            search = NO_SEARCH
            while True:
                reply, arrived = await self.receive(deadline)
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
        finally:
            self._pings.discard(token)

    async def wait_exit(self, timeout: float) -> int | None:  # noqa: ASYNC109
        """Wait up to ``timeout`` seconds for the process to exit; its return code, or None."""
        with trio.move_on_after(timeout):
            await self._exited.wait()
        return self.returncode

    async def new_game(self, cmd: NewGame, *, timeout: float) -> None:  # noqa: ASYNC109
        """Send ``newgame`` and wait up to ``timeout`` seconds for ``ok``.

        :raises EngineRefusedError: the engine answered ``error <text>``.
        :raises EngineTimeoutError: no answer in time.
        :raises EngineTerminatedError: the engine exited or closed a pipe.
        :raises ProtocolViolation: a bad line or another reply.
        """
        deadline = trio.current_time() + timeout
        await self._write(self._encode((cmd,)), deadline, "newgame")
        while True:
            reply, _ = await self.receive(deadline)
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

    async def ping(self, timeout: float) -> float:  # noqa: ASYNC109
        """Send ``ping <n>`` and wait up to ``timeout`` seconds for ``pong <n>``; return the
        round-trip time in seconds. Detects an engine that stopped reading its input.

        :raises EngineTimeoutError: no matching ``pong`` in time.
        :raises EngineTerminatedError: the engine exited or closed a pipe.
        :raises ProtocolViolation: a bad line or a reply other than ``info``/``pong``.
        """
        started = trio.current_time()
        arrived = await self._barrier([], started + timeout)
        return arrived - started

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
        await self._barrier(commands, trio.current_time() + timeout)

    async def notify(self, *commands: Command, deadline: float | None = None) -> None:
        """Send commands that have no reply (``gameover``), in one write; as ``send``."""
        await self.send(*commands, deadline=deadline)

    async def game_over(self, result: str, reason: str, detail: str = "") -> None:
        """Send ``gameover result <result> reason <reason> [detail <detail>]`` (no reply)."""
        await self.send(GameOver(result, reason, detail))
