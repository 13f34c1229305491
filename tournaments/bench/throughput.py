"""Benchmarks behind ``referee bench`` (and ``benchmarks/``): throughput and overhead.

Figures, not assertions: targets are compared by the person reading them.

* match: a Trike match between two instances of one engine (the instant C engine
  by default), engines reused, concurrency 1, through ``referee play``'s driver (the
  tournament's slot, ``tournaments.runner.match``; no record file). Plies per second
  over the wall time of the whole match (engine start-up included), and the referee's
  own per-ply overhead: the time from the arrival of one move to the writing of the
  next request (parse, validate, clock, format), median and 99th percentile.
* tournament: a 2-entrant Trike tournament between two instances of one engine,
  through the tournament runner (journal synced in groups, at most every 50 ms,
  ``games.tgn``, transcripts, ``results.json``) at a given concurrency (worker processes by
  default from concurrency 2). Plies per second over the wall time from the slots
  being ready to the last game (start-up reported apart), the referee's per-ply
  overhead as above, every move's round trip (median, p99, max: what an engine's
  clock is charged) and the games lost on time.
* rules: ``tournaments.bench.rules``: referee-style plies per second of every
  game beside python-chess on chess.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import trio

from tournaments.bench.rules import run_rules_benchmark
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.runner.match import run_match
from tournaments.runner.run import run_tournament

MATCH_TARGET_PLIES_PER_SECOND = 4500
TOURNAMENT_TARGETS = {2: 9000}
"""Plies/s targets by concurrency (fastchess on these 2-core machines: 10,400 at 2)."""
DEFAULT_TOURNAMENTS = ((1, "60+1"), (2, "60+1"), (8, "1+0.01"))
"""The tournament benchmarks ``referee bench`` runs by default: (concurrency, clock)."""


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _plan(games: int, engine: str, concurrency: int, tc: str, workers: int | None) -> Plan:
    """A 2-entrant Trike event of ``engine`` against itself."""
    config = parse_config(
        {
            "event": "referee bench",
            "game": "trike",
            "games": games,
            "tc": tc,
            "concurrency": concurrency,
            "workers": workers,
            "entrants": [{"command": engine}, {"command": engine}],
        },
        "bench",
    )
    return Plan.from_config(config, "bench")


def bench_match(games: int, engine: str) -> dict[str, float]:
    """Play the match (``referee play``'s driver, ``runner.match``: concurrency 1, no
    worker, no record file) and return plies/s and overhead figures (microseconds)."""
    plan = _plan(games, engine, 1, "60+1", 0)
    started = time.perf_counter()
    result = trio.run(lambda: run_match(plan, None))
    wall = time.perf_counter() - started
    played = result.played
    plies = sum(r.plies for r in played)
    overheads = [t for r in played for t in r.overheads]
    round_trips = [t for r in played for t in r.round_trips]
    return {
        "games": float(len(played)),
        "plies": float(plies),
        "wall_s": wall,
        "plies_per_s": plies / wall,
        "overhead_median_us": 1e6 * statistics.median(overheads),
        "overhead_p99_us": 1e6 * _percentile(overheads, 0.99),
        "round_trip_median_us": 1e6 * statistics.median(round_trips),
        "round_trip_p99_us": 1e6 * _percentile(round_trips, 0.99),
    }


def bench_tournament(
    games: int,
    engine: str,
    concurrency: int,
    tc: str = "60+1",
    workers: int | None = None,
    out: Path | None = None,
) -> dict[str, float]:
    """Run a 2-entrant Trike tournament of ``engine`` against itself; return its figures
    (times in microseconds unless named ``_s``)."""
    plan = _plan(games, engine, concurrency, tc, workers)
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmp:
        directory = out if out is not None else Path(tmp) / "tournament"
        result = trio.run(lambda: run_tournament(plan, directory))
    played = result.played
    plies = sum(r.plies for r in played)
    overheads = [t for r in played for t in r.overheads]
    trips = [t for r in played for t in r.round_trips]
    timeouts = sum(1 for r in played if r.outcome.termination.value == "timeout")
    forfeits = sum(1 for r in played if r.outcome.termination.is_forfeit)
    return {
        "games": float(len(played)),
        "plies": float(plies),
        "wall_s": result.wall,
        "startup_s": result.startup,
        "plies_per_s": plies / result.wall if result.wall > 0 else 0.0,
        "overhead_median_us": 1e6 * statistics.median(overheads) if overheads else 0.0,
        "overhead_p99_us": 1e6 * _percentile(overheads, 0.99) if overheads else 0.0,
        "round_trip_median_us": 1e6 * statistics.median(trips) if trips else 0.0,
        "round_trip_p99_us": 1e6 * _percentile(trips, 0.99) if trips else 0.0,
        "round_trip_max_us": 1e6 * max(trips) if trips else 0.0,
        "timeouts": float(timeouts),
        "forfeits": float(forfeits),
        "voids": float(result.voids),
        "cpu_runner_us_per_ply": 1e6 * result.cpu_runner / plies if plies else 0.0,
        "cpu_workers_us_per_ply": 1e6 * result.cpu_workers / plies if plies else 0.0,
        "cpu_engines_us_per_ply": 1e6 * result.cpu_engines / plies if plies else 0.0,
    }


def tournament_lines(
    games: int,
    engine: str,
    runs: Sequence[tuple[int, str]],
    workers: int | None = None,
) -> Iterator[str]:
    """Run the tournament benchmarks ``runs`` (concurrency, clock) and yield report lines."""
    from tournaments.play.prestart import default_workers

    for concurrency, tc in runs:
        f = bench_tournament(games, engine, concurrency, tc, workers)
        used = workers if workers is not None else default_workers(concurrency)
        target = TOURNAMENT_TARGETS.get(concurrency)
        verdict = ""
        if target is not None:
            verdict = f" ({'meets' if f['plies_per_s'] >= target else 'BELOW'} target {target:,})"
        yield (
            f"tournament trike {engine} x2, concurrency {concurrency} ({used} worker process"
            f"{'es' if used != 1 else ''}), tc {tc}: {f['games']:.0f} games, {f['plies']:.0f} "
            f"plies in {f['wall_s']:.2f}s: {f['plies_per_s']:,.0f} plies/s{verdict}; "
            f"start-up {f['startup_s']:.2f}s"
        )
        cpu = f["cpu_runner_us_per_ply"] + f["cpu_workers_us_per_ply"]
        total = cpu + f["cpu_engines_us_per_ply"]
        capacity = 2e6 / total if total else 0.0
        yield (
            f"       CPU per ply: referee {cpu:.0f} us (runner {f['cpu_runner_us_per_ply']:.0f}, "
            f"workers {f['cpu_workers_us_per_ply']:.0f}), engines "
            f"{f['cpu_engines_us_per_ply']:.0f} us: two free cores allow at most "
            f"{capacity:,.0f} plies/s"
        )
        yield (
            f"       referee overhead per ply: median {f['overhead_median_us']:.0f} us, "
            f"p99 {f['overhead_p99_us']:.0f} us; round trip charged to engines: median "
            f"{f['round_trip_median_us']:.0f} us, p99 {f['round_trip_p99_us']:.0f} us, "
            f"max {f['round_trip_max_us'] / 1000:.1f} ms; games lost on time: "
            f"{f['timeouts']:.0f}, other forfeits: {f['forfeits'] - f['timeouts']:.0f}"
        )


def run_benchmarks(*, games: int, engine: str, rules_plies: int) -> Iterator[str]:
    """Run both benchmarks and yield report lines."""
    yield from run_rules_benchmark(rules_plies)
    match = bench_match(games, engine)
    verdict = "meets" if match["plies_per_s"] >= MATCH_TARGET_PLIES_PER_SECOND else "BELOW"
    yield (
        f"match  trike {engine} vs {engine}, {match['games']:.0f} games, "
        f"{match['plies']:.0f} plies "
        f"in {match['wall_s']:.2f}s: {match['plies_per_s']:,.0f} plies/s "
        f"({verdict} target {MATCH_TARGET_PLIES_PER_SECOND:,})"
    )
    yield (
        f"       referee overhead per ply: median {match['overhead_median_us']:.0f} us, "
        f"p99 {match['overhead_p99_us']:.0f} us; engine round trip median "
        f"{match['round_trip_median_us']:.0f} us, p99 {match['round_trip_p99_us']:.0f} us"
    )
