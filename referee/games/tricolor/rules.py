"""Tricolor: ``Tricolor`` (the game) and ``TricolorState`` (a position).

Rules as in docs/rules/tricolor.md, with its options (``n``, ``rim-crowns``):

- The board is the hexagon of side ``n`` cut into triangles (``geometry``). A move places
  a piece on a free lozenge position; the k-th placement of the game (k = 0, 1, …, every
  placement counted, whoever makes it) must be orange, green, yellow for ``k % 3`` = 0,
  1, 2. Passing is impossible.
- A placement scores ``S + H - E`` for the stars, hexagons and empty triangles it
  completes (``configs``); crowns score nothing.
- Extra move: a placement that completes a crown or a star and no hexagon and no empty
  triangle is followed by the next placement of the *same* seat, as a new move (one
  ply; ``to_move`` stays). This chains. Several crowns still give one extra move.
- End: right after a placement, if no position of the next colour is free the game ends
  (other colours may still be free) and the seat that made that placement gains +1.
- Seats: 2 by default; 3 and 4 play the same rules in rotation (seat 1, 2, …), the extra
  move staying with the mover (docs/rules/tricolor.md).
- Result: ranks by points, equal points share the rank (a 2-seat tie is a draw).
  ``Outcome.scores`` holds the points, the last placer's +1 included.
- A game the referee stops early (``score_unfinished``) is ranked by the points so far,
  without the +1 (no one made the last placement).

A move is an ``int`` id (``geometry``: colour · W² + cell of its R triangle). Its text is
the colour letter and the R triangle's coordinates, ``O(-1,0)``, ``G(0,0)``, ``Y(1,-2)``:
decimal without ``+`` or leading zeros, no spaces; only positions on the board parse,
and a position of another colour than the one required parses but is illegal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from referee.core import Game, OptionSpec, Outcome, Seat, State, Termination, ranks_from_scores
from referee.errors import InvalidMoveError, InvalidPositionError
from referee.games.tricolor import notation
from referee.games.tricolor.configs import Configs, configs_for, on_board
from referee.games.tricolor.geometry import COLOUR_NAMES

PLAYER_COUNTS = (2, 3, 4)


@dataclass(frozen=True, slots=True)
class TricolorState(State[int]):
    """A Tricolor position. Equality and hash use the content fields only.

    ``ply``, ``covered``, ``free`` and ``configs`` follow from the content; build states
    with ``Tricolor.initial_state``, ``play`` or ``Tricolor.decode``, which keep them
    consistent.
    """

    n: int
    """Side of the board."""
    rim_crowns: bool
    """Whether crowns at rim vertices count (the ``rim-crowns`` option)."""
    placed: int
    """Mask of the placed move ids (the pieces on the board)."""
    scores: tuple[int, ...]
    """Each seat's points so far, in seat order; its length is the number of seats."""
    turn: int
    """The seat to move, -1 when the game is over."""
    last: int
    """The seat that made the last placement, -1 before the first one."""
    ply: int = field(compare=False)
    """Placements so far (= pieces on the board); the next colour is ``ply % 3``."""
    covered: int = field(compare=False)
    """Coverage mask of the placed pieces' triangles."""
    free: int = field(compare=False)
    """Cell bits of the free positions of the colour required next (0 when over)."""
    configs: Configs = field(compare=False, repr=False)
    """The geometry and configuration tables of ``n`` and ``rim_crowns``."""

    @property
    def num_players(self) -> int:
        return len(self.scores)

    @property
    def to_move(self) -> Seat | None:
        return None if self.turn < 0 else self.turn

    @property
    def colour(self) -> int:
        """The colour of the next placement: 0 orange, 1 green, 2 yellow."""
        return self.ply % 3

    def _generate(self) -> tuple[int, ...]:
        """The free positions of the required colour, by ``i`` then ``j`` ascending."""
        return self.configs.board.moves_of(self.free, self.ply % 3) if self.turn >= 0 else ()

    def is_legal(self, move: int) -> bool:
        """One colour test and one bit test instead of listing the moves."""
        if self.turn < 0 or type(move) is not int:
            return False
        plane = self.configs.board.plane
        colour = self.ply % 3
        cell = move - colour * plane
        return 0 <= cell < plane and (self.free >> cell) & 1 == 1

    def explain_illegal(self, move: int) -> str | None:
        """The rule ``move`` breaks: the colour cycle, or a triangle already covered (naming
        the piece that covers it); None when it breaks neither."""
        board = self.configs.board
        names = board.names
        colour, wanted = move // board.plane, self.ply % 3
        if colour != wanted:
            return (
                f"placement {self.ply + 1} must be {COLOUR_NAMES[wanted]} (the colour cycle "
                f"orange, green, yellow): {names[move]} is {COLOUR_NAMES[colour]}"
            )
        if self.placed >> move & 1:
            return f"a piece already stands on {names[move]}"
        mine, placed = board.tmask[move], self.placed
        while placed:
            low = placed & -placed
            other = low.bit_length() - 1
            if board.tmask[other] & mine:
                return f"{names[move]} overlaps the piece on {names[other]}: a triangle is taken"
            placed ^= low
        return None

    def _apply(self, move: int) -> TricolorState:
        cfg = self.configs
        board = cfg.board
        mine = cfg.of(move)
        placed = self.placed | (1 << move)
        colour, cell = divmod(move, board.plane)
        covered = self.covered | (1 << cell) | (1 << (board.plane + cell + board.l_offset[colour]))
        gain = 0
        for bit, near in mine.empties:
            if not covered >> bit & 1:
                for x in near:
                    if not covered >> x & 1:
                        break
                else:
                    gain -= 1
        blocked = gain < 0  # an empty triangle forbids the extra move
        for a, b in mine.hexagons:
            if placed >> a & 1 and placed >> b & 1:
                gain += 1
                blocked = True
        stars = 0
        for others in mine.stars:
            for x in others:
                if not placed >> x & 1:
                    break
            else:
                stars += 1
        gain += stars
        extra = False
        if not blocked:
            if stars:
                extra = True
            else:
                for a, b in mine.crowns:
                    if placed >> a & 1 and placed >> b & 1:
                        extra = True
                        break
        mover = self.turn
        ply = self.ply + 1
        free = board.free_cells(covered, ply % 3)
        if not free:
            gain += 1
            turn = -1
        elif extra:
            turn = mover
        else:
            turn = mover + 1
            if turn == len(self.scores):
                turn = 0
        scores = self.scores
        if gain:
            points = list(scores)
            points[mover] += gain
            scores = tuple(points)
        return TricolorState(
            self.n, self.rim_crowns, placed, scores, turn, mover, ply, covered, free, cfg
        )

    def outcome(self) -> Outcome | None:
        if self.turn >= 0:
            return None
        points = ", ".join(f"seat {seat + 1} {s}" for seat, s in enumerate(self.scores))
        colour = COLOUR_NAMES[self.ply % 3]
        return Outcome(
            termination=Termination.RULES,
            ranks=ranks_from_scores(self.scores),
            scores=tuple(float(s) for s in self.scores),
            reason=(
                f"no free {colour} position after {self.ply} placements, "
                f"seat {self.last + 1} +1 for the last one: {points}"
            ),
        )


def make_state(
    configs: Configs, placed: int, covered: int, scores: tuple[int, ...], turn: int, last: int
) -> TricolorState:
    """A state from its content, with the derived fields filled in (no rule checks)."""
    board = configs.board
    ply = placed.bit_count()
    free = board.free_cells(covered, ply % 3) if turn >= 0 else 0
    return TricolorState(
        board.n, configs.rim_crowns, placed, scores, turn, last, ply, covered, free, configs
    )


class Tricolor(Game[TricolorState, int]):
    """Tricolor on the hexagon of side ``n`` (see the module doc)."""

    name = "tricolor"
    version = "1"
    player_counts = PLAYER_COUNTS
    option_specs = (
        # The rules set no maximum; 64 is the referee's own bound so that a typo such as
        # n=100000 is refused at once instead of exhausting memory building the board.
        OptionSpec(
            "n", "4", minimum=1, maximum=64, help="side of the hexagonal board in triangle edges"
        ),
        OptionSpec("rim-crowns", "yes", ("yes", "no"), help="crowns at rim vertices count"),
    )
    description = "Tricolor: place orange, green, yellow lozenges in turn; stars and hexagons score"

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self.n = int(self.options["n"])
        self.rim_crowns = self.options["rim-crowns"] == "yes"
        self.configs = configs_for(self.n, self.rim_crowns)
        self.board = self.configs.board

    def initial_state(self, num_players: int = 2) -> TricolorState:
        self.check_players(num_players)
        return make_state(self.configs, 0, 0, (0,) * num_players, 0, -1)

    def parse_move(self, state: TricolorState, text: str) -> int:
        """A position of ``state``'s board such as ``O(-1,0)``; legality is not checked.

        :raises InvalidMoveError: anything else, including non-canonical spellings.
        """
        move = state.configs.board.index.get(text)
        if move is None:
            raise InvalidMoveError(
                f"invalid tricolor move {text!r}: expected a position on the board of side "
                f"{state.n} such as 'O(-1,0)', 'G(0,0)' or 'Y(1,-2)'"
            )
        return move

    def format_move(self, state: TricolorState, move: int) -> str:
        """:raises InvalidMoveError: ``move`` is not a position of the board."""
        names = state.configs.board.names
        if type(move) is not int or not 0 <= move < len(names) or not names[move]:
            raise InvalidMoveError(f"no tricolor move has the number {move!r}")
        return names[move]

    def encode(self, state: TricolorState) -> str:
        """``n:rim|norim:rows:scores:seat:last``; see ``notation``."""
        board = state.configs.board
        return notation.encode(
            board, state.rim_crowns, state.placed, state.scores, state.turn, state.last
        )

    def decode(self, text: str) -> TricolorState:
        """Parse ``encode``'s text and check it against this game's options and the rules.

        Checked: the pieces follow the colour cycle (as many orange as green or one more,
        as many green as yellow or one more); the game is over exactly when the token says
        so; the seat to move is the last placer or the next seat; and the scores add up to
        the stars plus hexagons minus empty triangles on the board (+1 when over), since
        each configuration was completed by exactly one placement.

        :raises InvalidPositionError: malformed text, other options, or such a mismatch.
        """
        raw = notation.decode(text)
        if (raw.n, raw.rim_crowns) != (self.n, self.rim_crowns):
            raise InvalidPositionError(
                f"position {text!r} is for n={raw.n},rim-crowns="
                f"{'yes' if raw.rim_crowns else 'no'}, not {self.options_text()}"
            )
        players = len(raw.scores)
        if players not in self.player_counts:
            raise InvalidPositionError(
                f"position {text!r}: {players} scores, but tricolor has 2 to 4 seats"
            )
        plane = self.board.plane
        counts = [(raw.placed >> (c * plane) & ((1 << plane) - 1)).bit_count() for c in range(3)]
        k = sum(counts)
        if counts != [(k + 2) // 3, (k + 1) // 3, k // 3]:
            raise InvalidPositionError(
                f"position {text!r}: {counts[0]} orange, {counts[1]} green and {counts[2]} "
                "yellow pieces do not follow the colour cycle"
            )
        over = not self.board.free_cells(raw.covered, k % 3)
        if over != (raw.turn < 0) or raw.turn >= players:
            expected = "nobody (game over)" if over else f"one of seats 1..{players}"
            raise InvalidPositionError(f"position {text!r}: {expected} must be to move")
        if (raw.last < 0) != (k == 0) or raw.last >= players:
            raise InvalidPositionError(
                f"position {text!r}: the last placer must be '-' exactly on the empty board"
            )
        if k == 0 and raw.turn != 0:
            raise InvalidPositionError(f"position {text!r}: seat 1 makes the first placement")
        if raw.turn >= 0 and raw.last >= 0 and raw.turn not in (raw.last, (raw.last + 1) % players):
            raise InvalidPositionError(
                f"position {text!r}: seat {raw.turn + 1} cannot move after seat {raw.last + 1}"
            )
        done = on_board(self.configs, raw.placed, raw.covered, crowns=False)
        total = done.points + over
        if sum(raw.scores) != total:
            raise InvalidPositionError(
                f"position {text!r}: the scores add up to {sum(raw.scores)}, but the board "
                f"holds {done.stars} stars, {done.hexagons} hexagons and {done.empty} empty "
                f"triangles{' and the last placement' if over else ''}: {total}"
            )
        return make_state(self.configs, raw.placed, raw.covered, raw.scores, raw.turn, raw.last)

    def render(self, state: TricolorState) -> str:
        """The hexagon (see ``notation.render``), then the scores and whose turn it is."""
        points = ",".join(str(s) for s in state.scores)
        if state.turn >= 0:
            colour = COLOUR_NAMES[state.ply % 3]
            status = f"ply {state.ply}, scores {points}, seat {state.turn + 1} to place {colour}"
        else:
            outcome = state.outcome()
            status = f"ply {state.ply}, game over: {outcome.reason if outcome else ''}"
        return notation.render(state.configs.board, state.placed) + "\n" + status

    def score_unfinished(self, state: TricolorState) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The points so far, without the last placement's +1 (the game did not end)."""
        return ranks_from_scores(state.scores), tuple(float(s) for s in state.scores)
