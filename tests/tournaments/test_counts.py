"""``Counts``: the tables of games folded into outcome keys, whole or in parts."""

from __future__ import annotations

import json
import random

from referee.core import Outcome, Termination
from tournaments.results.counts import Counts
from tournaments.results.game import GameReport
from tournaments.results.sprt import Sprt
from tournaments.results.summary import EventInfo, summarize, summarize_counts, summary_json

NAMES = ("a", "b")
INFO = EventInfo("e", "trike", NAMES, 2, 400, sprt=Sprt(0, 10), paired=True)


def _game(number: int, block: int, seats: tuple[str, str], result: str) -> GameReport:
    ranks, termination, culprit = {
        "1-0": ((1, 2), Termination.RULES, None),
        "0-1": ((2, 1), Termination.RULES, None),
        "draw": ((1, 1), Termination.RULES, None),
        "time": ((2, 1), Termination.TIMEOUT, 0),
    }[result]
    table = tuple(NAMES.index(s) for s in seats)
    outcome = Outcome(termination, ranks, (3.0, 1.0) if result == "1-0" else (), culprit)
    return GameReport(number, 1, block, table, seats, outcome, 10, "rec")


def _games(count: int, seed: int) -> list[GameReport]:
    rng = random.Random(seed)
    games = []
    for number in range(1, count + 1):
        block = (number - 1) // 2
        seats = ("a", "b") if number % 2 else ("b", "a")
        games.append(_game(number, block, seats, rng.choice(["1-0", "0-1", "draw", "time"])))
    return games


def _tables(counts: Counts) -> str:
    return json.dumps(summary_json(summarize_counts(INFO, counts)), sort_keys=True)


def test_few_keys_for_many_games() -> None:
    counts = Counts.of(NAMES, True, _games(400, 1))
    assert counts.done == 400
    assert len(counts.games) <= 8  # 2 seatings x 4 endings
    assert sum(counts.penta[("a", "b")]) == 200  # every block is a seat-swapped pair


def test_counts_in_parts_and_through_json_give_the_same_tables() -> None:
    games = _games(400, 2)
    whole = _tables(Counts.of(NAMES, True, games))
    assert whole == json.dumps(summary_json(summarize(INFO, games)), sort_keys=True)
    for cut in (0, 1, 199, 200, 399):  # a cut inside a pair too: its block stays open
        first = Counts.of(NAMES, True, games[:cut])
        again = Counts.from_json(json.loads(json.dumps(first.to_json())))
        assert _tables(again) == _tables(first)
        for game in games[cut:]:
            again.add(game)
        assert _tables(again) == whole


def test_pairs_by_hand() -> None:
    games = [
        _game(1, 0, ("a", "b"), "1-0"),
        _game(2, 0, ("b", "a"), "1-0"),  # a: 1 + 0 = 1 of 2
        _game(3, 1, ("a", "b"), "1-0"),
        _game(4, 1, ("b", "a"), "0-1"),  # a: 2 of 2
        _game(5, 2, ("a", "b"), "draw"),
        _game(6, 2, ("a", "b"), "draw"),  # not seat-swapped: no pair
        _game(7, 3, ("b", "a"), "draw"),  # its pair never finished
    ]
    counts = Counts.of(NAMES, True, games)
    assert counts.penta == {("a", "b"): [0, 0, 1, 0, 1]}
    assert list(counts.open_blocks) == [3]
    assert counts.wdl("a") == (3, 3, 1)
    penta = counts.pentanomial("a", "b")
    assert penta is not None and penta.counts == (0, 0, 1, 0, 1)


def test_void_and_unranked_games_are_not_counted() -> None:
    void = GameReport(1, 1, 0, (0, 1), NAMES, Outcome(Termination.VOID, ()), 0, "")
    counts = Counts.of(NAMES, True, [void])
    assert counts.done == 0 and not counts.open_blocks


def test_a_bad_checkpoint_dict_is_refused() -> None:
    data = Counts.of(NAMES, True, _games(10, 3)).to_json()
    data["games"][0][1] = "no-such-termination"
    try:
        Counts.from_json(data)
    except ValueError:
        pass
    else:
        raise AssertionError("accepted an unknown termination")
