"""Run ``referee`` as the tests of several packages do: through the console script's entry
point in this process (``cli``, or ``referee_here`` as ``run_referee`` runs it), or as a
child process (``run_referee``: where that process is the point, its signals, exit or
stderr)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tournaments.cli.app import main

RefereeCli = Callable[..., subprocess.CompletedProcess[str]]
"""``referee_here`` with its ``capsys`` given: the ``referee_cli`` fixture (conftest)."""

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


def referee_here(
    capsys: pytest.CaptureFixture[str], *args: str, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """``referee ARGS…`` through ``main`` in this process, as ``run_referee`` would run it
    (in ``cwd``, default the repository root; its engines importing this tree), with
    ``run_referee``'s answer. A child referee costs its interpreter and imports (over
    half a second of CPU each time) for nothing a test of what the command does sees."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        patch.setenv("PYTHONPATH", str(ROOT))
        code, out, err = cli(capsys, *args)
    return subprocess.CompletedProcess(["referee", *args], code, out, err)
