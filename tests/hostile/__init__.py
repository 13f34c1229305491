"""Hostile engines as real processes (``tests/hostile/engine.py``) and what tests need
around them: their command line, and a look at ``/proc`` for processes left behind."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = Path(__file__).with_name("engine.py")


def hostile_argv(attack: str, *args: str) -> tuple[str, ...]:
    """The command line of a hostile engine with this attack."""
    return (sys.executable, str(ENGINE), attack, *args)


def hostile_env() -> dict[str, str]:
    """What a hostile engine needs outside the sandbox to import the bots."""
    return {"PYTHONPATH": str(ROOT)}


def processes_mentioning(text: str) -> list[int]:
    """Pids of live (not zombie) processes whose command line contains ``text``."""
    found = []
    needle = text.encode()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{name}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in cmdline and state != b"Z":
            found.append(int(name))
    return found
