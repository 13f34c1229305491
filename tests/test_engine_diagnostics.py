"""Every engine failure shows what the engine said last (issue 23, point 3).

Real processes (the faulty bot with ``--stderr TEXT``): one prints a fatal message to
stderr and exits during the handshake, one crashes in the middle of a game. The stderr
line must reach the console of ``play``, ``tournament`` and ``check-engine``, the
record's ``Reason`` and the transcript, whose path the console prints.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from referee.record import parse_records, read_records
from tests.clirun import RefereeCli
from tournaments.play.errors import VOID_ATTEMPTS

pytestmark = pytest.mark.processes  # real play, tournament and check-engine runs

FATAL = "fatal: cannot open weights.bin"
FAULTY = f"{sys.executable} -m bots faulty --stderr '{FATAL}'"
AT_HANDSHAKE = f"{FAULTY} --mode crash-before"
MID_GAME = f"{FAULTY} --mode crash --at 4"


def transcript_paths(text: str, cwd: Path) -> list[Path]:
    """The transcript files a console output names (``transcript of game N: PATH``)."""
    found = re.findall(r"transcript(?: of game \d+)?: (\S+?)\)?$", text, re.MULTILINE)
    return [cwd / path for path in found]


def reasons(path: Path) -> list[str]:
    return [record.tag("Reason") or "" for record in read_records(path)]


@pytest.mark.parametrize("engine", [AT_HANDSHAKE, MID_GAME], ids=["handshake", "mid-game"])
def test_play_shows_the_stderr_line_everywhere(
    engine: str, tmp_path: Path, referee_cli: RefereeCli
) -> None:
    done = referee_cli(
        "play", "trike", "-e", engine, "-e", "random", "--games", "1", "--out", "g.tgn",
        cwd=tmp_path,
    )  # fmt: skip
    console = done.stdout + done.stderr
    assert FATAL in console, console
    if engine == AT_HANDSHAKE:
        # Void every time (VOID_ATTEMPTS): never written to the record file, the match
        # stops with one line; each attempt's console line carries the reason.
        assert done.returncode == 2 and "no game could be played" in done.stderr, console
        assert reasons(tmp_path / "g.tgn") == []
        attempts = [line for line in done.stdout.splitlines() if line.startswith("Game 1/1 ")]
        assert len(attempts) == VOID_ATTEMPTS, console
        reason = attempts[0]
    else:
        assert done.returncode == 0, console
        [reason] = reasons(tmp_path / "g.tgn")
    assert f"its stderr ended with: '{FATAL}'" in reason
    assert "last protocol lines: " in reason
    paths = transcript_paths(console, tmp_path)
    assert paths and all(path == tmp_path / "g.transcripts.log" for path in paths), console
    transcript = paths[0].read_text()
    assert f"! {FATAL}" in transcript  # the engine's own stderr line, as it came
    assert "## seat 1: faulty" in transcript or "## seat 1: python" in transcript


def test_the_other_engines_are_not_told_the_failed_engines_stderr(
    tmp_path: Path, referee_cli: RefereeCli
) -> None:
    """The record and the console carry the stderr line; the ``gameover`` the opponent
    reads names the failure without it (an engine's stderr is its owner's to read)."""
    done = referee_cli(
        "play", "trike", "-e", MID_GAME, "-e", "random", "--games", "1", "--out", "g.tgn",
        "--transcripts", "all", cwd=tmp_path,
    )  # fmt: skip
    [reason] = reasons(tmp_path / "g.tgn")
    assert FATAL in reason, done.stdout
    told = [
        line
        for line in (tmp_path / "g.transcripts.log").read_text().splitlines()
        if "> gameover " in line
    ]
    assert told, done.stdout
    assert all("exited with code 3" in line and FATAL not in line for line in told), told


def test_play_without_out_keeps_the_transcript_in_the_temporary_folder(
    tmp_path: Path, referee_cli: RefereeCli
) -> None:
    done = referee_cli(
        "play", "trike", "-e", MID_GAME, "-e", "random", "--games", "1", cwd=tmp_path
    )
    [path] = transcript_paths(done.stdout, tmp_path)
    assert path.is_absolute() and path.parent != tmp_path
    try:
        assert f"! {FATAL}" in path.read_text()
    finally:
        path.unlink()


@pytest.mark.parametrize("engine", [AT_HANDSHAKE, MID_GAME], ids=["handshake", "mid-game"])
def test_tournament_shows_the_stderr_line_everywhere(
    engine: str, tmp_path: Path, referee_cli: RefereeCli
) -> None:
    done = referee_cli(
        "tournament", "--game", "trike", "-e", f"bad={engine}", "-e", "random",
        "--games", "1", "--rounds", "1", "--out", "ev", "--concurrency", "1",
        cwd=tmp_path,
    )  # fmt: skip
    console = done.stdout + done.stderr  # a game void three times stops the event
    assert FATAL in console, console
    # A void game's record is in the journal only (games.tgn holds the scored games).
    records = [
        record
        for line in (tmp_path / "ev" / "journal.jsonl").read_text().splitlines()
        if '"record"' in line
        for record in parse_records(json.loads(line)["record"])
    ]
    all_reasons = [record.tag("Reason") or "" for record in records]
    assert any(f"its stderr ended with: '{FATAL}'" in r for r in all_reasons), all_reasons
    paths = transcript_paths(console, tmp_path)
    assert paths, console
    for path in paths:
        assert path.parent.name == "logs" and path.parent.parent.name == "ev"
        assert f"! {FATAL}" in path.read_text()


@pytest.mark.parametrize("engine", [AT_HANDSHAKE, MID_GAME], ids=["handshake", "mid-game"])
def test_check_engine_shows_the_stderr_line(
    engine: str, tmp_path: Path, referee_cli: RefereeCli
) -> None:
    done = referee_cli("check-engine", "trike", "--timeout", "5", "--", engine, cwd=tmp_path)
    assert done.returncode == 1
    failed = [line for line in done.stdout.splitlines() if " FAIL " in line]
    assert failed and FATAL in failed[0], done.stdout


def test_a_silent_handshake_timeout_asks_about_flushing(
    tmp_path: Path, referee_cli: RefereeCli
) -> None:
    done = referee_cli(
        "check-engine", "trike", "--timeout", "1", "--",
        f"{sys.executable} -m bots faulty --mode no-handshake --stderr 'loading'",
        cwd=tmp_path,
    )  # fmt: skip
    first = done.stdout.splitlines()[0]
    assert "did not complete the handshake within 1 s" in first
    assert "nothing was read from the engine: does it flush stdout after each line?" in first
    assert "its stderr ended with: 'loading'" in first
