"""The cost of one game's report on the runner's per-game path: its journal line written
and read, its worker message written and read (``python benchmarks/report_codec.py``).

Each is timed against the hand-written form the report had before it went through the
one codec (``tournaments.event.wire``), kept here as the baseline: the same JSON, built
and read field by field. Times are CPU seconds of this thread per call (the best of
many short runs, interleaved with the baseline's), so a loaded machine's waits for a
core are left out; the load is printed beside them.

    python benchmarks/report_codec.py [--plies 16 80] [--rounds 40]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import timeit
from collections.abc import Callable, Mapping
from itertools import repeat
from operator import mul, truediv
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.core import Outcome, Termination
from tournaments.event.wire import from_json, to_json
from tournaments.results.game import GameReport
from tournaments.store.journal import _decode as decode_line
from tournaments.store.journal import game_line

RECORD_PER_16_PLIES = 1100
"""Bytes of a 16-ply Trike record with its tags and timing comments."""


def sample(plies: int) -> GameReport:
    """A report of a ``plies``-ply game, every field set."""
    rng = random.Random(plies)
    outcome = Outcome(Termination.RULES, (1, 2), (3.0, 2.0), None, "pawn trapped at e1")
    return GameReport(
        number=1234,
        round=17,
        block=300,
        table=(0, 1),
        seats=("greedy-1", "random-2"),
        outcome=outcome,
        plies=plies,
        record="x" * (RECORD_PER_16_PLIES * plies // 16),
        overheads=tuple(rng.uniform(3e-5, 2e-4) for _ in range(plies - 1)),
        round_trips=tuple(rng.uniform(1e-3, 5e-2) for _ in range(plies)),
        transcript="event/logs/transcripts-12345.log",
    )


# The baseline: the report's hand-written JSON before the codec.


def _old_write(report: GameReport, *, timings: bool) -> dict[str, Any]:
    outcome = report.outcome
    data: dict[str, Any] = {
        "number": report.number,
        "round": report.round,
        "block": report.block,
        "table": list(report.table),
        "seats": list(report.seats),
        "outcome": {
            "termination": outcome.termination.value,
            "ranks": list(outcome.ranks),
            "scores": list(outcome.scores),
            "culprit": outcome.culprit,
            "reason": outcome.reason,
        },
        "plies": report.plies,
        "record": report.record,
    }
    if report.transcript:
        data["transcript_path"] = report.transcript
    if timings:
        data["overheads_us"] = list(map(round, map(mul, report.overheads, repeat(1e6))))
        data["round_trips_us"] = list(map(round, map(mul, report.round_trips, repeat(1e6))))
    return data


def _old_read(data: Mapping[str, Any]) -> GameReport:
    outcome = data["outcome"]
    culprit = outcome.get("culprit")
    return GameReport(
        number=int(data["number"]),
        round=int(data["round"]),
        block=int(data["block"]),
        table=tuple(int(i) for i in data["table"]),
        seats=tuple(str(s) for s in data["seats"]),
        outcome=Outcome(
            termination=Termination(outcome["termination"]),
            ranks=tuple(int(r) for r in outcome["ranks"]),
            scores=tuple(float(s) for s in outcome.get("scores", ())),
            culprit=int(culprit) if culprit is not None else None,
            reason=str(outcome.get("reason", "")),
        ),
        plies=int(data["plies"]),
        record=str(data["record"]),
        overheads=tuple(map(truediv, data.get("overheads_us", ()), repeat(1e6))),
        round_trips=tuple(map(truediv, data.get("round_trips_us", ()), repeat(1e6))),
        transcript=str(data.get("transcript_path", "")),
    )


def _old_line(report: GameReport) -> bytes:
    entry = {"type": "void" if report.void else "game", **_old_write(report, timings=False)}
    return (json.dumps(entry) + "\n").encode()


def cases(report: GameReport) -> dict[str, tuple[Callable[[], object], Callable[[], object]]]:
    """Per step: (the baseline, the codec)."""
    old_raw, new_raw = _old_line(report), game_line(report)
    old_message = json.dumps({"slot": 0, "report": _old_write(report, timings=True)})
    new_message = json.dumps({"slot": 0, "report": to_json(report)})
    return {
        "journal line written": (lambda: _old_line(report), lambda: game_line(report)),
        "journal line read": (  # as every reader of the journal decodes a line
            lambda: _old_read(json.loads(old_raw)),
            lambda: decode_line(new_raw, 2, "bench"),
        ),
        "worker message written": (
            lambda: json.dumps({"slot": 0, "report": _old_write(report, timings=True)}),
            lambda: json.dumps({"slot": 0, "report": to_json(report)}),
        ),
        "worker message read": (
            lambda: _old_read(json.loads(old_message)["report"]),
            lambda: from_json(GameReport, json.loads(new_message)["report"]),
        ),
    }


def cpu_per_call(step: Callable[[], object], number: int) -> float:
    return timeit.Timer(step, timer=time.thread_time).timeit(number) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, nargs="+", default=[16, 80])
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; CPU microseconds per call, best of rounds")
    for plies in args.plies:
        report = sample(plies)
        assert _old_read(_old_write(report, timings=False)).number == report.number
        print(f"\n{plies} plies: journal line {len(game_line(report))} bytes")
        print(f"{'step':24} {'hand-written':>12} {'codec':>8} {'ratio':>6}")
        for name, (old, new) in cases(report).items():
            olds, news = [], []
            for _ in range(args.rounds):  # interleaved: a change of load hits both
                olds.append(cpu_per_call(old, 500))
                news.append(cpu_per_call(new, 500))
            best_old, best_new = min(olds), min(news)
            print(
                f"{name:24} {best_old * 1e6:12.2f} {best_new * 1e6:8.2f} "
                f"{best_new / best_old:6.2f}"
            )
    print(f"\nload average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
