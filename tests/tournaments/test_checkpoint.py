"""``tally.json``: the tables and a resume read only the journal after it, and a bad
checkpoint costs time, never a wrong table or a wrong ``games.tgn``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.report.events import MATCH, play
from tournaments.results.counts import Counts
from tournaments.results.summary import summarize, summarize_counts, summary_json
from tournaments.store.checkpoint import (
    CHECKPOINT,
    Checkpoint,
    header_digest,
    read_checkpoint,
    write_checkpoint,
)
from tournaments.store.event_dir import open_event, read_event
from tournaments.store.index import INDEX
from tournaments.store.journal import GAMES, JOURNAL, iter_entries, read_header
from tournaments.store.numbers import GameNumbers
from tournaments.store.writer import Journal

SETTINGS = {**MATCH, "games": 16, "sprt": None}


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(SETTINGS, tmp_path_factory.mktemp("checkpoint") / "event")


def _copy(event: Path, tmp_path: Path) -> Path:
    directory = tmp_path / "copy"
    shutil.copytree(event, directory)
    (directory / "lock").unlink(missing_ok=True)
    return directory


def _reference(directory: Path) -> str:
    full = read_event(directory)
    return json.dumps(summary_json(summarize(full.info, list(full.games))), sort_keys=True)


def _tables(directory: Path) -> str:
    stream = open_event(directory)
    return json.dumps(summary_json(summarize_counts(stream.info, stream.counts())), sort_keys=True)


def _digest(directory: Path) -> str:
    header = read_header(directory / JOURNAL)
    assert header is not None
    return header_digest(header[2])


def _checkpoint_after(directory: Path, games: int) -> Checkpoint:
    """A checkpoint of the journal's first ``games`` games (as a run killed then)."""
    info = open_event(directory).info
    state = Checkpoint(Counts(info.names, info.paired), 0)
    header = read_header(directory / JOURNAL)
    assert header is not None
    state.end = len(header[2])
    for kind, value, end in iter_entries(directory / JOURNAL, start=state.end):
        if kind == "game":
            if len(state.numbers) == games:
                break
            state.numbers.add(value.number)
            state.counts.add(value)
            state.games_end += len(value.record.encode())
        state.end = end
    return state


def test_a_finished_run_leaves_a_checkpoint_of_every_game(event: Path) -> None:
    size = (event / JOURNAL).stat().st_size
    state = read_checkpoint(event, _digest(event), size)
    assert state is not None and state.end == size and len(state.numbers) == 16
    assert state.games_end == (event / GAMES).stat().st_size
    assert _tables(event) == _reference(event)


@pytest.mark.parametrize("games", [0, 5, 16])
def test_the_tables_read_the_journal_after_the_checkpoint(
    event: Path, tmp_path: Path, games: int
) -> None:
    directory = _copy(event, tmp_path)
    write_checkpoint(directory, _checkpoint_after(directory, games), _digest(directory))
    assert _tables(directory) == _reference(event)


@pytest.mark.parametrize("damage", ["missing", "garbage", "foreign", "past-the-end", "count"])
def test_a_bad_checkpoint_is_not_used(event: Path, tmp_path: Path, damage: str) -> None:
    directory = _copy(event, tmp_path)
    path = directory / CHECKPOINT
    data = json.loads(path.read_text())
    size = (directory / JOURNAL).stat().st_size
    if damage == "missing":
        path.unlink()
    elif damage == "garbage":
        path.write_text('{"version": 1, "journal"')
    elif damage == "foreign":
        data["journal"] = "0" * 32
    elif damage == "past-the-end":
        data["end"] = size + 1
    else:
        data["counts"]["games"][0][-1] += 1000  # more games counted than numbers
    if damage in ("foreign", "past-the-end", "count"):
        path.write_text(json.dumps(data))
    assert read_checkpoint(directory, _digest(directory), size) is None
    assert _tables(directory) == _reference(event)


def _resume(directory: Path) -> None:
    header = read_header(directory / JOURNAL)
    assert header is not None
    with Journal.open(directory, header[0], header[1], resume=True):
        pass


def _records(directory: Path) -> str:
    return "".join(game.record for game in read_event(directory).games)


@pytest.mark.parametrize("games", [0, 7, 16])
def test_resume_mends_games_tgn_and_the_index_from_the_checkpoint(
    event: Path, tmp_path: Path, games: int
) -> None:
    directory = _copy(event, tmp_path)
    write_checkpoint(directory, _checkpoint_after(directory, games), _digest(directory))
    records = (directory / GAMES).read_bytes()
    # A killed run: a torn record at the end, and the index's last lines lost.
    (directory / GAMES).write_bytes(records + records[:100])
    index = (directory / INDEX).read_bytes().splitlines(keepends=True)
    (directory / INDEX).write_bytes(b"".join(index[:3]) + index[3][:10])
    _resume(directory)
    assert (directory / GAMES).read_text() == _records(event)
    assert (directory / INDEX).read_bytes() == (event / INDEX).read_bytes()
    assert _tables(directory) == _reference(event)
    state = read_checkpoint(directory, _digest(directory), (directory / JOURNAL).stat().st_size)
    assert state is not None and len(state.numbers) == 16


def test_resume_without_a_checkpoint_rewrites_games_tgn(event: Path, tmp_path: Path) -> None:
    directory = _copy(event, tmp_path)
    (directory / CHECKPOINT).unlink()
    (directory / INDEX).unlink()
    (directory / GAMES).write_text("junk that is no game\n")
    _resume(directory)
    assert (directory / GAMES).read_text() == _records(event)
    assert (directory / INDEX).read_bytes() == (event / INDEX).read_bytes()
    assert _tables(directory) == _reference(event)


def test_a_journal_line_twice_is_counted_and_recorded_once(event: Path, tmp_path: Path) -> None:
    directory = _copy(event, tmp_path)
    lines = (directory / JOURNAL).read_bytes().splitlines(keepends=True)
    (directory / JOURNAL).write_bytes(b"".join(lines) + lines[3])  # game 3 again
    _resume(directory)
    assert (directory / GAMES).read_text() == _records(event)
    assert _tables(directory) == _reference(event)


def test_numbers_round_trip() -> None:
    numbers = GameNumbers()
    for n in (0, 1, 7, 8, 1000, -3, 1 << 30):
        assert numbers.add(n)
    assert not numbers.add(7) and len(numbers) == 7
    again = GameNumbers.from_json(json.loads(json.dumps(numbers.to_json())))
    assert len(again) == 7 and all(n in again for n in (0, 1, 7, 8, 1000, -3, 1 << 30))
    assert 2 not in again and 1001 not in again
