"""An engine program as a process group that never outlives its block: ``EngineProcess``.

This module knows how to run a program and how to get rid of it; it knows nothing of
the protocol spoken over its pipes (that is ``protocol.session``, the only other module
here that imports trio). Use ``async with EngineProcess.open(spec, transcript) as process:``.
Inside ``open``:

* the program starts through ``trio.run_process`` in a nursery, in a new session (so
  in its own process group), with all three standard streams piped, the spec's
  environment tagged for ``protocol.reaper`` and the spec's resource limits applied;
* a drain task copies stderr into the transcript, so a chatty engine never blocks on
  a full stderr pipe;
* the task that runs the process sets ``exited`` when it exits and then calls
  ``on_exit``, so a reader blocked on stdout learns of the exit even when a
  grandchild keeps the pipe open and EOF never comes.

* with ``spec.sandbox`` set, the program is bubblewrap running the warden running
  the engine (``protocol.sandbox``): the limits are applied inside, by the warden,
  and its verdict (the engine's own exit status, and the limit that ended it, if
  one did) is read when the sandbox ends. In root mode the referee writes the
  sandbox's user maps right after the spawn (``SandboxLaunch.map_user``). A sandbox
  opened ``held`` is started ahead of its game: it is set up and waits, and the
  engine starts in it at ``go()``.

The block's body owns the pipes: it writes ``stdin_fd`` and reads ``stdout_fd``
directly (both non-blocking), and may ``close_stdin`` to ask the program to finish.
When the block ends, however it ends (return, exception, cancellation), the group is
sent SIGTERM, then SIGKILL ``KILL_GRACE`` seconds later unless the engine has exited
by then (a polite stop, such as ``quit``, is the body's job, before it leaves the
block; a sandbox's group gets SIGKILL at once: ``_kill_sandbox_group``); then what is
left of the group is killed, the engine's strays that left the group or its session are
frozen, killed and reaped (``protocol.reaper``; not looked for in a sandbox known to be
empty, its process 1 reaped), and our ends of the pipes are closed.
The process is reaped: nothing it started outlives the block.

:raises EngineStartError: from ``open``: the program cannot be run.

Exceptions from the body propagate unchanged (a single exception is never wrapped in
an ``ExceptionGroup``). POSIX only (process groups, non-blocking pipes); the limits
and the reaper are Linux only.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import resource
import signal
import socket
import subprocess
from collections.abc import AsyncIterator, Callable
from typing import cast

import trio

from protocol import reaper
from protocol.errors import EngineStartError
from protocol.lines import LossyLineBuffer
from protocol.sandbox import SANDBOX_UID
from protocol.sandbox.host import (
    PROBE_TIMEOUT,
    SandboxLaunch,
    give_pipes,
    info_whole,
    read_available,
)
from protocol.sandbox.kept import KeeperGone, KeptGame
from protocol.spec import EngineSpec
from protocol.transcript import Transcript

CHUNK_BYTES = 1 << 16
"""Bytes asked for per read of stdout or stderr."""
KILL_GRACE = 0.5
"""Between SIGTERM and SIGKILL to the process group."""
STDERR_LINE_BYTES = 1024
"""Longest stderr line kept (the rest of the line is dropped)."""
REAP_GRACE = 2.0
"""At the end, how long to wait for the engine's stray processes to die and be reaped."""
REAP_POLL = 0.005
"""Seconds between looks at dying strays."""

_PRIVATE = object()


def _unwrap(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The single leaf of a group of one (nested groups flattened), else the group itself."""
    exc: BaseException = group
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    # The group outlives its leader while any member lives, and Linux does not
    # reuse a pid that still names a process group, so signalling by pgid after
    # the leader was reaped reaches only our engine's descendants.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


async def _terminate_then_kill_group(proc: trio.Process) -> None:
    """``deliver_cancel`` for ``run_process``: SIGTERM the group, wait, SIGKILL it."""
    _signal_group(proc.pid, signal.SIGTERM)
    await trio.sleep(KILL_GRACE)
    _signal_group(proc.pid, signal.SIGKILL)


async def _kill_sandbox_group(proc: trio.Process) -> None:
    """``deliver_cancel`` for a sandbox: SIGKILL its whole group at once.

    A SIGTERM would end bubblewrap, whose exit ends the wait, but not the sandbox's
    first process (process 1 of its PID namespace takes no signal it has no handler
    for, but SIGKILL): one cancelled while bubblewrap still waited for the user maps
    was left blocked for ever. The warden ends the engine with the sandbox; the
    polite stop (``quit``) is the body's, before the block ends.
    """
    _signal_group(proc.pid, signal.SIGKILL)


def describe_exit(returncode: int | None) -> str:
    """``"exited with code 3"``, ``"was killed by signal 9 (SIGKILL)"``, ``"is still running"``."""
    if returncode is None:
        return "is still running"
    if returncode >= 0:
        return f"exited with code {returncode}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        return f"was killed by signal {-returncode}"
    return f"was killed by signal {-returncode} ({name})"


def _fileno(stream: object) -> int:
    return cast(trio.lowlevel.FdStream, stream).fileno()


def _limit_resources(pid: int, spec: EngineSpec) -> None:
    """Apply the spec's resource limits to the fresh process (Linux ``prlimit``).

    Set from outside just after the spawn rather than in the child before ``exec``:
    trio spawns from a worker thread, where a ``preexec_fn`` is unsafe. The engine
    has not read its first command yet, so it runs under the limits from the start
    of the game.
    """
    for which, value in spec.resource_limits():
        with contextlib.suppress(ProcessLookupError):
            resource.prlimit(pid, which, (value, value))


async def _read_when_ready(fd: int) -> bytes:
    """The next chunk of a pipe we own that trio does not wrap (b"" at its end)."""
    await trio.lowlevel.wait_readable(fd)
    try:
        return os.read(fd, CHUNK_BYTES)
    except BlockingIOError:  # woken for nothing
        return await _read_when_ready(fd)


class _Spawned:
    """``run_process``'s task status, passed on once the process is noted in its owner.

    ``nursery.start`` raises when its caller is cancelled, even after the task said it
    had started: the spawn is then done but its process unknown to ``_start``. Noted
    here first, the process is still killed with its whole group and its strays swept
    at the end (``_release``): a sandbox's first process, which ignores SIGTERM as every
    PID namespace's process 1 does, would otherwise outlive its block.
    """

    __slots__ = ("_owner", "_status")

    def __init__(self, owner: EngineProcess, status: trio.TaskStatus[trio.Process]) -> None:
        self._owner = owner
        self._status = status

    def started(self, value: trio.Process | None = None) -> None:
        assert value is not None
        self._owner._proc = value
        self._status.started(value)


DEFAULT_PIPE_BYTES = 65_536
"""A Linux pipe's default capacity."""
MAX_PIPE_BYTES = 1 << 20
"""The most ``make_room`` asks for (Linux's default ``pipe-max-size``)."""


class _KeptProcess:
    """What ``EngineProcess`` uses of a ``trio.Process``, for a game in a kept sandbox:
    the streams of our ends of its pipes, the returncode once the report said it, and
    the kept sandbox's process id (the games of one kept sandbox share it)."""

    __slots__ = ("pid", "returncode", "stderr", "stdin", "stdout")

    def __init__(self, game: KeptGame, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.stdin: trio.lowlevel.FdStream | None = trio.lowlevel.FdStream(game.stdin_fd)
        self.stdout: trio.lowlevel.FdStream | None = trio.lowlevel.FdStream(game.stdout_fd)
        self.stderr: trio.lowlevel.FdStream | None = trio.lowlevel.FdStream(game.stderr_fd)
        game.stdin_fd = game.stdout_fd = game.stderr_fd = -1  # the streams own them now


class EngineProcess:
    """A started engine program in its own process group, with our ends of its pipes.

    No public constructor: use ``async with EngineProcess.open(spec, transcript)``.
    Its start, its exit and its end are noted in the transcript, and its stderr is
    recorded there as it comes.
    """

    def __init__(self, key: object, spec: EngineSpec, transcript: Transcript) -> None:
        if key is not _PRIVATE:
            raise TypeError("use 'async with EngineProcess.open(spec, transcript)'")
        self.spec = spec
        self.transcript = transcript
        self.exited = trio.Event()
        """Set when the process exits while the block runs, whatever the cause (not when
        it is killed as the block ends)."""
        self.on_exit: Callable[[], None] | None = None
        """Called once, right after ``exited`` is set: wakes a reader blocked on stdout."""
        self.stdin_fd = -1
        """Our end of the engine's stdin (non-blocking); -1 once closed."""
        self.stdout_fd = -1
        """Our end of the engine's stdout (non-blocking); -1 once closed."""
        self._proc: trio.Process | _KeptProcess | None = None
        self._launch: SandboxLaunch | None = None
        """The sandbox's pipes and verdict, when ``spec.sandbox`` is set (not in a kept
        sandbox)."""
        self._game: KeptGame | None = None
        """In a kept sandbox: the game's pipes and verdict."""
        self.on_sandbox_failure: Callable[[str], None] | None = None
        """In a kept sandbox: called, with why, when the kept sandbox failed the game
        rather than the engine did: the game was not set up in it (its warden never said
        ``ready``), or the game's processes outlived its end by ``REAP_GRACE``. The
        kept sandbox is then not to be trusted with another game."""
        self._last_stderr = ""
        """The last line of stderr (bwrap's complaint when the sandbox cannot start)."""
        self._stderr_done = trio.Event()
        self._pipe_bytes = DEFAULT_PIPE_BYTES
        """What the stdin pipe holds (``make_room`` grows it)."""
        self._tag = reaper.new_tag()
        """In the engine's environment: finds its descendants that left its group."""
        self._started: int | None = None
        """The engine's start time (``reaper.start_time``): untagged orphans born later
        may be its strays."""

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        spec: EngineSpec,
        transcript: Transcript,
        *,
        held: bool = False,
        kept: bool = False,
        new_game: Callable[[], tuple[KeptGame, int]] | None = None,
    ) -> AsyncIterator[EngineProcess]:
        """Start ``spec``'s program; when the block ends, kill its group and reap it.

        ``held`` (in the sandbox only; a plain program starts at once): the sandbox is
        set up, and the engine starts in it at ``go()``. ``kept``: start a kept
        sandbox (``protocol.keeper``), whose ``control`` socket asks it for games.
        ``new_game``: a kept sandbox's, which starts the engine as a game of its own
        and returns the game and the kept sandbox's process id.

        :raises EngineStartError: the program cannot be run (no such program or
            directory, not executable, a NUL in an argument).
        """
        process = cls(_PRIVATE, spec, transcript)
        try:
            async with trio.open_nursery() as nursery:
                try:
                    if new_game is not None:
                        process._start_kept(nursery, new_game)
                    else:
                        await process._start(nursery, held, kept)
                    yield process
                finally:
                    # Cancels ``_run``: its ``deliver_cancel`` signals the group.
                    nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            leaf = _unwrap(group)
            if leaf is group:
                raise
            # Re-raise the leaf as it was: a plain ``raise`` here would chain the group
            # into its __context__.
            context = leaf.__context__
            try:
                raise leaf
            finally:
                leaf.__context__ = context
                del leaf, context, group
        finally:
            await process._release()

    def _start_kept(
        self, nursery: trio.Nursery, new_game: Callable[[], tuple[KeptGame, int]]
    ) -> None:
        """Start the engine as a game of a kept sandbox (see the module docstring)."""
        self._note(f"start {self.spec.command_line()} (in its kept bwrap sandbox)")
        try:
            game, pid = new_game()
        except KeeperGone as exc:
            message = f"cannot start engine {self.spec.name!r}: {exc.strerror}"
            self._note(message)
            raise EngineStartError(message) from None
        self._game = game
        proc = self._proc = _KeptProcess(game, pid)
        self.stdin_fd, self.stdout_fd = _fileno(proc.stdin), _fileno(proc.stdout)
        assert proc.stderr is not None
        nursery.start_soon(self._drain_stderr, proc.stderr)
        nursery.start_soon(self._run_kept, game, proc)

    async def _run_kept(self, game: KeptGame, proc: _KeptProcess) -> None:
        """Read the game's report to its end: the game is over; then as ``_run``."""
        fd = game.report_fd
        report = [b""]
        try:
            while chunk := await _read_when_ready(fd):
                report.append(chunk)
        finally:
            # Ended or cancelled (the block ends): what the report holds says whether the
            # game was ever set up (its end may have come first: a start that failed on
            # its closed stdin). Closing our end ends the game, if it still runs (its
            # warden kills its namespace).
            trio.lowlevel.notify_closing(fd)
            rest, ended = read_available(fd)
            report.append(rest)
            game.end()
            game.finish(b"".join(report))
            if ended and not game.ready:
                said = f" ({self._last_stderr})" if self._last_stderr else ""
                self._sandbox_failed(f"a game did not start in it{said}")
        proc.returncode = game.status if game.status is not None else -signal.SIGKILL
        if not game.ready:  # the game's set-up complaint makes the message: wait for it
            with trio.move_on_after(KILL_GRACE):
                await self._stderr_done.wait()
        self._set_exited()

    def _sandbox_failed(self, reason: str) -> None:
        if self.on_sandbox_failure is not None:
            self.on_sandbox_failure(reason)

    @property
    def control(self) -> socket.socket | None:
        """A kept sandbox (opened ``kept``): our end of its control socket (blocking; it
        closes with the block)."""
        return None if self._launch is None else self._launch.control

    async def _start(self, nursery: trio.Nursery, held: bool, kept: bool) -> None:
        spec = self.spec
        where = " (in the bwrap sandbox)" if spec.sandbox is not None else ""
        self._note(f"start {spec.command_line()}{where}")
        reaper.become_subreaper()  # the engine's orphans come back to us: _reap_strays
        try:
            if spec.sandbox is not None:
                self._launch = SandboxLaunch(
                    spec.argv,
                    cwd=spec.cwd,
                    env=spec.env,
                    settings=spec.sandbox,
                    max_memory_mb=spec.max_memory_mb,
                    max_cpu_seconds=spec.max_cpu_seconds,
                    held=held,
                    kept=kept,
                )
            with reaper.spawning():
                proc: trio.Process = await nursery.start(self._run)
                reaper.watch(proc.pid)  # trio waits for it: no engine's sweep may take it
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            # OSError: no such program or cwd, not executable; ValueError: a NUL in argv.
            if isinstance(exc, OSError) and exc.strerror:
                reason = f"{exc.filename or spec.argv[0]}: {exc.strerror}"
            else:
                reason = str(exc) or type(exc).__name__
            message = f"cannot start engine {spec.name!r}: {reason}"
            self._note(message)
            raise EngineStartError(message) from None
        self._proc = proc
        if self._launch is None:
            # In the sandbox, rule 3 of the reaper (untagged orphans born later) has
            # nothing to find: what the engine starts stays in the sandbox's PID
            # namespace, and only bwrap's group (rule 2) can come back to us.
            self._started = reaper.start_time(proc.pid)
        self.stdin_fd, self.stdout_fd = _fileno(proc.stdin), _fileno(proc.stdout)
        assert proc.stderr is not None
        nursery.start_soon(self._drain_stderr, proc.stderr)
        if self._launch is None:
            _limit_resources(proc.pid, spec)
            return
        self._launch.spawned()
        if self._launch.as_root:
            # Before the maps: bwrap waits for them, so the engine has not started yet.
            give_pipes((self.stdin_fd, self.stdout_fd, _fileno(proc.stderr)), SANDBOX_UID)
            await self._map_user(self._launch)

    async def _map_user(self, launch: SandboxLaunch) -> None:
        """Root mode: read bwrap's info, write the sandbox's user maps, let it go on.

        The info pipe is read where it is (a read after it polled readable does not
        block), until bwrap's JSON is whole (``info_whole``: bwrap writes it at once) or
        the pipe's end: waiting for the end as well cost a pass of the scheduler per start.
        """
        fd = launch.info_fd
        info = b""
        try:
            with trio.move_on_after(PROBE_TIMEOUT):
                while True:
                    await trio.lowlevel.wait_readable(fd)
                    chunk = os.read(fd, CHUNK_BYTES)
                    if not chunk:
                        break
                    info += chunk
                    if info_whole(info):
                        break
            launch.map_user(info)
        except (OSError, ValueError, KeyError) as exc:
            message = f"cannot start engine {self.spec.name!r} in the sandbox: {exc}"
            self._note(message)
            raise EngineStartError(message) from None
        finally:
            trio.lowlevel.notify_closing(fd)  # the launch closes it; trio must forget it

    async def _run(self, *, task_status: trio.TaskStatus[trio.Process]) -> None:
        """Run the engine until it exits; then set ``exited`` and call ``on_exit``."""
        launch = self._launch
        try:
            await self._run_process(task_status)
        except BaseException:
            # Cancelled (the run is stopping): ``run_process`` has delivered the cancel
            # and waited for the exit. Say so at once, or ``quit``'s shielded wait for
            # ``exited`` sits out its whole grace for an engine already gone.
            if self._proc is not None and self._proc.returncode is not None:
                self._set_exited()
            raise
        if launch is not None:
            launch.finish()
            if not launch.ready:  # bwrap's complaint makes the message: wait for it
                with trio.move_on_after(KILL_GRACE):
                    await self._stderr_done.wait()
        self._set_exited()

    def _set_exited(self) -> None:
        self.exited.set()
        self._note(f"process {self.exit_description()}")
        if self.on_exit is not None:
            self.on_exit()

    async def _run_process(self, task_status: trio.TaskStatus[trio.Process]) -> None:
        spec, launch = self.spec, self._launch
        await trio.run_process(
            spec.argv if launch is None else launch.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            check=False,
            cwd=spec.cwd if launch is None else None,
            env=self._environment(),
            start_new_session=True,
            deliver_cancel=_terminate_then_kill_group if launch is None else _kill_sandbox_group,
            pass_fds=() if launch is None else launch.pass_fds,
            task_status=_Spawned(self, task_status),
        )

    def _environment(self) -> dict[str, str]:
        """The engine's environment: the spec's, tagged for ``protocol.reaper``.

        In the sandbox, bubblewrap's: the tag alone. bwrap needs nothing of the
        referee's environment (it is found by path, and runs the warden by path), and
        gives what it runs only the environment of its ``--setenv`` options
        (``protocol.sandbox.environment``); copying the referee's cost every start.
        """
        if self._launch is not None:
            return {reaper.TAG_VARIABLE: self._tag}
        env = self.spec.environment(os.environ) or dict(os.environ)
        env[reaper.TAG_VARIABLE] = self._tag
        return env

    async def _drain_stderr(self, stream: trio.abc.ReceiveStream) -> None:
        buffer = LossyLineBuffer(STDERR_LINE_BYTES)
        record = self.transcript.stderr
        while True:
            try:
                chunk = await stream.receive_some(CHUNK_BYTES)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                chunk = b""
            now = trio.current_time()
            if not chunk:
                for line in buffer.flush():
                    record(now, line)
                    self._last_stderr = line
                self._stderr_done.set()
                return
            for line in buffer.feed(chunk):
                record(now, line)
                self._last_stderr = line

    async def stderr_settled(self, timeout: float) -> None:  # noqa: ASYNC109
        """Wait up to ``timeout`` seconds for the end of the engine's stderr, so that what
        it wrote before it exited is in the transcript (a failure's message quotes it)."""
        with trio.move_on_after(timeout):
            await self._stderr_done.wait()

    # --- the body's means ----------------------------------------------------------------

    def go(self) -> None:
        """Start the engine in a sandbox opened ``held`` (no effect otherwise, or twice)."""
        launch = self._launch
        if launch is not None and launch.hold_fd >= 0:
            self._note("the sandbox was started ahead: engine let go")
            launch.go()

    @property
    def pid(self) -> int:
        """The engine's process id, which is also its process group id."""
        assert self._proc is not None
        return self._proc.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has exited (negative: killed by that signal).

        In the sandbox: the engine's own status as the warden saw it, once known."""
        if self._launch is not None and self._launch.status is not None:
            return self._launch.status
        if self._game is not None:
            return self._proc.returncode if self._proc is not None else None
        return None if self._proc is None else self._proc.returncode

    def exit_description(self) -> str:
        """``describe_exit`` of the engine, with the sandbox's limit that ended it
        (``"was killed by signal 9 (SIGKILL): process limit (64 processes ...)"``), or
        why the sandbox did not start."""
        text = describe_exit(self.returncode)
        game = self._game
        if game is not None:
            if game.breach is not None:
                return f"{text}: {game.breach.detail}"
            if self.returncode is not None and not game.ready:
                said = f": {self._last_stderr}" if self._last_stderr else ""
                return f"did not start in its kept sandbox{said}"
            return text
        launch, proc = self._launch, self._proc
        if launch is None or proc is None or proc.returncode is None:
            return text
        if launch.breach is not None:
            return f"{text}: {launch.breach.detail}"
        if not launch.ready:
            said = f": {self._last_stderr}" if self._last_stderr else ""
            return f"did not start in the sandbox (bwrap {describe_exit(proc.returncode)}{said})"
        return text

    async def send_all(self, data: memoryview) -> None:
        """Write all of ``data`` to stdin, waiting for room in the pipe (the slow path;
        a plain ``os.write`` to ``stdin_fd`` is the fast one).

        :raises trio.BrokenResourceError: the engine closed its stdin.
        :raises trio.ClosedResourceError: we closed it.
        """
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        await proc.stdin.send_all(data)

    def make_room(self, size: int) -> None:
        """Grow the stdin pipe, where the system allows, so that ``size`` bytes fit in it.

        A long game's ``position`` line passes 64 KB near ply 6,000: in the default pipe
        it takes two writes and wake-ups of both sides per move, which on a busy machine
        cost milliseconds. The pipe grows to the next power of two (at most
        ``MAX_PIPE_BYTES``) only when a line needs it, so short games keep small pipes.
        Best effort: where the system refuses, the write takes the slow path as before.
        """
        if size <= self._pipe_bytes or self.stdin_fd < 0 or self._pipe_bytes >= MAX_PIPE_BYTES:
            return
        wanted = min(MAX_PIPE_BYTES, 1 << (size - 1).bit_length())
        try:
            self._pipe_bytes = fcntl.fcntl(self.stdin_fd, fcntl.F_SETPIPE_SZ, wanted)
        except (OSError, AttributeError):  # not Linux, or over the user's pipe budget
            self._pipe_bytes = MAX_PIPE_BYTES  # do not ask again

    async def close_stdin(self) -> None:
        """Close our end of stdin (shielded; once): the engine sees the end of its input."""
        proc = self._proc
        if proc is not None and proc.stdin is not None and self.stdin_fd >= 0:
            self.stdin_fd = -1
            with trio.CancelScope(shield=True):
                await proc.stdin.aclose()

    # --- the end ------------------------------------------------------------------------

    async def _release(self) -> None:
        """After the nursery: kill stragglers of the group and close our pipe ends."""
        proc = self._proc
        if self._launch is not None and proc is None:
            self._launch.close()  # the spawn failed
        if proc is None:
            return
        if isinstance(proc, _KeptProcess):
            await self._end_kept_game(proc)
        else:
            reaper.unwatch(proc.pid)  # trio has reaped it: the nursery is over
            # Members of the group that outlived the leader or ignored SIGTERM.
            _signal_group(proc.pid, signal.SIGKILL)
            if self._launch is None or not self._launch.emptied():
                # A sandbox whose process 1 is reaped is empty (``SandboxLaunch.emptied``):
                # a sweep (about 0.1 ms) would find nothing.
                await self._reap_strays(proc.pid)
            if self._launch is not None:
                self._launch.close()
        await self.close_stdin()
        self.stdout_fd = -1
        with trio.CancelScope(shield=True):
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    await stream.aclose()
        if self._game is not None:
            self._game.close()

    async def _end_kept_game(self, proc: _KeptProcess) -> None:
        """A kept sandbox's game: end it if it runs, and wait until all its processes are
        gone (the end of its stderr, which they all hold; its warden kills them all as
        it ends); else tell ``on_sandbox_failure``."""
        assert self._game is not None
        self._game.end()
        stderr = proc.stderr
        with trio.CancelScope(shield=True):
            await self.close_stdin()
            if stderr is not None and not self._stderr_done.is_set():
                with trio.move_on_after(REAP_GRACE) as waited:
                    while await stderr.receive_some(CHUNK_BYTES):
                        pass
                if waited.cancelled_caught:
                    self._note(f"the game's processes were still there after {REAP_GRACE:g} s")
                    self._sandbox_failed("a game's processes outlived it")

    async def _reap_strays(self, group: int) -> None:
        """Kill and reap the engine's descendants that were orphaned to us: those that
        left its process group or session, with or without its tag, and the zombies of
        those that did not (we are their subreaper: ``protocol.reaper``)."""
        strays = reaper.Strays(self._tag, group, self._started)
        # Bounded by the clock, not by a count of sweeps: on a busy machine one sweep can
        # chase a fork chain for a long time, and the stop must not wait on the engine.
        deadline = trio.current_time() + REAP_GRACE
        with trio.CancelScope(shield=True):
            while strays.sweep():
                if trio.current_time() >= deadline:
                    self._note(f"stray processes still found after {REAP_GRACE:g} s: left")
                    return
                await trio.sleep(REAP_POLL)  # dying strays: no event tells us, so poll

    def _note(self, text: str) -> None:
        self.transcript.note(trio.current_time(), text)
