"""Trichess (Christophe Langronier): three-player chess on a 96-cell board.

Rules as in docs/rules/trichess.md, with its options, in this order (default first):

- ``castling=yes|no``: chess castling on the own back rank; e1 and the cells the
  king crosses or lands on must not be attacked by either opponent.
- ``double-step=yes|no``: a pawn on its own rank 2 may advance two cells.
- ``en-passant=each-opponent|next-only|no``: after a double step, each opponent
  (or only the next seat) may take en passant on its first turn after it, while the
  pawn is still on its arrival cell and the passed-over cell is empty.
- ``centre=rosette|no-diagonals``: a diagonal heading into the centre branches into
  both rosette cells of its colour, or stops there.
- ``liberation-empty-pool=stays-pawn|deferred``: a pawn that reaches rank 1 of an
  opponent's territory with an empty pool stays a pawn for good, or waits; a waiting
  pawn is exchanged at the start of its owner's first turn at which the pool holds a
  piece, as a separate move by that seat (``Bd1=N``), after which the same seat makes
  its normal move (and the exchange resets the draw-cap clock). A pawn liberated as
  ``=P`` from a non-empty pool does not wait.
- ``draw-cap=none|N``: after ``N`` plies without a capture, pawn move or exchange the
  game ends, scored as pat (house rule T3).

Legality: the mover's king attacked by neither opponent; the shield (the
previous seat's king not attacked by the next seat); non-aggression (on-board
material before the move; a capture on the victim's own territory by a seat at
least 3 points richer must leave the victim in check by the mover); never onto a
king. Endings, tested after every move: échec et fat 3/0/0, then the
next seat without a legal move: pat 1/1/1, single mate 3 (mater) / 1 / 0 (mated),
double mate 2/2/0, échec et pat (coalition) 2 for the victim and the seat after
it, 1 for the seat before; then the draw cap, scored as pat. ``Outcome.scores`` are
these points and the record's ``Result`` lists them (``result_from_scores``).

A game the referee stops early (move limit) is scored as a pat, 1/1/1, the same
way the rules' optional cap is scored.

Notation and position text: see ``notation``.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.core import Game, OptionSpec
from referee.errors import InvalidOptionError, InvalidPositionError
from referee.games.trichess import notation
from referee.games.trichess.attacks import (
    E1,
    INITIAL_COUNTS,
    KING,
    PAWN,
    ROOK,
    attacked,
    find_kings,
    material,
    piece_cells,
)
from referee.games.trichess.board import CENTRES, COLOUR_NAMES, NAMES, geometry
from referee.games.trichess.position import (
    CORNER_BITS,
    EP_EACH,
    EP_MODES,
    EP_NO,
    Config,
    TrichessState,
    start_board,
)

YES_NO = ("yes", "no")
MAX_CAP = 100_000


class _CapSpec(OptionSpec):
    """``draw-cap``: ``none`` or a number of plies from 1 to ``MAX_CAP``."""

    __slots__ = ()

    def validate(self, value: str) -> str:
        if value == "none":
            return value
        try:
            number = int(value, 10)
        except ValueError:
            raise InvalidOptionError(
                f"option {self.name}={value!r} is neither 'none' nor a number of plies"
            ) from None
        if not 1 <= number <= MAX_CAP:
            raise InvalidOptionError(f"option {self.name}={value} is outside 1..{MAX_CAP}")
        return str(number)

    def describe(self) -> str:
        return f"none|N (plies, 1..{MAX_CAP}; default {self.default})"


class Trichess(Game[TrichessState, int]):
    """Trichess for three seats: White, Red, Black (see the module doc)."""

    name = "trichess"
    version = "1"
    player_counts = (3,)
    option_specs = (
        OptionSpec("castling", "yes", YES_NO, help="chess castling on the own back rank"),
        OptionSpec("double-step", "yes", YES_NO, help="pawns may advance two from rank 2"),
        OptionSpec("en-passant", "each-opponent", EP_MODES, help="who may take en passant"),
        OptionSpec("centre", "rosette", CENTRES, help="diagonals through the centre"),
        OptionSpec(
            "liberation-empty-pool",
            "stays-pawn",
            ("stays-pawn", "deferred"),
            help="a pawn liberating with an empty pool stays a pawn, or waits",
        ),
        _CapSpec("draw-cap", "none", help="plies without capture or pawn move, scored as pat"),
    )
    description = "Trichess: three-player chess on 96 cells, non-aggression, liberation, 3/2/1/0"
    result_from_scores = True

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        opts = self.options
        cap = opts["draw-cap"]
        self.cfg = Config(
            castling=opts["castling"] == "yes",
            double_step=opts["double-step"] == "yes",
            en_passant=EP_MODES.index(opts["en-passant"]),
            centre=opts["centre"],
            deferred=opts["liberation-empty-pool"] == "deferred",
            cap=0 if cap == "none" else int(cap),
            geo=geometry(opts["centre"]),
        )

    def initial_state(self, num_players: int = 3) -> TrichessState:
        self.check_players(num_players)
        rights = 0b111111 if self.cfg.castling else 0
        return self._state(start_board(), 0, rights, (-1, -1, -1), bytes(18), (), False, 0, 0)

    def _state(
        self,
        board: bytes,
        turn: int,
        castling: int,
        ep: tuple[int, int, int],
        pools: bytes,
        pending: tuple[int, ...],
        exchanged: bool,
        clock: int,
        ply: int,
    ) -> TrichessState:
        kings = find_kings(board)
        return TrichessState(
            self.cfg, board, turn, castling, ep, pools, pending, exchanged, clock, ply,
            (kings[0][0], kings[1][0], kings[2][0]), material(board), piece_cells(board),
        )  # fmt: skip

    def parse_move(self, state: TrichessState, text: str) -> int:
        """``Wd2-Wd4``, ``Be3-Bd1=N`` or (deferred exchange) ``Bd1=N``; legality is not checked.

        :raises InvalidMoveError: anything else, including non-canonical spellings.
        """
        return notation.parse_move(text)

    def format_move(self, state: TrichessState, move: int) -> str:
        """:raises InvalidMoveError: ``move`` is not a move int of this game."""
        return notation.format_move(move)

    def encode(self, state: TrichessState) -> str:
        """``ranks:seat:castling:ep:pools:pending:clock:ply``; see ``notation``."""
        return notation.encode(
            notation.RawPosition(
                state.board,
                state.turn,
                state.exchanged,
                state.castling,
                state.ep,
                state.pools,
                state.pending,
                state.clock,
                state.ply,
            )
        )

    def decode(self, text: str) -> TrichessState:
        """Parse ``encode``'s text and check it against the options and the rules' invariants.

        :raises InvalidPositionError: malformed text, or a position no legal play reaches as
            far as kings, counts, rights, en-passant cells, pools and checks show.
        """
        raw = notation.decode(text)
        cfg, board = self.cfg, raw.board

        def fail(why: str) -> InvalidPositionError:
            return InvalidPositionError(f"trichess position {text!r}: {why}")

        kings = find_kings(board)
        if any(len(k) != 1 for k in kings):
            raise fail("each seat needs exactly one king")
        for p in range(3):
            for kind in range(PAWN, KING):
                on_board = board.count(p * 8 + kind)
                if on_board + raw.pools[6 * p + kind] > INITIAL_COUNTS[kind]:
                    raise fail(
                        f"{COLOUR_NAMES[p]} has too many pieces of type {kind} with its pool"
                    )
        for c in range(96):
            v = board[c]
            if v & 7 == PAWN and c >> 5 == v >> 3 and not c & 24:
                raise fail(f"a pawn on its own rank 1 ({NAMES[c]})")
        x = raw.turn
        ep = [-1, -1, -1]
        for c in raw.ep:
            d = c >> 5
            allowed = d == (x + 2) % 3 or (cfg.en_passant == EP_EACH and d == (x + 1) % 3)
            if cfg.en_passant == EP_NO or not cfg.double_step or not allowed:
                raise fail(f"no en-passant right on {NAMES[c]} with these options and seat")
            if (c >> 3) & 3 != 2 or board[c + 8] != d * 8 + PAWN:
                raise fail(f"{NAMES[c]} is not a cell a pawn just passed over")
            ep[d] = c
        for bit in range(6):
            if raw.castling >> bit & 1:
                p = bit // 2
                corner = next(c for c, b in CORNER_BITS.items() if b == bit)
                if (
                    not cfg.castling
                    or board[E1[p]] != p * 8 + KING
                    or board[corner] != p * 8 + ROOK
                ):
                    raise fail(f"{COLOUR_NAMES[p]} cannot have that castling right")
        for c in raw.pending:
            v = board[c]
            if not cfg.deferred or v & 7 != PAWN or c >> 5 == v >> 3 or c & 24:
                raise fail(f"{NAMES[c]} holds no pawn waiting for liberation")
        if raw.exchanged and not cfg.deferred:
            raise fail("an exchange ('+') needs liberation-empty-pool=deferred")
        if raw.clock > raw.ply:
            raise fail("the clock cannot exceed the ply")
        geo, k = cfg.geo, [kk[0] for kk in kings]
        nxt, prv = (x + 1) % 3, (x + 2) % 3
        if attacked(board, k[prv], 1 << nxt, geo):
            raise fail(f"{COLOUR_NAMES[prv]}'s king is attacked by {COLOUR_NAMES[nxt]}")
        if not raw.exchanged and any(attacked(board, k[o], 1 << x, geo) for o in (nxt, prv)):
            raise fail(f"{COLOUR_NAMES[x]} is to move but attacks a king")
        return self._state(
            board, x, raw.castling, (ep[0], ep[1], ep[2]), raw.pools, raw.pending,
            raw.exchanged, raw.clock, raw.ply,
        )  # fmt: skip

    def render(self, state: TrichessState) -> str:
        """The three territories side by side, then the turn or result and the other fields."""
        lines = [notation.render(state.board)]
        outcome = state.outcome()
        who = f"{COLOUR_NAMES[state.turn]} (seat {state.turn + 1})"
        if outcome is None:
            check = " (in check)" if state.status().check else ""
            lines.append(f"ply {state.ply}, {who} to move{check}")
        else:
            lines.append(f"ply {state.ply}, game over: {outcome.reason}")
        fields = self.encode(state).split(":")
        lines.append(
            f"castling {fields[2]}  en passant {fields[3]}  pools {fields[4]}"
            f"  waiting {fields[5]}  clock {fields[6]}"
        )
        return "\n".join(lines)

    def score_unfinished(self, state: TrichessState) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """A game stopped early is scored as a pat: every seat vassal, 1/1/1 (as the rules'
        optional draw cap is, house rule T3)."""
        return (1, 1, 1), (1.0, 1.0, 1.0)

    def evaluate(self, state: TrichessState) -> tuple[float, ...]:
        """Each seat's on-board material, king excluded (P1 N3 B3 R5 Q9), for engines."""
        mat = state.mat
        return float(mat[0]), float(mat[1]), float(mat[2])
