"""``--events``: one JSON object per line for each event of a run, every line valid against
the schema (``tournaments.event.stream_models``), the games' events from the live feed
that the live page reads too, in order per game; nothing fed without it."""

from __future__ import annotations

import io
import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import trio

from protocol.search_info import SearchInfo, Shares
from protocol.spec import EngineSpec
from referee.match import PlayedMove
from referee.players import GameSetup
from tests.clirun import ROOT, RefereeCli, cli
from tests.tournaments.local import bot_factory, hooked_factory
from tournaments.event import stream, stream_models
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.live.watch import EventWatcher
from tournaments.runner.events import EventLog
from tournaments.runner.run import run_tournament
from tournaments.store.live_feed import LIVE_DIR, feed_number, feed_path, live_game, read_feed

SCHEMA_FILE = ROOT / "docs" / "events.schema.json"


def _plan(**settings: Any) -> Plan:
    data: dict[str, Any] = {
        "game": "trike",
        "entrants": [
            {"name": "greedy", "command": "greedy --seed 1"},
            {"name": "random", "command": "random --seed 1"},
            {"name": "random-2", "command": "random --seed 2"},
        ],
        "adjudication": {"max_plies": 10},
        "tc": "inf",
    }
    data.update(settings)
    return Plan.from_config(parse_config(data, "test"), "test")


def check_stream(lines: list[str], *, games: int, moves: bool) -> list[stream_models.Event]:
    """Every line an event of the schema, in an order a consumer can rely on."""
    events = [stream_models.parse_event(line) for line in lines]
    assert events[0].type == "tournament_started"
    assert events[-1].type == "tournament_finished" and events[-1].complete
    assert events[-2].type == "standings" and events[-2].done == games
    per_game: dict[int, list[str]] = defaultdict(list)
    plies: dict[int, int] = {}
    for event in events:
        if event.type in ("game_started", "move", "game_finished"):
            per_game[event.number].append(event.type)
        if event.type == "game_finished":
            plies[event.number] = event.plies
    assert sorted(per_game) == list(range(1, games + 1))
    for number, kinds in per_game.items():
        expected = ["game_started"] + ["move"] * (plies[number] if moves else 0)
        assert kinds == [*expected, "game_finished"], number
    return events


def test_the_schema_file_is_the_models_schema() -> None:
    assert json.loads(SCHEMA_FILE.read_text()) == stream_models.schema()


def test_a_run_writes_every_event_in_order(tmp_path: Path) -> None:
    out = io.StringIO()
    log = EventLog(out, moves=True)
    plan = _plan(concurrency=2)  # 3 pairs × 2 games, two games at a time
    result = trio.run(
        lambda: run_tournament(
            plan, tmp_path / "t", factory=bot_factory(), workers=0, events=log, standings_every=4
        )
    )
    assert result.complete and log.error is None
    events = check_stream(out.getvalue().splitlines(), games=6, moves=True)
    started = events[0]
    assert started.type == "tournament_started"
    assert started.entrants == ["greedy", "random", "random-2"] and started.total == 6
    snapshots = [e for e in events if e.type == "standings"]
    assert [s.done >= 4 for s in snapshots] == [True, True]  # every 4 games, and the end
    finished = [e for e in events if e.type == "game_finished"]
    assert {e.termination for e in finished} <= {"move-limit", "rules"}
    assert all(not e.void and e.result for e in finished)
    assert list((tmp_path / "t" / LIVE_DIR).iterdir()) == []  # every feed read and removed


def test_without_moves_a_game_is_started_then_finished(tmp_path: Path) -> None:
    out = io.StringIO()
    trio.run(
        lambda: run_tournament(
            _plan(), tmp_path / "t", factory=bot_factory(), workers=0, events=EventLog(out)
        )
    )
    check_stream(out.getvalue().splitlines(), games=6, moves=False)


def test_a_resumed_run_says_so_and_a_finished_knockout_names_its_winner(tmp_path: Path) -> None:
    plan = _plan(format="knockout")
    first = io.StringIO()
    trio.run(
        lambda: run_tournament(
            plan, tmp_path / "k", factory=bot_factory(), workers=0, events=EventLog(first)
        )
    )
    ended = stream_models.parse_event(first.getvalue().splitlines()[-1])
    assert ended.type == "tournament_finished" and ended.winner in plan.names
    again = io.StringIO()
    log = EventLog(again)
    trio.run(
        lambda: run_tournament(
            plan, tmp_path / "k", factory=bot_factory(), workers=0, events=log, resume=True
        )
    )
    kinds = [stream_models.parse_event(line) for line in again.getvalue().splitlines()]
    assert kinds[0].type == "tournament_started" and kinds[0].resumed
    assert kinds[0].done == ended.done
    assert kinds[-1].type == "tournament_finished" and kinds[-1].winner == ended.winner


def test_nothing_is_fed_without_events_or_live(tmp_path: Path) -> None:
    plan = _plan()
    assert not plan.slot_setup(tmp_path).live
    setup = plan.slot_setup(tmp_path, events=True)
    assert setup.live and setup.keep_feed and not setup.feed_moves
    assert plan.slot_setup(tmp_path, events=True, event_moves=True).feed_moves
    trio.run(lambda: run_tournament(plan, tmp_path / "t", factory=bot_factory(), workers=0))
    assert not (tmp_path / "t" / LIVE_DIR).exists()


def test_feed_lines_are_events_of_the_schema(tmp_path: Path) -> None:
    """The live feed's lines (what the live page reads) are ``game_started`` and ``move``
    events; each attempt at a game has a file of its own."""
    assert feed_path(tmp_path, 5) != feed_path(tmp_path, 5)
    assert feed_number(feed_path(tmp_path, 5).name) == 5 and feed_number("notes.txt") is None
    header = stream.game_started(
        number=5, round_no=1, seats=["a", "b"], game="trike", options=[("size", "9")],
        start=None, tc="10+0.1",
    )  # fmt: skip
    with live_game(tmp_path, header) as feed:
        assert feed is not None
        search = SearchInfo(depth=3, nodes=120, score=Shares((300, 700)))
        feed.on_move(1, PlayedMove(0, "e3", 0.2, 9.5, (), 0.0, 0.2, search))
        feed.keep()
    lines = feed.path.read_text().splitlines()
    started, move = (stream_models.parse_event(line) for line in lines)
    assert started.type == "game_started" and started.seats == ["a", "b"]
    assert move.type == "move" and move.search is not None and move.search.s == [300, 700]
    assert move.clock == 9.5 and move.number == 5
    read = read_feed(feed.path)  # and the live page's reader takes them as before
    assert read is not None and read.header is not None and read.header["number"] == 5
    assert [m["move"] for m in read.moves] == ["e3"]


def test_events_to_stdout_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(
        capsys,
        "tournament", "--game", "trike", "-e", "random", "-e", "greedy",
        "--max-plies", "8", "--tc", "inf", "--events", "-", "--events-moves",
        "--out", str(tmp_path / "t"),
    )  # fmt: skip
    assert code == 0, err
    check_stream(out.splitlines(), games=2, moves=True)  # stdout: the JSON lines only
    assert "Standings" in err and "Game 1/2" in err  # the rest went to stderr


def test_events_moves_needs_events(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(
        capsys, "tournament", "--game", "trike", "-e", "random", "-e", "greedy",
        "--events-moves", "--out", str(tmp_path / "t"),
    )  # fmt: skip
    assert code == 2 and "--events-moves needs --events" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.processes
def test_events_of_games_played_in_worker_processes(
    tmp_path: Path, referee_cli: RefereeCli
) -> None:
    """The feeds are written by worker processes and followed by the runner."""
    events = tmp_path / "events.jsonl"
    done = referee_cli(
        "tournament", "--game", "trike", "-e", "random", "-e", "greedy", "-e", "random --seed 3",
        "--max-plies", "8", "--tc", "inf", "--concurrency", "2", "--workers", "2",
        "--events", str(events), "--events-moves", "--out", str(tmp_path / "t"), "-q",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    check_stream(events.read_text().splitlines(), games=6, moves=True)
    assert os.listdir(tmp_path / "t" / LIVE_DIR) == []


def test_the_live_pages_finished_games_are_game_finished_events(tmp_path: Path) -> None:
    trio.run(lambda: run_tournament(_plan(), tmp_path / "t", factory=bot_factory(), workers=0))
    finished = [u.data for u in EventWatcher(tmp_path / "t").poll() if u.event == "finished"]
    assert len(finished) == 6
    for data in finished:
        shown = {k: v for k, v in data.items() if k != "html"}
        event = stream_models.parse_event(json.dumps(shown))
        assert event.type == "game_finished" and f"Game {event.number} " in data["html"]


def test_a_stream_that_cannot_be_written_stops_and_the_run_goes_on(tmp_path: Path) -> None:
    class Broken(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    log = EventLog(Broken())
    plan = _plan()
    result = trio.run(
        lambda: run_tournament(plan, tmp_path / "t", factory=bot_factory(), workers=0, events=log)
    )
    assert result.complete and result.done == 6
    assert log.error is not None and "Broken pipe" in log.error


def test_an_events_file_that_cannot_be_opened_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(
        capsys, "tournament", "--game", "trike", "-e", "random", "-e", "greedy",
        "--events", str(tmp_path / "missing" / "e.jsonl"), "--out", str(tmp_path / "t"),
    )  # fmt: skip
    assert code == 2 and err.startswith("referee: error: cannot open --events ")
    assert len(err.strip().splitlines()) == 1


def test_a_stopped_run_ends_its_stream_with_an_incomplete_finish(tmp_path: Path) -> None:
    started: list[int] = []

    class Stop(Exception):
        pass

    def stop_at_the_fourth_game(spec: EngineSpec, setup: GameSetup) -> None:
        started.append(setup.seat)
        if len(started) > 6:
            raise Stop

    out = io.StringIO()
    plan = _plan()
    with pytest.raises(BaseException):  # noqa: B017 (the Stop, wrapped or not)
        trio.run(
            lambda: run_tournament(
                plan,
                tmp_path / "t",
                factory=hooked_factory(stop_at_the_fourth_game),
                workers=0,
                events=EventLog(out),
            )
        )
    events = [stream_models.parse_event(line) for line in out.getvalue().splitlines()]
    last = events[-1]
    assert last.type == "tournament_finished" and not last.complete
    finished = [e for e in events if e.type == "game_finished"]
    assert last.done == len(finished) == 3


def test_feeds_an_earlier_run_left_are_removed_when_a_run_starts(tmp_path: Path) -> None:
    plan = _plan()
    out = tmp_path / "t"
    trio.run(lambda: run_tournament(plan, out, factory=bot_factory(), workers=0))
    stale = out / LIVE_DIR / "game-000003-999-1.jsonl"  # as a killed run leaves it
    stale.parent.mkdir(exist_ok=True)
    stale.write_text('{"v":1,"type":"game_started","number":3}\n')
    other = out / LIVE_DIR / "notes.txt"
    other.write_text("not a feed")
    trio.run(lambda: run_tournament(plan, out, factory=bot_factory(), workers=0, resume=True))
    assert not stale.exists() and other.exists()
