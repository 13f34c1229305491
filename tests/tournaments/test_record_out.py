"""``referee play --out`` to a named pipe or to the standard output
(``tournaments.runner.record_out``): no game lost, the event loop never held, one line
when the reader leaves.

In-process players for the pipe (``tests.tournaments.test_play_driver``); the console
script for the standard output, which only a real process has.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import trio

from referee.errors import PathError
from referee.record import parse_records
from tests.clirun import ROOT
from tests.tournaments.local import bot_factory
from tests.tournaments.test_play_driver import plan_of, play
from tournaments.cli.play import check_appendable
from tournaments.results.game import GameReport
from tournaments.runner.match import run_match


def _reader(path: Path, got: list[bytes]) -> threading.Thread:
    """A thread that opens ``path`` for reading (waiting for a writer) and reads it to
    its end into ``got``."""

    def read() -> None:
        with open(path, "rb") as pipe:
            got.append(pipe.read())

    return threading.Thread(target=read, daemon=True)


def test_a_named_pipe_whose_reader_comes_late_gets_every_game_and_one_end(
    tmp_path: Path,
) -> None:
    """The pipe has no reader when the match starts: the match waits for one (told once,
    from the event loop, which the wait does not hold), then the reader gets every game,
    and the end of its input only after the last (one stream, not one per game)."""
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    check_appendable(fifo)  # returns at once: opening the pipe would wait for a reader
    got: list[bytes] = []
    reader = _reader(fifo, got)
    notes: list[str] = []

    def on_wait(note: str) -> None:
        notes.append(note)
        reader.start()  # only now: every game is played after the wait began

    result = play(plan_of(games=4), fifo, on_wait=on_wait)
    reader.join(30)
    assert not reader.is_alive(), "the reader never saw the end of the pipe"
    assert notes == [f"waiting for a reader of the named pipe {fifo}"]
    records = parse_records(got[0].decode())
    assert len(records) == result.played_count == 4
    assert [r.tag("GameNumber") for r in records] == ["1", "2", "3", "4"]


def test_a_named_pipe_whose_reader_leaves_stops_the_match_with_one_line(
    tmp_path: Path,
) -> None:
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    opened = threading.Event()
    held: list[int] = []

    def hold() -> None:
        held.append(os.open(fifo, os.O_RDONLY))
        opened.set()

    threading.Thread(target=hold, daemon=True).start()
    reported: list[GameReport] = []

    def on_game(report: GameReport) -> None:
        reported.append(report)
        if len(reported) == 1:  # the first write is done: the reader leaves unread
            assert opened.wait(30)
            os.close(held[0])

    with pytest.raises(PathError) as info:
        play(plan_of(games=6), fifo, on_game=on_game)
    assert str(info.value) == f"cannot write records to {fifo}: Broken pipe"
    assert 1 <= len(reported) < 6  # the games of the first write only


@pytest.mark.processes
def test_records_to_the_standard_output_keep_it_to_themselves(tmp_path: Path) -> None:
    """``--out /dev/stdout`` into a file (a second descriptor of it, with an offset of its
    own, wrote over the records) and into a pipe: the standard output holds the records
    only, every game once; the game lines and the table go to the standard error."""
    args = [sys.executable, "-m", "tournaments", "play", "trike", "-e", "random",
            "-e", "greedy", "--games", "3", "--out", "/dev/stdout"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    into_file = tmp_path / "out.tgn"
    with into_file.open("wb") as stdout:
        done = subprocess.run(args, stdout=stdout, stderr=subprocess.PIPE, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    piped = subprocess.run(args, capture_output=True, env=env, timeout=120)
    assert piped.returncode == 0, piped.stderr
    for text, err in ((into_file.read_text(), done.stderr), (piped.stdout.decode(), piped.stderr)):
        records = parse_records(text)  # nothing but records: any other line would not parse
        assert [r.tag("GameNumber") for r in records] == ["1", "2", "3"]
        assert b"Game 3/3" in err and b"records appended to /dev/stdout" in err


def test_the_wait_for_a_reader_ends_with_a_stop(tmp_path: Path) -> None:
    """Nobody ever reads: the wait is the event loop's own (polled), so a cancellation
    (what a stop signal becomes) ends it at once, with no game played."""
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    played: list[GameReport] = []

    async def main() -> None:
        with trio.move_on_after(1):
            await run_match(plan_of(games=2), fifo, factory=bot_factory(), on_game=played.append)

    trio.run(main)
    assert played == []
