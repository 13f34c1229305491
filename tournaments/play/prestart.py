"""Worker processes started early: while the runner itself is still starting up.

With two games at once or more, an event plays in worker processes
(``tournaments.play.worker``). Each one imports the game driver before its first game,
about 0.2 s of CPU. Started once the runner was ready, those imports came after the
runner's own start (its imports and its plan, about 0.45 s), although the two can run
side by side on two cores. So ``tournament`` and ``play`` call ``start_early`` first
thing when their own flags already say that the run will have workers (``-c N`` of 2
or more, without ``--workers 0``, ``--cluster`` or ``--resume``), and
``open_workers`` adopts them (``take``). A worker started early waits for its first
message like any other, so it is the same worker.

Those that no run takes are ended by ``discard``. The command calls it as it ends, and
``open_workers`` calls it once it has taken what it needs (a config file may ask for
fewer). A worker whose input closes before its first message also ends by itself.
Stdlib only: this runs before the runner's code is read.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

_early: list[subprocess.Popen[bytes]] = []
"""Workers started early and not yet taken, oldest first."""


def default_workers(concurrency: int) -> int:
    """Worker processes for ``concurrency`` games, unless told: none for one game, else
    one per game, at most one per core."""
    if concurrency <= 1:
        return 0
    return min(concurrency, os.cpu_count() or 1)


def worker_command() -> list[str]:
    """The command line of a worker process."""
    return [sys.executable, "-m", "tournaments.play.worker"]


def worker_environment() -> dict[str, str]:
    """This environment, with this code's root first on ``PYTHONPATH`` so a worker runs
    the very code of its runner (whatever the working directory and installation)."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])  # tournaments/play/prestart.py -> the root
    paths = [root, *(p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p)]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return env


def spawn_options() -> dict[str, Any]:
    """How a worker process is started, here or by ``open_workers``: its input and
    output piped to us, in a process group of its own (a terminal's Ctrl+C reaches the
    runner, which stops the workers itself), in ``worker_environment``."""
    return {
        "stdin": subprocess.PIPE,
        "stdout": subprocess.PIPE,
        "process_group": 0,
        "env": worker_environment(),
    }


def spawn() -> subprocess.Popen[bytes]:
    """One worker process (``spawn_options``).

    :raises OSError: it cannot be started.
    """
    return subprocess.Popen(worker_command(), **spawn_options())


def start_early(count: int) -> None:
    """Start ``count`` workers now, for ``take`` (never raises: a worker that cannot be
    started here is started, or its failure reported, when the run needs it)."""
    for _ in range(count - len(_early)):
        try:
            _early.append(spawn())
        except OSError:
            return


def start_for_flags(concurrency: int | None, workers: int | None, *, elsewhere: bool) -> None:
    """``start_early`` as a command's flags call for: the workers of ``concurrency`` games
    at once here (``workers`` of them, else ``default_workers``), none when the games
    are played ``elsewhere`` (a cluster) or the flags do not say (a config file's, a
    resumed event's own settings)."""
    if elsewhere or concurrency is None or concurrency < 2:
        return
    count = default_workers(concurrency) if workers is None else min(workers, concurrency)
    if count > 0:
        start_early(count)


def take(count: int) -> list[subprocess.Popen[bytes]]:
    """Up to ``count`` workers started early that still run, oldest first; the rest are
    ended (``discard``)."""
    taken: list[subprocess.Popen[bytes]] = []
    while _early and len(taken) < count:
        process = _early.pop(0)
        if process.poll() is None:
            taken.append(process)
        else:
            _end(process)
    discard()
    return taken


def discard() -> None:
    """End every worker started early that no run took (idempotent)."""
    while _early:
        _end(_early.pop())


def _end(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):
        process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
