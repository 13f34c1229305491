"""A loopback Dask cluster for tests that proves, at its end, that no process of it is left."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

from tests.procs import live_with
from tournaments.cluster.local import LoopbackCluster, loopback_cluster


def wait_gone(marker: str, timeout: float = 15.0) -> list[int]:
    """Live pids with ``marker`` on their command line, once none is left or time is up."""
    deadline = time.monotonic() + timeout
    while (left := live_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


@contextlib.contextmanager
def dask_cluster(directory: Path, workers: int) -> Iterator[LoopbackCluster]:
    """``loopback_cluster``, then fail if any of its processes is left."""
    with loopback_cluster(directory, workers) as cluster:
        yield cluster
    left = wait_gone(cluster.marker)
    assert not left, f"Dask processes left: {left}"
