"""Many entrants, few games (issue 22): a field's size costs nothing until its entrants
play. The schedule is made as it is taken, the tables grow with the games played, and a
stop signal ends ``referee tournament`` at any moment with exit 130 and what it kept.

The subprocess tests use bounds a loaded machine meets (30 s to a first game and 10 s
from a signal to the exit, where the targets are 2 s each; ``benchmarks/entrants_bench.py``
measures those); before this, a field of 10,000 played no game in 60 s and grew to
gigabytes.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from referee.core import Outcome, Termination
from tests.tournaments.fields import (
    REFEREE,
    ROOT,
    catches,
    environment,
    peak_rss,
    start,
    stop,
    wait_for_line,
    write_field,
)
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.event.schedule import (
    gauntlet_encounters,
    iter_static_schedule,
    round_robin_encounters,
    swiss_pairings,
)
from tournaments.results import plackett_luce as pl
from tournaments.results.counts import Counts
from tournaments.results.elo import Z95
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo, summarize_counts, summary_json
from tournaments.results.tables import CROSSTABLE_LIMIT, crosstable_names, render
from tournaments.runner import records
from tournaments.runner.records import ResultsFile
from tournaments.runner.tally import Tally
from tournaments.store.journal import JOURNAL, read_journal

FIELD = 10_000


# --- the schedule ------------------------------------------------------------------------


def test_encounters_of_a_huge_field_are_counted_not_made() -> None:
    # 500 billion pairs, 1.7e17 triples: made whole, neither would ever finish.
    pairs = round_robin_encounters(10**6, 2)
    assert len(pairs) == math.comb(10**6, 2)
    assert list(itertools.islice(pairs, 3)) == [(0, 999_999), (999_998, 1), (2, 999_997)]
    assert list(itertools.islice(pairs, 1)) == [(0, 999_999)]  # iterable again
    triples = round_robin_encounters(10**6, 3)
    assert len(triples) == math.comb(10**6, 3)
    assert next(iter(triples)) == (0, 1, 2)
    gauntlet = gauntlet_encounters(10**6, 3, 2)
    assert len(gauntlet) == 2 * math.comb(10**6 - 2, 2)
    assert next(iter(gauntlet)) == (0, 2, 3)


def test_a_capped_schedule_of_a_huge_field_repeats_its_encounters_lazily() -> None:
    # Two encounters of three seats, 6 games each: 30 games is 2.5 rounds.
    fixtures = list(iter_static_schedule(round_robin_encounters(3, 3), players=3, total_games=15))
    assert [f.round for f in fixtures] == [1] * 6 + [2] * 6 + [3] * 3
    first = next(iter_static_schedule(round_robin_encounters(10**6, 2), players=2, total_games=4))
    assert first.table == (0, 999_999)


def _plan(**config: object) -> Plan:
    entrants = [{"name": f"r{i}", "command": f"random --seed {i}"} for i in range(FIELD)]
    return Plan.from_config(parse_config({"entrants": entrants, **config}, "test"), "test")


@pytest.mark.parametrize(
    ("config", "tables"),
    [
        ({"game": "trike", "games": 4}, [(0, 9999), (9999, 0), (9998, 1), (1, 9998)]),
        (
            {"game": "triablo", "players": 3, "games": 4, "seat_order": "cyclic"},
            [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 1, 3)],
        ),
        (
            {"game": "trike", "format": "gauntlet", "challengers": 2, "games": 4},
            [(0, 2), (2, 0), (0, 3), (3, 0)],
        ),
    ],
)
def test_a_plan_of_ten_thousand_entrants_gives_its_first_games(
    config: dict[str, object], tables: list[tuple[int, ...]]
) -> None:
    plan = _plan(**config)
    assert plan.total() == 4
    assert [f.table for f in plan.static_fixtures()] == tables


def test_a_swiss_round_of_ten_thousand_pairs_without_recursion() -> None:
    # The pairing was a recursion 5,000 deep (RecursionError); its own stack now.
    first = swiss_pairings(FIELD, {}, set(), set())
    assert first.pairs[:2] == ((0, 1), (2, 3)) and len(first.pairs) == FIELD // 2
    played = {frozenset(p) for p in first.pairs}
    second = swiss_pairings(FIELD, {}, played, set())
    assert not {frozenset(p) for p in second.pairs} & played
    assert sorted(e for p in second.pairs for e in p) == list(range(FIELD))


# --- the tables --------------------------------------------------------------------------


def _game(number: int, seats: tuple[str, ...], ranks: tuple[int, ...]) -> GameReport:
    return GameReport(
        number=number,
        round=1,
        block=(number - 1) // 2,
        seats=seats,
        table=tuple(int(s[1:]) for s in seats),
        outcome=Outcome(Termination.RULES, ranks, (), None, "test"),
        plies=10,
        record="",
    )


def test_the_tables_of_a_big_field_grow_with_the_games_played() -> None:
    names = tuple(f"r{i}" for i in range(FIELD))
    info = EventInfo("big", "trike", names, 2, 4, paired=True)
    games = [
        _game(1, ("r0", "r9999"), (1, 2)),
        _game(2, ("r9999", "r0"), (1, 1)),
        _game(3, ("r9998", "r1"), (2, 1)),
        _game(4, ("r1", "r9998"), (1, 2)),
    ]
    summary = summarize_counts(info, Counts.of(names, True, games))
    assert [(p.a, p.b, p.wins, p.draws, p.losses) for p in summary.pairs] == [
        ("r0", "r9999", 1, 1, 0),
        ("r1", "r9998", 2, 0, 0),
    ]
    assert [p.penta.counts if p.penta else None for p in summary.pairs] == [
        (0, 0, 0, 1, 0),
        (0, 0, 0, 0, 1),
    ]
    ratings = {r.name: r for r in summary.ratings}
    assert ratings["r1"].rating > ratings["r0"].rating > 0 > ratings["r9998"].rating
    assert ratings["r5000"].rating == ratings["r5001"].rating  # no games: the reference
    assert all(math.isfinite(r.error) for r in summary.ratings)
    assert crosstable_names(summary) == ["r1", "r0", "r9999", "r9998"]
    text = render(summary, "plain")
    assert "the 4 of 10000 entrants who played" in text
    assert text.count("(9996 entrants without a game not listed)") == 2  # standings, Elo
    assert "r5000" not in text and len(text.splitlines()) < 60
    assert len(summary_json(summary)["crosstable"]) == 4  # the pairs that met, both ways


def test_a_crosstable_of_too_many_players_is_left_out_with_a_reason() -> None:
    names = tuple(f"r{i}" for i in range(2 * CROSSTABLE_LIMIT + 2))
    info = EventInfo("big", "trike", names, 2, len(names) // 2)
    games = [_game(k + 1, (names[2 * k], names[2 * k + 1]), (1, 2)) for k in range(len(names) // 2)]
    summary = summarize_counts(info, Counts.of(names, False, games))
    assert crosstable_names(summary) is None
    assert f"more than {CROSSTABLE_LIMIT} of the {len(names)} entrants played" in render(summary)


def test_a_plackett_luce_fit_without_the_unplayed_equals_the_dense_one() -> None:
    entrants = [f"e{i}" for i in range(9)]
    seen: dict[tuple[tuple[str, ...], tuple[int, ...]], int] = {
        (("e0", "e1", "e2"), (1, 2, 3)): 3,
        (("e2", "e0", "e1"), (1, 2, 2)): 2,
        (("e1", "e2", "e3"), (3, 1, 2)): 1,
        (("e3", "e0", "e2"), (2, 1, 3)): 2,
    }
    fitted = pl.counted_plackett_luce(seen, entrants)
    # The whole field's dense fit, as before: every entrant in the information matrix.
    index = {name: i for i, name in enumerate(entrants)}
    wins = [0.5] * 9
    sets: dict[tuple[int, ...], float] = {}
    for (names, ranks), times in seen.items():
        for ordering, weight in pl._orderings(names, ranks):
            ids = [index[n] for n in ordering]
            for i in range(len(ids) - 1):
                wins[ids[i]] += weight * times
                key = tuple(sorted(ids[i:]))
                sets[key] = sets.get(key, 0.0) + weight * times
    stages = list(sets.items())
    gamma = pl._fit(stages, wins, 1.0, tolerance=1e-10, max_iterations=10_000, newton=True)
    covariance = pl._covariance(pl._information(stages, gamma, 1.0, 9), 1.0, 9)
    assert covariance is not None
    theta = [math.log(g) for g in gamma]
    mean = sum(theta) / 9
    for k, rating in enumerate(fitted):
        assert rating.rating == pytest.approx((theta[k] - mean) * pl.ELO_PER_NATURAL, abs=1e-6)
        expected = Z95 * math.sqrt(covariance[k][k]) * pl.ELO_PER_NATURAL
        assert rating.error == pytest.approx(expected, rel=1e-6)


def test_a_plackett_luce_fit_of_a_large_field_has_ratings_but_no_error_bars() -> None:
    m = pl.EXACT_LIMIT + 1
    entrants = [f"e{i}" for i in range(m)]
    # A chain: e0 beats e1 beats e2 …, each pair meeting twice.
    seen: dict[tuple[tuple[str, ...], tuple[int, ...]], int] = {
        ((entrants[i], entrants[i + 1]), (1, 2)): 2 for i in range(m - 1)
    }
    ratings = pl.counted_plackett_luce(seen, entrants)
    assert all(math.isinf(r.error) for r in ratings)
    values = [r.rating for r in ratings]
    assert values == sorted(values, reverse=True) and values[0] > values[-1]
    assert sum(values) == pytest.approx(0.0, abs=1e-6)


# --- the command -------------------------------------------------------------------------


@pytest.mark.processes
def test_ten_thousand_entrants_start_their_first_game_at_once(tmp_path: Path) -> None:
    config = write_field(tmp_path / "field.toml", FIELD, games=4)
    began = time.monotonic()
    proc = start(config, tmp_path / "out", "--concurrency", "1")
    try:
        line = wait_for_line(proc, b"Game 1/4 ", 30)
        assert line is not None, "no first game within 30 s"
        assert b"r0 vs r9999" in line, line
        _out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert time.monotonic() - began < 120
    assert len(read_journal(tmp_path / "out").games) == 4


@pytest.mark.processes
def test_ten_thousand_entrants_stay_under_200_mb(tmp_path: Path) -> None:
    config = write_field(tmp_path / "field.toml", FIELD, games=4)
    peak, code, err = peak_rss(config, tmp_path / "out", timeout=180)
    assert code == 0, err
    assert peak < 200, f"peak resident memory {peak:.0f} MB"


def _has_header(journal: Path) -> bool:
    """Whether the journal's header line is complete (the tournament has begun)."""
    try:
        with journal.open("rb") as file:
            return file.readline().endswith(b"\n")
    except OSError:
        return False


def _resume_hint(out: Path) -> str:
    return f"continue with: referee tournament --resume --out {out}"


@pytest.mark.processes
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_during_the_games_exits_130_with_the_resume_hint(
    tmp_path: Path, signum: int
) -> None:
    out = tmp_path / "out"
    config = write_field(tmp_path / "field.toml", FIELD, games=100_000)
    proc = start(config, out, "--concurrency", "2")
    try:
        # (Worker processes start first: this is not the first-game test.)
        assert wait_for_line(proc, b"Game 1/", 90) is not None, "no first game within 90 s"
        seconds, code, err = stop(proc, signum)
    finally:
        proc.kill()
    assert code == 130, err
    assert _resume_hint(out) in err
    assert seconds < 10, f"{seconds:.1f} s from the signal to the exit"
    finished = len(read_journal(out).games)
    assert f"interrupted with {finished} finished game(s)" in err
    standings = subprocess.run(
        [*REFEREE, "standings", str(out)], capture_output=True, text=True, env=environment(),
        cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip
    assert standings.returncode == 0 and f"{finished}/100000 games" in standings.stdout


@pytest.mark.processes
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_the_plan_is_made_exits_130_before_anything_is_written(
    tmp_path: Path, signum: int
) -> None:
    # 30,000 entrants: reading the config and checking every entrant takes seconds.
    out = tmp_path / "out"
    config = write_field(tmp_path / "field.toml", 30_000, games=4)
    proc = start(config, out)
    try:
        deadline = time.monotonic() + 60
        # SIGHUP is caught once the command has begun (SIGTERM from the first moment).
        while not catches(proc.pid, signal.SIGHUP):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.01)
        assert not (out / JOURNAL).exists()
        seconds, code, err = stop(proc, signum)
    finally:
        proc.kill()
    assert code == 130, err  # not 143, the bare death of an unhandled SIGTERM
    assert "interrupted before the tournament started" in err
    assert "Traceback" not in err
    assert seconds < 10, f"{seconds:.1f} s from the signal to the exit"
    assert not (out / JOURNAL).exists()


@pytest.mark.processes
def test_a_signal_while_the_modules_are_read_exits_130(tmp_path: Path) -> None:
    config = write_field(tmp_path / "field.toml", 10, games=4)
    proc = start(config, tmp_path / "out")
    try:
        deadline = time.monotonic() + 60
        while not catches(proc.pid, signal.SIGTERM):  # the first thing the script does
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.001)
        seconds, code, err = stop(proc)
    finally:
        proc.kill()
    assert code == 130, err
    assert "referee: interrupted" in err and "Traceback" not in err
    assert seconds < 10, f"{seconds:.1f} s from the signal to the exit"


@pytest.mark.processes
def test_a_signal_as_the_event_opens_exits_130_with_the_resume_hint(tmp_path: Path) -> None:
    # Right after the journal's header is written: the first results.json, the slots.
    out = tmp_path / "out"
    config = write_field(tmp_path / "field.toml", FIELD, games=100_000)
    proc = start(config, out, "--concurrency", "2")
    try:
        deadline = time.monotonic() + 60
        while not _has_header(out / JOURNAL):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.005)
        seconds, code, err = stop(proc)
    finally:
        proc.kill()
    assert code == 130, err
    assert _resume_hint(out) in err
    assert seconds < 10, f"{seconds:.1f} s from the signal to the exit"


@pytest.mark.parametrize("table", [None, (3.0, 1.0, 0.0), (1.0, -1.0, -2.0)])
def test_the_progress_leader_kept_game_by_game_is_the_best_of_the_field(
    table: tuple[float, ...] | None,
) -> None:
    # The progress line asks for the leader after every game: a pass over 10,000
    # entrants each time was the runner's own cost per game; now only when the leader
    # falls back. The answer is the brute-force one, ties to the entrant listed first.
    rng = random.Random(7)
    names = tuple(f"r{i}" for i in range(12))
    info = EventInfo("t", "triablo", names, 3, 500, points_table=table)
    tally = Tally(info, Counts(names, False))
    assert tally.leader() == (None, 0.0, 0)
    for number in range(1, 300):
        seats = tuple(rng.sample(names, 3))
        ranks = tuple(rng.choice([(1, 2, 3), (1, 1, 3), (2, 1, 3), (3, 2, 1), (1, 2, 2)]))
        tally.add(_game(number, seats, ranks))
        best = max(names, key=lambda n: (tally.points[n], -tally.games[n]))
        assert tally.leader() == (best, tally.points[best], tally.games[best]), number


def test_an_abandoned_results_write_never_shares_the_file_with_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stop abandons a rewrite of results.json in its thread (a big field's tables take
    # seconds) and starts the last one: the two must not write the temporary file at once.
    names = ("a", "b")
    results = ResultsFile(tmp_path / "results.json", EventInfo("t", "trike", names, 2, 2), None)  # type: ignore[arg-type]
    at_once, most = [0], [0]

    def slow_write(path: Path, text: str) -> None:
        at_once[0] += 1
        most[0] = max(most[0], at_once[0])
        time.sleep(0.2)
        path.write_text(text)
        at_once[0] -= 1

    monkeypatch.setattr(records, "write_atomic", slow_write)
    threads = [
        threading.Thread(target=results._write, args=(Counts(names, False),)) for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 1
    assert json.loads((tmp_path / "results.json").read_text())["games"] == 0
