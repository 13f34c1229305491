"""``referee report``: the page's tables are the tournament's numbers, every game is in it,
its data parses, it refers to nothing outside itself, and the picture budget holds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.core import Outcome, Termination
from referee.pictures import LastMove, position_svg
from referee.record.parse import parse_records
from tests.clirun import cli
from tests.report.page import Page, read_page
from tournaments.html.chart import Series, line_chart
from tournaments.html.replay import FramePool, replay
from tournaments.html.report import FORFEITS, build_report, forfeit_rows
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, summarize
from tournaments.store.event_dir import Event, read_event
from tournaments.store.journal import RESULTS, read_journal


@pytest.fixture(scope="module")
def match_page(match_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Page]:
    out = tmp_path_factory.mktemp("page") / "match.html"
    text = build_report(read_event(match_dir))
    out.write_text(text)
    return text, read_page(text)


def test_command_writes_the_page_into_the_directory(
    match_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "report", str(match_dir))
    assert (code, err) == (0, "")
    assert f"written to {match_dir / 'report.html'}" in out
    assert read_page((match_dir / "report.html").read_text()).json_blocks["results-data"]
    elsewhere = tmp_path / "elsewhere.html"
    code, out, err = cli(capsys, "report", str(match_dir), "--out", str(elsewhere))
    assert (code, err) == (0, "") and elsewhere.is_file()


def test_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "report", str(tmp_path))
    assert code == 2 and out == ""
    assert err == f"referee: error: {tmp_path} holds no tournament (no journal.jsonl)\n"
    code, _, err = cli(capsys, "report", str(tmp_path / "missing"))
    assert code == 2 and err.startswith("referee: error: ") and err.count("\n") == 1


def test_embedded_results_are_results_json(match_dir: Path, match_page: tuple[str, Page]) -> None:
    _, page = match_page
    results = json.loads((match_dir / RESULTS).read_text())
    assert page.json_blocks["results-data"] == results


def test_crosstable_cells_are_results_json(match_dir: Path, match_page: tuple[str, Page]) -> None:
    _, page = match_page
    results = json.loads((match_dir / RESULTS).read_text())
    expected = {
        (c["entrant"], c["opponent"]): (c["points"], c["games"]) for c in results["crosstable"]
    }
    shown = {
        (cell.attrs["data-entrant"], cell.attrs["data-opponent"]): cell
        for cell in page.cells
        if "data-entrant" in cell.attrs
    }
    assert set(shown) == set(expected) and len(expected) == 2
    for pair, (points, games) in expected.items():
        cell = shown[pair]
        assert float(cell.attrs["data-points"]) == points
        assert int(cell.attrs["data-games"]) == games
        assert cell.text == f"{points:g}/{games}"


def test_every_game_is_in_the_page_and_replayable(
    match_dir: Path, match_page: tuple[str, Page]
) -> None:
    text, page = match_page
    games = list(read_journal(match_dir).games.values())
    assert len(games) == 4
    assert [i for i in page.ids if i.startswith("game-")] == [f"game-{g.number}" for g in games]
    data = page.json_blocks["replay-data"]
    assert len(data["games"]) == len(games)
    pool = FramePool()
    pool.parts = data["parts"]
    for report, entry in zip(games, data["games"], strict=True):
        record = parse_records(report.record)[0]
        assert f'[GameNumber "{report.number}"]' in report.record
        assert f"<td>GameNumber</td><td>{report.number}</td>" in text.replace(' class="name"', "")
        assert entry is not None and len(entry["frames"]) == len(record.moves) + 1
        replayed = replay(record)
        # The last frame is exactly the picture of the final position with its last move.
        final = position_svg(
            replayed.game,
            replayed.states[-1],
            last_move=LastMove(replayed.states[-2], replayed.moves[-1]),
        )
        assert pool.decode(entry["frames"][-1]) == final
        assert pool.decode(entry["frames"][0]) != final


def test_the_page_is_self_contained(match_page: tuple[str, Page]) -> None:
    text, page = match_page
    assert page.urls and all(url.startswith("#") for url in page.urls), page.urls
    assert "link" not in page.tags and "img" not in page.tags and "iframe" not in page.tags
    assert page.scripts == 1
    without_namespace = text.replace("http://www.w3.org/2000/svg", "")
    assert not re.search(r"https?:|url\(|@import", without_namespace)


def test_names_are_escaped(match_page: tuple[str, Page]) -> None:
    text, _ = match_page
    assert "Report &lt;test&gt; &amp; match" in text
    assert "<test>" not in text


def test_sections_and_charts(match_page: tuple[str, Page], three_dir: Path) -> None:
    text, page = match_page
    for anchor in ("standings", "forfeits", "crosstable", "ratings", "course", "games"):
        assert anchor in page.ids
    assert "Elo against the field" in text and "Pairs" in text and "SPRT [0, 100]" in text
    assert text.count('<svg class="chart"') == 3  # points, Elo, and the SPRT's LLR
    assert ">H1 2.94</text>" in text and ">H0 -2.94</text>" in text
    three = build_report(read_event(three_dir))
    assert "Plackett–Luce" in three and "Elo against the field" not in three
    assert three.count('<svg class="chart"') == 2  # no SPRT


def test_position_budget_draws_whole_games_in_journal_order(match_dir: Path) -> None:
    event = read_event(match_dir)
    plies = [len(parse_records(g.record)[0].moves) for g in event.games]
    budget = plies[0] + 1 + plies[1]  # the first game fits, the second misses by one
    expected, left = [], budget
    for count in plies:
        expected.append(count + 1 <= left)
        left -= count + 1 if expected[-1] else 0
    page = build_report(event, max_positions=budget)
    drawn = read_page(page).json_blocks["replay-data"]["games"]
    assert [entry is not None for entry in drawn] == expected
    assert expected[:2] == [True, False]
    assert page.count("budget of positions is spent") == expected.count(False)
    nothing = read_page(build_report(event, max_positions=0)).json_blocks["replay-data"]
    assert nothing == {"parts": [], "games": [None] * 4}


def _report(number: int, seats: tuple[str, str], outcome: Outcome) -> GameReport:
    return GameReport(number, 1, number, (0, 1), seats, outcome, 10, record="")


def test_forfeits_by_type() -> None:
    info = EventInfo("e", "trike", ("a", "b"), 2, 3)
    games = [
        _report(1, ("a", "b"), Outcome(Termination.TIMEOUT, (2, 1), culprit=0)),
        _report(2, ("b", "a"), Outcome(Termination.CRASH, (2, 1), culprit=0)),
        _report(3, ("a", "b"), Outcome(Termination.TIMEOUT, (2, 1), culprit=0)),
    ]
    headers, cells = forfeit_rows(summarize(info, games))
    assert headers == ["Entrant", *FORFEITS, "Total"]
    rows = {line[0]: dict(zip(headers[1:], line[1:], strict=True)) for line in cells}
    assert rows["a"]["timeout"] == 2 and rows["a"]["Total"] == 2
    assert rows["b"]["crash"] == 1 and rows["b"]["Total"] == 1
    assert rows["all"]["timeout"] == 2 and rows["all"]["crash"] == 1 and rows["all"]["Total"] == 3
    # A game whose record cannot be read is still listed, with the reason.
    page = build_report(Event(Path("synthetic"), info, tuple(games)))
    assert page.count("(unreadable record)") == 3


def test_frame_pool_stores_shared_parts_once() -> None:
    pool = FramePool()
    a = "<svg><g><line/><line/></g><text>ply 1</text></svg>"
    b = "<svg><g><line/><line/></g><text>ply 2</text></svg>"
    runs_a, runs_b = pool.add(a), pool.add(b)
    assert pool.decode(runs_a) == a and pool.decode(runs_b) == b
    assert len(pool.parts) == len(set(pool.parts)) == len(set(a.split("><"))) + 1
    assert pool.add("") == [pool.parts.index(""), 1] and pool.decode(pool.add("")) == ""


def test_line_chart_gaps_and_bounds() -> None:
    svg = line_chart(
        [Series("x", ((1, 0.0), (2, None), (3, 2.0), (4, 3.0))), Series("y", ((1, 1.0),))],
        title="t",
        x_label="games",
        y_label="v",
        hlines=[("H1", 2.94)],
    )
    assert svg.count("<polyline") == 1  # x: a lone point, a gap, then a line of two
    assert svg.count("<circle") == 2  # x's lone point and y's only point
    assert ">H1 2.94</text>" in svg
    assert "no data yet" in line_chart([], title="t", x_label="a", y_label="b")
