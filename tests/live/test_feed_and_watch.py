"""The live feed a game in play writes, and what the watcher makes of an event directory."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from protocol.search_info import SearchInfo, Shares
from referee.match import PlayedMove
from tests.report.events import MATCH, play
from tournaments.event.stream import game_started
from tournaments.live.watch import EventWatcher
from tournaments.store.journal import read_journal
from tournaments.store.live_feed import (
    FLUSH_INTERVAL,
    LIVE_DIR,
    live_game,
    read_feed,
)


def _started(number: int, **changes: Any) -> dict[str, Any]:
    """The ``game_started`` header of game ``number`` of a two-seat Trike game, with
    ``changes``."""
    fields: dict[str, Any] = {
        "round_no": 1, "seats": ["a", "b"], "game": "trike", "options": [("size", "9")],
        "start": None, "tc": "10+0.1",
    }  # fmt: skip
    return game_started(number=number, **{**fields, **changes})


def _move(
    seat: int, text: str, score: tuple[int, ...] | None = None, *, elapsed: float = 0.2
) -> PlayedMove:
    """A move that took ``elapsed`` seconds (by default long enough to be written at once)."""
    search = SearchInfo(depth=3, nodes=120, score=Shares(score)) if score else SearchInfo()
    return PlayedMove(seat, text, elapsed, 9.5, (), 0.0, elapsed, search)


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(MATCH, tmp_path_factory.mktemp("live") / "event")


def test_a_feed_is_a_header_then_a_line_per_move_and_goes_when_the_game_ends(
    tmp_path: Path,
) -> None:
    with live_game(tmp_path, _started(7, round_no=2)) as feed:
        assert feed is not None
        feed.on_move(1, _move(0, "e3"))
        feed.on_move(2, _move(1, "swap", (300, 700)))
        first = read_feed(feed.path)
        assert first is not None and first.header is not None
        assert first.header["number"] == 7 and first.header["seats"] == ["a", "b"]
        assert [m["move"] for m in first.moves] == ["e3", "swap"]
        assert first.moves[1]["search"] == {"d": 3, "n": 120, "s": [300, 700]}
        assert first.moves[0]["clock"] == 9.5
        feed.on_move(3, _move(0, "d2"))
        more = read_feed(feed.path, first.offset)
        assert more is not None and more.header is None
        assert [m["move"] for m in more.moves] == ["d2"]
    assert not feed.path.exists()
    assert read_feed(feed.path) is None  # gone: the game is over


def test_fast_moves_are_written_in_groups(tmp_path: Path) -> None:
    with live_game(tmp_path, _started(3, options=[])) as feed:
        assert feed is not None
        feed.flushed = float("inf")  # as if the last group went out just now
        feed.on_move(1, _move(0, "e3", elapsed=0.001))
        feed.on_move(2, _move(1, "d2", elapsed=0.001))
        waiting = read_feed(feed.path)
        assert waiting is not None and waiting.moves == ()
        feed.on_move(3, _move(0, "c1", elapsed=FLUSH_INTERVAL))  # a slow move: all go out
        read = read_feed(feed.path)
        assert read is not None and [m["move"] for m in read.moves] == ["e3", "d2", "c1"]


def test_no_feed_without_an_output_directory() -> None:
    with live_game(None, _started(1)) as feed:
        assert feed is None


def test_a_torn_last_line_waits_for_its_end(tmp_path: Path) -> None:
    path = tmp_path / "game-000001.jsonl"
    path.write_bytes(b'{"number":1}\n{"ply":1,"seat":0,"move":"e3"}\n{"ply":2,"se')
    read = read_feed(path)
    assert read is not None and [m["move"] for m in read.moves] == ["e3"]
    with path.open("ab") as f:
        f.write(b'at":1,"move":"swap"}\nnot json\n')
    more = read_feed(path, read.offset)
    assert more is not None and [m["move"] for m in more.moves] == ["swap"]


def test_a_tournament_with_the_view_on_leaves_no_feed_behind(event: Path, tmp_path: Path) -> None:
    import trio

    from tests.tournaments.local import bot_factory
    from tournaments.event.config import parse_config
    from tournaments.event.plan import Plan
    from tournaments.runner.run import run_tournament

    plan = Plan.from_config(parse_config({**MATCH, "games": 2}, "test"), "test")
    out = tmp_path / "ev"
    trio.run(lambda: run_tournament(plan, out, factory=bot_factory(), workers=0, live=True))
    assert (out / LIVE_DIR).is_dir() and list((out / LIVE_DIR).iterdir()) == []
    assert len(read_journal(out).games) == 2


def test_the_watcher_follows_tables_finished_games_and_boards(event: Path, tmp_path: Path) -> None:
    directory = tmp_path / "event"
    shutil.copytree(event, directory)
    watcher = EventWatcher(directory)
    first = watcher.poll()
    kinds = [u.event for u in first]
    assert "standings" in kinds and "status" in kinds
    finished = sorted(u.data["number"] for u in first if u.event == "finished")
    assert finished == sorted(read_journal(directory).games)
    status = next(u for u in first if u.event == "status").data  # shown as text, not HTML
    assert status == {"text": "Report <test> & match: 4 of 4 games, finished", "complete": True}
    assert watcher.poll() == []  # nothing changed

    with live_game(directory, _started(99, round_no=9, seats=["x<script>", "y"])) as feed:
        assert feed is not None
        feed.on_move(1, _move(0, "e3", (600, 400)))
        board = [u for u in watcher.poll() if u.event == "board"]
        assert [(b.data["number"], b.data["ply"], b.data["last"]) for b in board] == [(99, 1, "e3")]
        assert "<svg" in board[0].data["html"] and "x&lt;script&gt;" in board[0].data["html"]
        assert "s=600,400" in board[0].data["html"]
        feed.on_move(2, _move(1, "swap"))
        board = [u for u in watcher.poll() if u.event == "board"]
        assert [(b.data["ply"], b.data["last"]) for b in board] == [(2, "swap")]
        assert "board-99" in watcher.snapshot
    gone = watcher.poll()
    assert [(u.event, u.data["number"]) for u in gone] == [("gone", 99)]
    assert "board-99" not in watcher.snapshot


def test_an_illegal_move_in_a_feed_is_shown_not_raised(tmp_path: Path) -> None:
    (tmp_path / LIVE_DIR).mkdir()
    lines = [
        {"number": 5, "round": 1, "seats": ["a", "b"], "game": "trike", "options": {}},
        {"ply": 1, "seat": 0, "move": "zz99"},
    ]
    (tmp_path / LIVE_DIR / "game-000005.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines)
    )
    board = [u for u in EventWatcher(tmp_path).poll() if u.event == "board"]
    assert board and "move 1" in board[0].data["html"]


def test_a_big_journal_is_not_read_whole_and_any_game_still_opens(
    event: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournaments.live import watch as watch_module

    directory = tmp_path / "event"
    shutil.copytree(event, directory)
    journal = (directory / "journal.jsonl").read_bytes()
    last_two = sum(len(line) + 1 for line in journal.splitlines()[-2:])
    # As if the journal were huge: the first poll reads only the end (the last two games
    # and part of a third, whose torn first line is skipped).
    monkeypatch.setattr(watch_module, "INITIAL_TAIL", last_two + 40)
    watcher = EventWatcher(directory)
    listed = [u.data["number"] for u in watcher.poll() if u.event == "finished"]
    games = read_journal(directory).games
    assert listed == list(games)[-2:]
    for number, report in games.items():  # listed or not, each opens with its record
        opened = watcher.game(number)
        assert opened is not None and opened.record == report.record
    assert watcher.game(999) is None


def test_line_start_finds_a_line_from_its_end(tmp_path: Path) -> None:
    from tournaments.store.index import line_start

    path = tmp_path / "j"
    lines = [b"header", b"x" * 200_000, b"short", b""]
    path.write_bytes(b"\n".join(lines))
    ends = [7, 7 + 200_001, 7 + 200_001 + 6]
    assert [line_start(path, end) for end in ends] == [0, 7, 7 + 200_001]
