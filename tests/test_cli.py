"""The ``referee`` command line end to end: the commands that only compute (games,
perft, refusals of bad input, adjudication of a one-game file) through the console
script's ``main`` in this process (``cli``; ``tests/test_cli_bad_input.py`` also runs the
real executable), matches and the adjudication of their records as real processes."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from referee.record import format_record
from referee.record.model import GameRecord, MoveEntry
from referee.record.parse import parse_records
from tests.c_build import build_trike_engine
from tests.clirun import RefereeCli, cli
from tests.clirun import run_referee as referee


def test_games_lists_trike_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(capsys, "games")
    assert status == 0, err
    assert "trike (pure-trike)" in out
    for expected in ("size", "9", "7..19", "mode", "zero|even|odd", "pie", "yes|no"):
        assert expected in out


def test_perft_trike_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(capsys, "perft", "trike", "2")
    assert status == 0, err
    assert out.splitlines() == ["1 45", "2 765"]


def test_perft_divide_lists_every_first_move(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(capsys, "perft", "trike", "1", "--divide", "--option", "size=7")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[-1] == "1 28"
    first_moves = [line for line in lines[:-2] if line]
    assert len(first_moves) == 28
    assert all(line.endswith(" 1") for line in first_moves)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("perft", "chess", "1"), "unknown game 'chess'"),
        (("perft", "trike", "1", "--option", "size=99"), "size=99"),
        (("perft", "trike", "1", "--option", "colour=red"), "unknown option 'colour'"),
        (("perft", "trike", "1", "--option", "novalue"), "expected key=value"),
        (("play", "trike", "-e", "random"), "2 players, not 1"),
        (("play", "trike", "-e", "random", "-e", "'unbalanced"), "command"),
        (("play", "trike", "-e", "random", "-e", "random", "--tc", "fast"), "time control"),
        (
            ("play", "trike", "-e", "random", "-e", "random", "--tc", "1", "--movetime", "5"),
            "either",
        ),
        (("adjudicate", "/nonexistent/games.tgn"), "No such file"),
    ],
)
def test_user_errors_are_one_line(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = cli(capsys, *args)
    assert status == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("referee: error: ")
    assert message in lines[0]
    assert "Traceback" not in err


def test_records_may_go_to_dev_null(referee_cli: RefereeCli) -> None:
    done = referee_cli("play", "trike", "-e", "random", "-e", "random", "--games", "1",
                   "--out", "/dev/null", "--tc", "inf")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "records appended to /dev/null" in done.stdout


def test_an_unreadable_game_is_invalid_record_with_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.tgn"
    path.write_text('[Game "trike"\n\ne3 *\n')
    status, out, err = cli(capsys, "adjudicate", str(path))  # one batch: no worker process
    assert status == 1, err
    assert out.splitlines() == [
        f"game 1: invalid-record: {path}:1:14: bad tag: expected ']' after the value",
        "1 game(s), 1 disputed",
    ]
    path.write_text("no tag line here\n")  # no game at all: the wrong file
    status, out, err = cli(capsys, "adjudicate", str(path))
    assert status == 2 and out == ""
    assert err.strip().splitlines() == [
        f"referee: error: no game records in the file: {path}:1:1: expected a tag line "
        'such as [Game "trike"] to start a game'
    ]


def _edit(record: GameRecord, ply: int, text: str) -> GameRecord:
    moves = list(record.moves)
    moves[ply - 1] = MoveEntry(text, moves[ply - 1].comment)
    return dataclasses.replace(record, moves=tuple(moves))


def _retag(record: GameRecord, name: str, value: str) -> GameRecord:
    tags = tuple((k, value if k == name else v) for k, v in record.tags)
    return dataclasses.replace(record, tags=tags)


@pytest.fixture(scope="module")
def match_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if build_trike_engine() is None:
        pytest.skip("no C compiler: the trike-c engine cannot be built")
    out = tmp_path_factory.mktemp("match") / "games.tgn"
    done = referee(
        "play",
        "trike",
        "-e",
        "random",
        "-e",
        "trike-c",
        "--games",
        "20",
        "--tc",
        "10+0.1",
        "--seed",
        "5",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    assert "Game 20/20" in done.stdout
    assert "Entrant" in done.stdout and "trike-c" in done.stdout
    return out


@pytest.mark.processes  # a real 20-game match (match_file)
def test_real_match_records_are_all_confirmed(match_file: Path, referee_cli: RefereeCli) -> None:
    records = parse_records(match_file.read_text())
    assert len(records) == 20
    assert {r.tag("Termination") for r in records} == {"rules"}
    assert {r.tag("Seat1") for r in records} == {"random", "trike-c"}
    done = referee_cli("adjudicate", str(match_file), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    assert [v["verdict"] for v in verdicts] == ["confirmed"] * 20
    assert [v["index"] for v in verdicts] == list(range(1, 21))


@pytest.mark.processes  # a real 20-game match (match_file)
def test_hand_edited_illegal_move_is_found_at_its_ply(
    match_file: Path, tmp_path: Path, referee_cli: RefereeCli
) -> None:
    records = parse_records(match_file.read_text())
    first = records[2].moves[0].text
    records[2] = _edit(records[2], 5, first)  # the first move's cell is occupied by now
    path = tmp_path / "edited.tgn"
    path.write_text("".join(format_record(r) for r in records))
    done = referee_cli("adjudicate", str(path), "--json")
    assert done.returncode == 1
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    disputed = [v for v in verdicts if v["verdict"] != "confirmed"]
    assert len(disputed) == 1
    assert disputed[0]["index"] == 3
    assert disputed[0]["verdict"] == "illegal-move"
    assert disputed[0]["ply"] == 5
    assert disputed[0]["seat"] == 1
    assert disputed[0]["move"] == first


@pytest.mark.processes  # a real 20-game match (match_file)
def test_hand_edited_wrong_result_is_reported(
    match_file: Path, tmp_path: Path, referee_cli: RefereeCli
) -> None:
    records = parse_records(match_file.read_text())
    claimed = "0-1" if records[0].result == "1-0" else "1-0"
    records[0] = _retag(records[0], "Result", claimed)
    text = "".join(format_record(r) for r in records)
    path = tmp_path / "edited.tgn"
    path.write_text(text)
    done = referee_cli("adjudicate", str(path))
    assert done.returncode == 1
    assert "game 1: wrong-result" in done.stdout
    assert "20 game(s), 1 disputed" in done.stdout
