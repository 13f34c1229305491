"""A random engine that notes in a log file how it was told to stop.

Usage (from anywhere)::

    python tests/engines/farewell_engine.py LOG

It plays like ``python -m bots random``. On ``quit`` (or the end of its input) it
appends ``quit`` to LOG, waits ``LINGER`` seconds and exits; on SIGTERM it appends
``SIGTERM`` and exits at once. The linger makes the difference visible: a referee that
signals the process group while the engine is still winding down leaves ``SIGTERM``
in the log, one that lets it exit by itself does not.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.engine import EngineLoop
from bots.random_bot import RandomBrain

LINGER = 0.3
"""Seconds between ``quit`` and the exit (well inside the referee's quit grace)."""


def main() -> int:
    log = Path(sys.argv[1])

    def note(what: str) -> None:
        with log.open("a") as file:
            file.write(what + "\n")

    def on_term(signum: int, frame: object) -> None:
        note("SIGTERM")
        os._exit(0)

    signal.signal(signal.SIGTERM, on_term)
    status = EngineLoop(RandomBrain(0), name="farewell", author="referee tests").run()
    note("quit")
    time.sleep(LINGER)
    return status


if __name__ == "__main__":
    sys.exit(main())
