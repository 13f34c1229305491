"""``adjudicate --html`` of a big file of illegal-move games: a small first page and block
files (``tournaments.html.paged.verdicts``), opened in a real headless chromium from the
file system; a file within the limit keeps the single self-contained page.

The file: ``GAMES`` games dealt from a few random Trike games, each with its second move
replaced by its first (a cell already taken: illegal at ply 2). The limit is lowered
(``LIMIT``) so that a few hundred games exercise the paged layout the real limit gives
above 1,000 games.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from referee.adjudicate_stream import iter_adjudged
from referee.record import build_record, format_record
from referee.record.model import GameRecord, MoveEntry
from referee.registry import make_game
from tests.report.conftest import errors
from tests.report.webdriver import Browser
from tournaments.html.adjudicate import page_needs
from tournaments.html.paged.blocks import unpack
from tournaments.html.paged.verdicts import VerdictPages
from tournaments.html.paged.writer import MARK, blocks_folder

GAMES = 1234
LIMIT = 200
FIRST_PAGE_LIMIT = 5 << 20


def _random_game(rng: random.Random) -> GameRecord:
    game = make_game("trike")
    state = game.initial_state(2)
    moves: list[MoveEntry] = []
    while state.to_move is not None:
        move = rng.choice(state.legal_moves())
        moves.append(MoveEntry(game.format_move(state, move)))
        state = state.play(move)
    return build_record(game, ["alpha", "beta"], moves, state.outcome())


def _write_file(path: Path, games: int) -> None:
    rng = random.Random(5)
    pool = []
    for _ in range(8):
        record = _random_game(rng)
        moves = list(record.moves)
        moves[1] = MoveEntry(moves[0].text)  # the same cell again
        pool.append(format_record(replace(record, moves=tuple(moves))))
    path.write_text("".join(pool[k % len(pool)] for k in range(games)))


def _pages(path: Path, out: Path, limit: int) -> VerdictPages:
    with VerdictPages(str(path), out, single_limit=limit) as pages:
        for adjudged in iter_adjudged(path, keep=page_needs):
            pages.add(adjudged.verdict, " vs ".join(adjudged.seats), adjudged.record)
        pages.finish()
    return pages


@pytest.fixture(scope="module")
def paged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("verdicts")
    _write_file(root / "games.tgn", GAMES)
    out = root / "verdicts.html"
    assert _pages(root / "games.tgn", out, LIMIT).layout == "paged"
    yield out
    shutil.rmtree(root, ignore_errors=True)


def test_first_page_and_blocks(paged: Path) -> None:
    assert paged.stat().st_size <= FIRST_PAGE_LIMIT
    assert paged.stat().st_size < 100_000  # no game's board: its size does not grow
    names = sorted(p.name for p in blocks_folder(paged).iterdir())
    assert names == sorted(
        [MARK, "list-000000.js", "list-000001.js"]
        + [f"games-{k:06d}.js" for k in range(-(-GAMES // 100))]
    )
    call, index, rows = unpack((blocks_folder(paged) / "list-000001.js").read_text())
    assert (call, index, len(rows)) == ("list", 1, GAMES - 1000)
    assert rows[0][0] == 1001 and rows[0][2:4] == ["illegal-move", "ply 2"]
    call, index, block = unpack((blocks_folder(paged) / "games-000012.js").read_text())
    assert (call, index, len(block["games"])) == ("games", 12, GAMES - 1200)
    view = block["games"][33]["html"]
    assert 'id="game-1234"' in view and "<svg" in view and "illegal-move" in view


def test_a_small_file_keeps_the_single_page(paged: Path, tmp_path: Path) -> None:
    _write_file(tmp_path / "small.tgn", 30)
    out = tmp_path / "verdicts.html"
    (blocks_folder(out)).mkdir()
    (blocks_folder(out) / MARK).write_text("ours")  # a stale block folder goes
    assert _pages(tmp_path / "small.tgn", out, LIMIT).layout == "single"
    text = out.read_text()
    assert text.count('<section class="verdict" id="game-') == 30 and "<svg" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.tgn", "verdicts.html"]


def test_the_page_opens_and_shows_a_dispute(browser: Browser, paged: Path) -> None:
    browser.get(paged.as_uri())
    browser.wait_for("document.querySelectorAll('table.games tbody tr').length === 50")
    browser.type_text("#game-search", "#1234")
    browser.press("Enter")
    browser.wait_for(
        "document.querySelector('#games .found').textContent === '1 of 1,234 games match'"
    )
    browser.click("table.games tbody tr:first-child a")
    view = "#game-view details#game-1234"
    browser.wait_for(f"document.querySelector('{view} .board svg') !== null")
    text = browser.execute(f"return document.querySelector('{view}').textContent;")
    assert "illegal-move at ply 2" in text
    assert browser.execute(f"return document.querySelector('{view}').open;") is True
    assert errors(browser.console()) == []
