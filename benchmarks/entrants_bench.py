"""Many entrants, few games (issue 22), run by hand:

    python benchmarks/entrants_bench.py                   # 10,000 entrants, 3 runs
    python benchmarks/entrants_bench.py --entrants 2000 --runs 1

For a field of ``--entrants`` seeded ``random`` bots on Trike it measures, each over
``--runs`` whole ``referee tournament`` processes:

* **first game**: seconds from starting the process to the first game's line (the game
  is short: this is the time to read the config, make the plan, open the event and start
  the first engines, plus one game of ``random``), 4 games in all, and the CPU seconds
  the runner had used by then (a figure a busy machine does not inflate);
* **peak RSS**: the largest resident memory of that run (``getrusage`` of the process's
  children in a fresh process: the runner; its engines are smaller);
* **SIGTERM → exit**: seconds from SIGTERM to the exit, the runner's CPU seconds over
  them, and the exit status (130 with the resume hint is right), for a run of 100,000
  games stopped one second after its first game (``--concurrency 2``: worker
  processes), and for one stopped while it makes its plan (before any file is written).

The same for the other formats (``--formats``): a 3-seat round robin and a gauntlet, 4
games each, and a Swiss round (its first game; a Swiss event has no ``games`` cap, so
that run is stopped by SIGTERM).
"""

from __future__ import annotations

import argparse
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.tournaments.fields import (  # noqa: E402
    catches,
    cpu_seconds,
    peak_rss,
    start,
    stop,
    stop_measured,
    wait_for_line,
    write_field,
)


def first_game(config: Path, out: Path, *, finish: bool) -> tuple[float, float, int]:
    """Seconds to the first game's line and the CPU seconds the runner had used by then;
    with ``finish`` the exit status of the run played out, else of a SIGTERM right after
    that line."""
    began = time.monotonic()
    proc = start(config, out)
    try:
        line = wait_for_line(proc, b"Game 1/", 300)
        seconds = time.monotonic() - began if line is not None else float("nan")
        cpu = cpu_seconds(proc.pid) or float("nan")
        if finish:
            proc.communicate(timeout=600)
            return seconds, cpu, proc.returncode
        return seconds, cpu, stop(proc)[1]
    finally:
        proc.kill()
        proc.wait()


def stopped_in_play(config: Path, out: Path) -> tuple[float, float, int, bool]:
    """SIGTERM one second after the first game: seconds to the exit, the runner's CPU
    seconds over them, its status, and whether stderr holds the resume hint."""
    proc = start(config, out, "--concurrency", "2")
    try:
        if wait_for_line(proc, b"Game 1/", 300) is None:
            return float("nan"), float("nan"), -1, False
        time.sleep(1)
        seconds, cpu, code, err = stop_measured(proc)
        return seconds, cpu, code, f"--resume --out {out}" in err
    finally:
        proc.kill()
        proc.wait()


def stopped_in_plan(config: Path, out: Path) -> tuple[float, float, int]:
    """SIGTERM as soon as the command has begun (its SIGHUP handler is set): seconds to
    the exit, the CPU seconds over them, and its status."""
    proc = start(config, out)
    try:
        while not catches(proc.pid, signal.SIGHUP) and proc.poll() is None:
            time.sleep(0.005)
        seconds, cpu, code, _err = stop_measured(proc)
        return seconds, cpu, code
    finally:
        proc.kill()
        proc.wait()


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} (runs: {', '.join(f'{v:.2f}' for v in values)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--formats", action="store_true", help="also 3 seats, gauntlet, Swiss")
    args = parser.parse_args(argv)
    n = args.entrants
    scratch = Path(tempfile.mkdtemp(prefix="entrants-bench-"))
    try:
        four = write_field(scratch / "four.toml", n, games=4)
        many = write_field(scratch / "many.toml", n, games=100_000)

        def out(name: str) -> Path:
            path = scratch / name
            shutil.rmtree(path, ignore_errors=True)
            return path

        runs = [first_game(four, out("o"), finish=True) for _ in range(args.runs)]
        print(
            f"{n} entrants, 4 games: first game after {_median([r[0] for r in runs])} s, "
            f"runner CPU by then {_median([r[1] for r in runs])} s, "
            f"exit {sorted({r[2] for r in runs})}",
            flush=True,
        )
        peaks = [peak_rss(four, out("o"), timeout=600)[0] for _ in range(args.runs)]
        print(f"{n} entrants, 4 games: peak RSS {_median(peaks)} MB", flush=True)
        played = [stopped_in_play(many, out("o")) for _ in range(args.runs)]
        print(
            f"{n} entrants, SIGTERM 1 s after the first game: exit after "
            f"{_median([p[0] for p in played])} s, runner CPU "
            f"{_median([p[1] for p in played])} s, status {sorted({p[2] for p in played})}, "
            f"resume hint {all(p[3] for p in played)}",
            flush=True,
        )
        planned = [stopped_in_plan(four, out("o")) for _ in range(args.runs)]
        print(
            f"{n} entrants, SIGTERM while the plan is made: exit after "
            f"{_median([p[0] for p in planned])} s, CPU {_median([p[1] for p in planned])} s, "
            f"status {sorted({p[2] for p in planned})}",
            flush=True,
        )
        if args.formats:
            fields = {
                "3 seats, round robin": write_field(scratch / "3.toml", n, games=4, players=3),
                "gauntlet, 2 challengers": write_field(
                    scratch / "g.toml", n, games=4, fmt="gauntlet", challengers=2
                ),
            }
            for name, config in fields.items():
                seconds, cpu, code = first_game(config, out("o"), finish=True)
                print(
                    f"{n} entrants, {name}: first game after {seconds:.2f} s "
                    f"(runner CPU {cpu:.2f} s), exit {code}"
                )
            swiss = write_field(scratch / "s.toml", n, games=None, fmt="swiss", rounds=1)
            seconds, cpu, code = first_game(swiss, out("o"), finish=False)
            print(
                f"{n} entrants, Swiss: first game after {seconds:.2f} s (runner CPU {cpu:.2f} s), "
                f"SIGTERM: exit {code}"
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
