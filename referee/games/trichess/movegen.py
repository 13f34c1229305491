"""Trichess pseudo-legal moves (docs/rules/trichess.md) and the direct test of one move.

"Pseudo-legal" means by the pieces' movement, castling and en passant conditions
and the liberation choice, before the legality tests (``attacks.check_move``).
No move ever ends on a king or on an own piece.

``Moves`` bundles what a player's moves depend on besides the board: castling
rights, the live en-passant cells, the pool of captured pieces and the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from referee.games.trichess.attacks import (
    CASTLES,
    E1,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    attacked,
)
from referee.games.trichess.board import Geometry


class Moves(NamedTuple):
    """The non-board context of one player's move generation (a tuple: cheap to build)."""

    geo: Geometry
    mover: int
    castling: int
    """Rights bits: ``2 * player`` king side, ``2 * player + 1`` queen side."""
    ep: tuple[int, ...]
    """The passed-over cells the mover may capture on en passant now."""
    pool: bytes
    """Counts of the mover's captured pieces by type, index 0 unused."""
    double_step: bool
    cells: tuple[int, ...]
    """The cells of the mover's pieces, in index order."""

    def choices(self, to: int) -> tuple[int, ...]:
        """Liberation suffixes for a pawn of the mover arriving on ``to``: ``(0,)`` if none."""
        if to >> 5 == self.mover or to & 24:
            return (0,)
        found = tuple(kind for kind in range(PAWN, QUEEN + 1) if self.pool[kind])
        return found or (0,)

    def ep_victim(self, board: bytes | bytearray, to: int) -> bool:
        """Whether ``to`` is a live en-passant cell whose double-stepped pawn is still there."""
        return to in self.ep and not board[to] and board[to + 8] == (to >> 5) * 8 + PAWN


def pseudo_moves(board: bytes, ctx: Moves) -> list[int]:
    """The mover's pseudo-legal moves, origin by origin (castling last); not sorted."""
    out: list[int] = []
    for frm in ctx.cells:
        piece_moves(board, ctx, frm, out)
    if ctx.castling >> (2 * ctx.mover) & 3:
        out.extend(castling_moves(board, ctx))
    return out


def piece_moves(board: bytes, ctx: Moves, frm: int, out: list[int]) -> None:
    """Append the pseudo-legal moves of the mover's piece on ``frm`` (castling excluded)."""
    geo, me = ctx.geo, ctx.mover
    piece = board[frm]
    kind = piece & 7
    base = frm << 10
    add = out.append
    if kind == PAWN:
        to = geo.pawn_push[me][frm]
        if to >= 0 and not board[to]:
            for lib in ctx.choices(to):
                add(base | to << 3 | lib)
            if ctx.double_step and frm >> 5 == me and (frm >> 3) & 3 == 1 and not board[frm + 16]:
                add(base | (frm + 16) << 3)
        for to in geo.pawn_caps[me][frm]:
            v = board[to]
            if v:
                if v >> 3 != me and v & 7 != KING:
                    for lib in ctx.choices(to):
                        add(base | to << 3 | lib)
            elif ctx.ep and ctx.ep_victim(board, to):
                add(base | to << 3)
        return
    if kind in (KNIGHT, KING):
        for to in geo.knight[frm] if kind == KNIGHT else geo.king[frm]:
            v = board[to]
            if not v or (v >> 3 != me and v & 7 != KING):
                add(base | to << 3)
        return
    if kind != ROOK:  # bishop or queen
        for path, skip in geo.diag[frm]:
            for i, to in enumerate(path):
                v = board[to]
                if i < skip:
                    if v:
                        break
                    continue
                if v:
                    if v >> 3 != me and v & 7 != KING:
                        add(base | to << 3)
                    break
                add(base | to << 3)
    if kind != 3:  # rook or queen (3 is the bishop)
        for path in geo.orth[frm]:
            for to in path:
                v = board[to]
                if v:
                    if v >> 3 != me and v & 7 != KING:
                        add(base | to << 3)
                    break
                add(base | to << 3)


def castling_moves(board: bytes | bytearray, ctx: Moves) -> Iterator[int]:
    """King-side then queen-side castling, where the rights and castling's conditions allow."""
    me, geo = ctx.mover, ctx.geo
    if board[E1[me]] != me * 8 + KING:
        return
    opp = 7 & ~(1 << me)
    for bit, king_to, rook_from, _, empty, safe in CASTLES[me]:
        if not ctx.castling >> bit & 1 or board[rook_from] != me * 8 + ROOK:
            continue
        if any(board[c] for c in empty):
            continue
        if any(attacked(board, c, opp, geo) for c in safe):
            continue
        yield E1[me] << 10 | king_to << 3


def is_pseudo_legal(board: bytes, ctx: Moves, move: int) -> bool:
    """Whether ``move`` (not an exchange) is among ``pseudo_moves``, without listing them."""
    frm, to, lib = move >> 10, (move >> 3) & 127, move & 7
    if frm >= 96 or to >= 96 or frm == to:
        return False
    piece = board[frm]
    me = ctx.mover
    if not piece or piece >> 3 != me:
        return False
    v = board[to]
    if v and (v >> 3 == me or v & 7 == KING):
        return False
    kind = piece & 7
    geo = ctx.geo
    if kind == PAWN:
        if to == geo.pawn_push[me][frm]:
            return not v and lib in ctx.choices(to)
        if to in geo.pawn_caps[me][frm]:
            if v:
                return lib in ctx.choices(to)
            return lib == 0 and bool(ctx.ep) and ctx.ep_victim(board, to)
        return (
            lib == 0
            and ctx.double_step
            and to == frm + 16
            and frm >> 5 == me
            and (frm >> 3) & 3 == 1
            and not v
            and not board[frm + 8]
        )
    if lib:
        return False
    if kind == KNIGHT:
        return to in geo.knight[frm]
    if kind == KING:
        if to in geo.king[frm]:
            return True
        return frm == E1[me] and move in castling_moves(board, ctx)
    between = None
    if kind != ROOK:
        between = geo.diag_between[frm].get(to)
    if between is None and kind != 3:
        between = geo.orth_between[frm].get(to)
    if between is None:
        return False
    for c in between:  # noqa: SIM110 - a plain loop is faster than all() on the hot path
        if board[c]:
            return False
    return True
