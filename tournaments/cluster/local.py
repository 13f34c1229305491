"""A Dask cluster on this machine (loopback): a scheduler and workers as processes.

For trying ``--cluster`` without machines, the tests (``tests/cluster``) and
``benchmarks/cluster_bench.py``; a real cluster is started with ``dask scheduler`` and
``dask worker`` (``tournaments/README.md``). Needs the ``cluster`` extra.

Each process leads its own session (so a stray one can be killed by group) and has the
scheduler file's path on its command line (``LoopbackCluster.marker``), so a caller can
prove that none is left. Workers run this very checkout (``worker_environment``), one
thread each and without a nanny: a worker killed stays dead.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tournaments.play.prestart import worker_environment

START_TIMEOUT = 60.0
"""Seconds for the scheduler and the workers to come up on a loaded machine."""
STOP_GRACE = 3.0
"""Seconds a process gets to exit after SIGTERM before SIGKILL."""


@dataclass
class LoopbackCluster:
    """A running scheduler and its workers (use ``loopback_cluster``)."""

    directory: Path
    address: str = ""
    scheduler: subprocess.Popen[bytes] | None = None
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def scheduler_file(self) -> Path:
        return self.directory / "scheduler.json"

    @property
    def marker(self) -> str:
        """On the command line of every process of this cluster."""
        return str(self.scheduler_file)

    def _start(self, argv: list[str], log: str) -> subprocess.Popen[bytes]:
        with open(self.directory / log, "wb") as output:
            return subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
                env=worker_environment(),  # this checkout first on PYTHONPATH
                cwd=self.directory,
                start_new_session=True,
            )

    def start_scheduler(self) -> None:
        self.scheduler = self._start(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                self.marker,
            ],
            "scheduler.log",
        )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError, KeyError):
                self.address = json.loads(self.scheduler_file.read_text())["address"]
                return
            if self.scheduler.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"no Dask scheduler: {self.log('scheduler.log')}")

    def start_workers(self, count: int) -> None:
        for _ in range(count):
            number = len(self.workers) + 1
            self.workers.append(
                self._start(
                    [
                        sys.executable,
                        "-m",
                        "distributed.cli.dask_worker",
                        "--scheduler-file",
                        self.marker,
                        "--nworkers",
                        "1",
                        "--nthreads",
                        "1",
                        "--no-nanny",  # so SIGKILL ends a worker for good
                        "--no-dashboard",
                        "--death-timeout",
                        "30",
                        "--name",
                        f"w{number}",
                        "--local-directory",
                        str(self.directory / f"w{number}"),
                    ],
                    f"worker-{number}.log",
                )
            )
        self.wait_for_workers(len(self.workers))

    def wait_for_workers(self, count: int) -> None:
        """Until the scheduler has ``count`` workers (read from the workers' logs: the
        caller needs no client of its own)."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            logs = [self.log(f"worker-{i + 1}.log") for i in range(len(self.workers))]
            if sum("Registered to" in text for text in logs) >= count:
                return
            time.sleep(0.1)
        raise RuntimeError(f"workers did not register: {logs}")

    def log(self, name: str) -> str:
        with contextlib.suppress(OSError):
            return (self.directory / name).read_text(errors="replace")
        return ""

    def kill_worker(self, index: int) -> None:
        """SIGKILL one worker (its engines notice their input closing and stop)."""
        self.workers[index].kill()
        self.workers[index].wait()

    def kill_scheduler(self) -> None:
        assert self.scheduler is not None
        self.scheduler.kill()
        self.scheduler.wait()

    def stop(self) -> None:
        """Stop every process (TERM, then KILL: a worker whose scheduler is gone may
        linger trying to say goodbye) and wait for each."""
        processes = [p for p in [*self.workers, self.scheduler] if p is not None]
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@contextlib.contextmanager
def loopback_cluster(directory: Path, workers: int) -> Iterator[LoopbackCluster]:
    """A scheduler and ``workers`` workers (one thread each), stopped at the end.

    :raises RuntimeError: the scheduler or a worker did not come up.
    """
    directory.mkdir(parents=True, exist_ok=True)
    cluster = LoopbackCluster(directory)
    try:
        cluster.start_scheduler()
        cluster.start_workers(workers)
        yield cluster
    finally:
        cluster.stop()
