"""Transcripts in a few store files: which games keep one, where they go, how they are found."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from referee.core import Termination
from tests.tournaments.local import bot_factory
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.runner.run import run_tournament
from tournaments.store import transcripts
from tournaments.store.journal import read_journal

FAILED = {Termination.ILLEGAL_MOVE, Termination.TIMEOUT, Termination.CRASH, Termination.VOID}


@pytest.mark.parametrize("termination", list(Termination))
def test_which_games_keep_their_transcript(termination: Termination) -> None:
    failure = termination.is_forfeit or termination in (
        Termination.VOID,
        Termination.ADJUDICATION,
    )
    assert transcripts.wanted("all", termination)
    assert transcripts.wanted("failures", termination) == failure
    assert not transcripts.wanted("none", termination)
    if termination in FAILED:
        assert transcripts.wanted("failures", termination)
    if termination in (Termination.RULES, Termination.MOVE_LIMIT):
        assert not transcripts.wanted("failures", termination)


def _block(number: int, body: str) -> str:
    return f"# game {number}, round 1: seat 1 a, seat 2 b\n# rules: -\n{body}\n"


def test_blocks_are_appended_found_and_read_in_order(tmp_path: Path) -> None:
    transcripts.append(tmp_path, _block(1, "one"))
    transcripts.append(tmp_path, _block(2, "two"))
    transcripts.append(tmp_path, _block(1, "one again"))  # a game played again
    assert transcripts.read_transcript(tmp_path, 1) == _block(1, "one") + _block(1, "one again")
    assert transcripts.read_transcript(tmp_path, 3) is None
    store = transcripts.store_path(tmp_path)
    blocks, offset = transcripts.blocks_after(store, 0)
    assert [n for n, _ in blocks] == [1, 2, 1]
    transcripts.append(tmp_path, _block(4, "four"))
    more, _ = transcripts.blocks_after(store, offset)
    assert more == [(4, _block(4, "four"))]
    assert [p.name for p in (tmp_path / "logs").iterdir()] == [store.name]


def test_a_store_of_every_game_is_rotated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transcripts, "ROTATE_BYTES", 1000)
    for number in range(1, 41):
        transcripts.append(tmp_path, _block(number, "x" * 100), rotate=True)
    files = sorted(p.name for p in (tmp_path / "logs").iterdir())
    store = transcripts.store_path(tmp_path)
    assert files == sorted([store.name, store.stem + ".old.log"])
    assert all(p.stat().st_size < 1200 for p in (tmp_path / "logs").iterdir())
    assert transcripts.read_transcript(tmp_path, 40) is not None  # the newest are kept
    assert transcripts.read_transcript(tmp_path, 1) is None  # the oldest went


def test_only_a_store_of_every_game_is_rotated() -> None:
    """Failures alone are never rotated away, on any run path (slots and cluster ask
    ``rotates``)."""
    assert [mode for mode in transcripts.MODES if transcripts.rotates(mode)] == ["all"]


def _event(tmp_path: Path, games: int, mode: str | None, **extra: Any) -> Path:
    settings: dict[str, Any] = {
        "game": "trike",
        "options": {"size": 7},
        "entrants": [{"name": "a", "command": "random"}, {"name": "b", "command": "greedy"}],
        "games": games,
        **extra,
    }
    if mode is not None:
        settings["transcripts"] = mode
    plan = Plan.from_config(parse_config(settings, "test"), "test")
    out = tmp_path / f"{mode}-{games}"
    trio.run(lambda: run_tournament(plan, out, factory=bot_factory(), workers=0))
    return out


def _files(directory: Path) -> int:
    return sum(1 for p in directory.rglob("*") if p.is_file())


def test_the_default_keeps_no_transcript_of_clean_games(tmp_path: Path) -> None:
    out = _event(tmp_path, 6, None)
    assert not (out / "logs").exists()
    assert len(read_journal(out).games) == 6


def test_every_game_in_one_store_whatever_the_number_of_games(tmp_path: Path) -> None:
    small, big = _event(tmp_path, 4, "all"), _event(tmp_path, 40, "all")
    assert _files(small) == _files(big)  # journal, records, results, lock, one store
    for number in (1, 40):
        text = transcripts.read_transcript(big, number)
        assert text is not None and text.startswith(f"# game {number}, round ")


def test_none_keeps_nothing(tmp_path: Path) -> None:
    assert not (_event(tmp_path, 4, "none") / "logs").exists()


def test_a_failure_keeps_its_transcript_by_default(tmp_path: Path) -> None:
    crash = f"{sys.executable} -m bots faulty --mode crash --at 3"
    settings: dict[str, Any] = {
        "game": "trike",
        "options": {"size": 7},
        "entrants": [{"name": "ok", "command": "random"}, {"name": "bad", "command": crash}],
        "games": 2,
    }
    plan = Plan.from_config(parse_config(settings, "test"), "test")
    out = tmp_path / "ev"
    trio.run(lambda: run_tournament(plan, out, workers=0))
    games = read_journal(out).games
    failed = [n for n, g in games.items() if g.outcome.termination is Termination.CRASH]
    assert failed
    for number in failed:
        text = transcripts.read_transcript(out, number)
        assert text is not None and "# crash" in text
    clean = [n for n in games if n not in failed]
    assert all(transcripts.read_transcript(out, n) is None for n in clean)
