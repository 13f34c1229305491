"""Catching what an engine started outside its process group (no trio here; Linux).

An engine runs in its own process group (and session), and the session kills that
whole group when it stops. A descendant that calls ``setsid`` (or ``setpgid``) leaves
the group and would survive, reparented to init. So:

* the process hosting engines makes itself a *child subreaper*
  (``prctl(PR_SET_CHILD_SUBREAPER)``): every orphaned descendant of its engines is
  reparented to it rather than to init, whatever it did with its session, group or
  environment. Orphans are its own children: cheap to list
  (``/proc/self/task/*/children``), and its to reap;
* at an engine's stop, ``Strays(tag, group, started).sweep()`` picks that engine's
  strays among our children, freezes them (SIGSTOP: a stopped process cannot fork)
  with everything below them, looks again until no new one appears, then kills them
  all (SIGKILL) and reaps them. A fork chain that changes pid every millisecond is
  caught: each pass finds its newest link, reparented to us, and stops it;
* when a process that hosted engines dies (a tournament worker killed or crashed), its
  engines and their orphans are reparented to the process above it, if that one is a
  subreaper too: ``orphans_of(pid, started).sweep()`` there kills and reaps them (the
  engines' tags start with the dead process's pid), so none outlives it, even one that
  ignores end of input, nor stays a zombie.

Which orphan is whose (several engines may run in one process): each engine is started
with ``REFEREE_ENGINE_TAG=<tag>`` in its environment, which its descendants inherit.
A child of ours is a stray of the stopping engine when it

1. carries that engine's tag, or
2. is in the engine's process group (a zombie's environment is gone, its group is not), or
3. carries no tag at all (its environment was scrubbed, or it is a zombie), lives in a
   session other than ours (so the referee did not start it as a helper of its own, in
   its session), is not a process the referee is waiting for (``watch``), and started
   no earlier than the engine. While the referee is starting an engine (``spawning``),
   such a child may be that engine between its fork and its exec: it is judged a
   moment later.

A process carrying another engine's tag is that engine's, swept at its stop. Rule 3 is
a presumption: an untagged escapee born while several engines ran is killed at the
stop of the first of them to stop (it cannot be traced further back once it has been
reparented); it left its game's process group and scrubbed its tag, so it is killed
early rather than late. Only the stop path pays for this (reading a few ``/proc``
files). On systems without ``prctl`` or ``/proc`` every function is a no-op.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import signal
import sys
from collections.abc import Iterator

TAG_VARIABLE = "REFEREE_ENGINE_TAG"
"""Environment variable naming the engine a process descends from."""
PR_SET_CHILD_SUBREAPER = 36
"""From ``<linux/prctl.h>``."""

FREEZE_PASSES = 1000
"""Most looks for new strays in one sweep before the frozen ones are killed (a pass
takes well under a millisecond; a process that forks needs longer to fork again)."""

_counter = itertools.count(1)
_subreaper_pid: int | None = None
_watched: set[int] = set()
"""Children the referee started itself and waits for (engines, bwrap): never strays."""


_spawning = 0
"""Spawns in progress (``spawning``): a child between its fork and its exec looks like an
untagged escapee (our environment, a new session), so rule 3 waits for them."""


@contextlib.contextmanager
def spawning() -> Iterator[None]:
    """Around the start of an engine, until its pid is ``watch``-ed: sweeps meanwhile judge
    no untagged child (they look again a moment later)."""
    global _spawning
    _spawning += 1
    try:
        yield
    finally:
        _spawning -= 1


def watch(pid: int) -> None:
    """Note a child we started and will wait for ourselves: no sweep touches it."""
    _watched.add(pid)


def unwatch(pid: int) -> None:
    """Forget ``pid`` once we have waited for it."""
    _watched.discard(pid)


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


_PREFIX = f"{TAG_VARIABLE}=".encode()


def _tag(pid: int) -> bytes | None:
    """The ``REFEREE_ENGINE_TAG=...`` entry of ``pid``'s environment; None if it has none
    (or it is a zombie, or gone)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            entries = f.read().split(b"\0")
    except OSError:
        return None
    return next((entry for entry in entries if entry.startswith(_PREFIX)), None)


def _stat(pid: int | str) -> tuple[int, int, int] | None:
    """``(process group, session, start time in clock ticks)`` of ``pid``; None if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        # fields[0] is field 3 (state): pgrp is field 5, session 6, starttime 22.
        return int(fields[2]), int(fields[3]), int(fields[19])
    except (OSError, IndexError, ValueError):
        return None


def start_time(pid: int) -> int | None:
    """When ``pid`` started, in clock ticks since boot (``/proc/PID/stat``); None if gone."""
    found = _stat(pid)
    return None if found is None else found[2]


def _subtree(pid: int) -> list[int]:
    """``pid`` and its descendants, parents first."""
    found = [pid]
    for member in found:  # grows while we walk it
        found += children(member)
    return found


class Strays:
    """The stray processes of one stopped engine: found, frozen, killed and reaped by ``sweep``.

    A stray is a child of ours (an orphan we inherited as subreaper) that the module's
    rules give to this engine; everything below a stray is killed with it.
    """

    def __init__(
        self, tag: str, group: int, started: int | None = None, *, prefix: bool = False
    ) -> None:
        self.marker = f"{TAG_VARIABLE}={tag}".encode()
        self.prefix = prefix
        """Whether a tag that starts with ``tag`` is the engine's too (``orphans_of``)."""
        self.group = group
        self.started = started
        """The engine's start time (``start_time``); None: untagged orphans are left alone."""
        self.session = os.getsid(0)
        self.pending: set[int] = set()
        """Pids killed and not yet reaped (by us, or by their own dying parent)."""
        self.deferred = False
        """A child was left unjudged in the last pass (``spawning``)."""

    def _ours(self, pid: int) -> bool:
        if pid in _watched:
            return False
        tag = _tag(pid)
        if tag == self.marker or (self.prefix and tag is not None and tag.startswith(self.marker)):
            return True
        stat = _stat(pid)
        if stat is None:
            return False
        group, session, started = stat
        if group == self.group:
            return True
        if (
            tag is None
            and self.started is not None
            and session != self.session
            and started >= self.started
        ):
            if _spawning:  # perhaps an engine being started: judge it next time
                self.deferred = True
                return False
            return True
        return False

    def _look(self, frozen: set[int], fresh: list[int], judged: set[int]) -> list[int]:
        """Strays not frozen yet: new ones among our children, and what lives below the
        strays frozen in the last pass (``fresh``).

        One pass costs what is new, never what was seen: a fork chain that changes pid
        every millisecond is caught only if a pass takes less than a link's life. Only
        ``fresh`` subtrees are walked: a frozen process cannot fork, so what lives below
        it was there when it was frozen, and is found by the walk of the pass after its
        SIGSTOP (orphans of a stray that died come back among our children). ``judged``:
        children found not to be strays in this sweep, not read again.
        """
        found: list[int] = []
        for pid in children():
            if pid in frozen or pid in judged:
                continue
            deferred, self.deferred = self.deferred, False
            if self._ours(pid):
                found.append(pid)
            elif not self.deferred:  # judged, not put off (``spawning``)
                judged.add(pid)
            self.deferred = self.deferred or deferred
        for pid in [*fresh, *found]:
            found += [p for p in _subtree(pid)[1:] if p not in frozen and p not in found]
        return found

    def sweep(self) -> bool:
        """One pass: freeze new strays and their descendants until no new one appears,
        kill them (SIGKILL), reap the dead.

        Returns whether some are left to reap (dying, or orphans about to be
        reparented to us), or new ones were found: call again a moment later.
        """
        self.deferred = False
        frozen = {p for p in self.pending if os.path.exists(f"/proc/{p}")}
        fresh = list(frozen)
        judged: set[int] = set()
        killed: list[int] = []
        for _ in range(FREEZE_PASSES):
            fresh = self._look(frozen, fresh, judged)
            if not fresh:
                break
            for pid in fresh:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGSTOP)
                frozen.add(pid)
                killed.append(pid)
        for pid in killed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
            self.pending.add(pid)
        for pid in list(self.pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not ours: its parent reaps it, or it is gone
                done = 0 if os.path.exists(f"/proc/{pid}") else pid
            if done:
                self.pending.discard(pid)
        return bool(self.pending) or bool(killed) or self.deferred


def orphans_of(pid: int, started: int | None) -> Strays:
    """The strays of a dead child process ``pid`` that hosted engines (a tournament worker),
    started at ``started`` (``start_time``): its engines, which carry tags it made
    (``new_tag``: they start with its pid), whatever was in its process group, and, by
    rule 3, untagged orphans of other sessions born since it started (its engines that
    died as orphans are such zombies). They come back to us only if we are a subreaper
    (``become_subreaper``) when it dies."""
    return Strays(f"{pid}.", pid, started, prefix=True)
