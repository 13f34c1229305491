"""The cost of a big event's commands (issue 16's "A million games" table), run by hand:

    python benchmarks/scale_bench.py make /tmp/scale/synth --games 1000000
    python benchmarks/scale_bench.py measure /tmp/scale/synth --runs 3
    python benchmarks/scale_bench.py measure /tmp/scale/real --runs 1 --skip report

``make`` writes a synthetic event (``tests/report/synth.py``: the header a real
two-entrant Trike match writes, its schedule's games dealt from a pool of random games,
written through the runner's own ``Journal``, so journal, index, checkpoint and
``games.tgn`` are the real files). ``measure`` prints, for an event directory, its disk
use and file count, then for each command its median wall time and peak memory over
``--runs`` whole-process runs, as ``/usr/bin/time -v`` reports them (peak RSS of the
largest process: the command itself, or one of its workers):

* ``referee standings DIR``
* ``referee tournament --resume --out DIR`` (a finished event: it only opens it)
* ``referee report DIR --out TMP/report.html``
* ``referee adjudicate DIR/games.tgn --jobs 1`` and ``--jobs 2``

Write the events under /tmp and never commit them.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.report.synth import synth_event  # noqa: E402

REFEREE = [sys.executable, "-m", "tournaments"]


def timed(command: list[str]) -> tuple[float, float, int]:
    """Wall seconds, peak MB and exit code of one whole run under ``/usr/bin/time -v``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        ["/usr/bin/time", "-v", *command],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", done.stderr)
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if wall is None or peak is None:
        raise SystemExit(f"no timing for {' '.join(command)}:\n{done.stderr[-2000:]}")
    hours, minutes, seconds = wall.groups()
    total = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    code = int(m.group(1)) if (m := re.search(r"Exit status: (\d+)", done.stderr)) else -1
    return total, int(peak.group(1)) / 1024, code


def footprint(directory: Path) -> tuple[float, int]:
    """MB on disk (allocated blocks) and number of files under ``directory``."""
    size, files = 0, 0
    for root, _dirs, names in os.walk(directory):
        for name in names:
            stat = os.lstat(os.path.join(root, name))
            size += stat.st_blocks * 512
            files += 1
    return size / 1e6, files


def measure(directory: Path, runs: int, skip: set[str]) -> None:
    """Print the table rows for ``directory``."""
    mb, files = footprint(directory)
    print(f"{directory}: {mb:,.0f} MB on disk, {files} files")
    with tempfile.TemporaryDirectory(prefix="scale-bench-") as scratch:
        commands = {
            "standings": [*REFEREE, "standings", str(directory)],
            "resume": [*REFEREE, "tournament", "--resume", "--out", str(directory)],
            "report": [*REFEREE, "report", str(directory), "--out", f"{scratch}/report.html"],
            "adjudicate-1": [*REFEREE, "adjudicate", str(directory / "games.tgn"), "--jobs", "1"],
            "adjudicate-2": [*REFEREE, "adjudicate", str(directory / "games.tgn"), "--jobs", "2"],
        }
        for name, command in commands.items():
            if name in skip or name.split("-")[0] in skip:
                continue
            results = [timed(command) for _ in range(runs)]
            walls = [r[0] for r in results]
            peaks = [r[1] for r in results]
            codes = sorted({r[2] for r in results})
            print(
                f"  {name:13} {statistics.median(walls):8.2f} s  "
                f"{statistics.median(peaks):8.0f} MB  exit {codes}  "
                f"(runs: {', '.join(f'{w:.2f}' for w in walls)})",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    make = sub.add_parser("make", help="write a synthetic event")
    make.add_argument("out", type=Path)
    make.add_argument("--games", type=int, default=1_000_000)
    make.add_argument("--pool", type=int, default=64)
    run = sub.add_parser("measure", help="measure the commands on an event directory")
    run.add_argument("directory", type=Path)
    run.add_argument("--runs", type=int, default=3)
    run.add_argument("--skip", action="append", default=[], help="a command to leave out")
    args = parser.parse_args(argv)
    if args.what == "make":
        synth_event(args.out, args.games, pool=args.pool)
        print(f"{args.out}: {args.games:,} games")
    else:
        measure(args.directory, args.runs, set(args.skip))
    return 0


if __name__ == "__main__":
    sys.exit(main())
