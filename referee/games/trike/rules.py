"""Trike (Alek Erickson, 2020): the Trike meta-rule with Pure Trike scoring.

Rules as in docs/rules/trike.md, with its options (``size``, ``mode``, ``pie``):

- Two seats share one neutral pawn. Seat 1 (index 0) opens by placing a checker
  on any cell, with the pawn on top.
- Pie (``pie=yes``): on seat 2's first turn only, it may answer ``swap``. Nothing is
  placed; the opening checker now belongs to seat 2, and seat 1 moves next. Checkers
  belong to seats, so the swap transfers that one checker.
- A normal move slides the pawn in a straight line (six directions) over one or
  more empty cells, never over or onto an occupied one, and places the mover's
  checker under it. Passing is impossible.
- ``mode=zero`` (Pure Trike): the game ends when the seat to move has no move,
  i.e. every neighbour of the pawn is occupied (tested after each move).
- ``mode=even``: a seat that finds the pawn trapped while empty cells remain may
  place on any empty cell (that is its move). The game ends when the board is full.
- ``mode=odd``: a move that traps the pawn while empty cells remain is followed
  by one placement anywhere by the *same* seat. The source calls this part of the
  same turn; here it is a separate move (one ply) by the same seat, like Tricolor's
  extra move, and it repeats while the placement is trapped again. The game ends
  when the board is full.
- Score: each seat counts its checkers on the pawn's cell and its neighbours; the
  higher score wins. The closed neighbourhood of a trapped pawn has 3, 5 or 7
  cells, so ties cannot happen at the end of a game (ranks are still computed
  generally).

A move is an ``int``: a cell index (see ``board``) or ``SWAP``. Its text is the
cell name (``e3``) or ``swap``; only canonical names parse.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee.core import Game, OptionSpec, Outcome, Seat, State, Termination, ranks_from_scores
from referee.errors import InvalidMoveError, InvalidPositionError
from referee.games.trike import notation
from referee.games.trike.board import MAX_SIZE, MIN_SIZE, Board, board_for

SWAP = -1
"""The pie-rule move: seat 2 takes over the opening checker."""
SWAP_TEXT = "swap"

ZERO, EVEN, ODD = 0, 1, 2
"""The values of ``TrikeState.mode``."""
MODES: tuple[str, ...] = ("zero", "even", "odd")
"""Option value of each mode, indexed by mode."""

_MARK = (b"\x01", b"\x02")
"""The cell byte of a checker owned by seat 0 and seat 1 (0 is an empty cell)."""


def derive_turn(board: Board, mode: int, cells: bytes, pawn: int) -> tuple[int, bool]:
    """The seat to move (-1 when the game is over) and whether it may place anywhere.

    Both follow from the position alone: the pawn's checker belongs to the last
    mover (after a swap, to seat 2, and seat 1 moves), and only odd mode gives the
    move back to the seat that trapped the pawn.
    """
    if pawn < 0:
        return 0, False
    owner = cells[pawn] - 1
    for n in board.neighbours[pawn]:
        if not cells[n]:
            return 1 - owner, False
    if mode == ZERO or 0 not in cells:
        return -1, False
    return (1 - owner if mode == EVEN else owner), True


def seat_scores(board: Board, cells: bytes, pawn: int) -> tuple[int, int]:
    """Each seat's checkers on the pawn's cell and its neighbours (0, 0 without pawn)."""
    if pawn < 0:
        return 0, 0
    counts = [0, 0, 0]
    counts[cells[pawn]] += 1
    for n in board.neighbours[pawn]:
        counts[cells[n]] += 1
    return counts[1], counts[2]


@dataclass(frozen=True, slots=True)
class TrikeState(State[int]):
    """A Trike position. Equality and hash use the content fields only.

    ``turn``, ``free`` and ``board`` are derived from the content (see ``derive_turn``
    and ``board_for``); build states with ``Trike.initial_state``, ``play`` or
    ``Trike.decode``, which keep them consistent.
    """

    size: int
    """Side length of the board."""
    mode: int
    """``ZERO``, ``EVEN`` or ``ODD``."""
    pie: bool
    """Whether the ``pie`` option is on (a swap is legal at ply 1)."""
    cells: bytes
    """One byte per cell index: 0 empty, 1 seat 1's checker, 2 seat 2's checker."""
    pawn: int
    """The pawn's cell index, -1 before the first move."""
    ply: int = field()  # field() stops dataclass taking State.ply (a property) as a default
    """Moves played so far, the swap included."""
    turn: int = field(compare=False)
    """The seat to move, -1 when the game is over."""
    free: bool = field(compare=False)
    """Whether the seat to move may place on any empty cell (even/odd modes)."""
    board: Board = field(compare=False, repr=False)
    """The geometry of ``size``."""

    @property
    def num_players(self) -> int:
        return 2

    @property
    def to_move(self) -> Seat | None:
        return None if self.turn < 0 else self.turn

    def _generate(self) -> tuple[int, ...]:
        """Destination cells in index order, then ``SWAP`` where it is legal."""
        if self.turn < 0:
            return ()
        cells = self.cells
        if self.pawn < 0 or self.free:
            return tuple(i for i, v in enumerate(cells) if not v)
        found: list[int] = []
        for ray in self.board.rays[self.pawn]:
            for cell in ray:
                if cells[cell]:
                    break
                found.append(cell)
        found.sort()
        if self.pie and self.ply == 1:
            found.append(SWAP)
        return tuple(found)

    def is_legal(self, move: int) -> bool:
        """Checks one ray (or one cell) instead of generating every move."""
        if self.turn < 0 or type(move) is not int:
            return False
        if move == SWAP:
            return self.pie and self.ply == 1
        cells = self.cells
        if not 0 <= move < len(cells) or cells[move]:
            return False
        if self.pawn < 0 or self.free:
            return True
        path = self.board.between[self.pawn].get(move)
        if path is None:
            return False
        for cell in path:  # noqa: SIM110 - a plain loop is faster than all() on the hot path
            if cells[cell]:
                return False
        return True

    def explain_illegal(self, move: int) -> str | None:
        """The rule ``move`` breaks (pie swap, occupied cell, the pawn's straight line),
        or None."""
        board, cells = self.board, self.cells
        if move == SWAP:
            if not self.pie:
                return "the pie swap is off in this game (pie=no)"
            if self.ply != 1:
                return "the pie swap is only allowed on ply 2, seat 2's first turn"
            return None
        if type(move) is not int or not 0 <= move < len(cells):
            return f"there is no cell {move!r} on this board"
        name = board.names[move]
        if move == self.pawn:
            return f"the pawn stands on {name}: it must move to another cell"
        if cells[move]:
            return f"the cell {name} is occupied (seat {cells[move]}'s checker)"
        if self.pawn < 0 or self.free:
            return None
        pawn = board.names[self.pawn]
        path = board.between[self.pawn].get(move)
        if path is None:
            return f"{name} is not in a straight line from the pawn on {pawn}"
        for cell in path:
            if cells[cell]:
                return f"the pawn's path from {pawn} to {name} is blocked at {board.names[cell]}"
        return None

    def _apply(self, move: int) -> TrikeState:
        cells = self.cells
        if move == SWAP:
            pawn = self.pawn
            cells = cells[:pawn] + b"\x02" + cells[pawn + 1 :]
        else:
            pawn = move
            cells = cells[:move] + _MARK[self.turn] + cells[move + 1 :]
        board = self.board
        turn, free = derive_turn(board, self.mode, cells, pawn)
        return TrikeState(
            self.size, self.mode, self.pie, cells, pawn, self.ply + 1, turn, free, board
        )

    def scores(self) -> tuple[int, int]:
        """The Pure Trike score of each seat with the pawn where it is now."""
        return seat_scores(self.board, self.cells, self.pawn)

    def outcome(self) -> Outcome | None:
        if self.turn >= 0:
            return None
        scores = self.scores()
        where = self.board.names[self.pawn]
        why = f"pawn trapped at {where}" if self.mode == ZERO else f"board full, pawn at {where}"
        return Outcome(
            termination=Termination.RULES,
            ranks=ranks_from_scores(scores),
            scores=(float(scores[0]), float(scores[1])),
            reason=f"{why}: seat 1 scores {scores[0]}, seat 2 scores {scores[1]}",
        )


class Trike(Game[TrikeState, int]):
    """Trike on a triangle of side ``size`` with Pure Trike scoring (see the module doc)."""

    name = "trike"
    aliases = ("pure-trike",)
    version = "1"
    player_counts = (2,)
    option_specs = (
        OptionSpec(
            "size", "9", minimum=MIN_SIZE, maximum=MAX_SIZE, help="side of the triangular board"
        ),
        OptionSpec("mode", "zero", MODES, help="zero: ends when trapped; even/odd: fill the board"),
        OptionSpec("pie", "yes", ("yes", "no"), help="seat 2 may swap on its first turn"),
    )
    description = "Trike: move the shared pawn, place under it; score around the trapped pawn"

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self.size = int(self.options["size"])
        self.mode = MODES.index(self.options["mode"])
        self.pie = self.options["pie"] == "yes"
        self.board = board_for(self.size)

    def initial_state(self, num_players: int = 2) -> TrikeState:
        self.check_players(num_players)
        cells = bytes(self.board.num_cells)
        return TrikeState(self.size, self.mode, self.pie, cells, -1, 0, 0, False, self.board)

    def parse_move(self, state: TrikeState, text: str) -> int:
        """A cell name of ``state``'s board or ``swap``; legality is not checked.

        :raises InvalidMoveError: anything else, including non-canonical spellings.
        """
        if text == SWAP_TEXT:
            return SWAP
        cell = state.board.index.get(text)
        if cell is None:
            last = state.board.names[-1]
            raise InvalidMoveError(
                f"invalid trike move {text!r}: expected a cell a1..{last} such as 'e3', or 'swap'"
            )
        return cell

    def format_move(self, state: TrikeState, move: int) -> str:
        """:raises InvalidMoveError: ``move`` is neither ``SWAP`` nor a cell of the board."""
        if move == SWAP:
            return SWAP_TEXT
        if not 0 <= move < state.board.num_cells:
            raise InvalidMoveError(f"no trike move has the number {move}")
        return state.board.names[move]

    def encode(self, state: TrikeState) -> str:
        """``size:mode:pie|nopie:rows:pawn:seat:ply``; see ``notation``."""
        return notation.encode(
            state.board,
            MODES[state.mode],
            state.pie,
            state.cells,
            state.pawn,
            state.turn,
            state.ply,
        )

    def decode(self, text: str) -> TrikeState:
        """Parse ``encode``'s text and check it against this game's options and the rules.

        :raises InvalidPositionError: malformed text, other options, or a position
            that no sequence of legal moves reaches (as far as the counts show).
        """
        raw = notation.decode(text)
        if (raw.size, raw.mode, raw.pie) != (self.size, MODES[self.mode], self.pie):
            raise InvalidPositionError(
                f"position {text!r} is for size={raw.size},mode={raw.mode},"
                f"pie={'yes' if raw.pie else 'no'}, not {self.options_text()}"
            )
        board, cells, pawn, ply = self.board, raw.cells, raw.pawn, raw.ply
        _check_counts(self.mode, self.pie, cells, pawn, ply, text)
        turn, free = derive_turn(board, self.mode, cells, pawn)
        if turn != raw.turn:
            expected = "nobody (game over)" if turn < 0 else f"seat {turn + 1}"
            raise InvalidPositionError(f"position {text!r}: {expected} is to move")
        return TrikeState(self.size, self.mode, self.pie, cells, pawn, ply, turn, free, board)

    def render(self, state: TrikeState) -> str:
        """The triangle with row letters and base numbers, ``X``/``O`` checkers, ``[ ]`` pawn."""
        if state.turn >= 0:
            where = "no pawn yet" if state.pawn < 0 else f"pawn on {state.board.names[state.pawn]}"
            status = f"ply {state.ply}, {where}, seat {state.turn + 1} to move"
            if state.free:
                status += " (pawn trapped: place anywhere)"
        else:
            outcome = state.outcome()
            status = f"ply {state.ply}, game over: {outcome.reason if outcome else ''}"
        return notation.render(state.board, state.cells, state.pawn) + "\n" + status

    def score_unfinished(self, state: TrikeState) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Scores as if the game ended now with the pawn where it is (all 0 before a move)."""
        scores = state.scores()
        return ranks_from_scores(scores), (float(scores[0]), float(scores[1]))


def _check_counts(mode: int, pie: bool, cells: bytes, pawn: int, ply: int, text: str) -> None:
    """Check that the checkers, pawn and ply fit together.

    Every move but the swap places one checker, so ``ply - checkers`` is 0, or 1 after
    a swap. In zero and even modes seats alternate, which fixes each seat's count
    and the owner of the pawn's checker (the last mover).
    """
    placed_1, placed_2 = cells.count(1), cells.count(2)
    swapped = ply - placed_1 - placed_2
    if ply == 0 and pawn >= 0:
        raise InvalidPositionError(f"position {text!r}: a pawn on the board at ply 0")
    if ply > 0 and (pawn < 0 or not cells[pawn]):
        raise InvalidPositionError(f"position {text!r}: the pawn must stand on a checker")
    if swapped not in (0, 1) or (swapped and not (pie and ply >= 2)):
        raise InvalidPositionError(f"position {text!r}: {ply} plies do not fit the checkers")
    if mode == ODD or ply == 0:
        return
    expected = ((ply - 1) // 2, ply // 2) if swapped else ((ply + 1) // 2, ply // 2)
    if (placed_1, placed_2) != expected or cells[pawn] - 1 != (ply - 1) % 2:
        raise InvalidPositionError(
            f"position {text!r}: seats alternate, so ply {ply} means "
            f"{expected[0]} checkers of seat 1 and {expected[1]} of seat 2, the last on the pawn"
        )
