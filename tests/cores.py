"""Run the independent parts of a pure computation on every core the tests may use.

The suite runs one test at a time (``tests/conftest.py`` says why), so a marathon that
only computes (thousands of random games, a deep perft) leaves the machine's other core
idle. ``on_every_core`` shares such a test's parts among child processes forked from the
test runner: each child runs the very code the test would, with the same seeds and the
same checks, and an assertion that fails in a child fails the test with its message. No
part may depend on the clock, on a process of its own or on another part.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

Part = TypeVar("Part")
Result = TypeVar("Result")


def cores() -> int:
    """The number of cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1


def interleaved(items: Sequence[Part], parts: int | None = None) -> list[Sequence[Part]]:
    """``items`` dealt into ``parts`` (default: one per core) slices of about equal
    length, item ``i`` in slice ``i % parts``: neighbours, often of like cost, are apart."""
    count = max(1, min(parts or cores(), len(items)))
    return [items[start::count] for start in range(count)]


def on_every_core(work: Callable[[Part], Result], parts: Sequence[Part]) -> list[Result]:
    """``[work(part) for part in parts]``, the parts run side by side in forked children
    (one per core, at most one per part); in this process when there is one core or one
    part. ``work`` and each part must be picklable (a module-level function; ranges,
    tuples, dataclasses); what a child raises is raised here.

    Forked, not spawned: a child starts in milliseconds with every module this process
    has imported, the tests' own included.
    """
    workers = min(cores(), len(parts))
    if workers <= 1:
        return [work(part) for part in parts]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(work, parts))
