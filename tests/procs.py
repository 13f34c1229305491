"""Finding processes through /proc, to prove that none survives the referee."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from protocol.reaper import children


@dataclass(frozen=True, slots=True)
class ProcInfo:
    pid: int
    state: str
    """One letter: ``Z`` is a zombie."""
    ppid: int
    pgid: int
    cmdline: str


def processes() -> Iterator[ProcInfo]:
    """Every process this user can see (a process that vanishes meanwhile is skipped)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
        yield ProcInfo(int(entry), fields[0], int(fields[1]), int(fields[2]), cmdline)


def live_with(marker: str) -> list[int]:
    """Pids whose command line holds ``marker``: live ones, and zombies that are our children.

    An orphaned grandchild's zombie belongs to init, which reaps it in its own time.
    """
    me = os.getpid()
    return [p.pid for p in processes() if marker in p.cmdline and (p.state != "Z" or p.ppid == me)]


def left_after(marker: str, seconds: float) -> list[int]:
    """``live_with(marker)`` once it is empty or ``seconds`` have passed: the pids still
    there ([] when all are gone in time). Polls: a killed process's descendants die and
    are reaped a little later, later still on a loaded machine."""
    deadline = time.monotonic() + seconds
    while (left := live_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


def wait_while_running(
    proc: subprocess.Popen[Any], ready: Callable[[], object], late: str, seconds: float
) -> None:
    """Return once ``ready()`` is true while ``proc`` runs. Fails (AssertionError) with
    ``late`` if that takes over ``seconds``, or with ``proc``'s output (when piped) if
    it ends first."""
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, late
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)


def group_members(pgids: list[int]) -> list[int]:
    """Live pids in any of the process groups ``pgids`` (engines lead their own groups)."""
    wanted = set(pgids)
    return [p.pid for p in processes() if p.pgid in wanted and p.state != "Z"]


def descendants(pid: int) -> list[int]:
    """The pids below ``pid`` now, parents first."""
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def reap_adopted(pids: list[int], seconds: float = 5.0) -> None:
    """Reap those of ``pids`` that were orphaned to this process and have ended.

    Once an engine has run in the test process it is a subreaper (``protocol.reaper``):
    what a killed helper process leaves is reparented to it, and its zombies would stay
    for the rest of the run. Waits up to ``seconds`` for them to end; pids that are not
    our children are left alone."""
    deadline = time.monotonic() + seconds
    pending = set(pids)
    while pending and time.monotonic() < deadline:
        for pid in list(pending):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # not ours (or already reaped)
                done = pid
            if done:
                pending.discard(pid)
        if pending:
            time.sleep(0.02)


def left_by_killed_referee(holder: subprocess.Popen[str], marker: str) -> list[int]:
    """SIGKILL ``holder`` (a referee process running engines) and return the processes
    with ``marker`` still alive 10 s later (``left_after``); what the holder left to this
    process, a subreaper, is reaped (``reap_adopted``)."""
    below = descendants(holder.pid)
    holder.kill()
    holder.wait()
    left = left_after(marker, 10)
    reap_adopted(below)
    return left


@contextlib.contextmanager
def ready_holder(script: str, argument: str, root: str) -> Iterator[subprocess.Popen[str]]:
    """Run ``python -c script argument`` (a referee holding engines; ``root`` on its
    ``PYTHONPATH``) until it prints ``ready``; kill it when the block ends, however."""
    with subprocess.Popen(
        [sys.executable, "-c", script, argument],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": root},
    ) as holder:  # fmt: skip
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "ready\n"
            yield holder
        finally:
            holder.kill()
