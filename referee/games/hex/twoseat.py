"""What the two hexhex capture games (Tricouleur, Whistling Captures) share.

Both have two seats that alternate from seat 1, a game that ends when a seat has no
stones left or the no-capture count reaches its limit, and a position text whose seat
to move and counters must agree with that. ``TwoSeatRules`` is the base of each game's
``Rules``; ``TwoSeatState`` is the base of each game's frozen ``State`` (it reads the
subclass's ``turn`` and ``quiet`` fields and ``armies``); ``TwoSeatGame`` is the base of
each game's ``Game`` (the diagram's status line and the scores of a stopped game);
``check_decoded`` checks a decoded position.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from referee.core import Game, Outcome, Seat, State, Termination, ranks_from_scores
from referee.errors import InvalidPositionError
from referee.games.hex.board import HexBoard

M = TypeVar("M")
S = TypeVar("S", bound="TwoSeatState[Any]")


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


class TwoSeatGame(Game[S, M]):
    """What the two games' rules objects share: the diagram's status line and the
    scores of a game the referee stops. A subclass names its armies and draws its board."""

    army_names: ClassVar[tuple[str, str]]
    """How the status line names seat 1's and seat 2's stones, e.g. ``("X", "O")``."""

    @abstractmethod
    def draw_board(self, state: S) -> str:
        """The multi-line diagram of the stones, without the status line."""

    def render(self, state: S) -> str:
        """The board (``draw_board``), then whose turn it is or how the game ended."""
        if state.turn >= 0:
            status = (
                f"ply {state.ply}, seat {state.turn + 1} ({self.army_names[state.turn]}) "
                f"to move, {state.quiet} plies without capture"
            )
        else:
            outcome = state.outcome()
            status = f"ply {state.ply}, game over: {outcome.reason if outcome else ''}"
        return self.draw_board(state) + "\n" + status

    def score_unfinished(self, state: S) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Scores are the stones each seat has left, ranks follow from them (more is better).

        Neither game has in-game points and each ends only when a seat loses its last
        stone (or by the no-capture draw), so material is the measure of a game the
        referee stops (move limit) and of the other seat after a forfeit. The scores
        appear in the record's ``Score`` tag of such games (``14,9``); a game ended by
        the rules has none. The rules say nothing about unfinished games. The built-in
        ``greedy`` bot evaluates positions by these scores (``Game.evaluate``).
        """
        counts = self.evaluate(state)
        return ranks_from_scores(counts), counts

    def evaluate(self, state: S) -> tuple[float, ...]:
        """The scores of ``score_unfinished`` (stones left), without ranking them: engines
        call this once per position they look at."""
        return float(state.armies(0).bit_count()), float(state.armies(1).bit_count())


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
