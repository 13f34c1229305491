"""A kept sandbox: one bubblewrap sandbox that plays a player's games, a fresh one each time.

A sandbox of its own per engine per game costs bubblewrap's set-up every game: new
namespaces, a root file system of a dozen mounts, the mount table read at each, a few
milliseconds of CPU, as much as a whole game of an instant engine. A ``Keeper`` sets
the sandbox up once, for one engine of one player (one slot of an event), and asks its
process 1 for each game (``protocol.sandbox.kept``; the compiled warden's ``keep``
mode in ``warden.c``). Each game still gets:

* a fresh process, in a PID namespace of its own (it sees and can signal nothing of an
  earlier game, nor the sandbox's process 1), which ends with the game, all of it;
* fresh, empty ``/scratch``, ``/tmp`` and ``/dev/shm`` (new file systems in a mount
  namespace of its own, gone with the game), and a fresh ``/proc``;
* IPC and network namespaces of its own (no System V object, message queue, socket or
  network counter of an earlier game; its own loopback interface, up), a session
  keyring of its own and an emptied user keyring;
* the same limits, watch and verdict as a sandbox of its own (the game's warden).

What a kept sandbox shares between one engine's games, and a sandbox of its own does
not: the user and UTS namespaces (the host name ``sandbox``), the root file system's
read-only binds, and the sandbox's process 1, which the games cannot see.
``docs/SECURITY.md`` lists it with the tests that check each point.

Use: ``async with Keeper.open(spec, transcript) as keeper:``, then ``EngineSession.open(spec,
keeper=keeper)`` per game. ``open`` raises ``EngineStartError`` when the kept sandbox
does not come up (the caller then uses a sandbox per game, as before); a keeper that
failed later says so (``broken``): its games' starts fail and its caller drops it.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import AsyncIterator

import trio

from protocol.errors import EngineStartError
from protocol.process import EngineProcess
from protocol.sandbox import SANDBOX_UID, compiled
from protocol.sandbox.host import keepable, layout_for
from protocol.sandbox.kept import KeeperGone, KeptGame
from protocol.spec import EngineSpec
from protocol.transcript import Transcript

UP_TIMEOUT = 20.0
"""Seconds a kept sandbox may take to come up (it normally takes a few milliseconds)."""
UP = b"up\n"
"""What the keeper says on its control socket once it serves games."""


def available(spec: EngineSpec) -> bool:
    """Whether ``spec``'s games could be played in a kept sandbox here: it is sandboxed,
    the compiled warden can be had (the Python warden has no ``keep`` mode), and what
    its sandbox shows in its own scratch fits (``host.keepable``)."""
    if spec.sandbox is None or compiled.path() is None:
        return False
    return keepable(layout_for(spec.argv, spec.cwd, spec.env, spec.sandbox))


class Keeper:
    """A kept sandbox that is up (see the module docstring). No public constructor."""

    def __init__(self, process: EngineProcess, control: socket.socket) -> None:
        self._process = process
        self._control = control
        self._as_root = os.geteuid() == 0
        """Root mode (``protocol.sandbox``): the engines run as ``SANDBOX_UID``."""
        self.broken: str | None = None
        """Why the kept sandbox is not to be used any more (None while it serves)."""
        self.games = 0
        """Games asked for so far."""

    @property
    def pid(self) -> int:
        """The kept sandbox's process id on this host (bubblewrap's)."""
        return self._process.pid

    def new_game(self) -> tuple[KeptGame, int]:
        """Ask for a game (``EngineProcess.open``'s ``new_game``).

        :raises KeeperGone: the kept sandbox is broken or gone.
        """
        if self.broken is None and self._process.exited.is_set():
            self.broken = f"the kept sandbox {self._process.exit_description()}"
        if self.broken is not None:
            raise KeeperGone(0, self.broken)
        try:
            game = KeptGame(self._control, owner=SANDBOX_UID if self._as_root else None)
        except KeeperGone as exc:
            self.broken = exc.strerror
            raise
        self.games += 1
        return game, self._process.pid

    def failed(self, reason: str) -> None:
        """The kept sandbox failed a game (``EngineProcess.on_sandbox_failure``): take no
        more games here."""
        if self.broken is None:
            self.broken = f"the kept sandbox failed: {reason}"

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, spec: EngineSpec, transcript: Transcript) -> AsyncIterator[Keeper]:
        """Set up a kept sandbox for ``spec``; when the block ends, end it and all its
        games (its process 1 kills them all; the process block reaps and sweeps).

        :raises EngineStartError: it did not come up (no compiled warden, bwrap failed,
            the kernel refused a namespace); the message says why.
        """
        if not available(spec):
            raise EngineStartError(f"no kept sandbox for engine {spec.name!r} here")
        async with EngineProcess.open(spec, transcript, kept=True) as process:
            control = process.control
            assert control is not None
            said = b""
            with trio.move_on_after(UP_TIMEOUT), contextlib.suppress(OSError):
                await trio.lowlevel.wait_readable(control)
                said = control.recv(16)
            if said != UP:
                await process.stderr_settled(0.5)
                raise EngineStartError(
                    f"the kept sandbox of engine {spec.name!r} did not come up: "
                    f"{process.exit_description()}"
                )
            try:
                yield cls(process, control)
            finally:
                trio.lowlevel.notify_closing(control)  # the process block closes it
