"""Moves-per-session and hourglass controls end to end: ``referee play`` and ``referee
tournament`` play real games under them, ``referee adjudicate`` confirms their records
and disputes one whose clocks break the control."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from referee.record import format_record
from referee.record.comment import parse_move_comment
from referee.record.model import GameRecord, MoveEntry
from referee.record.parse import parse_records
from tests.clirun import run_referee as referee
from tournaments.event.config import ConfigError, parse_config
from tournaments.event.jobs import SlotSetup
from tournaments.event.plan import Plan
from tournaments.event.wire import from_json, to_json

ROOT = Path(__file__).resolve().parents[1]
ENTRANTS = [{"name": "a", "command": "random"}, {"name": "b", "command": "random"}]


def _adjudicate(path: Path) -> list[dict[str, object]]:
    done = referee("adjudicate", str(path), "--json")
    assert done.returncode in (0, 1), done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def _with_comment(record: GameRecord, ply: int, comment: str) -> GameRecord:
    moves = list(record.moves)
    moves[ply - 1] = MoveEntry(moves[ply - 1].text, comment)
    return dataclasses.replace(record, moves=tuple(moves))


@pytest.fixture(scope="module")
def session_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two Trike games between real engines at 3 moves per 2-second session."""
    out = tmp_path_factory.mktemp("sessions") / "games.tgn"
    done = referee(
        "play", "trike", "-e", "random", "-e", "greedy", "--games", "2", "--tc", "3/2+0.01",
        "--margin", "200", "--seed", "3", "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.processes  # real games
def test_a_moves_per_session_game_is_confirmed(session_games: Path) -> None:
    records = parse_records(session_games.read_text())
    assert len(records) == 2
    for record in records:
        assert record.tag("TimeControl") == "3/2+0.01"
        assert record.tag("TimeMargin") == "200"
        assert len(record.moves) > 6  # several sessions each
    verdicts = _adjudicate(session_games)
    assert [v["verdict"] for v in verdicts] == ["confirmed", "confirmed"], verdicts


@pytest.mark.processes  # real games
def test_a_record_whose_seat_overran_its_session_is_disputed(
    session_games: Path, tmp_path: Path
) -> None:
    record = parse_records(session_games.read_text())[0]
    # Trike alternates the seats: seat 1 makes plies 1, 3, 5; ply 5 ends its first session.
    before = parse_move_comment(record.moves[2].comment)
    assert before.remaining is not None
    late = before.remaining + 0.5  # past its time and the 0.2 s margin
    spoiled = _with_comment(record, 5, f"{late:.3f}s {before.remaining - late + 2.01:.3f}s")
    path = tmp_path / "late.tgn"
    path.write_text(format_record(spoiled))
    (verdict,) = _adjudicate(path)
    assert verdict["verdict"] == "wrong-result" and verdict["ply"] == 5 and verdict["seat"] == 1
    assert "lost on time" in str(verdict["reason"]) and "3/2+0.01" in str(verdict["reason"])
    assert verdict["correct"] == "0-1"


@pytest.mark.processes  # real games
def test_a_record_that_skips_a_session_s_time_is_disputed(
    session_games: Path, tmp_path: Path
) -> None:
    record = parse_records(session_games.read_text())[0]
    after = parse_move_comment(record.moves[4].comment)  # seat 1's third move: +2 s arrive
    assert after.used is not None and after.remaining is not None
    spoiled = _with_comment(record, 5, f"{after.used:.3f}s {after.remaining - 2:.3f}s")
    path = tmp_path / "short.tgn"
    path.write_text(format_record(spoiled))
    (verdict,) = _adjudicate(path)
    assert verdict["verdict"] == "wrong-result" and verdict["ply"] == 5
    assert "seat 1's clock after ply 5 reads" in str(verdict["reason"])


@pytest.mark.processes  # real games
def test_a_tournament_at_hourglass_and_sessions_is_confirmed(tmp_path: Path) -> None:
    for tc in ("hourglass:20", "4/3+0"):
        config = tmp_path / "event.toml"
        config.write_text(
            f'game = "trike"\noptions = {{ size = 7 }}\ntc = "{tc}"\ngames = 2\n'
            'transcripts = "all"\n'
            '[[entrants]]\nname = "r"\ncommand = "random"\n'
            '[[entrants]]\nname = "g"\ncommand = "greedy"\n'
        )
        out = tmp_path / tc.replace(":", "-").replace("/", "-")
        done = referee("tournament", str(config), "--out", str(out))
        assert done.returncode == 0, done.stderr
        records = parse_records((out / "games.tgn").read_text())
        assert {r.tag("TimeControl") for r in records} == {tc}
        verdicts = _adjudicate(out / "games.tgn")
        assert [v["verdict"] for v in verdicts] == ["confirmed"] * 2, verdicts
        logs = "".join(p.read_text() for p in out.rglob("*.log"))
        if tc.startswith("4/"):
            assert "inc 0,0 movestogo 4" in logs and "inc 0,0 movestogo 1" in logs
        else:
            assert "go time 20000,20000 inc 0,0\n" in logs and "movestogo" not in logs


def test_config_tc_reaches_the_game_slots() -> None:
    data = {"game": "trike", "tc": "40/60+0.5", "margin_ms": 80, "entrants": ENTRANTS}
    plan = Plan.from_config(parse_config(data), "command line")
    assert plan.tc.tag() == "40/60+0.5" and plan.tc.moves == 40 and plan.tc.margin == 0.08
    for tc in ("40/60+0.5", "hourglass:30"):
        plan = Plan.from_config(parse_config({**data, "tc": tc}), "command line")
        setup = plan.slot_setup(None)
        assert from_json(SlotSetup, json.loads(json.dumps(to_json(setup)))).tc == plan.tc


@pytest.mark.parametrize(
    ("tc", "message"),
    [("40/", "MOVES/BASE+INC"), ("hourglass:x", "hourglass:BASE"), ("0/5", "moves per session")],
)
def test_config_tc_errors_name_the_key_and_form(tc: str, message: str) -> None:
    data = {"game": "trike", "tc": tc, "entrants": ENTRANTS}
    with pytest.raises(ConfigError) as caught:
        Plan.from_config(parse_config(data), "command line")
    assert str(caught.value).startswith("command line: tc: ") and message in str(caught.value)
