"""Run ``referee`` as the tests of several packages do: through the console script's entry
point in this process (``cli``), or as a child process (``run_referee``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.cli.app import main

ROOT = Path(__file__).resolve().parent.parent
"""The repository root."""


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``referee ARGS…`` through ``main`` in this process: (status, stdout, stderr)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "argv", ["referee", *args])
        patch.delenv("REFEREE_DEBUG", raising=False)
        with pytest.raises(SystemExit) as info:
            main()
    captured = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 0), captured.out, captured.err


def run_referee(
    *args: str, timeout: float = 300, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """``referee ARGS…`` as a child process (``python -m tournaments``) that imports this
    tree, run in ``cwd`` (default: the repository root); never raises for its status."""
    return subprocess.run(
        [sys.executable, "-m", "tournaments", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
