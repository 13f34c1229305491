"""Pure knockout schedules: heats of two or three entrants, the best going through.

Entrants are seeded in config order (the first is seed 1). A **heat** is one match of a
knockout round: two entrants (a match) or three (a heat of three seats), playing
``games_per_encounter`` games with the seat arrangements of ``schedule`` (two seats:
seats swapped every game; three: the 6 permutations or 3 rotations), then ranked by
their tournament points over the heat's games.

* **Two seats**: a fixed seeded bracket of ``2**k >= n`` positions in the usual order
  (1 meets 2**k, 2 meets 2**k-1, …, placed so that seeds 1 and 2 can only meet in the
  final); the positions of the missing seeds are byes, so with ``n`` not a power of two
  the top ``2**k - n`` seeds go through round 1 without playing. Winners meet the
  winner of the neighbouring match of the bracket.
* **Three seats**: each round the entrants still in are seeded again (by their seed)
  and dealt into ``n // 3`` heats by snake order (heat 1 takes the best and the worst
  of the first three rows…); the ``n % 3`` best seeds have a bye. Every heat sends its
  winner through, except that the field never drops below three: then the last heats
  send their best two. Three left play the final heat.

**Tiebreak** (the rule ``tournaments/README.md`` names): when the points of the last
entrant going through equal those of the first going out, the heat plays one more block
(two seats: a pair of games, seats swapped; three: one more round of every seat
arrangement), counted with its earlier games, up to ``EXTRA_BLOCKS`` times; if still tied,
the better seed goes through.

``knockout_step`` walks the whole event from the results so far (pure, deterministic):
game numbers, blocks and encounters are handed out in the order the heats are made, and a
heat's tiebreak games only after every earlier game of its round is finished, so a resumed
knockout numbers every game as the first run did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.event.schedule import (
    Fixture,
    Table,
    blocks_per_encounter,
    encounter_fixtures,
    seat_arrangements,
)

EXTRA_BLOCKS = 2
"""Tiebreak blocks a tied heat plays at most before the better seed goes through."""


def bracket_order(size: int) -> list[int]:
    """The 0-based seeds in bracket position order for ``size`` (a power of two)
    positions: ``[0, 7, 3, 4, 1, 6, 2, 5]`` for 8 (seed 1 meets 8, the winner meets the
    winner of 4 and 5, …).

    :raises ValueError: ``size`` is not a power of two.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two positions, not {size}")
    order = [0]
    while len(order) < size:
        n = 2 * len(order)
        order = [seed for s in order for seed in (s, n - 1 - s)]
    return order


def bracket_size(entrants: int) -> int:
    """The smallest power of two at least ``entrants``."""
    size = 1
    while size < entrants:
        size *= 2
    return size


def triple_round(field: Sequence[int]) -> tuple[list[tuple[int, ...]], list[int], list[int]]:
    """One three-seat round of ``field`` (entrants in seed order): the heats (each in
    seed order), the byes, and how many of each heat go through.

    :raises ValueError: fewer than three entrants.
    """
    n = len(field)
    if n < 3:
        raise ValueError(f"{n} entrants cannot fill a heat of three")
    heats_count = n // 3
    byes = list(field[: n - 3 * heats_count])
    rest = field[len(byes) :]
    heats: list[list[int]] = [[] for _ in range(heats_count)]
    for row in range(3):
        members = rest[row * heats_count : (row + 1) * heats_count]
        if row % 2:
            members = members[::-1]
        for heat, entrant in zip(heats, members, strict=True):
            heat.append(entrant)
    left = max(3, n - 2 * heats_count) if n > 3 else 1
    removed = n - left
    winners_only = removed - heats_count  # heats sending one through; the rest send two
    advance = [1 if i < winners_only else 2 for i in range(heats_count)]
    return [tuple(sorted(h)) for h in heats], byes, advance


@dataclass(frozen=True, slots=True)
class Heat:
    """One heat as far as the results go."""

    round: int
    """1-based knockout round."""
    entrants: tuple[int, ...]
    """In seed order; one entrant alone is a bye."""
    advance: int
    """How many go through."""
    encounter: int = 0
    """The encounter number of its games (0 for a bye)."""
    games: tuple[int, ...] = ()
    """Numbers of its scheduled games."""
    points: tuple[float, ...] = ()
    """Tournament points of each entrant over its finished games."""
    through: tuple[int, ...] | None = None
    """Who went through (in seed order), once decided."""
    by_seed: bool = False
    """Decided by seed after the tiebreak blocks."""

    @property
    def bye(self) -> bool:
        return len(self.entrants) == 1


@dataclass
class KnockoutStep:
    """Where a knockout stands: the heats so far and the games to play next."""

    rounds: list[list[Heat]] = field(default_factory=list)
    pending: list[Fixture] = field(default_factory=list)
    """The next phase: the scheduled games of the current round (its heats' games, or
    a tiebreak block of the heats still tied) not finished yet. Empty when the knockout
    is over."""
    winner: int | None = None


GameResult = tuple[Table, Sequence[float]]
"""A finished game: the entrant in each seat and each seat's tournament points."""


def knockout_step(
    entrants: int,
    players: int,
    games_per_encounter: int,
    finished: Mapping[int, GameResult],
    *,
    seat_order: str = "all",
    extra_blocks: int = EXTRA_BLOCKS,
) -> KnockoutStep:
    """The knockout so far and its next phase, from the finished games by number.

    :raises ValueError: seats other than two or three, or too few entrants.
    """
    if players not in (2, 3):
        raise ValueError(f"a knockout is for two or three seats, not {players}")
    if entrants < players:
        raise ValueError(f"{entrants} entrants cannot fill {players} seats")
    arrangements = seat_arrangements(players, seat_order)
    counter = _Counter()
    step = KnockoutStep()
    if players == 2:
        size = bracket_size(entrants)
        slots = [s if s < entrants else None for s in bracket_order(size)]
        round_heats = [
            (tuple(sorted(e for e in (a, b) if e is not None)), 1)
            for a, b in zip(slots[::2], slots[1::2], strict=True)
        ]
    else:
        heats, byes, advance = triple_round(range(entrants))
        round_heats = [((b,), 1) for b in byes] + list(zip(heats, advance, strict=True))
    round_no = 1
    while True:
        heats_done = _play_round(
            round_no, round_heats, games_per_encounter, arrangements, finished, counter, step,
            extra_blocks,
        )  # fmt: skip
        if heats_done is None:
            return step
        step.rounds.append(heats_done)
        through = [e for heat in heats_done for e in heat.through or ()]
        if len(through) == 1:
            step.winner = through[0]
            return step
        round_no += 1
        if players == 2:  # neighbours in the bracket meet
            round_heats = [
                (tuple(sorted(pair)), 1) for pair in zip(through[::2], through[1::2], strict=True)
            ]
        else:
            heats, byes, advance = triple_round(sorted(through))
            round_heats = [((b,), 1) for b in byes] + list(zip(heats, advance, strict=True))


class _Counter:
    """The next game number, block and encounter, handed out in scheduling order."""

    def __init__(self) -> None:
        self.number = 1
        self.block = 0
        self.encounter = 1


def _play_round(
    round_no: int,
    heats: Sequence[tuple[tuple[int, ...], int]],
    per: int,
    arrangements: Sequence[Table],
    finished: Mapping[int, GameResult],
    counter: _Counter,
    step: KnockoutStep,
    extra_blocks: int,
) -> list[Heat] | None:
    """The round's heats, decided; or None with ``step.pending`` set (and the round's
    heats so far appended to ``step.rounds``) when games remain."""
    states: list[Heat] = []
    fixtures: dict[int, list[Fixture]] = {}
    for i, (members, advance) in enumerate(heats):
        if len(members) == 1:
            states.append(Heat(round_no, members, 1, through=members))
            continue
        made = _schedule(members, per, round_no, arrangements, counter)
        fixtures[i] = made
        states.append(
            Heat(round_no, members, advance, made[0].encounter, tuple(f.number for f in made))
        )
    for level in range(extra_blocks + 1):
        open_ = [i for i in fixtures if states[i].through is None]
        pending = [
            f for i in open_ for f in fixtures[i] if f.number not in finished
        ]  # the games of this phase not finished yet
        for i in open_:
            states[i] = _scored(states[i], finished)
        if pending:
            step.rounds.append(states)
            step.pending = pending
            return None
        more = False
        for i in open_:
            heat = states[i]
            order = _ranking(heat)
            cut = heat.advance
            tied = heat.points[order[cut - 1]] == heat.points[order[cut]]
            if tied and level < extra_blocks:
                extra = _schedule(
                    heat.entrants, len(arrangements), round_no, arrangements, counter,
                    encounter=heat.encounter,
                )  # fmt: skip
                fixtures[i] = extra
                states[i] = Heat(
                    round_no,
                    heat.entrants,
                    heat.advance,
                    heat.encounter,
                    heat.games + tuple(f.number for f in extra),
                    heat.points,
                )
                more = True
            else:
                through = tuple(sorted(heat.entrants[k] for k in order[:cut]))
                states[i] = Heat(
                    round_no,
                    heat.entrants,
                    heat.advance,
                    heat.encounter,
                    heat.games,
                    heat.points,
                    through,
                    by_seed=tied,
                )
        if not more:
            break
    return states


def _schedule(
    members: tuple[int, ...],
    games: int,
    round_no: int,
    arrangements: Sequence[Table],
    counter: _Counter,
    *,
    encounter: int | None = None,
) -> list[Fixture]:
    """``games`` fixtures of a heat, numbered from the counter."""
    if encounter is None:
        encounter = counter.encounter
        counter.encounter += 1
    made = encounter_fixtures(
        members,
        round_no=round_no,
        encounter_no=encounter,
        first_number=counter.number,
        first_block=counter.block,
        games=games,
        arrangements=arrangements,
    )
    counter.number += games
    counter.block += blocks_per_encounter(games, len(arrangements))
    return made


def _scored(heat: Heat, finished: Mapping[int, GameResult]) -> Heat:
    """``heat`` with the points of its finished games."""
    points = dict.fromkeys(heat.entrants, 0.0)
    for number in heat.games:
        result = finished.get(number)
        if result is None:
            continue
        table, values = result
        for entrant, value in zip(table, values, strict=True):
            if entrant in points:
                points[entrant] += value
    return Heat(
        heat.round,
        heat.entrants,
        heat.advance,
        heat.encounter,
        heat.games,
        tuple(points[e] for e in heat.entrants),
    )


def _ranking(heat: Heat) -> list[int]:
    """Positions in ``heat.entrants`` by points (most first), then seed."""
    return sorted(range(len(heat.entrants)), key=lambda k: (-heat.points[k], heat.entrants[k]))


def most_games(
    entrants: int, players: int, games_per_encounter: int, seat_order: str = "all"
) -> int:
    """The most games a knockout can take: every heat tied through every tiebreak block
    (what ``referee`` shows as the total; a knockout usually ends below it)."""
    block = len(seat_arrangements(players, seat_order))
    per_heat = games_per_encounter + EXTRA_BLOCKS * block
    if players == 2:
        return max(entrants - 1, 0) * per_heat
    heats = 0
    n = entrants
    while n > 1:
        if n < 3:
            raise ValueError(f"{n} entrants cannot fill a heat of three")
        round_heats, byes, advance = triple_round(list(range(n)))
        heats += len(round_heats)
        n = len(byes) + sum(advance)
    return heats * per_heat


def bracket_lines(step: KnockoutStep, names: Sequence[str]) -> list[str]:
    """The bracket as text: a line per heat (``#1 a 1.5 - 0.5 #8 h: a``), round by round,
    then the winner."""

    def who(entrant: int) -> str:
        return f"#{entrant + 1} {names[entrant]}"

    lines: list[str] = []
    for heats in step.rounds:
        if not heats:
            continue
        lines.append(f"Round {heats[0].round}")
        for heat in heats:
            if heat.bye:
                lines.append(f"  {who(heat.entrants[0])}: bye")
                continue
            scores = " - ".join(f"{p:g}" for p in heat.points)
            text = f"  {' vs '.join(who(e) for e in heat.entrants)}: {scores}"
            if len(heat.games) > 0:
                text += f" ({len(heat.games)} games)"
            if heat.through is None:
                text += ", playing"
            else:
                text += f"; through: {', '.join(names[e] for e in heat.through)}"
                if heat.by_seed:
                    text += " (tied: by seed)"
            lines.append(text)
    if step.winner is not None:
        lines.append(f"Winner: {names[step.winner]}")
    return lines


def bracket_json(step: KnockoutStep, names: Sequence[str]) -> dict[str, Any]:
    """The bracket as JSON: each round's heats (entrants with their seeds, points, games
    played, who went through or null while it plays, decided by seed), and the winner."""
    return {
        "rounds": [
            [
                {
                    "entrants": [names[e] for e in heat.entrants],
                    "seeds": [e + 1 for e in heat.entrants],
                    "points": list(heat.points),
                    "games": len(heat.games),
                    "through": None
                    if heat.through is None
                    else [names[e] for e in heat.through],
                    "by_seed": heat.by_seed,
                }
                for heat in heats
            ]
            for heats in step.rounds
        ],
        "winner": names[step.winner] if step.winner is not None else None,
    }
