"""Peak memory of reading and adjudicating hostile record games at the per-game byte cap.

Each game is just under ``MAX_GAME_BYTES`` (16 MiB) and shaped to make a naive reader
build one object per item: millions of two-byte moves, a comment after every move,
a thousand-odd tags' worth of tag lines, an escaped tag value. Each is adjudicated in a
fresh process (``iter_adjudged``, what every ``adjudicate --jobs N`` worker runs per
batch), whose peak resident memory (the child's ``VmHWM``) must stay under 150 MB. The
six children run two at a time (``adjudicated``).
Before the compact ``MoveList`` the worst of them peaked at about 1.1 GB.
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.record.stream import MAX_GAME_BYTES

pytestmark = pytest.mark.marathon  # six 16 MiB games adjudicated

LIMIT_MB = 150
HEAD = (
    '[Game "trike"]\n[Options "size=9,mode=zero,pie=yes"]\n[RulesVersion "1"]\n'
    '[Players "2"]\n[Seat1 "a"]\n[Seat2 "b"]\n[Result "1-0"]\n[Termination "rules"]\n'
)
ROOM = MAX_GAME_BYTES - len(HEAD) - 4096


def _lines(unit: str, tail: str = "1-0\n") -> str:
    line = unit * (78 // len(unit)) + "\n"
    return HEAD + "\n" + line * ((ROOM - len(tail)) // len(line)) + tail


HOSTILE = {
    # about 5.5 million moves (legal-looking: the first is legal, the second is not)
    "short-moves": lambda: _lines("d3 "),
    "a-comment-after-every-move": lambda: _lines("a {} "),
    "comments-after-one-move": lambda: HEAD + "\na " + _lines("{} ")[len(HEAD) + 1 :],
    "one-line-of-moves": lambda: HEAD + "\n" + "a " * (ROOM // 2 - 4) + "1-0\n",
    "many-tags": lambda: (
        HEAD + "".join(f'[T{i:07d} "x"]\n' for i in range(ROOM // 15)) + "\na 1-0\n"
    ),
    "escaped-tag-value": lambda: HEAD + '[Event "' + '\\"' * (ROOM // 2) + '"]\n\na 1-0\n',
}

_CHILD = (
    "import sys\n"
    "from referee.adjudicate_stream import iter_adjudged\n"
    "for adjudged in iter_adjudged(sys.argv[1]):\n"
    "    print(adjudged.verdict.verdict.value, adjudged.verdict.reason)\n"
    "status = open('/proc/self/status').read()\n"
    "print(next(l for l in status.splitlines() if l.startswith('VmHWM:')))\n"
)


def _adjudicate(path: Path) -> subprocess.CompletedProcess[str]:
    """Adjudicate the file at ``path`` in a fresh child process that prints its verdict
    lines, then its peak resident memory (``VmHWM`` of its own address space, read by the
    child at its end).

    Not ``ru_maxrss``: Linux carries the high-water mark of the process before ``exec``
    into it, and a child forked from a test runner that has grown (hundreds of MB late in
    the whole suite) would report the runner's size, not its own.
    """
    return subprocess.run(
        [sys.executable, "-c", _CHILD, str(path)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _peak_mb(done: subprocess.CompletedProcess[str]) -> tuple[float, str]:
    """The child's peak resident memory in MB and its verdict lines."""
    assert done.returncode == 0, done.stdout + done.stderr
    *verdicts, hwm = done.stdout.splitlines()
    assert hwm.startswith("VmHWM:") and hwm.endswith("kB"), hwm
    return int(hwm.split()[1]) / 1024, "\n".join(verdicts)


@pytest.fixture(scope="module")
def adjudicated(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[int, subprocess.CompletedProcess[str]]]:
    """Each hostile game's size in bytes and its child's run, two children at a time.

    Each child is one process on one core while the test runner only waits: two side by
    side take half the wall time, and each measures its own address space only."""
    folder = tmp_path_factory.mktemp("hostile")

    def one(kind: str) -> tuple[int, subprocess.CompletedProcess[str]]:
        path = folder / f"{kind}.tgn"
        data = HOSTILE[kind]().encode()
        path.write_bytes(data)
        try:
            return len(data), _adjudicate(path)
        finally:
            path.unlink()  # 16 MiB each

    kinds = sorted(HOSTILE)
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(kinds, pool.map(one, kinds), strict=True))


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_game_at_the_byte_cap_stays_small(
    kind: str, adjudicated: dict[str, tuple[int, subprocess.CompletedProcess[str]]]
) -> None:
    size, done = adjudicated[kind]
    assert MAX_GAME_BYTES - 8192 < size <= MAX_GAME_BYTES  # read, not skipped
    peak, out = _peak_mb(done)
    verdicts = out.splitlines()
    assert len(verdicts) == 1  # one game, read and judged
    if kind == "many-tags":  # the tag cap: the game does not read
        assert verdicts[0].startswith("invalid-record") and "more than 1000 tags" in out
    else:
        assert verdicts[0].startswith(("illegal-move", "invalid-record"))
        assert "more than" not in out  # read whole, not skipped
    assert peak < LIMIT_MB, (kind, peak)
