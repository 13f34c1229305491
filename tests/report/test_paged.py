"""The paged report: its first page holds the tables and no game, its block files hold
every game exactly as the single page lays it out, the layout follows the size of the
event, and writing it replaces a previous report whole or not at all."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.pictures import LastMove, position_svg
from referee.record import parse_records
from tests.clirun import cli
from tests.report.page import read_page
from tests.report.synth import synth_event
from tournaments.html.paged import writer
from tournaments.html.paged.blocks import GAME_BLOCK, LIST_BLOCK, block_name, unpack
from tournaments.html.paged.writer import MARK, ReportError, blocks_folder, write_report
from tournaments.html.replay import FramePool, replay
from tournaments.html.report import build_report
from tournaments.store.event_dir import open_event, read_event
from tournaments.store.journal import JOURNAL, RESULTS, JournalError


def blocks(folder: Path, kind: str) -> list[Any]:
    """The data of every block file of ``kind``, in order (and no file missing)."""
    names = sorted(p.name for p in folder.glob(f"{kind}-*.js"))
    assert names == [block_name(kind, k) for k in range(len(names))]
    out = []
    for k, name in enumerate(names):
        call, index, data = unpack((folder / name).read_text(encoding="ascii"))
        assert (call, index) == (kind, k)
        out.append(data)
    return out


def details_of(page: str, number: int) -> str:
    """The ``<details>`` element of game ``number`` in a single page's text."""
    start = page.index(f'<details class="game" id="game-{number}"')
    return page[start : page.index("</details>", start) + len("</details>")]


def test_paged_report_holds_the_single_pages_games(match_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    written = write_report(match_dir, out, layout="paged", jobs=1)
    folder = blocks_folder(out)
    assert (written.layout, written.games, written.folder) == ("paged", 4, folder)
    assert written.files == len(list(folder.iterdir())) + 1
    single = build_report(read_event(match_dir))
    games = read_event(match_dir).games

    # The first page: the tables and results.json, no game, a list to fill.
    first = read_page(out.read_text())
    assert first.json_blocks["results-data"] == json.loads((match_dir / RESULTS).read_text())
    assert "replay-data" not in first.json_blocks and "<details" not in out.read_text()
    meta = first.json_blocks["paged-data"]
    assert meta["games"] == 4 and meta["folder"] == folder.name
    assert (meta["list_block"], meta["game_block"]) == (LIST_BLOCK, GAME_BLOCK)
    tables = single[single.index("<body>") : single.index('<section id="games">')]
    assert tables in out.read_text()  # the same title, facts, tables and charts

    # The list: one row per game, journal order.
    (rows,) = blocks(folder, "list")
    expected_rows = []
    for game in games:
        record = parse_records(game.record)[0]
        expected_rows.append(
            [
                game.number,
                game.round,
                " vs ".join(game.seats),
                record.result,
                game.outcome.termination.value,
                game.plies,
            ]
        )
    assert rows == expected_rows

    # Each game: the single page's view, and frames that are its positions' pictures.
    (block,) = blocks(folder, "games")
    pool = FramePool()
    pool.parts = [block["parts"].get(str(k), "") for k in range(1 + max(map(int, block["parts"])))]
    for game, entry in zip(games, block["games"], strict=True):
        assert entry["html"] == details_of(single, game.number)
        replayed = replay(parse_records(game.record)[0])
        assert len(entry["frames"]) == len(replayed.states)
        for k in (0, len(replayed.states) - 1):
            last = LastMove(replayed.states[k - 1], replayed.moves[k - 1]) if k else None
            picture = position_svg(replayed.game, replayed.states[k], last_move=last)
            assert pool.decode(entry["frames"][k]) == picture


def test_blocks_split_a_bigger_event_and_the_budget_holds(tmp_path: Path) -> None:
    event = synth_event(tmp_path / "event", 250, pool=12)
    out = tmp_path / "r" / "page.html"
    written = write_report(event, out, layout="paged", max_positions=1500, jobs=1)
    folder = tmp_path / "r" / "page-games"
    assert written.folder == folder and written.games == 250
    games = read_event(event).games
    lists = blocks(folder, "list")
    assert [len(rows) for rows in lists] == [250]  # LIST_BLOCK rows a file
    assert [row[0] for row in lists[0]] == [g.number for g in games]
    game_blocks = blocks(folder, "games")
    assert [len(b["games"]) for b in game_blocks] == [100, 100, 50]
    drawn = [e for b in game_blocks for e in b["games"] if "frames" in e]
    positions = sum(len(e["frames"]) for e in drawn)
    assert 0 < positions <= 1500 and len(drawn) < 250
    # Games are drawn in journal order while the budget lasts: a drawn game follows
    # only drawn games, give or take the last block's leftovers.
    flags = ["frames" in e for b in game_blocks for e in b["games"]]
    assert flags[0] and not flags[-1]
    note = f"250 games, {len(drawn)} of them replayable ({positions:,} positions drawn)"
    assert note in out.read_text()


def test_worker_processes_write_the_same_games(tmp_path: Path) -> None:
    event = synth_event(tmp_path / "event", 230, pool=5)
    one, two = tmp_path / "one" / "r.html", tmp_path / "two" / "r.html"
    write_report(event, one, layout="paged", jobs=1)
    write_report(event, two, layout="paged", jobs=2)

    def pictures(out: Path) -> list[tuple[str, list[str]]]:
        games = []
        for block in blocks(blocks_folder(out), "games"):
            parts = block["parts"]
            pool = FramePool()
            pool.parts = [parts.get(str(k), "") for k in range(1 + max(map(int, parts)))]
            games += [(e["html"], [pool.decode(f) for f in e["frames"]]) for e in block["games"]]
        return games

    assert pictures(one) == pictures(two)
    assert blocks(blocks_folder(one), "list") == blocks(blocks_folder(two), "list")


def test_layout_follows_the_size_of_the_event(
    match_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "new" / "report.html"
    assert write_report(match_dir, out).layout == "single"  # 4 games
    assert not blocks_folder(out).exists()
    monkeypatch.setattr(writer, "SINGLE_LIMIT", 3)
    assert write_report(match_dir, out, jobs=1).layout == "paged"
    assert (blocks_folder(out) / MARK).is_file()
    # Asked for a single page again: the blocks it no longer uses go.
    assert write_report(match_dir, out, layout="single").layout == "single"
    assert not blocks_folder(out).exists()
    assert "replay-data" in read_page(out.read_text()).json_blocks


def test_command_line(match_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "paged.html"
    code, text, err = cli(capsys, "report", str(match_dir), "-o", str(out), "--paged", "-j", "1")
    assert (code, err) == (0, "")
    folder = tmp_path / "paged-games"
    assert text == (
        f"report of 4 game(s) written to {out}, its list and games in {folder} "
        f"(4 files: keep them together)\n"
    )
    code, text, err = cli(capsys, "report", str(match_dir), "-o", str(out), "--single")
    assert (code, err) == (0, "") and not folder.exists()


def test_a_folder_not_ours_is_never_touched(
    match_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    folder = blocks_folder(out)
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    for layout in ("paged", "single"):
        with pytest.raises(ReportError, match="was not written by referee report"):
            write_report(match_dir, out, layout=layout, jobs=1)
    code, text, err = cli(capsys, "report", str(match_dir), "-o", str(out), "--paged")
    assert code == 2 and text == "" and err.count("\n") == 1
    assert err.startswith(f"referee: error: {folder} is in the way")
    assert (folder / "notes.txt").read_text() == "mine" and not out.exists()


def test_a_failed_report_leaves_the_previous_one_whole(match_dir: Path, tmp_path: Path) -> None:
    event = tmp_path / "event"
    shutil.copytree(match_dir, event)
    out = tmp_path / "report.html"
    write_report(event, out, layout="paged", jobs=1)
    before = {p.name: p.read_bytes() for p in blocks_folder(out).iterdir()}
    page = out.read_bytes()
    # A journal broken before its last line: the report stops with the journal's error.
    lines = (event / JOURNAL).read_text().splitlines(keepends=True)
    (event / JOURNAL).write_text("".join([*lines[:2], "{broken\n", *lines[2:]]))
    with pytest.raises(JournalError, match="unreadable journal line"):
        write_report(event, out, layout="paged", jobs=1)
    assert out.read_bytes() == page
    assert {p.name: p.read_bytes() for p in blocks_folder(out).iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event", "report-games", "report.html"]


def _start_report(event: Path, out: Path) -> subprocess.Popen[bytes]:
    """A process writing the paged report of ``event`` (one process, no jobs)."""
    code = (
        "import sys; from pathlib import Path; "
        "from tournaments.html.paged.writer import write_report; "
        "write_report(Path(sys.argv[1]), Path(sys.argv[2]), layout='paged', jobs=1)"
    )
    return subprocess.Popen([sys.executable, "-c", code, str(event), str(out)])


def _peak_mb(process: subprocess.Popen[bytes]) -> float:
    """The peak memory of ``process`` (of ``_start_report``) once it has ended well."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must know
    assert process.returncode == 0
    return usage.ru_maxrss / 1024


@pytest.mark.marathon
def test_memory_does_not_hold_the_records(tmp_path: Path) -> None:
    """20 times the games cost less memory than the extra games' record text alone (which,
    held as objects, would cost about twice that): the journal is streamed, and only what
    the tables need is kept per game (a few hundred bytes while they are computed)."""
    small = synth_event(tmp_path / "small", 1000, pool=16)
    big = synth_event(tmp_path / "big", 20_000, pool=16)
    # The two writers run side by side, and the records are measured meanwhile: each
    # process's peak is its own (``wait4``), whatever runs beside it.
    writers = [
        _start_report(big, tmp_path / "b" / "r.html"),
        _start_report(small, tmp_path / "s" / "r.html"),
    ]
    try:
        sizes = [len(g.record) for g in open_event(big).games()]
        extra = sum(sizes[1000:]) / 2**20  # MB of records the big event adds
        grown = _peak_mb(writers[0]) - _peak_mb(writers[1])
    finally:
        for writer in writers:
            if writer.returncode is None:
                writer.kill()
                writer.wait()
    assert grown < extra, (grown, extra)


def test_an_event_without_games(match_dir: Path, tmp_path: Path) -> None:
    """Just started: the first page and an empty list, no block of games."""
    event = tmp_path / "event"
    event.mkdir()
    header = (match_dir / JOURNAL).read_text().splitlines(keepends=True)[0]
    (event / JOURNAL).write_text(header)
    out = tmp_path / "report.html"
    written = write_report(event, out, layout="paged", jobs=1)
    assert (written.games, written.files) == (0, 2)
    assert sorted(p.name for p in blocks_folder(out).iterdir()) == [MARK]
    assert read_page(out.read_text()).json_blocks["paged-data"]["games"] == 0


@pytest.mark.parametrize("layout", ["--single", "--paged"])
@pytest.mark.parametrize("where", ["under-a-file", "a-directory"])
def test_a_page_that_cannot_be_written_is_one_line(
    match_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], layout: str, where: str
) -> None:
    """The page's path is the user's: a file in the way of its folder, or a directory
    where the page goes, is one line naming it (a ``ReportError``), not a traceback."""
    (tmp_path / "file").write_text("in the way")
    (tmp_path / "dir").mkdir()
    out = tmp_path / "file" / "r.html" if where == "under-a-file" else tmp_path / "dir"
    code, text, err = cli(capsys, "report", str(match_dir), "-o", str(out), layout, "-j", "1")
    assert (code, text) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith(f"referee: error: cannot write {out}: ")
    assert "Traceback" not in err
