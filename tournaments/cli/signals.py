"""Stopping cleanly on SIGTERM and SIGHUP as well as Ctrl+C.

trio turns SIGINT into ``KeyboardInterrupt`` itself. ``run_until_signalled``
gives SIGTERM and SIGHUP the same meaning: the work is cancelled (engines get
``quit`` and then their process groups are killed, finished games are already
on disk) and ``KeyboardInterrupt`` is raised to the caller.
"""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable
from typing import TypeVar

import trio

T = TypeVar("T")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def run_until_signalled(work: Callable[[], Awaitable[T]]) -> T:
    """``trio.run(work)``; a stop signal cancels it and raises ``KeyboardInterrupt``."""

    async def main() -> T:
        results: list[T] = []
        stopped = False
        async with trio.open_nursery() as nursery:

            async def watch() -> None:
                nonlocal stopped
                with trio.open_signal_receiver(*STOP_SIGNALS) as received:
                    async for _ in received:
                        stopped = True
                        nursery.cancel_scope.cancel()
                        return

            async def run() -> None:
                results.append(await work())
                nursery.cancel_scope.cancel()

            nursery.start_soon(watch)
            nursery.start_soon(run)
        if stopped or not results:
            raise KeyboardInterrupt
        return results[0]

    try:
        return trio.run(main)
    except BaseExceptionGroup as group:
        # Ctrl+C reaches whichever task trio was running, so it may come back wrapped.
        if group.subgroup(KeyboardInterrupt) is not None:
            raise KeyboardInterrupt from None
        leaves = _leaves(group)
        if leaves and all(isinstance(e, Exception) for e in leaves):
            # The caller turns one error into one line: the first (the others usually
            # echo it, e.g. every worker failing on the same full disk); the group is
            # kept as the cause for --debug.
            raise leaves[0] from group
        raise


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    found: list[BaseException] = []
    for error in group.exceptions:
        found += _leaves(error) if isinstance(error, BaseExceptionGroup) else [error]
    return found
