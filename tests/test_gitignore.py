"""What the README's commands write in a clone is ignored by git, so ``git status`` stays
clean after trying them (the demo tournament, a first match, the example events)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import ROOT

WRITTEN = [
    "demo/games.tgn",  # README, Quick start: --out demo
    "demo/report.html",
    "games.tgn",  # README, "Play a first match": --out games.tgn
    "games.transcripts.log",
    "v.html",  # README: adjudicate --html v.html
    "event/journal.jsonl",  # README: tournament --out event
    "match/results.json",  # tournaments/README.md: --out match
    "club/games.tgn",
    "results/club/games.tgn",
    "sprt-mcts/games.tgn",
]


def test_what_the_readme_commands_write_is_ignored() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git clone")
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", "--verbose", "--non-matching", *WRITTEN],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    unignored = [line.split("\t")[-1] for line in done.stdout.splitlines() if line.startswith("::")]
    assert unignored == [], unignored
    # and the sources stay tracked
    kept = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", "tournaments/README.md"],
        cwd=ROOT,
        check=False,
    )
    assert kept.returncode == 1
