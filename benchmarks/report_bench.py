"""The cost of ``referee report`` on big events, and how fast its pages open, run by hand:

    python benchmarks/report_bench.py --games 1000 100000 --runs 3
    python benchmarks/report_bench.py --games 100000 --pool 100000 --runs 1   # all distinct
    python benchmarks/report_bench.py --games 100000 --keep /tmp/events      # reuse events

For each size an event is made by ``tests/report/synth.py`` (``--pool`` distinct random
Trike games dealt out over the schedule; a pool as big as the event makes every game
distinct, which is what a real event costs), then the whole ``referee report`` command
is run ``--runs`` times (``--jobs`` worker processes): the median wall time, CPU time
(user + system, workers included) and peak memory of the largest process (what the
kernel reports for each finished run, ``os.wait4``). Then the report's size on disk and
number of files, and, when chromium and chromedriver are installed, the median over
``--runs`` loads of the time from navigation start until the game list shows its first
rows, and until a game of the last page shows its board (the page opened from the file
system, as a user opens it).

Write the events under /tmp (``--keep``) and never commit them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.report.synth import synth_event  # noqa: E402
from tests.report.webdriver import Browser, BrowserUnavailable  # noqa: E402


def run(command: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (children included) and peak MB of one whole run."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must know
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({status})")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def footprint(page: Path) -> tuple[float, int]:
    """MB on disk and files of the page and its block folder."""
    folder = page.with_name(f"{page.stem}-games")
    files = [page, *(folder.iterdir() if folder.is_dir() else ())]
    return sum(f.stat().st_size for f in files) / 1e6, len(files)


def open_times(page: Path, runs: int) -> tuple[float, float] | None:
    """Median milliseconds until the first rows show, and until a game of the last page
    shows its board; None without a browser."""
    try:
        browser = Browser.start()
    except BrowserUnavailable as exc:
        print(f"  (no browser: {exc})")
        return None
    shown, opened = [], []
    with browser:
        for _ in range(runs):
            browser.get("about:blank")
            browser.get(page.as_uri())
            browser.wait_for("document.querySelector('table.games tbody tr') !== null")
            shown.append(float(browser.execute("return performance.now();")))
            browser.click('#games button[data-page="last"]')
            last = "table.games tbody tr:last-child"
            browser.wait_for(
                f"document.querySelector('{last}') !== null && "
                "document.querySelector('input.page').value !== '1'"
            )
            before = float(browser.execute("return performance.now();"))
            browser.click(f"{last} a")
            browser.wait_for(
                "document.querySelector('#game-view .ply') !== null && "
                "document.querySelector('#game-view .ply').textContent !== ''"
            )
            opened.append(float(browser.execute("return performance.now();")) - before)
    return statistics.median(shown), statistics.median(opened)


def main(argv: list[str] | None = None) -> int:
    """Print one line of figures per event size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 100_000])
    parser.add_argument("--pool", type=int, default=64, help="distinct games (default 64)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="make (or reuse) the events here")
    parser.add_argument("--layout", choices=["auto", "paged", "single"], default="auto")
    args = parser.parse_args(argv)
    base = args.keep or Path(tempfile.mkdtemp(prefix="report-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    print(
        "games | pool | layout | wall s | cpu s | peak MB | report MB | files | list shown ms | "
        "last-page game ms"
    )
    for games in args.games:
        event = base / f"event-{games}-{args.pool}"
        if not (event / "journal.jsonl").exists():
            synth_event(event, games, pool=args.pool)
        page = base / f"report-{games}-{args.pool}-{args.layout}" / "report.html"
        command = [sys.executable, "-m", "tournaments", "report", str(event), "-o", str(page)]
        command += ["--jobs", str(args.jobs)]
        command += [] if args.layout == "auto" else [f"--{args.layout}"]
        figures = [run(command) for _ in range(args.runs)]
        wall, cpu, peak = (statistics.median(f[i] for f in figures) for i in range(3))
        size, files = footprint(page)
        times = open_times(page, args.runs)
        shown = "-" if times is None else f"{times[0]:.0f}"
        opened = "-" if times is None else f"{times[1]:.0f}"
        print(
            f"{games:,} | {min(args.pool, games):,} | {args.layout} | {wall:.1f} | "
            f"{cpu:.1f} | {peak:.0f} | {size:.1f} | {files:,} | {shown} | {opened}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
