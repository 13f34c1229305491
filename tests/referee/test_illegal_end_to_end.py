"""Illegal-move reasons end to end, for every game: a real match in which the faulty engine
(``bots/faulty_bot.py --mode illegal``) plays a well-formed illegal move, then
``referee adjudicate`` on the record with that move written into it.

Checked: the console line and the record's ``Reason`` quote the move, its ply counted from
the game's start (an opening's plies included) and the rule it breaks, exactly the line of
``State.why_illegal`` in the position replayed from the record (never the generic one);
``adjudicate`` finds the same move at the same ply with the same rule; an unparsable move
keeps its parse error.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.core import NOT_LEGAL
from referee.errors import InvalidMoveError
from referee.record import GameRecord
from referee.record.model import MoveEntry
from referee.record.stream import read_records
from referee.record.write import format_record
from referee.registry import make_game
from tests.clirun import RefereeCli, cli

pytestmark = pytest.mark.processes  # a real match and adjudicate per game

REASON = re.compile(r"seat (\d) \(bad\) plays illegal move '(\S+)' at ply (\d+): (.+)")
FAULTY = f"bad={sys.executable} -m bots faulty --mode {{mode}} --at 3"

GAMES: list[tuple[str, int, tuple[str, ...]]] = [
    ("trike", 2, ()),
    ("tricouleur", 2, ()),
    ("whistling-captures", 2, ()),
    ("trichess", 3, ("--option", "draw-cap=50")),
    ("tricolor", 2, ()),
    ("triablo", 3, ()),
]
"""(game, seats, extra options): the faulty engine in seat 1, random bots elsewhere."""


def _replayed(record: GameRecord) -> tuple[Any, Any]:
    """The game and the position after the record's moves."""
    game = make_game(record.game, record.options)
    start = record.start
    state = game.initial_state(record.players) if start is None else game.decode(start)
    for text in record.move_texts:
        state = state.play(game.parse_move(state, text))
    return game, state


def _with_move(record: GameRecord, text: str) -> GameRecord:
    """``record`` with ``text`` as one more move (the game's result kept)."""
    return GameRecord(record.tags, (*record.moves, MoveEntry(text)))


def _adjudicated(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``referee adjudicate --json`` of a one-game file, in this process (a small file is
    judged in the calling process: the command starts no worker)."""
    status, out, err = cli(capsys, "adjudicate", str(path), "--json")
    assert status == 1, out + err  # a dispute
    verdict: dict[str, Any] = json.loads(out.splitlines()[0])
    return verdict


@pytest.mark.parametrize(("name", "seats", "extra"), GAMES, ids=[g[0] for g in GAMES])
def test_a_match_and_adjudicate_name_the_rule(
    tmp_path: Path,
    name: str,
    seats: int,
    extra: tuple[str, ...],
    capsys: pytest.CaptureFixture[str],
    referee_cli: RefereeCli,
) -> None:
    out = tmp_path / "games.tgn"
    engines = ["-e", FAULTY.format(mode="illegal")] + ["-e", "random"] * (seats - 1)
    played = referee_cli(
        "play", name, *engines, *extra, "--games", "1", "--tc", "60+1", "--out", str(out)
    )
    assert played.returncode == 0, played.stdout + played.stderr
    (record,) = read_records(out)
    assert record.tag("Termination") == "illegal-move"
    found = REASON.fullmatch(record.tag("Reason") or "")
    assert found is not None, record.tag("Reason")
    seat, text, ply, why = int(found[1]), found[2], int(found[3]), found[4]
    assert found[0] in played.stdout  # the console line says the same
    game, state = _replayed(record)
    assert ply == state.ply + 1 == len(record.moves) + 1
    assert seat == state.to_move + 1
    assert why == state.why_illegal(game.parse_move(state, text)) != NOT_LEGAL

    disputed = tmp_path / "disputed.tgn"
    disputed.write_text(format_record(_with_move(record, text)))
    verdict = _adjudicated(disputed, capsys)
    assert verdict["verdict"] == "illegal-move"
    assert (verdict["ply"], verdict["seat"], verdict["move"]) == (ply, seat, text)
    assert verdict["reason"] == f"move {ply} {text!r} by seat {seat} is illegal: {why}"


def test_with_an_opening_plies_count_from_the_game_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], referee_cli: RefereeCli
) -> None:
    """A tournament with a 3-ply random opening: the forfeit's ply counts the opening's plies,
    as ``adjudicate`` and ``show --ply`` do."""
    out = tmp_path / "event"
    ran = referee_cli(
        "tournament", "--game", "trike", "-e", FAULTY.format(mode="illegal"), "-e", "random",
        "--games", "1", "--opening-plies", "3", "--tc", "60+1", "--out", str(out),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    (record,) = read_records(out / "games.tgn")
    assert len(record.tag("Opening").split()) == 3  # type: ignore[union-attr]
    found = REASON.fullmatch(record.tag("Reason") or "")
    assert found is not None, record.tag("Reason")
    text, ply = found[2], int(found[3])
    assert ply == 3 + len(record.moves) + 1
    assert found[0] in ran.stdout
    assert f"(illegal-move, {len(record.moves)} plies after a 3-ply opening)" in ran.stdout

    disputed = tmp_path / "disputed.tgn"
    disputed.write_text(format_record(_with_move(record, text)))
    verdict = _adjudicated(disputed, capsys)
    assert (verdict["verdict"], verdict["ply"], verdict["move"]) == ("illegal-move", ply, text)
    status, shown, err = cli(capsys, "show", str(disputed), "--ply", str(ply - 1))
    assert status == 0, err
    game, state = _replayed(record)
    assert shown.startswith(game.render(state))
    status, opening, err = cli(capsys, "show", str(disputed), "--ply", "1")  # in the opening
    assert status == 0, err
    first = game.initial_state(2)
    first = first.play(game.parse_move(first, record.tag("Opening").split()[0]))  # type: ignore[union-attr]
    assert opening.startswith(game.render(first))
    assert "(ply 1, of the opening)" in opening


def test_an_unparsable_move_keeps_its_parse_error(tmp_path: Path, referee_cli: RefereeCli) -> None:
    out = tmp_path / "games.tgn"
    engines = ["-e", FAULTY.format(mode="unparsable"), "-e", "random"]
    played = referee_cli("play", "trike", *engines, "--games", "1", "--out", str(out))
    assert played.returncode == 0, played.stdout + played.stderr
    (record,) = read_records(out)
    game, state = _replayed(record)
    with pytest.raises(InvalidMoveError) as raised:
        game.parse_move(state, "zz99")
    reason = record.tag("Reason") or ""
    assert reason.endswith(f"plays illegal move 'zz99' at ply {state.ply + 1}: {raised.value}")
