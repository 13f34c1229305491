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
        raise SystemExit(130) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
    run_app()


__all__ = ["main"]
