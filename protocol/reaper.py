"""Catching what an engine started outside its process group (no trio here; Linux).

An engine runs in its own process group, and the session kills that whole group when
it stops. A descendant that calls ``setsid`` (or ``setpgid``) leaves the group and
would survive, reparented to init. Two things catch it:

* the process hosting engines makes itself a *child subreaper*
  (``prctl(PR_SET_CHILD_SUBREAPER)``), so orphaned descendants of its engines are
  reparented to it rather than to init: they become its own children, cheap to list
  (``/proc/self/task/*/children``) and its to reap;
* each engine is started with ``REFEREE_ENGINE_TAG=<tag>`` in its environment, which
  its descendants inherit, so at the engine's stop ``Strays(tag, group).sweep()`` picks
  exactly that engine's strays among our children (never another engine's, nor an
  unrelated child of ours), kills them with everything below them, and reaps them.

Only the stop path pays for this (reading a few ``/proc`` files). On systems without
``prctl`` or ``/proc`` every function is a no-op. A descendant that scrubs the
variable from its environment and escapes the group is not caught.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import signal
import sys

TAG_VARIABLE = "REFEREE_ENGINE_TAG"
"""Environment variable naming the engine a process descends from."""
PR_SET_CHILD_SUBREAPER = 36
"""From ``<linux/prctl.h>``."""

_counter = itertools.count(1)
_subreaper_pid: int | None = None


def new_tag() -> str:
    """A tag unique among the engines of this process (and of other processes)."""
    return f"{os.getpid()}.{next(_counter)}.{os.urandom(4).hex()}"


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (once per process).

    Returns whether it is one (False off Linux or if ``prctl`` fails). Side effect, by
    design: every orphaned descendant of this process comes back to it; ``sweep``
    reaps those of engines.
    """
    global _subreaper_pid
    if _subreaper_pid == os.getpid():
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # this process's libc (no library search)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    _subreaper_pid = os.getpid()
    return True


def children(pid: int | str = "self") -> list[int]:
    """The child pids of process ``pid`` (every thread's; [] if it is gone)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/task/{task}/children") as f:
            found += [int(word) for word in f.read().split()]
    return found


def _tagged(pid: int, marker: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return marker in f.read().split(b"\0")
    except OSError:
        return False


def _group(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return int(f.read().rsplit(b")", 1)[1].split()[2])
    except (OSError, IndexError, ValueError):
        return None


def _subtree(pid: int) -> list[int]:
    """``pid`` and its descendants, parents first."""
    found = [pid]
    for member in found:  # grows while we walk it
        found += children(member)
    return found


class Strays:
    """The stray processes of one stopped engine: found, killed and reaped by ``sweep``.

    A stray is a child of ours (so an orphan we inherited as subreaper) that carries
    the engine's tag, or that is in the engine's process group (a zombie's environment
    is gone, its group is not). Everything below a stray is killed with it.
    """

    def __init__(self, tag: str, group: int) -> None:
        self.marker = f"{TAG_VARIABLE}={tag}".encode()
        self.group = group
        self.pending: set[int] = set()
        """Pids killed and not yet reaped (by us, or by their own dying parent)."""

    def sweep(self) -> bool:
        """One pass: kill new strays (SIGKILL, with their descendants), reap the dead.

        Returns whether some are left to reap (dying, or orphans about to be
        reparented to us): call again a moment later.
        """
        for pid in children():
            if pid in self.pending:
                continue
            if not (_tagged(pid, self.marker) or _group(pid) == self.group):
                continue
            for member in _subtree(pid):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(member, signal.SIGKILL)
                self.pending.add(member)
        for pid in list(self.pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not ours: its parent reaps it, or it is gone
                done = 0 if os.path.exists(f"/proc/{pid}") else pid
            if done:
                self.pending.discard(pid)
        return bool(self.pending)
