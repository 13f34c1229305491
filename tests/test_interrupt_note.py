"""A Ctrl+C or stop signal that lands in code ``exec`` ran from source text (as a
dataclass's generated methods are), and is then caught, still ends ``referee`` with the
status it chose (130), not by SIGINT (-2): CPython 3.11 notes such an interrupt as
unhandled, and ``tournaments.cli.forget_handled_interrupt`` drops the note."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

HELPER = """
import os, signal, sys, threading
from tournaments.cli import forget_handled_interrupt
threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    exec("while True: pass")  # the interrupt lands in exec'd source text
except KeyboardInterrupt:
    pass
if sys.argv[1:] == ["forget"]:
    forget_handled_interrupt()
raise SystemExit(130)
"""


def _run(tmp_path: Path, *args: str) -> int:
    (tmp_path / "interrupted_exec.py").write_text(HELPER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    # -m, as the console script and ``python -m tournaments`` run: the note is read there
    done = subprocess.run(
        [sys.executable, "-m", "interrupted_exec", *args], env=env, timeout=60, check=False
    )
    return done.returncode


def test_a_caught_interrupt_ends_with_the_chosen_status(tmp_path: Path) -> None:
    assert _run(tmp_path, "forget") == 130


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="CPython 3.11's behaviour")
def test_without_forgetting_the_note_the_process_dies_of_sigint(tmp_path: Path) -> None:
    # What the test above guards against (and why the tournament's signal tests flaked).
    assert _run(tmp_path) == -2
