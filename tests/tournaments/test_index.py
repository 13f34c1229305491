"""The journal's index: the same tables as the journal itself, whatever state it is in."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.report.events import MATCH, play
from tournaments.results.summary import summarize
from tournaments.results.tables import render
from tournaments.store.event_dir import open_event, read_event, without_record
from tournaments.store.index import INDEX, read_index
from tournaments.store.journal import JOURNAL


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play({**MATCH, "games": 12}, tmp_path_factory.mktemp("index") / "event")


def _tables(directory: Path) -> str:
    stream = open_event(directory)
    return render(summarize(stream.info, list(stream.results())), "json")


def _reference(directory: Path) -> tuple[list[object], str]:
    full = read_event(directory)
    games = [without_record(g) for g in full.games]
    return list(games), render(summarize(full.info, list(full.games)), "json")


def _copy(event: Path, tmp_path: Path) -> Path:
    directory = tmp_path / "copy"
    directory.mkdir()
    for name in (JOURNAL, INDEX):
        (directory / name).write_bytes((event / name).read_bytes())
    return directory


def test_the_index_covers_the_whole_journal(event: Path) -> None:
    games, tables = _reference(event)
    size = (event / JOURNAL).stat().st_size
    items = list(read_index(event, open_event(event).info.names, size))
    assert items[-1] == size  # the index reaches the journal's end: no tail to read
    assert items[:-1] == games
    assert list(open_event(event).results()) == games
    assert _tables(event) == tables


@pytest.mark.parametrize("damage", ["missing", "torn", "stale", "garbage", "journal-grew"])
def test_a_damaged_index_gives_the_same_tables(event: Path, tmp_path: Path, damage: str) -> None:
    directory = _copy(event, tmp_path)
    games, tables = _reference(directory)
    index = directory / INDEX
    lines = index.read_bytes().splitlines(keepends=True)
    if damage == "missing":
        index.unlink()
    elif damage == "torn":
        index.write_bytes(b"".join(lines[:5]) + lines[5][:7])
    elif damage == "stale":  # an index of a longer journal: its lines past the end are ignored
        journal = directory / JOURNAL
        data = journal.read_bytes().splitlines(keepends=True)
        journal.write_bytes(b"".join(data[:-4]))
        games, tables = _reference(directory)
    elif damage == "garbage":
        index.write_bytes(b"".join(lines[:3]) + b"not json\n" + b"".join(lines[3:]))
    elif damage == "journal-grew":  # the runner died between the journal and the index
        index.write_bytes(b"".join(lines[:6]))
    assert list(open_event(directory).results()) == games
    assert _tables(directory) == tables
