"""``referee adjudicate``: verdicts streamed in file order, from one process or several."""

from __future__ import annotations

import gc
import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from referee.record import format_record, stream
from tests.clirun import cli
from tests.referee.test_adjudicate import edit, finished, retag
from tournaments.cli.adjudicate import adjudged_batches, default_jobs
from tournaments.html.paged import page as paged_page
from tournaments.html.paged import verdicts
from tournaments.html.paged.verdicts import VerdictPages


def _file(
    path: Path, games: int, broken: tuple[int, ...] = (), disputed: tuple[int, ...] = ()
) -> Path:
    """``games`` Trike games; the (0-based) ``broken`` ones do not read, ``disputed`` have
    an illegal move."""
    texts = []
    for n in range(games):
        record = finished(n % 40 + 1)
        if n in disputed:
            record = edit(record, 2, "zz")
        text = format_record(retag(record, Round=str(n + 1)))
        texts.append(text.replace("}", "") if n in broken else text)
    path.write_text("".join(texts))
    return path


def _referee(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tournaments", "adjudicate", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.processes
def test_two_jobs_print_what_one_prints_in_file_order(tmp_path: Path) -> None:
    # 700 games: about 600 KiB, three batches, so two worker processes share them.
    path = _file(tmp_path / "games.tgn", 700, broken=(5, 420), disputed=(3, 650))
    one, two = (
        _referee(str(path), "--json", "--jobs", "1"),
        _referee(str(path), "--json", "-j", "2"),
    )
    assert one.returncode == two.returncode == 1, one.stderr + two.stderr
    assert two.stdout == one.stdout and two.stderr == one.stderr == ""
    verdicts = [json.loads(line) for line in two.stdout.splitlines()]
    assert [v["index"] for v in verdicts] == list(range(1, 701))
    bad = {v["index"]: v["verdict"] for v in verdicts if v["verdict"] != "confirmed"}
    assert bad == {
        4: "illegal-move",
        6: "invalid-record",
        421: "invalid-record",
        651: "illegal-move",
    }
    assert re.fullmatch(
        rf"{re.escape(str(path))}:\d+:\d+: unterminated comment.*", verdicts[420]["reason"]
    )


def test_a_broken_game_in_the_middle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path / "games.tgn", 5, broken=(2,))
    text = path.read_text()
    line = text[: text.index('[Round "3"]')].count("\n")  # the first line of game 3
    movetext = text.index("\n\n", text.index('[Round "3"]')) + 2
    column = text.index("{", movetext) - movetext + 1
    code, out, err = cli(capsys, "adjudicate", str(path))
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert lines[:2] == ["game 1: confirmed", "game 2: confirmed"]
    start = line - 9  # the game's first tag line: [Round] is its 10th line
    first_moves = text[:movetext].count("\n") + 1
    assert lines[2] == (
        f"game 3: invalid-record: {path}:{first_moves}:{column}: "
        "unterminated comment: '{' without a closing '}'"
    )
    assert start < first_moves
    assert lines[3:] == ["game 4: confirmed", "game 5: confirmed", "5 game(s), 1 disputed"]


def test_html_shows_a_broken_game_by_its_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path / "games.tgn", 4, broken=(1,), disputed=(2,))
    out = tmp_path / "v.html"
    code, stdout, _ = cli(capsys, "adjudicate", str(path), "--html", str(out), "-j", "1")
    assert code == 1 and stdout.endswith("4 game(s), 2 disputed\n")
    page = out.read_text()
    assert "4 game(s), 2 disputed" in page and len(re.findall(r"<tr><td>\d+</td>", page)) == 4
    broken = re.search(r'<section class="verdict" id="game-2".*?</section>', page, re.S)
    assert broken is not None and "unterminated comment" in broken.group(0)
    assert "<svg" not in broken.group(0)
    illegal = re.search(r'<section class="verdict" id="game-3".*?</section>', page, re.S)
    assert illegal is not None and "<svg" in illegal.group(0)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_no_game_is_an_error_and_no_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("some notes\n\nmore notes\n")
    out = tmp_path / "v.html"
    code, stdout, err = cli(capsys, "adjudicate", str(path), "--html", str(out))
    assert code == 2 and stdout == ""
    assert err == (
        f"referee: error: no game records in the file: {path}:1:1: expected a tag line "
        'such as [Game "trike"] to start a game\n'
    )
    assert list(tmp_path.iterdir()) == [path]


def test_stray_text_before_the_first_game_is_an_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.tgn"
    path.write_text("notes\n\n" + format_record(finished(1)))
    code, stdout, _ = cli(capsys, "adjudicate", str(path))
    assert code == 1
    assert stdout.splitlines()[1:] == ["game 2: confirmed", "2 game(s), 1 disputed"]
    assert stdout.startswith(f"game 1: invalid-record: {path}:1:1: expected a tag line")


def test_batches_come_back_in_order_from_several_processes(tmp_path: Path) -> None:
    path = _file(tmp_path / "games.tgn", 60, broken=(17,))
    alone = list(adjudged_batches(path, 1, batch_bytes=4096))
    shared = list(adjudged_batches(path, 3, batch_bytes=4096))
    assert len(shared) > 6
    assert shared == alone
    assert [a.verdict.confirmed for batch in shared for a in batch].count(False) == 1
    assert default_jobs() >= 1


@pytest.mark.marathon
def test_memory_of_the_command_does_not_grow_with_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With ``--html`` too: a file 20 times bigger, about the same peak (one process).

    As in ``tests/referee/test_record_stream.py``, CPython's free lists are emptied every
    25 games (``gc.collect``) so that the peak shows what the command holds. The big file
    is above the single page's limit: its page is paged, whose list blocks are made
    50 rows long and game blocks 20 games here (1,000 and 100 by default: bounded
    blocks, but as big as this file's growth, and a block the small file never fills
    would show as growth: the command line's own peak, all its commands made, hid that
    until a run made only the command it runs)."""
    small = _file(tmp_path / "small.tgn", 60, disputed=(7,))
    big = tmp_path / "big.tgn"
    big.write_text(small.read_text() * 20)
    monkeypatch.setattr(stream, "BATCH_BYTES", 8 * 1024)
    monkeypatch.setattr(verdicts, "LIST_BLOCK", 50)
    monkeypatch.setattr(paged_page, "LIST_BLOCK", 50)
    monkeypatch.setattr(verdicts, "GAME_BLOCK", 20)
    monkeypatch.setattr(paged_page, "GAME_BLOCK", 20)
    add = VerdictPages.add
    added = 0

    def add_and_collect(page: VerdictPages, *args: Any) -> None:
        nonlocal added
        add(page, *args)
        added += 1
        if added % 25 == 0:
            gc.collect()

    monkeypatch.setattr(VerdictPages, "add", add_and_collect)

    def peak(path: Path) -> int:
        with open(os.devnull, "w") as sink, pytest.MonkeyPatch.context() as patch:
            patch.setattr(sys, "stdout", sink)
            gc.collect()
            gc.freeze()  # the collections every 25 games skip what lived before (cheap)
            tracemalloc.start()
            try:
                cli(capsys, "adjudicate", str(path), "-j", "1", "--html", str(tmp_path / "v.html"))
                return tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
                gc.unfreeze()

    peak(small)  # warm up
    small_peak, big_peak = peak(small), peak(big)
    assert big_peak < 1.15 * small_peak + 32 * 1024, (small_peak, big_peak)


def test_more_jobs_than_cores_is_the_number_of_cores_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--jobs 100000`` forked that many processes before the first verdict (minutes of
    a machine's time, then a failed fork); it is the number of cores, and said so. (The
    pool is a thread pool here: what counts is the size asked for.)"""
    import concurrent.futures

    asked: list[int] = []

    def pool(workers: int, **_: Any) -> concurrent.futures.Executor:
        asked.append(workers)
        return concurrent.futures.ThreadPoolExecutor(workers)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", pool)
    path = _file(tmp_path / "games.tgn", 2)  # two batches: the second is read ahead
    code, out, err = cli(capsys, "adjudicate", str(path), "--jobs", "100000")
    assert code == 0, err
    assert out.endswith("2 game(s), 0 disputed\n")
    cores = default_jobs()
    assert asked == [cores]
    assert err == (
        f"referee: note: --jobs 100000 is more than the {cores} core(s) this process may use:"
        f" {cores} worker process(es)\n"
    )
