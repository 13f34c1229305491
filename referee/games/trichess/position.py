"""The Trichess position: ``TrichessState``, its end of game and scoring.

``Config`` holds the rule options that change play; ``TrichessState`` the content
(board, seat to move, castling rights, en-passant cells, pools, waiting pawns,
counters). Kings, material, the check status and the outcome are derived and
cached; equality and hash use the content only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from referee.core import Outcome, Seat, State, Termination, ranks_from_scores
from referee.games.trichess.attacks import (
    BACK_RANK,
    E1,
    KING,
    PAWN,
    VALUES,
    after_move,
    attacked,
    check_move,
    pinned_cells,
)
from referee.games.trichess.board import COLOUR_NAMES, Geometry, cell_of
from referee.games.trichess.explain import explain as explain_move
from referee.games.trichess.movegen import (
    Moves,
    castling_moves,
    is_pseudo_legal,
    piece_moves,
    pseudo_moves,
)

EP_EACH, EP_NEXT, EP_NO = 0, 1, 2
"""Values of ``Config.en_passant``."""
EP_MODES = ("each-opponent", "next-only", "no")

_NO_EP = (-1, -1, -1)
CORNER_BITS = {cell_of(p, 0, f): p * 2 + side for p in range(3) for f, side in ((7, 0), (0, 1))}
"""Each rook start cell mapped to the castling right it carries."""


@dataclass(frozen=True, slots=True)
class Config:
    """The rule options in the form play uses them."""

    castling: bool
    double_step: bool
    en_passant: int
    """``EP_EACH``, ``EP_NEXT`` or ``EP_NO``."""
    centre: str
    deferred: bool
    """``liberation-empty-pool=deferred``: a pawn that arrives with an empty pool waits."""
    cap: int
    """``draw-cap`` in plies, 0 for none."""
    geo: Geometry = field(compare=False, repr=False)


def _name(seat: int) -> str:
    return f"{COLOUR_NAMES[seat]} (seat {seat + 1})"


class _Status(NamedTuple):
    check: bool
    """Whether the seat to move is attacked by either opponent."""
    exchange: bool
    """Whether the seat to move must first exchange a waiting pawn (deferred liberation)."""
    outcome: Outcome | None


@dataclass(frozen=True, slots=True)
class TrichessState(State[int]):
    """A Trichess position; build it with ``Trichess.initial_state``, ``play`` or ``decode``."""

    cfg: Config
    board: bytes
    """96 piece codes (see ``attacks``), one per cell index."""
    turn: int
    """The seat to move, or that would move if the game were not over."""
    castling: int
    """Castling rights: bit ``2p`` king side, ``2p + 1`` queen side of seat ``p``."""
    ep: tuple[int, int, int]
    """Per seat, the cell its pawn just passed over with a double step while still capturable
    en passant, else -1."""
    pools: bytes
    """``pools[6 * p + type]``: seat ``p``'s captured pieces of that type (index 0 unused)."""
    pending: tuple[int, ...]
    """Cells of pawns waiting for a deferred liberation, in index order."""
    exchanged: bool
    """The seat to move has just exchanged a waiting pawn (it now makes its normal move)."""
    clock: int
    """Plies since the last capture, pawn move or exchange (for ``draw-cap``)."""
    ply: int = field()  # field() stops dataclass taking State.ply (a property) as a default
    kings: tuple[int, int, int] = field(compare=False, repr=False)
    mat: tuple[int, int, int] = field(compare=False, repr=False)
    pieces: tuple[tuple[int, ...], ...] = field(compare=False, repr=False)
    """Per seat, the cells of its pieces in index order."""
    _st: _Status | None = field(default=None, compare=False, repr=False)
    _ctx: Moves | None = field(default=None, compare=False, repr=False)
    _pre: _Status | None = field(default=None, compare=False, repr=False)

    @property
    def num_players(self) -> int:
        return 3

    @property
    def to_move(self) -> Seat | None:
        return None if self.status().outcome is not None else self.turn

    def pool(self, seat: int) -> bytes:
        """Seat ``seat``'s pool counts indexed by piece type (index 0 unused)."""
        return self.pools[6 * seat : 6 * seat + 6]

    def context(self, seat: int | None = None) -> Moves:
        """What move generation for ``seat`` (default: the seat to move) needs besides the board."""
        if seat is None or seat == self.turn:
            ctx = self._ctx
            if ctx is None:
                ctx = self._make_context(self.turn)
                object.__setattr__(self, "_ctx", ctx)
            return ctx
        return self._make_context(seat)

    def _make_context(self, me: int) -> Moves:
        cfg = self.cfg
        ep = tuple(c for c in self.ep if c >= 0) if me == self.turn else ()
        return Moves(
            cfg.geo, me, self.castling, ep, self.pool(me), cfg.double_step, self.pieces[me]
        )

    def in_check(self, seat: int) -> bool:
        """Whether ``seat``'s king is attacked by either opponent."""
        return attacked(self.board, self.kings[seat], 7 & ~(1 << seat), self.cfg.geo)

    def status(self) -> _Status:
        """Check, exchange phase and outcome, computed once."""
        st = self._st
        if st is None:
            st = self._compute_status()
            object.__setattr__(self, "_st", st)
        return st

    def prelude(self) -> _Status:
        """Check, échec et fat and the exchange phase: what holds before any move is listed.

        Its ``outcome`` is the fat outcome or None (the game may still be over).
        """
        pre = self._pre
        if pre is None:
            pre = self._compute_prelude()
            object.__setattr__(self, "_pre", pre)
        return pre

    def _compute_prelude(self) -> _Status:
        x, geo, b, k = self.turn, self.cfg.geo, self.board, self.kings
        nxt, prv = (x + 1) % 3, (x + 2) % 3
        check = attacked(b, k[x], (1 << nxt) | (1 << prv), geo)
        if self.exchanged:  # the seat to move has just exchanged: it is the last mover
            if attacked(b, k[nxt], 1 << x, geo) and attacked(b, k[prv], 1 << x, geo):
                return _Status(check, False, _fat(x))
        elif check and attacked(b, k[x], 1 << prv, geo) and attacked(b, k[nxt], 1 << prv, geo):
            return _Status(check, False, _fat(prv))
        waiting = self.cfg.deferred and self.pending and any(self.pool(x))
        if waiting and any(b[c] >> 3 == x for c in self.pending):
            return _Status(check, True, None)
        return _Status(check, False, None)

    def _compute_status(self) -> _Status:
        pre = self.prelude()
        if pre.outcome is not None or pre.exchange:
            return pre
        check = pre.check
        if self._moves is not None and not self._capped():
            has_move = bool(self._moves)
        else:  # a capped game lists no moves, so look for one: a mate or pat still wins
            has_move = self._any_legal(check)
        if not has_move:
            return _Status(check, False, self._no_move_outcome(check))
        if self._capped():
            cap = self.cfg.cap
            reason = f"pat: {cap} plies without a capture or pawn move (draw-cap), all vassals"
            return _Status(check, False, _scored((1, 1, 1), reason))
        return pre

    def _capped(self) -> bool:
        return 0 < self.cfg.cap <= self.clock

    def _any_legal(self, check: bool) -> bool:
        b, x = self.board, self.turn
        k, mat, geo, ctx = self.kings, self.mat, self.cfg.geo, self.context()
        moves: list[int] = []
        # Piece by piece, the king last (its moves always need a full attack test): the
        # first legal move ends the search.
        for frm in (*(c for c in ctx.cells if c != k[x]), k[x]):
            moves.clear()
            piece_moves(b, ctx, frm, moves)
            for move in moves:
                if check_move(b, x, move, k, check, mat, geo):
                    return True
        if self.castling >> (2 * x) & 3:
            for move in castling_moves(b, ctx):
                if check_move(b, x, move, k, check, mat, geo):
                    return True
        return False

    def _no_move_outcome(self, check: bool) -> Outcome:
        x = self.turn
        if not check:
            return _scored((1, 1, 1), f"pat: {_name(x)} has no legal move and is not in check")
        nxt, prv = (x + 1) % 3, (x + 2) % 3
        alone = [y for y in (nxt, prv) if self.mates_alone(y)]
        scores = [0, 0, 0]
        if len(alone) == 1:
            y = alone[0]
            scores[y], scores[3 - x - y] = 3, 1
            reason = f"echec et mat: {_name(y)} mates {_name(x)} alone"
        elif alone:
            scores[nxt] = scores[prv] = 2
            reason = f"double echec et mat of {_name(x)}: each opponent mates alone"
        else:
            scores[x], scores[nxt], scores[prv] = 2, 2, 1
            reason = f"echec et pat: the coalition mates {_name(x)}, {_name(prv)} is vassal"
        return _scored((scores[0], scores[1], scores[2]), reason)

    def mates_alone(self, y: int) -> bool:
        """``y`` attacks the mover's king now and after every move of the set M (pseudo-legal
        moves passing the shield and non-aggression tests), ignoring the third player's
        attacks (docs/rules/trichess.md)."""
        b, x, geo = self.board, self.turn, self.cfg.geo
        if not attacked(b, self.kings[x], 1 << y, geo):
            return False
        for move in pseudo_moves(b, self.context()):
            if not check_move(b, x, move, self.kings, True, self.mat, geo, None, False):
                continue
            after = after_move(b, x, move, geo)[0]
            frm, to = move >> 10, (move >> 3) & 127
            king = to if b[frm] & 7 == KING and frm != to else self.kings[x]
            if not attacked(after, king, 1 << y, geo):
                return False
        return True

    def outcome(self) -> Outcome | None:
        return self.status().outcome

    def _generate(self) -> tuple[int, ...]:
        """Every legal move as a move int (see ``attacks``): by origin, destination, choice."""
        st = self.prelude()
        if st.outcome is not None:
            return ()
        b, x = self.board, self.turn
        if st.exchange:
            return self._exchanges()
        k, mat, geo, check = self.kings, self.mat, self.cfg.geo, st.check
        pins = pinned_cells(b, x, k, geo)
        found = [
            move
            for move in pseudo_moves(b, self.context())
            if check_move(b, x, move, k, check, mat, geo, pins)
        ]
        if self._capped():  # the draw cap ends the game whatever moves remain
            return ()
        found.sort()
        return tuple(found)

    def _exchanges(self) -> tuple[int, ...]:
        x, pool = self.turn, self.pool(self.turn)
        return tuple(
            c << 10 | c << 3 | kind
            for c in self.pending
            if self.board[c] >> 3 == x
            for kind in range(PAWN, 6)
            if pool[kind]
        )

    def is_legal(self, move: int) -> bool:
        """Tests the one move (pseudo-legality, then the legality tests) instead of listing
        every move."""
        if type(move) is not int or move < 0:
            return False
        st = self.status()
        if st.outcome is not None:
            return False
        if st.exchange:
            return move in self._exchanges()
        if self._moves is not None:
            return move in self._moves
        b, x = self.board, self.turn
        if not is_pseudo_legal(b, self.context(), move):
            return False
        geo = self.cfg.geo
        return check_move(b, x, move, self.kings, st.check, self.mat, geo)

    explain_illegal = explain_move  # the rule a move breaks: ``referee.games.trichess.explain``

    def _apply(self, move: int) -> TrichessState:
        cfg, x = self.cfg, self.turn
        frm, to, lib = move >> 10, (move >> 3) & 127, move & 7
        if frm == to:  # deferred exchange: the seat keeps the turn
            b = bytearray(self.board)
            b[to] = x * 8 + lib
            counts, values = bytearray(self.pools), list(self.mat)
            counts[6 * x + lib] -= 1
            values[x] += VALUES[lib] - 1
            pending = tuple(c for c in self.pending if c != to)
            return TrichessState(
                cfg, bytes(b), x, self.castling, self.ep, bytes(counts), pending, True, 0,
                self.ply + 1, self.kings, (values[0], values[1], values[2]), self.pieces,
            )  # fmt: skip
        board = self.board
        b, captured, cap_cell = after_move(board, x, move, cfg.geo)
        kind = board[frm] & 7
        kings, castling, pending, pieces = self.kings, self.castling, self.pending, self.pieces
        mine = [c for c in pieces[x] if c != frm]
        mine.append(to)
        if kind == KING:
            kings = (
                to if x == 0 else kings[0],
                to if x == 1 else kings[1],
                to if x == 2 else kings[2],
            )
            castling &= ~(3 << (2 * x))
            if frm == E1[x] and (to - frm) in (2, -2):  # castling also moves the rook
                rook_from, rook_to = (to + 1, to - 1) if to > frm else (to - 2, to + 1)
                mine[mine.index(rook_from)] = rook_to
        mine.sort()
        if castling:
            for c in (frm, to):
                bit = CORNER_BITS.get(c)
                if bit is not None:
                    castling &= ~(1 << bit)
        mat = self.mat
        pools = self.pools
        if captured or lib:
            counts, values = bytearray(pools), list(mat)
            if captured:
                victim = captured >> 3
                counts[6 * victim + (captured & 7)] += 1
                values[victim] -= VALUES[captured & 7]
                if cap_cell in pending:
                    pending = tuple(c for c in pending if c != cap_cell)
            if lib:
                counts[6 * x + lib] -= 1
                values[x] += VALUES[lib] - 1
            pools, mat = bytes(counts), (values[0], values[1], values[2])
        if not lib and cfg.deferred and kind == PAWN and to >> 5 != x and not to & 24:
            pending = tuple(sorted((*pending, to)))
        nxt = (x + 1) % 3
        ep = self.ep
        double = kind == PAWN and to == frm + 16 and cfg.en_passant != EP_NO
        if double or ep != _NO_EP:
            new_ep = list(ep)
            new_ep[nxt] = -1
            if cfg.en_passant == EP_NEXT:
                new_ep[(x + 2) % 3] = -1
            new_ep[x] = frm + 8 if double else -1
            for s in range(3):  # a right dies with its pawn
                if new_ep[s] >= 0 and b[new_ep[s] + 8] != s * 8 + PAWN:
                    new_ep[s] = -1
            ep = (new_ep[0], new_ep[1], new_ep[2])
        new_pieces = list(pieces)
        new_pieces[x] = tuple(mine)
        if captured:
            new_pieces[captured >> 3] = tuple(c for c in pieces[captured >> 3] if c != cap_cell)
        clock = 0 if kind == PAWN or captured else self.clock + 1
        return TrichessState(
            cfg, bytes(b), nxt, castling, ep, pools, pending, False,
            clock, self.ply + 1, kings, mat, tuple(new_pieces),
        )  # fmt: skip


def _scored(scores: tuple[int, int, int], reason: str) -> Outcome:
    return Outcome(
        Termination.RULES, ranks_from_scores(scores), tuple(float(s) for s in scores), None, reason
    )


def _fat(p: int) -> Outcome:
    scores = [0, 0, 0]
    scores[p] = 3
    reason = f"echec et fat: {_name(p)} checks both opponents at once"
    return _scored((scores[0], scores[1], scores[2]), reason)


def start_board() -> bytes:
    """The start position: each seat's pieces on its own ranks 1 and 2."""
    b = bytearray(96)
    for p in range(3):
        for f in range(8):
            b[cell_of(p, 0, f)] = p * 8 + BACK_RANK[f]
            b[cell_of(p, 1, f)] = p * 8 + PAWN
    assert all(b[E1[p]] == p * 8 + KING for p in range(3))
    return bytes(b)
