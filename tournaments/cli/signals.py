"""Stopping cleanly on SIGTERM and SIGHUP as well as Ctrl+C, at any moment.

trio turns SIGINT into ``KeyboardInterrupt`` itself. ``run_until_signalled``
gives SIGTERM and SIGHUP the same meaning: the work is cancelled (engines get
``quit`` and then their process groups are killed, finished games are already
on disk) and ``KeyboardInterrupt`` is raised to the caller.

``stop_signals_interrupt`` covers the rest of a command (reading the config, making
the plan, laying out the final tables): without it SIGTERM kills the process at
once (exit 143, no word on what was kept). Inside it SIGTERM and SIGHUP raise
``KeyboardInterrupt`` where the main thread is, as Ctrl+C does; while
``run_until_signalled`` runs, they are left to its loop (a signal that arrives
before the loop listens is kept and stops the work as soon as it starts).
``stoppable`` wraps a whole command in it, with the line an early stop ends on.

A command whose event loop is a plain ``trio.run`` (``bench``) stops with
``stoppable(..., as_ctrl_c=True)``: a stop signal is sent on as SIGINT, so inside the
loop trio delivers it where it is safe (its tasks unwind, its processes are stopped)
rather than at whatever line of trio's own machinery the handler happened to interrupt.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import threading
from collections.abc import Awaitable, Callable, Iterator
from types import FrameType
from typing import ParamSpec, TypeVar

import typer

from referee.errors import UserError, leaves

T = TypeVar("T")
P = ParamSpec("P")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)

_early: list[int] = []
"""Stop signals received while ``run_until_signalled``'s loop was starting."""
_in_loop = False
"""Whether ``run_until_signalled`` is running (its loop takes the stop signals)."""


def _interrupt(signum: int, _frame: FrameType | None) -> None:
    if _in_loop:  # the loop's receiver is not listening yet: it looks here first
        _early.append(signum)
        return
    raise KeyboardInterrupt


def _as_ctrl_c(signum: int, frame: FrameType | None) -> None:
    if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, signal.SIG_DFL, None):
        # SIGINT ignored (a background job of a script) or not Python's: sent on, it
        # would do nothing or kill the process with no word.
        _interrupt(signum, frame)
        return
    os.kill(os.getpid(), signal.SIGINT)


@contextlib.contextmanager
def stop_signals_interrupt(*, as_ctrl_c: bool = False) -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise ``KeyboardInterrupt`` in the main
    thread (as SIGINT does; with ``as_ctrl_c`` they are sent on as SIGINT, for a plain
    ``trio.run`` to deliver, and an ignored SIGINT is Python's again, so that it can);
    the previous handlers come back after it. Off the main
    thread (where handlers cannot be set) it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stop = _as_ctrl_c if as_ctrl_c else _interrupt
    previous = {sig: signal.signal(sig, stop) for sig in STOP_SIGNALS}
    if as_ctrl_c and signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # A background job of a script starts with SIGINT ignored: trio would then not
        # take it, and the SIGINT a stop signal becomes must reach trio's handler.
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def stoppable(
    early_line: str, *, as_ctrl_c: bool = False
) -> Callable[[Callable[P, None]], Callable[P, None]]:
    """A command decorator: the command runs within ``stop_signals_interrupt``, so SIGTERM
    and SIGHUP stop every step as Ctrl+C does (reading the config, checking the engines,
    the games, the final tables): exit 130 and a line, never the bare exit 143 of an
    unhandled SIGTERM. The command handles an interrupt itself once its games may have
    started (saying what was kept); one that reaches the decorator came before that
    (nothing written) and ends with ``referee: EARLY_LINE``. A command that handles no
    interrupt itself (``perft``, ``adjudicate``, ``bench``: what they printed is complete,
    nothing is left half-written) always ends with that line. ``as_ctrl_c``: see
    ``stop_signals_interrupt``.
    """

    def decorate(command: Callable[P, None]) -> Callable[P, None]:
        @functools.wraps(command)
        def stoppable_command(*args: P.args, **kwargs: P.kwargs) -> None:
            with stop_signals_interrupt(as_ctrl_c=as_ctrl_c):
                try:
                    command(*args, **kwargs)
                except KeyboardInterrupt:
                    typer.echo(f"referee: {early_line}", err=True)
                    raise typer.Exit(130) from None

        return stoppable_command

    return decorate


def run_until_signalled(work: Callable[[], Awaitable[T]]) -> T:
    """``trio.run(work)``; a stop signal cancels it and raises ``KeyboardInterrupt``."""
    import trio  # here: a command that runs no loop (``--help``, ``games``) never reads it

    async def main() -> T:
        results: list[T] = []
        stopped = False
        async with trio.open_nursery() as nursery:

            async def watch() -> None:
                nonlocal stopped
                with trio.open_signal_receiver(*STOP_SIGNALS) as received:
                    if _early:  # arrived while the loop started, before this listened
                        stopped = True
                        nursery.cancel_scope.cancel()
                        return
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

    global _in_loop
    _early.clear()
    _in_loop = True
    try:
        return trio.run(main)
    except BaseExceptionGroup as group:
        # Ctrl+C reaches whichever task trio was running, so it may come back wrapped.
        if group.subgroup(KeyboardInterrupt) is not None:
            raise KeyboardInterrupt from None
        inner = leaves(group)
        if inner and all(isinstance(e, Exception) for e in inner):
            # The caller turns one error into one line: the first (the others usually
            # echo it, e.g. every worker failing on the same full disk); the group is
            # kept as the cause for --debug. A bug beside user errors goes first: it
            # must show its traceback, not hide behind another task's one line.
            bugs = [e for e in inner if not isinstance(e, UserError)]
            raise (bugs or inner)[0] from group
        raise
    finally:
        _in_loop = False
        _early.clear()
