"""One game in a kept sandbox: its pipes, its request to the keeper, its report (no trio).

A kept sandbox (``protocol.keeper``) is a bubblewrap sandbox set up once for one
engine of one player, whose process 1 (the compiled warden in its ``keep`` mode,
``warden.c``) starts a fresh game each time it is asked: new PID, mount, IPC and
network namespaces, fresh ``/proc`` and empty scratch file systems, a session keyring of
its own, then the engine under the same limits and watch as a sandbox of its own would
have. ``KeptGame`` is the referee's side of one such game:

* it makes the game's four pipes (the engine's stdin, stdout and stderr, and the
  game's report pipe) and sends the game's ends to the keeper in one message (one
  byte and the descriptors, ``SCM_RIGHTS``), then closes them here;
* ``finish`` reads the report as ``SandboxLaunch.finish`` does (``ready``, then the
  verdict ``exit STATUS LIMIT DETAIL``); ``close`` closes our ends. Closing the report
  pipe while the game runs ends it: the game's warden polls its end and kills its
  whole namespace (``warden.Watchdog``), as the process 1 of a sandbox of its own does.

The same attributes as ``SandboxLaunch`` where ``protocol.process`` reads them
(``ready``, ``status``, ``breach``, ``hold_fd``, ``finish``, ``close``, ``emptied``).
"""

from __future__ import annotations

import contextlib
import os
import socket

from protocol.sandbox import warden
from protocol.sandbox.host import cloexec_pipe, give_pipes


class KeeperGone(OSError):
    """The keeper did not take the request: its sandbox has ended (or its socket broke)."""


class KeptGame:
    """The pipes and the verdict of one game in a kept sandbox (see the module)."""

    hold_fd = -1
    """Never held: a kept sandbox starts a game when it is asked."""

    def __init__(self, control: socket.socket, *, owner: int | None = None) -> None:
        """Ask the keeper on ``control`` for a game; ``owner``: the user (and group) the
        engine runs as, who gets its three pipes (``give_pipes``), in root mode.

        :raises KeeperGone: the request could not be sent (nothing is left open).
        """
        stdin_r, self.stdin_fd = cloexec_pipe()
        self.stdout_fd, stdout_w = cloexec_pipe()
        self.stderr_fd, stderr_w = cloexec_pipe()
        self.report_fd, report_w = cloexec_pipe()
        if owner is not None:
            give_pipes((self.stdin_fd, self.stdout_fd, self.stderr_fd), owner)
        theirs = [stdin_r, stdout_w, stderr_w, report_w]
        try:
            socket.send_fds(control, [b"g"], theirs)
        except OSError as exc:
            self.close()
            raise KeeperGone(exc.errno, f"the kept sandbox took no game: {exc.strerror}") from None
        finally:
            for fd in theirs:
                os.close(fd)
        self.ready = False
        """The game's warden said the engine was started (set by ``finish``)."""
        self.status: int | None = None
        """The engine's returncode as the warden saw it (set by ``finish``)."""
        self.breach: warden.Breach | None = None
        """The limit that ended the engine, if one did (set by ``finish``)."""

    def finish(self, report: bytes) -> None:
        """Take the game's whole report (read until its end by the caller)."""
        self.ready, self.status, self.breach = warden.parse_report(report.decode(errors="replace"))

    def end(self) -> None:
        """End the game now, if it runs: close the report pipe, which its warden watches
        (idempotent; the caller's readers of it must have let go: ``notify_closing``)."""
        fd, self.report_fd = self.report_fd, -1
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)

    def emptied(self) -> bool:
        """Always False: nothing of a game is left for the referee to sweep (its
        processes are in the keeper's namespaces), and the caller waits for the end of
        its stderr instead."""
        return False

    def close(self) -> None:
        """Close our ends still open (idempotent). The stdin, stdout and stderr ends are
        the caller's once it wraps them; it sets them to -1 here when it does."""
        self.end()
        for name in ("stdin_fd", "stdout_fd", "stderr_fd"):
            fd = getattr(self, name)
            setattr(self, name, -1)
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
