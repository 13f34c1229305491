"""The ``referee`` command line: the composition root.

``app`` defines every command (``games``, ``play``, ``perft``, ``bench``,
``check-engine``) and ``main``; ``tournament``, ``report``, ``show`` and ``adjudicate``
(verdicts streamed from worker processes) hold the larger commands (``tournament_setup``
turns ``tournament``'s options into its checked plan, ``tournament_run`` runs it; ``play``
shares its steps), ``options`` the option declarations several commands share,
``rules`` the ``rules`` and ``moves`` commands (the rules pages, the legal moves of a position);
``progress`` is the live terminal display and ``signals`` turns Ctrl+C and SIGTERM into
a clean stop; ``main`` (the console script) is defined here. Only this room parses
options and prints for people; new commands go here and call the rooms below.

A command module imports at its top only typer and what its signature needs; what the
command runs is imported inside it (``app``'s docstring says why).
"""

from __future__ import annotations

import signal
import sys
from types import FrameType


def _stop(_signum: int, _frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def forget_handled_interrupt() -> None:
    """Drop CPython's note that a ``KeyboardInterrupt`` went unhandled, before a chosen exit.

    CPython 3.11 makes that note whenever the exception leaves code that ``exec`` ran
    from source text, even when a caller catches it afterwards: dataclasses make their
    methods that way, and a stop signal can land while a module read inside a command
    makes its dataclasses. At exit the note wins over the chosen status: the process
    ends by SIGINT (exit -2) instead of 130. A command that ends with ``SystemExit`` has
    handled every interrupt, so the note is wrong then (an interrupt that does escape is
    noted again as it leaves ``main``). Where the interpreter keeps no such note,
    nothing is done.
    """
    import ctypes  # here: only on the way out

    try:
        note = ctypes.c_int.in_dll(ctypes.pythonapi, "_Py_UnhandledKeyboardInterrupt")
    except (AttributeError, OSError, ValueError):
        return
    note.value = 0


def main() -> None:
    """The ``referee`` console script: ``tournaments.cli.app.main``, with SIGTERM a
    clean stop (exit 130, one line) from the first moment.

    Reading the app's modules takes a second, several on a busy machine, and an
    unhandled SIGTERM then would end the process with no word (exit 143). Once they
    are read the previous handling comes back, and each command sets its own (the
    ``tournament`` command: ``tournaments.cli.signals``).
    """
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        from tournaments.cli.app import main as run_app
    except KeyboardInterrupt:
        sys.stderr.write("referee: interrupted while starting (nothing was done)\n")
        forget_handled_interrupt()
        raise SystemExit(130) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    try:
        run_app()
    except SystemExit:
        forget_handled_interrupt()
        raise


__all__ = ["main"]
