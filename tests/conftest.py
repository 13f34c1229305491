"""Shared test helpers. Keep this small: add helpers here only when several packages need them."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The repository root: the working directory bots are started in."""


def bot_argv(*args: str) -> tuple[str, ...]:
    """The argument vector of a built-in bot: ``bot_argv("faulty", "--crash")``."""
    return (sys.executable, "-m", "bots", *args)
