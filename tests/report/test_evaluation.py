"""The engines' evaluations in the HTML pages: a chart per game under the board (one line
per seat, shares 0-1000), d/n/s beside each move; nothing for games without scores."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from referee.record.model import GameRecord, MoveEntry
from referee.record.stream import read_records
from tests.clirun import RefereeCli
from tournaments.html.chart import HEIGHT, TOP
from tournaments.html.evaluation import evaluation_chart, moves_with_search, seat_shares
from tournaments.html.report import build_report
from tournaments.store.event_dir import read_event

ROOT = Path(__file__).resolve().parents[2]
TAGS = (
    ("Game", "tricolor"),
    ("Options", "n=4,rim-crowns=yes"),
    ("RulesVersion", "1"),
    ("Players", "3"),
    ("Seat1", "a"),
    ("Seat2", "b"),
    ("Seat3", "c"),
    ("Result", "*"),
    ("Termination", "void"),
)


def _record(comments: list[str | None]) -> GameRecord:
    moves = ["O(-1,0)", "G(0,0)", "Y(1,-2)", "O(0,-1)"][: len(comments)]
    return GameRecord(TAGS, tuple(MoveEntry(m, c) for m, c in zip(moves, comments, strict=True)))


def test_chart_has_a_line_per_seat_with_gaps_and_forced_wins() -> None:
    record = _record(["0.1s s=500,300,200", "0.1s d=2 s=400,400,200", "0.1s d=3", "0.1s s=win3"])
    # Seat 3 (index 2) is to move at ply 4: its forced win is 1000 for it, 0 for the others.
    shares = seat_shares(record, [0, 1, 2, 2])
    assert shares == [(500, 300, 200), (400, 400, 200), None, (0, 0, 1000)]
    svg = evaluation_chart(record, [0, 1, 2, 2])
    assert svg.startswith('<figure class="chart evaluation">')
    assert "3 of 4 plies with a score" in svg
    # Each seat: plies 1-2 as a line, then the lone point at ply 4 after the gap.
    assert svg.count("<polyline") == 3 and svg.count("<circle") == 3
    for seat, name in enumerate("abc", start=1):
        assert f">seat {seat} {name}</text>" in svg
    assert "even 333.33" in svg
    tops = re.findall(r'<circle cx="[0-9.]+" cy="([0-9.]+)"', svg)
    bottom = HEIGHT - 36  # the plot's lower edge (the chart's bottom margin)
    assert sorted(float(y) for y in tops) == [float(TOP), float(bottom), float(bottom)]
    # Where the replay cannot tell the mover, a forced win is not drawn.
    assert seat_shares(record, [0, 1])[3] is None


def test_games_without_scores_get_no_chart() -> None:
    record = _record(["0.1s 9.9s", None, "0.1s d=4 n=10"])
    assert evaluation_chart(record, [0, 1, 2]) == ""
    moves = moves_with_search(record)
    assert moves.count('<small class="search">') == 1 and "d=4 n=10" in moves


@pytest.mark.processes
def test_report_and_adjudicate_pages_of_a_real_event(
    tmp_path: Path, referee_cli: RefereeCli
) -> None:
    scored = f"{sys.executable} {ROOT / 'tests/engines/scored_engine.py'}"
    config = tmp_path / "t.toml"
    config.write_text(
        f"""
game = "trike"
rounds = 1
tc = "20+0.2"

[[entrants]]
name = "hopeful"
command = "{scored} --score 0:500,500 --score 6:620,380"

[[entrants]]
name = "quiet"
command = "{scored} --score 0:none --score 8:450,550"
"""
    )
    done = referee_cli("tournament", str(config), "--out", str(tmp_path / "ev"))
    assert done.returncode == 0, done.stderr
    page = build_report(read_event(tmp_path / "ev"))
    games = re.findall(r'<details class="game".*?</details>', page, re.S)
    assert len(games) == 2
    for game in games:
        # The chart is under the board, in the board's column.
        column = re.search(r'<div class="boardcol">.*?</figure></div>', game, re.S)
        assert column is not None and '<figure class="chart evaluation">' in column.group(0)
        assert column.group(0).index('class="board"') < column.group(0).index("evaluation")
        assert ">seat 1 hopeful</text>" in game or ">seat 1 quiet</text>" in game
        notes = re.findall(r'<small class="search">([^<]*)</small>', game)
        assert notes and all(note.startswith("d=1 n=") for note in notes)
        assert any("s=620,380" in note for note in notes)
    out = tmp_path / "verdicts.html"
    judged = referee_cli("adjudicate", str(tmp_path / "ev" / "games.tgn"), "--html", str(out))
    assert judged.returncode == 0
    verdicts = out.read_text()
    assert verdicts.count('<figure class="chart evaluation">') == 2
    assert "<h2>Evaluations</h2>" in verdicts and 'id="eval-2"' in verdicts
    records = read_records(tmp_path / "ev" / "games.tgn")
    # Every move of both games carries d=/n= (the engines always report them).
    assert verdicts.count('<small class="search">') == sum(len(r.moves) for r in records)


def test_pages_of_games_without_scores_show_none(
    match_dir: Path, tmp_path: Path, referee_cli: RefereeCli
) -> None:
    page = build_report(read_event(match_dir))
    assert "chart evaluation" not in page and 'class="search"' not in page
    out = tmp_path / "v.html"
    judged = referee_cli("adjudicate", str(match_dir / "games.tgn"), "--html", str(out))
    assert judged.returncode == 0
    text = out.read_text()
    assert "chart evaluation" not in text and "Evaluations" not in text
