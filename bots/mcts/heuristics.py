"""Positional terms the mcts engine adds, per game, to the game's own ``Game.evaluate``.

``Game.evaluate`` is material (pieces, stones, points so far): the rules' own, shared
by every engine. A game listed here also gets a positional term per seat, added to
those values before they become expected points (``values.Valuer``); the material
alone still counts the plies without a change (the shuffle damping of ``values``), so
the no-capture draw is seen as before.

**Triablo: aims.** A capture needs three tips of the capturer's colour aimed at the
target (the first piece along each tip's line), and a piece with fewer than three on it
is safe. With material alone the search sees a capture only once it is one move away:
against an opponent who looks two plies ahead (the greedy bot moves a threatened piece
away) it gets ahead early, then shuffles until the no-capture count draws the game
(mcts scored 71–75 % against greedy at 5+0.05, every non-win a draw). The term counts,
for every seat, its tips aimed at enemy pieces, at most three per target
(``AIM_WEIGHT`` each), and ``VULNERABLE_WEIGHT`` more for every enemy piece with three
or more, which a seat to move may take: so the search builds up aims step by step and
prefers the moves that threaten two pieces at once, which a one-move defence cannot
parry. In ``benchmarks/README.md`` (mcts against greedy) this took Triablo from
71–75 % to 100 % with two seats and 89 % with three.

Cost: one pass over the board's pieces and their tip lines, about 10 µs a position
(``Game.evaluate`` alone: under 1 µs), so about a third of the iterations a second; at
equal time the knowledge wins by far.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.core import Game, State
from referee.games.triablo.board import NUM_POINTS, RAYS
from referee.games.triablo.pieces import CONTROLLER, NO_ONE, NUM_CODES, TIPS

Positional = Callable[[State[Any]], tuple[float, ...]]
"""A positional term: one value per seat, added to ``Game.evaluate``'s."""

AIM_WEIGHT = 0.05
"""Triablo: value of one tip aimed at an enemy piece (up to three per piece), in pieces."""
VULNERABLE_WEIGHT = 0.3
"""Triablo: value of an enemy piece with three or more tips of the seat aimed at it."""


def _tip_lines(
    captive_tips: bool,
) -> tuple[tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...], ...]:
    """Per point and piece code, ``(colour, colour · NUM_POINTS, line)`` of each of the
    piece's tips that has a line on the board."""
    table = TIPS[captive_tips]
    return tuple(
        tuple(
            tuple(
                (colour, colour * NUM_POINTS, RAYS[point][d])
                for d, colour in enumerate(table[code])
                if colour != NO_ONE and RAYS[point][d]
            )
            for code in range(NUM_CODES)
        )
        for point in range(NUM_POINTS)
    )


_TIP_LINES = (_tip_lines(False), _tip_lines(True))


def triablo_aims(state: Any) -> tuple[float, ...]:
    """Triablo's positional term (module docstring); 0 for a seat that is out."""
    board: bytes = state.board
    players: int = state.config.players
    lines = _TIP_LINES[state.config.captive_tips]
    controller = CONTROLLER
    aims = [0] * (NUM_POINTS * players)
    for point, code in enumerate(board):
        if code:
            for colour, base, line in lines[point][code]:
                for target in line:
                    seen = board[target]
                    if seen:
                        if controller[seen] != colour:
                            aims[base + target] += 1
                        break
    terms = []
    for seat in range(players):
        # Counted at C speed: targets with one, two and three or more aims.
        aimed = aims[seat * NUM_POINTS : (seat + 1) * NUM_POINTS]
        one, two = aimed.count(1), aimed.count(2)
        many = NUM_POINTS - aimed.count(0) - one - two
        terms.append(AIM_WEIGHT * (one + 2 * two + 3 * many) + VULNERABLE_WEIGHT * many)
    for seat, _ in state.out:
        terms[seat] = 0.0
    return tuple(terms)


POSITIONAL: dict[str, Positional] = {"triablo": triablo_aims}
"""The games with a positional term, by ``Game.name``."""


def positional(game: Game[Any, Any]) -> Positional | None:
    """The positional term of ``game``, or None (material alone)."""
    return POSITIONAL.get(game.name)
