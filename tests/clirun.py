"""Run the console script's entry point in this process, as the tests of several packages do."""

from __future__ import annotations

import sys

import pytest

from tournaments.cli.app import main


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
