"""What the two hexhex capture games (Tricouleur, Whistling Captures) share.

Both have two seats that alternate from seat 1, a game that ends when a seat has no
stones left or the no-capture count reaches its limit, and a position text whose seat
to move and counters must agree with that. ``TwoSeatRules`` is the base of each game's
``Rules``; ``TwoSeatState`` is the base of each game's frozen ``State`` (it reads the
subclass's ``turn`` and ``quiet`` fields and ``armies``); ``check_decoded`` checks a
decoded position.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import TypeVar

from referee.core import Outcome, Seat, State, Termination
from referee.errors import InvalidPositionError
from referee.games.hex.board import HexBoard

M = TypeVar("M")


@dataclass(frozen=True, slots=True, eq=False)
class TwoSeatRules:
    """The option values shared by every state of one game (a game adds its tables)."""

    board: HexBoard
    closer_captures: bool
    """Whether captures must obey the closer rule."""
    draw_after: int
    """Plies without capture that draw the game; 0 = never."""


class TwoSeatState(State[M]):
    """The turn and outcome of a two-seat hexhex capture game.

    A subclass is a frozen slots dataclass with the fields ``turn`` (the seat to move,
    -1 when over) and ``quiet`` (plies since the last capture), and implements
    ``armies`` and ``State._generate``.
    """

    __slots__ = ()

    turn: int
    quiet: int

    @abstractmethod
    def armies(self, seat: int) -> int:
        """The mask of every stone of ``seat``."""

    @property
    def num_players(self) -> int:
        return 2

    @property
    def to_move(self) -> Seat | None:
        return None if self.turn < 0 else self.turn

    def outcome(self) -> Outcome | None:
        if self.turn >= 0:
            return None
        for seat in (0, 1):
            if not self.armies(seat):
                ranks = (2, 1) if seat == 0 else (1, 2)
                return Outcome(
                    Termination.RULES, ranks, (), None, f"seat {seat + 1} has no stones left"
                )
        return Outcome(
            Termination.RULES, (1, 1), (), None, f"draw: {self.quiet} plies without a capture"
        )


def derive_turn(armies: tuple[int, int], quiet: int, ply: int, draw_after: int) -> int:
    """The seat to move (-1 when over): seats alternate from seat 1; the game ends when a
    seat has no stones or the no-capture count reached ``draw_after`` (0: never)."""
    if not armies[0] or not armies[1] or (draw_after and quiet >= draw_after):
        return -1
    return ply % 2


def check_decoded(
    label: str, text: str, armies: tuple[int, int], quiet: int, ply: int, turn: int, draw_after: int
) -> None:
    """Check a decoded position's counters and seat to move (``turn``, -1: over).

    :raises InvalidPositionError: ``{label} position {text!r}: …`` when the no-capture
        count exceeds the ply or the draw limit, ``turn`` is not the seat the stones and
        counters give, or a seat lost its stones other than on the other seat's move.
    """
    where = f"{label} position {text!r}"
    if quiet > ply:
        raise InvalidPositionError(f"{where}: no-capture count above ply")
    if draw_after and quiet > draw_after:
        raise InvalidPositionError(f"{where}: the game ended at {draw_after} plies without capture")
    derived = derive_turn(armies, quiet, ply, draw_after)
    if derived != turn:
        expected = "nobody (game over)" if derived < 0 else f"seat {derived + 1}"
        raise InvalidPositionError(f"{where}: {expected} is to move")
    for seat in (0, 1):
        if not armies[seat] and (ply % 2 != seat or ply == 0):
            raise InvalidPositionError(f"{where}: only the seat to move can have lost its stones")
