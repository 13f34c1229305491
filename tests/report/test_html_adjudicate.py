"""``referee adjudicate FILE --html OUT``: a verdict per game and the board at each dispute."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.adjudicate import adjudicate
from referee.pictures import LastMove, position_svg
from referee.record import format_record
from referee.record.model import GameRecord, MoveEntry
from referee.record.stream import read_records
from tests.clirun import cli
from tournaments.html.adjudicate import build_adjudication_page
from tournaments.html.replay import replay


def _disputed_file(match_dir: Path, out: Path) -> list[GameRecord]:
    """A file of: an illegal move (a taken cell) at ply 4, a flipped result, an unreadable
    move at ply 3, a confirmed game, and a record of an unknown game."""
    records = read_records(match_dir / "games.tgn")
    first, second, third, fourth = records[:4]
    moves = list(first.moves)
    moves[3] = MoveEntry(moves[1].text)
    flipped = tuple(
        (k, {"1-0": "0-1", "0-1": "1-0"}.get(v, v) if k == "Result" else v) for k, v in second.tags
    )
    unreadable = list(third.moves)
    unreadable[2] = MoveEntry("zz9")
    unknown = tuple((k, "nosuch" if k == "Game" else v) for k, v in fourth.tags)
    games = [
        GameRecord(first.tags, tuple(moves)),
        GameRecord(flipped, second.moves),
        GameRecord(third.tags, tuple(unreadable)),
        fourth,
        GameRecord(unknown, fourth.moves),
    ]
    out.write_text("".join(format_record(r) + "\n" for r in games))
    return games


def _section(page: str, index: int) -> str:
    match = re.search(rf'<section class="verdict" id="game-{index}".*?</section>', page, re.S)
    assert match is not None, index
    return match.group(0)


def test_adjudicate_html_shows_each_dispute(
    match_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = _disputed_file(match_dir, tmp_path / "bad.tgn")
    out = tmp_path / "verdicts.html"
    code, stdout, err = cli(capsys, "adjudicate", str(tmp_path / "bad.tgn"), "--html", str(out))
    assert code == 1 and err == ""
    assert stdout.endswith("5 game(s), 4 disputed\n")  # the text output is unchanged
    page = out.read_text()
    assert "5 game(s), 4 disputed" in page
    assert 'id="game-4"' not in page  # confirmed: no dispute to show

    # Illegal move: the position before it, with the move drawn as the last move.
    illegal = _section(page, 1)
    # Plies count from the game's start: the 2-ply opening, then the record's moves.
    assert 'data-verdict="illegal-move"' in illegal and "at ply 6, seat 2" in illegal
    assert "before ply 6 (move 4 of the movetext)" in illegal
    assert "the cell " in illegal and " is occupied" in illegal  # the rule it breaks
    before = replay(games[0], 3)
    move = before.game.parse_move(before.states[-1], games[0].moves[3].text)
    assert position_svg(before.game, before.states[-1], last_move=move) in illegal
    assert "drawn as the picture's last move" in illegal

    # Wrong result: the final position, the claimed and the correct result.
    wrong = _section(page, 2)
    verdict = adjudicate(games[1])
    assert verdict.claimed and verdict.correct and verdict.claimed != verdict.correct
    assert f"Claimed result <b>{verdict.claimed}</b>" in wrong
    assert f"correct result <b>{verdict.correct}</b>" in wrong
    whole = replay(games[1])
    last = LastMove(whole.states[-2], whole.moves[-1])
    assert position_svg(whole.game, whole.states[-1], last_move=last) in wrong

    # An unreadable move: the position before it, the move named but not drawn.
    unreadable = _section(page, 3)
    assert "<svg" in unreadable and "does not parse in this position" in unreadable
    assert "<b>zz9</b>" in unreadable

    # No position at all: the reason only.
    invalid = _section(page, 5)
    assert 'data-verdict="invalid-record"' in invalid and "<svg" not in invalid
    assert "unknown game" in invalid


def test_adjudicate_html_errors(
    match_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, "adjudicate", str(tmp_path / "none.tgn"), "--html", "x.html")
    assert code == 2 and err.startswith("referee: error: ") and err.count("\n") == 1
    games = str(match_dir / "games.tgn")
    (tmp_path / "file").write_text("")  # a file where the page's folder should be
    code, _, err = cli(capsys, "adjudicate", games, "--html", str(tmp_path / "file" / "x.html"))
    assert code == 2 and err.startswith("referee: error: ") and err.count("\n") == 1
    with pytest.raises(ValueError, match="1 records but 0 verdicts"):
        build_adjudication_page("f", read_records(match_dir / "games.tgn")[:1], [])
