"""A real match of subprocess random bots through the console entry (in this process),
then its adjudication: the end-to-end check every game's tests make."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.clirun import referee_here


def play_and_adjudicate(
    capsys: pytest.CaptureFixture[str],
    out: Path,
    game: str,
    players: int,
    *extra: str,
    games: int = 4,
) -> tuple[str, str, list[dict[str, Any]]]:
    """Play ``games`` games of ``game`` between ``players`` random bots (30+0.5, ``extra``
    options), records to ``out``; then adjudicate them. Both commands must succeed.

    Returns the output of ``play``, the record file's text and the ``--json`` verdicts.
    """
    engines = [arg for _ in range(players) for arg in ("-e", "random")]
    played = referee_here(
        capsys,
        *("play", game, *engines, *extra, "--games", str(games), "--tc", "30+0.5"),
        *("--out", str(out)),
    )
    assert played.returncode == 0, played.stdout + played.stderr
    judged = referee_here(capsys, "adjudicate", str(out), "--json")
    assert judged.returncode == 0, judged.stdout + judged.stderr
    verdicts = [json.loads(line) for line in judged.stdout.splitlines() if line.strip()]
    return played.stdout, out.read_text(), verdicts
