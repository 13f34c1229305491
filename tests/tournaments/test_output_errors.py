"""An output directory that cannot be written: refused before the first game; a write
that fails during the event (a full disk) stops it cleanly, losing no finished game.

We run as root here, so a read-only ``chmod`` would not stop us: the unwritable
places are a path under a regular file and kernel file systems, and the full disk
is a write that fails with ``ENOSPC`` half-way through a journal line.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path

import pytest

from referee.record.stream import read_records
from tests.procs import live_with
from tournaments.cli.app import main
from tournaments.store import journal as journal_module
from tournaments.store.journal import JOURNAL, read_journal

pytestmark = pytest.mark.processes


def cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str]:
    """Run the console script in this process: (status, stderr)."""
    monkeypatch.setattr(sys, "argv", ["referee", *args])
    with pytest.raises(SystemExit) as info:
        main()
    code = info.value.code
    return (code if isinstance(code, int) else 0), capsys.readouterr().err


def tournament_args(out: Path, marker: str, games: int = 6) -> list[str]:
    return [
        "tournament", "--game", "trike", "--option", "size=7", "-e", f"a=random --seed {marker}",
        "-e", f"b=random --seed {marker}1", "--games", str(games), "--tc", "10+0.1",
        "--workers", "0", "-q", "--out", str(out),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("place", "reason"),
    [
        ("{file}/out", "Not a directory"),
        ("{file}", "not a directory"),
        ("/proc/self/out", "No such file or directory"),
        ("/sys/kernel", "Permission denied"),
    ],
)
def test_an_unwritable_output_directory_is_refused_before_any_game(
    place: str,
    reason: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    out = Path(place.format(file=a_file))
    marker = str(700000 + os.getpid() % 10000)
    code, err = cli(capsys, monkeypatch, *tournament_args(out, marker))
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: error: "), err
    assert str(out) in lines[0] and reason in lines[0]
    assert "output directory" in lines[0]
    assert live_with(f"--seed {marker}") == []  # no engine was ever started
    assert a_file.read_text() == "x"


def test_a_full_disk_mid_event_stops_cleanly_and_resume_finishes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "t"
    marker = str(710000 + os.getpid() % 10000)
    real_write_all = journal_module.write_all
    game_lines = 0

    def write_all(fd: int, data: bytes) -> None:
        # The journal write that holds the third game (games are written in groups):
        # half of it reaches the disk, then ENOSPC.
        nonlocal game_lines
        if data.startswith((b'{"type": "game"', b'{"type": "void"')):
            game_lines += data.count(b"\n")
            if game_lines >= 3:
                real_write_all(fd, data[: len(data) // 2])
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_write_all(fd, data)

    monkeypatch.setattr("tournaments.store.writer.write_all", write_all)
    code, err = cli(capsys, monkeypatch, *tournament_args(out, marker))
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: error: "), err
    assert f"cannot write {out / JOURNAL}: No space left on device" in lines[0]
    assert "--resume" in lines[0]
    assert live_with(f"--seed {marker}") == []
    # The games synced before the failure are there, and the torn line is ignored.
    raw = (out / JOURNAL).read_bytes()
    assert not raw.endswith(b"\n")  # the torn half line
    kept = read_journal(out).games
    # The games of the groups written before, and the whole lines of the torn write.
    assert 1 <= len(kept) < 6
    monkeypatch.setattr("tournaments.store.writer.write_all", real_write_all)
    code, err = cli(capsys, monkeypatch, "tournament", "--resume", "--out", str(out), "-q")
    assert code == 0, err
    final = read_journal(out)
    assert sorted(final.games) == [1, 2, 3, 4, 5, 6]
    for number in kept:  # finished games were kept, not played again
        assert final.games[number] == kept[number]
    entries = [json.loads(line) for line in (out / JOURNAL).read_text().splitlines()[1:]]
    assert sorted(e["number"] for e in entries if e["type"] == "game") == [1, 2, 3, 4, 5, 6]
    numbers = sorted(int(r.tag("GameNumber") or 0) for r in read_records(out / "games.tgn"))
    assert numbers == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_failing_transcript_write_is_one_line_also_from_a_worker(
    workers: str, tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``logs`` is a file, so no transcript can be written: in this loop or in worker
    processes (whose stderr is the terminal too), one line and status 2."""
    out = tmp_path / "t"
    out.mkdir()
    (out / "logs").write_text("in the way")
    marker = str(720000 + os.getpid() % 10000)
    args = tournament_args(out, marker, games=4)
    args[args.index("--workers") + 1] = workers
    args += ["--concurrency", "2", "--transcripts", "all"]
    monkeypatch.setattr(sys, "argv", ["referee", *args])
    monkeypatch.delenv("REFEREE_DEBUG", raising=False)
    with pytest.raises(SystemExit) as info:
        main()
    err = capfd.readouterr().err
    assert info.value.code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: error: "), err
    assert "logs/transcripts-" in lines[0] and "Not a directory" in lines[0]
    assert live_with(f"--seed {marker}") == []
    assert read_journal(out).config is not None  # the tournament can be resumed
