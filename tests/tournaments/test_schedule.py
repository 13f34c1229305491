"""Schedules: game counts and seat balance for every format (property tests)."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.event.schedule import (
    Fixture,
    circle_pairs,
    gauntlet_encounters,
    round_robin_encounters,
    seat_arrangements,
    seat_counts,
    static_schedule,
    swiss_pairings,
    swiss_round_fixtures,
    swiss_total,
)


def _check_numbering(fixtures: list[Fixture]) -> None:
    assert [f.number for f in fixtures] == list(range(1, len(fixtures) + 1))
    for f in fixtures:
        assert len(set(f.table)) == len(f.table), "an entrant meets itself"


def _blocks(fixtures: list[Fixture]) -> dict[int, list[Fixture]]:
    blocks: dict[int, list[Fixture]] = {}
    for f in fixtures:
        blocks.setdefault(f.block, []).append(f)
    return blocks


def test_circle_pairs_meets_everyone_once_and_spreads_days() -> None:
    for n in range(2, 12):
        pairs = circle_pairs(n)
        assert len(pairs) == n * (n - 1) // 2
        assert {frozenset(p) for p in pairs} == {
            frozenset(p) for p in itertools.combinations(range(n), 2)
        }
        per_day = n // 2
        for day in range(0, len(pairs), per_day):
            chunk = pairs[day : day + per_day]
            playing = [e for pair in chunk for e in pair]
            assert len(playing) == len(set(playing)), f"n={n}: someone plays twice in a day"


@settings(max_examples=60, deadline=None)
@given(
    entrants=st.integers(2, 9),
    rounds=st.integers(1, 3),
    pairs_per_encounter=st.integers(1, 3),
)
def test_round_robin_two_seats(entrants: int, rounds: int, pairs_per_encounter: int) -> None:
    per = 2 * pairs_per_encounter
    fixtures = static_schedule(
        round_robin_encounters(entrants, 2), players=2, rounds=rounds, games_per_encounter=per
    )
    _check_numbering(fixtures)
    assert len(fixtures) == math.comb(entrants, 2) * per * rounds
    meetings = Counter(frozenset(f.table) for f in fixtures)
    assert set(meetings.values()) == {per * rounds}
    # Seats: everyone has each seat equally often, and so does every pair.
    counts = seat_counts(fixtures, entrants, 2)
    assert all(c[0] == c[1] == (entrants - 1) * per * rounds // 2 for c in counts)
    ordered = Counter(f.table for f in fixtures)
    assert all(ordered[(a, b)] == ordered[(b, a)] for a, b in ordered)
    # Each block (one opening) is one game per seat arrangement.
    for block in _blocks(fixtures).values():
        assert len(block) == 2
        assert block[0].table == block[1].table[::-1]
        assert len({f.encounter for f in block}) == 1


@settings(max_examples=40, deadline=None)
@given(
    entrants=st.integers(3, 7), rounds=st.integers(1, 2), order=st.sampled_from(["all", "cyclic"])
)
def test_round_robin_three_seats_is_seat_balanced(entrants: int, rounds: int, order: str) -> None:
    arrangements = len(seat_arrangements(3, order))
    assert arrangements == (6 if order == "all" else 3)
    fixtures = static_schedule(
        round_robin_encounters(entrants, 3), players=3, rounds=rounds, seat_order=order
    )
    _check_numbering(fixtures)
    assert len(fixtures) == math.comb(entrants, 3) * arrangements * rounds
    triples = Counter(frozenset(f.table) for f in fixtures)
    assert len(triples) == math.comb(entrants, 3)
    assert set(triples.values()) == {arrangements * rounds}
    per_seat = math.comb(entrants - 1, 2) * arrangements * rounds // 3
    assert seat_counts(fixtures, entrants, 3) == [[per_seat] * 3 for _ in range(entrants)]
    # Within each block (one opening), every member of the triple sits in every seat.
    for block in _blocks(fixtures).values():
        assert len(block) == arrangements
        members = set(block[0].table)
        for seat in range(3):
            assert {f.table[seat] for f in block} == members
        if order == "all":
            assert len({f.table for f in block}) == 6


@settings(max_examples=40, deadline=None)
@given(
    entrants=st.integers(3, 8),
    challengers=st.integers(1, 3),
    players=st.sampled_from([2, 3]),
    rounds=st.integers(1, 2),
)
def test_gauntlet(entrants: int, challengers: int, players: int, rounds: int) -> None:
    field = entrants - challengers
    if field < players - 1:
        with pytest.raises(ValueError):
            gauntlet_encounters(entrants, players, challengers)
        return
    encounters = gauntlet_encounters(entrants, players, challengers)
    fixtures = static_schedule(encounters, players=players, rounds=rounds)
    _check_numbering(fixtures)
    per = len(seat_arrangements(players))
    assert len(fixtures) == challengers * math.comb(field, players - 1) * per * rounds
    for f in fixtures:
        assert sum(1 for e in f.table if e < challengers) == 1, "exactly one challenger per game"
    counts = seat_counts(fixtures, entrants, players)
    for entrant in range(entrants):
        assert len(set(counts[entrant])) == 1, f"entrant {entrant} seats {counts[entrant]}"
    # Every challenger meets every opponent of the field.
    for c in range(challengers):
        met = {e for f in fixtures if c in f.table for e in f.table} - {c}
        assert met == set(range(challengers, entrants))


def test_total_games_cap_repeats_and_cuts() -> None:
    encounters = round_robin_encounters(3, 2)
    fixtures = static_schedule(encounters, players=2, total_games=17)
    _check_numbering(fixtures)
    assert len(fixtures) == 17
    assert max(f.round for f in fixtures) == 3  # 6 games a round
    two = static_schedule(round_robin_encounters(2, 2), players=2, total_games=100)
    assert len(two) == 100
    assert seat_counts(two, 2, 2) == [[50, 50], [50, 50]]
    assert len({f.block for f in two}) == 50  # a new opening every pair of games


def test_blocks_number_through_the_tournament() -> None:
    fixtures = static_schedule(
        round_robin_encounters(4, 2), players=2, rounds=2, games_per_encounter=4
    )
    blocks = _blocks(fixtures)
    assert sorted(blocks) == list(range(len(fixtures) // 2))
    assert all(len(b) == 2 for b in blocks.values())


def test_bad_parameters() -> None:
    with pytest.raises(ValueError):
        seat_arrangements(1)
    with pytest.raises(ValueError):
        seat_arrangements(3, "random")
    with pytest.raises(ValueError):
        round_robin_encounters(2, 3)
    with pytest.raises(ValueError):
        static_schedule(round_robin_encounters(2, 2), players=2, rounds=0)


# --- Swiss -------------------------------------------------------------------------------


def _simulate_swiss(entrants: int, rounds: int, strength: list[float]) -> list[list[Fixture]]:
    """A Swiss run where the stronger entrant always wins (ties: lower index wins)."""
    scores: dict[int, float] = {}
    played: set[frozenset[int]] = set()
    byes: set[int] = set()
    seats: dict[int, int] = {}
    history = []
    for round_no in range(1, rounds + 1):
        pairing = swiss_pairings(entrants, scores, played, byes, seats)
        if pairing.bye is not None:
            byes.add(pairing.bye)
            scores[pairing.bye] = scores.get(pairing.bye, 0.0) + 2
        fixtures = swiss_round_fixtures(
            pairing, round_no=round_no, entrants=entrants, games_per_encounter=2
        )
        history.append(fixtures)
        for f in fixtures:
            a, b = f.table
            winner = a if (strength[a], -a) > (strength[b], -b) else b
            scores[winner] = scores.get(winner, 0.0) + 1
            played.add(frozenset(f.table))
            seats[a] = seats.get(a, 0) + 1
    return history


@settings(max_examples=30, deadline=None)
@given(entrants=st.integers(2, 12), data=st.data())
def test_swiss_rounds(entrants: int, data: st.DataObject) -> None:
    rounds = data.draw(st.integers(1, max(1, entrants - 1 if entrants % 2 == 0 else entrants)))
    strength = data.draw(st.lists(st.floats(0, 1), min_size=entrants, max_size=entrants))
    history = _simulate_swiss(entrants, rounds, strength)
    all_fixtures = [f for r in history for f in r]
    assert len(all_fixtures) == swiss_total(entrants, rounds, 2)
    _check_numbering(sorted(all_fixtures, key=lambda f: f.number))
    byes: list[int] = []
    for round_no, fixtures in enumerate(history, start=1):
        assert {f.round for f in fixtures} == {round_no}
        playing = Counter(e for f in fixtures for e in f.table)
        assert all(count == 2 for count in playing.values()), "one encounter of 2 games each"
        idle = set(range(entrants)) - set(playing)
        assert len(idle) == entrants % 2
        byes += idle
        for block in _blocks(fixtures).values():
            assert len(block) == 2 and block[0].table == block[1].table[::-1]
    assert len(byes) == len(set(byes)), "nobody gets two byes while others had none"
    # No rematches while the rounds fit a round robin (the circle method proves one exists;
    # greedy pairing with backtracking must find one for the first rounds at least).
    meetings = Counter(frozenset(f.table) for r in history for f in r[::2])
    if rounds <= 2:
        assert set(meetings.values()) <= {1}


def test_swiss_pairs_leaders_together_and_avoids_rematches() -> None:
    scores = {0: 4.0, 1: 4.0, 2: 2.0, 3: 2.0, 4: 0.0, 5: 0.0}
    first = swiss_pairings(6, scores, set(), set())
    assert [frozenset(p) for p in first.pairs] == [
        frozenset({0, 1}),
        frozenset({2, 3}),
        frozenset({4, 5}),
    ]
    again = swiss_pairings(6, scores, {frozenset({0, 1}), frozenset({2, 3})}, set())
    assert frozenset({0, 1}) not in {frozenset(p) for p in again.pairs}
    assert frozenset({0, 2}) in {frozenset(p) for p in again.pairs}
    # Odd count: the lowest-placed entrant without a bye sits out.
    odd = swiss_pairings(5, {0: 3.0, 1: 2.0, 2: 1.0, 3: 0.5, 4: 0.0}, set(), {4})
    assert odd.bye == 3
    # Seats: whoever had fewer first seats gets the first seat.
    seated = swiss_pairings(2, {}, set(), set(), {0: 3, 1: 1})
    assert seated.pairs == ((1, 0),)
    # Deterministic.
    assert swiss_pairings(6, scores, set(), set()) == first


@pytest.mark.parametrize(
    "settings",
    [
        {"entrants": 4},
        {"entrants": 5, "rounds": 3, "games_per_encounter": 3},
        {"entrants": 3, "games": 7},
        {"entrants": 5, "format": "gauntlet", "challengers": 2, "rounds": 2},
        {"entrants": 5, "players": 3, "game": "triablo", "seat_order": "cyclic"},
        {"entrants": 4, "players": 3, "game": "triablo", "games": 10},
        {"entrants": 5, "format": "swiss", "rounds": 3},
    ],
)
def test_a_plan_counts_its_games_without_building_them(settings: dict[str, object]) -> None:
    from tournaments.event.config import parse_config
    from tournaments.event.plan import Plan

    config = {
        "game": "trike",
        **settings,
        "entrants": [{"command": f"random --seed {i}"} for i in range(int(settings["entrants"]))],  # type: ignore[call-overload]
    }
    plan = Plan.from_config(parse_config(config, "test"), "test")
    if plan.swiss:
        assert plan.total() == 3 * 2 * 2
    else:
        assert plan.total() == len(plan.static_fixtures())
        assert plan.static_fixtures(limit=2) == plan.static_fixtures()[:2]
