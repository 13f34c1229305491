"""Pure tournament schedules: who plays whom, in which seats, with which opening.

A ``Fixture`` is one game: ``table[i]`` is the entrant index in seat ``i``, so seats
and entrants never mix. Games are grouped:

* an **encounter** is one pairing (or triple) of entrants in one round;
* a **block** is the games of an encounter that share one opening: one game per seat
  arrangement, so no entrant profits from a lucky opening or seat. For two players
  a block is the usual game pair with seats swapped; for three it is the six seat
  permutations (``seat_order="all"``) or the three cyclic rotations (``"cyclic"``),
  and either way each entrant sits in each seat equally often.

``games_per_encounter`` games of an encounter run through the arrangements in
order, a new block (and opening) starting after each full cycle; by default it is
one block. Blocks are numbered through the whole tournament and each block takes
the next opening, so openings follow the book order (cutechess's sequential order).

Formats:

* ``round_robin``: every pair (two seats) or every triple (three seats) of entrants,
  pairs ordered by the circle method so that each entrant appears once per "day";
* ``gauntlet``: each of the first ``challengers`` entrants against every pair
  (or single opponent) of the others;
* ``swiss`` (two seats): pairings made round by round from the results so far
  (``swiss_pairings``); the runner calls it before each round.

Repetition: ``rounds`` repeats the whole schedule; ``games`` instead caps the total
number of games, repeating the schedule as often as needed and cutting the last
round short (choose a multiple of the block size to keep seats balanced).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

Table = tuple[int, ...]
"""Entrant indexes in seat order."""


@dataclass(frozen=True, slots=True)
class Fixture:
    """One scheduled game."""

    number: int
    """1-based game number in the tournament: the game's id."""
    round: int
    """1-based round (one repetition of the schedule; a Swiss round)."""
    encounter: int
    """1-based number of the encounter (pairing or triple in one round)."""
    block: int
    """0-based number of the block: the games of one encounter sharing one opening.
    It is also the index of that opening in the opening sequence."""
    table: Table
    """Entrant index in each seat."""


def seat_arrangements(players: int, order: str = "all") -> tuple[Table, ...]:
    """The seat arrangements of one block, as permutations of ``range(players)``.

    ``order`` is ``"all"`` (every permutation, in lexicographic order) or ``"cyclic"``
    (the rotations ``(0,1,2), (1,2,0), (2,0,1)``). For two players both are the pair
    ``(0, 1), (1, 0)``.

    :raises ValueError: an unknown order or fewer than two players.
    """
    if players < 2:
        raise ValueError(f"a schedule needs at least two seats, not {players}")
    base = tuple(range(players))
    if order == "all":
        return tuple(itertools.permutations(base))
    if order == "cyclic":
        return tuple(base[k:] + base[:k] for k in range(players))
    raise ValueError(f"unknown seat order {order!r}: expected all or cyclic")


class Encounters:
    """The encounters of one round, made as they are taken (never held whole).

    Iterable again and again (each round repeats them) and sized without making them:
    a round robin of 10,000 entrants has 50 million pairs, and a tournament capped at
    4 games must not pay for them. ``make`` gives a fresh iterator of the encounters.
    """

    __slots__ = ("_count", "_make")

    def __init__(self, make: Callable[[], Iterator[Table]], count: int) -> None:
        self._make = make
        self._count = count

    def __iter__(self) -> Iterator[Table]:
        return self._make()

    def __len__(self) -> int:
        return self._count


def circle_pairs(entrants: int) -> list[tuple[int, int]]:
    """Every pair of ``range(entrants)`` once, ordered by the circle (Berger) method
    (``iter_circle_pairs`` made whole)."""
    return list(iter_circle_pairs(entrants))


def iter_circle_pairs(entrants: int) -> Iterator[tuple[int, int]]:
    """Every pair of ``range(entrants)`` once, ordered by the circle (Berger) method,
    made as they are taken: one day's rotation (O(entrants)) per ``entrants // 2`` pairs.

    With an odd count a bye is added and its pairings dropped. Day ``d`` pairs each
    entrant at most once, so pairs spread evenly when games run in parallel.
    """
    slots: list[int | None] = list(range(entrants))
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    for day in range(n - 1):
        for k in range(n // 2):
            a, b = slots[k], slots[n - 1 - k]
            if a is None or b is None:
                continue
            # Alternate who is listed first so first seats spread over the days.
            yield (a, b) if (day + k) % 2 == 0 else (b, a)
        slots = [slots[0], slots[-1], *slots[1:-1]]


def round_robin_encounters(entrants: int, players: int) -> Encounters:
    """The encounters of one round-robin round: every ``players``-subset of entrants
    (pairs in circle order), made as they are taken.

    :raises ValueError: fewer entrants than seats (at once).
    """
    if entrants < players:
        raise ValueError(f"{entrants} entrants cannot fill {players} seats")
    if players == 2:
        return Encounters(lambda: iter_circle_pairs(entrants), math.comb(entrants, 2))
    return Encounters(
        lambda: itertools.combinations(range(entrants), players), math.comb(entrants, players)
    )


def gauntlet_encounters(entrants: int, players: int, challengers: int) -> Encounters:
    """Each of the first ``challengers`` entrants with every group of the others, made
    as they are taken.

    :raises ValueError: no challenger, or too few others to fill a table (at once).
    """
    if not 1 <= challengers < entrants:
        raise ValueError(f"a gauntlet needs 1 to {entrants - 1} challengers, not {challengers}")
    field = range(challengers, entrants)
    if len(field) < players - 1:
        raise ValueError(f"{len(field)} opponents cannot fill {players - 1} seats")

    def make() -> Iterator[Table]:
        for challenger in range(challengers):
            for group in itertools.combinations(field, players - 1):
                yield (challenger, *group)

    return Encounters(make, challengers * math.comb(len(field), players - 1))


def block_size(players: int, order: str = "all") -> int:
    """Games in one block: the number of seat arrangements."""
    return len(seat_arrangements(players, order))


def encounter_fixtures(
    encounter: Table,
    *,
    round_no: int,
    encounter_no: int,
    first_number: int,
    first_block: int,
    games: int,
    arrangements: Sequence[Table],
) -> list[Fixture]:
    """The ``games`` fixtures of one encounter, arrangements in order, a block per cycle."""
    return list(
        _encounter_fixtures(
            encounter, round_no, encounter_no, first_number, first_block, games, arrangements
        )
    )


def _encounter_fixtures(
    encounter: Table,
    round_no: int,
    encounter_no: int,
    first_number: int,
    first_block: int,
    games: int,
    arrangements: Sequence[Table],
) -> Iterator[Fixture]:
    for g in range(games):
        arrangement = arrangements[g % len(arrangements)]
        yield Fixture(
            number=first_number + g,
            round=round_no,
            encounter=encounter_no,
            block=first_block + g // len(arrangements),
            table=tuple(encounter[i] for i in arrangement),
        )


def blocks_per_encounter(games: int, arrangements: int) -> int:
    """Blocks (openings) used by an encounter of ``games`` games."""
    return -(-games // arrangements)


def static_schedule(
    encounters: Iterable[Table],
    *,
    players: int,
    rounds: int = 1,
    games_per_encounter: int | None = None,
    seat_order: str = "all",
    total_games: int | None = None,
    limit: int | None = None,
) -> list[Fixture]:
    """Every fixture of a round-robin or gauntlet tournament, in playing order, as a list
    (``iter_static_schedule``, whose arguments these are, made whole).

    ``limit``: only the first ``limit`` fixtures (checking a big schedule cheaply).

    :raises ValueError: non-positive counts.
    """
    fixtures = iter_static_schedule(
        encounters,
        players=players,
        rounds=rounds,
        games_per_encounter=games_per_encounter,
        seat_order=seat_order,
        total_games=total_games,
    )
    return list(fixtures if limit is None else itertools.islice(fixtures, limit))


def iter_static_schedule(
    encounters: Iterable[Table],
    *,
    players: int,
    rounds: int = 1,
    games_per_encounter: int | None = None,
    seat_order: str = "all",
    total_games: int | None = None,
) -> Iterator[Fixture]:
    """Every fixture of a round-robin or gauntlet tournament, in playing order, made as
    they are taken: a million-game schedule is never held whole.

    ``encounters`` is iterated once per round, so it must be re-iterable (a list, or
    ``Encounters``, which makes them as they are taken: the cost of the first games does
    not depend on the size of the field). ``games_per_encounter`` defaults to one block.
    With ``total_games`` the schedule is repeated until that many games and cut there
    (``rounds`` is then ignored).

    :raises ValueError: non-positive counts (at once, not when iterated).
    """
    arrangements = seat_arrangements(players, seat_order)
    per = games_per_encounter if games_per_encounter is not None else len(arrangements)
    if per < 1 or rounds < 1 or (total_games is not None and total_games < 1):
        raise ValueError("rounds, games and games per encounter must be positive")
    fixtures = _repeated_rounds(encounters, per, arrangements)
    if total_games is not None:
        return itertools.islice(fixtures, total_games)
    return itertools.takewhile(lambda fixture: fixture.round <= rounds, fixtures)


def _repeated_rounds(
    encounters: Iterable[Table], per: int, arrangements: Sequence[Table]
) -> Iterator[Fixture]:
    """Round after round of ``encounters`` (iterated afresh each round), ``per`` games
    each, without end."""
    number, block, encounter_no, round_no = 1, 0, 1, 1
    while True:
        met = False
        for encounter in encounters:
            met = True
            yield from _encounter_fixtures(
                encounter, round_no, encounter_no, number, block, per, arrangements
            )
            number += per
            block += blocks_per_encounter(per, len(arrangements))
            encounter_no += 1
        if not met:  # no encounter at all: no round either
            return
        round_no += 1


def seat_counts(fixtures: Sequence[Fixture], entrants: int, players: int) -> list[list[int]]:
    """``counts[e][s]``: how many games entrant ``e`` plays in seat ``s``."""
    counts = [[0] * players for _ in range(entrants)]
    for fixture in fixtures:
        for seat, entrant in enumerate(fixture.table):
            counts[entrant][seat] += 1
    return counts


# --- Swiss -------------------------------------------------------------------------------

SWISS_SEARCH_LIMIT = 200_000
"""Pairing attempts before the Swiss pairer gives up avoiding rematches."""


@dataclass(frozen=True, slots=True)
class SwissRound:
    """The pairings of one Swiss round."""

    pairs: tuple[tuple[int, int], ...]
    """Encounters in board order (best placed first); the first entrant of a pair is
    the one due the first seat."""
    bye: int | None
    """The entrant that sits out (odd number of entrants), else None."""


def swiss_order(entrants: int, scores: Mapping[int, float]) -> list[int]:
    """Entrants by pairing score (highest first), then by entrant index (the seeding)."""
    return sorted(range(entrants), key=lambda e: (-scores.get(e, 0.0), e))


def swiss_pairings(
    entrants: int,
    scores: Mapping[int, float],
    played: set[frozenset[int]],
    byes: set[int],
    first_seats: Mapping[int, int] | None = None,
) -> SwissRound:
    """Pair one Swiss round (two seats).

    * Entrants are ordered by ``scores`` (pairing points, byes included), then index.
    * With an odd count the lowest-placed entrant without a bye gets it (if all had
      one, the lowest-placed).
    * From the top, each unpaired entrant meets the nearest one below it it has not
      met (``played``), backtracking when the rest cannot be paired that way; if no
      rematch-free pairing exists (or the search is too long), adjacent entrants are
      paired in order.
    * In each pair the entrant with fewer first seats so far (``first_seats``) is
      due the first seat; on equal counts the higher-placed one.

    Pure and deterministic: the same results give the same pairings, so a resumed
    tournament pairs exactly as the first run did.
    """
    order = swiss_order(entrants, scores)
    bye: int | None = None
    if len(order) % 2:
        candidates = [e for e in reversed(order) if e not in byes] or [order[-1]]
        bye = candidates[0]
        order.remove(bye)
    found = _pair_without_rematches(order, played, SWISS_SEARCH_LIMIT)
    if found is None:
        found = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    seats = first_seats or {}
    pairs = tuple((a, b) if seats.get(a, 0) <= seats.get(b, 0) else (b, a) for a, b in found)
    return SwissRound(pairs, bye)


def _pair_without_rematches(
    order: Sequence[int], played: set[frozenset[int]], budget: int
) -> list[tuple[int, int]] | None:
    """Pairs of ``order`` (an even count) with no pair in ``played``: from the top, each
    unpaired entrant with the nearest one below it it has not met, backtracking when
    the rest cannot be paired so; None when there is none or after ``budget`` tries.

    A depth-first search with its own stack (a field of 10,000 pairs 5,000 deep, past
    Python's recursion limit) over positions in ``order`` marked used: memory O(n).
    """
    n = len(order)
    used = [False] * n
    stack: list[tuple[int, int]] = []  # (position of the first, of its partner)
    first, start = 0, None
    while True:
        while first < n and used[first]:
            first += 1
        if first >= n:
            return [(order[a], order[b]) for a, b in stack]
        partner = None
        for j in range(first + 1 if start is None else start, n):
            if used[j]:
                continue
            budget -= 1
            if budget < 0:
                return None
            if frozenset((order[first], order[j])) not in played:
                partner = j
                break
        if partner is not None:
            used[first] = used[partner] = True
            stack.append((first, partner))
            start = None
            continue
        if not stack:
            return None
        first, after = stack.pop()  # the last pair cannot stand: its first tries further
        used[first] = used[after] = False
        start = after + 1


def swiss_round_fixtures(
    swiss: SwissRound,
    *,
    round_no: int,
    entrants: int,
    games_per_encounter: int,
) -> list[Fixture]:
    """The fixtures of Swiss round ``round_no`` (two seats).

    Numbers, encounters and blocks depend only on the round and the entrant count,
    never on results, so every game keeps its number across a resume.
    """
    arrangements = seat_arrangements(2)
    boards = entrants // 2
    per = games_per_encounter
    blocks = blocks_per_encounter(per, len(arrangements))
    fixtures: list[Fixture] = []
    for board, pair in enumerate(swiss.pairs):
        encounter_no = (round_no - 1) * boards + board + 1
        fixtures += encounter_fixtures(
            pair,
            round_no=round_no,
            encounter_no=encounter_no,
            first_number=(encounter_no - 1) * per + 1,
            first_block=(encounter_no - 1) * blocks,
            games=per,
            arrangements=arrangements,
        )
    return fixtures


def swiss_total(entrants: int, rounds: int, games_per_encounter: int) -> int:
    """Games in a Swiss tournament."""
    return rounds * (entrants // 2) * games_per_encounter
