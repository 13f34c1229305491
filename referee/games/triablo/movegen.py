"""Triablo moves: their ``int`` form, generation, a fast legality test and the board update.

An ordinary move is ``frm << 10 | to << 4 | kind << 2 | orient`` (below ``1 << 16``):

- ``kind``: ``SLIDE`` (singleton or doublet move, king step: ``-``), ``CAPTURE`` (``x``)
  or ``ABDICATE`` (``>``);
- ``orient``: ``TYPE_E`` or ``TYPE_W`` after the move (of the singleton left behind for an
  abdication), or ``NO_ORIENT`` for the moves written without a suffix (king steps,
  singleton captures, king captures).

The suffix is part of the move, so a move whose suffix does not fit the piece (``a1-b2``
for a singleton) is well formed but never legal. Ascending ``int`` order is the
canonical order: by origin point, destination, kind, then E, W, none.

A setup move (``setup=free``) is ``SETUP | points << 17 | west << 54`` where ``points``
is the bit set of the mover's singletons and ``west`` the subset made Type-W; see
``start``.
"""

from __future__ import annotations

from referee.games.triablo.board import LINES, NEIGHBOURS, NUM_POINTS, RAYS
from referee.games.triablo.pieces import (
    CAPTIVE,
    CONTROLLER,
    DOUBLET,
    KIND,
    KING,
    KING_CODES,
    ORIENT,
    SINGLETON,
    doublet,
    king,
    singleton,
    vulnerable,
)

SLIDE, CAPTURE, ABDICATE = 0, 1, 2
"""Values of a move's ``kind``."""
NO_ORIENT = 2
"""A move written without an orientation suffix."""
SETUP = 1 << 16
"""The flag of a setup move; every ordinary move is below it."""
POINTS_SHIFT = 17
WEST_SHIFT = POINTS_SHIFT + NUM_POINTS

Back = tuple[tuple[int, ...], ...]


def make_move(frm: int, to: int, kind: int, orient: int) -> int:
    """The ``int`` of an ordinary move."""
    return frm << 10 | to << 4 | kind << 2 | orient


def split_move(move: int) -> tuple[int, int, int, int]:
    """``(frm, to, kind, orient)`` of an ordinary move."""
    return move >> 10, (move >> 4) & 63, (move >> 2) & 3, move & 3


def _slide_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    return tuple(
        tuple(
            tuple(frm << 10 | to << 4 | orient for to in RAYS[frm][d] for orient in (0, 1))
            for d in range(6)
        )
        for frm in range(NUM_POINTS)
    )


SLIDES = _slide_table()
"""``SLIDES[frm][d]``: the slides along ray ``d``, two per point (``/E``, ``/W``), nearest first."""
_TIP_DIRECTIONS = ((0, 2, 4), (1, 3, 5))
_ALL_DIRECTIONS = (0, 1, 2, 3, 4, 5)


def generate(board: bytes, seat: int, captive_tips: bool) -> list[int]:
    """Every ordinary move of ``seat``, in canonical (ascending) order.

    One pass walks every line a move or a tip of ``seat``'s colour follows (its pieces'
    lines, and the tips of its captives under other covers when ``captive_tips``),
    counting the tips on each first piece met; a capture candidate is kept when its
    target has at least three.
    """
    moves: list[int] = []
    add = moves.append
    extend = moves.extend
    hits = [0] * NUM_POINTS
    takes: list[int] = []
    controller = CONTROLLER
    for frm, code in enumerate(board):
        if not code:
            continue
        rays = RAYS[frm]
        if controller[code] != seat:
            if captive_tips and CAPTIVE[code] == seat:
                for d in _TIP_DIRECTIONS[1 - ORIENT[code]]:
                    for to in rays[d]:
                        if board[to]:
                            hits[to] += 1
                            break
            continue
        kind = KIND[code]
        base = frm << 10
        if kind == KING:
            for ray in rays:
                if not ray:
                    continue
                to = ray[0]
                target = board[to]
                if target:
                    hits[to] += 1
                    if controller[target] != seat:
                        takes.append(base | to << 4 | CAPTURE << 2 | NO_ORIENT)
                    elif KIND[target] == SINGLETON:
                        add(base | to << 4 | ABDICATE << 2)
                        add(base | to << 4 | ABDICATE << 2 | 1)
                    continue
                add(base | to << 4 | NO_ORIENT)
                for far in ray[1:]:
                    target = board[far]
                    if target:
                        hits[far] += 1
                        if KIND[target] == SINGLETON and controller[target] == seat:
                            add(base | far << 4 | ABDICATE << 2)
                            add(base | far << 4 | ABDICATE << 2 | 1)
                        break
            continue
        orient = ORIENT[code]
        single = kind == SINGLETON
        slides = SLIDES[frm]
        for d in _TIP_DIRECTIONS[orient] if single else _ALL_DIRECTIONS:
            k = 0
            for to in rays[d]:
                target = board[to]
                if target:
                    break
                k += 2
            else:
                if k:
                    extend(slides[d])
                continue
            if k:
                extend(slides[d][:k])
            if (d & 1) != orient:
                continue  # a doublet's captive tips are another colour's
            hits[to] += 1
            if controller[target] == seat:
                continue
            if not single:
                takes.append(base | to << 4 | CAPTURE << 2)
            elif KIND[target] == SINGLETON:
                takes.append(base | to << 4 | CAPTURE << 2 | NO_ORIENT)
    for move in takes:
        if hits[(move >> 4) & 63] >= 3:
            add(move)
            if not move & 3:
                add(move | 1)  # a doublet capture re-orients: /E and /W
    moves.sort()
    return moves


def is_legal(board: bytes, seat: int, back: Back, move: int) -> bool:
    """Whether the ordinary ``move`` is legal for ``seat`` (any ``int``; no generation)."""
    if not 0 <= move < SETUP:
        return False
    frm, to, kind, orient = move >> 10, (move >> 4) & 63, (move >> 2) & 3, move & 3
    if frm >= NUM_POINTS or orient == 3:
        return False
    code = board[frm]
    if CONTROLLER[code] != seat:
        return False
    line = LINES[frm].get(to)
    if line is None:
        return False
    for point in line.between:
        if board[point]:
            return False
    piece = KIND[code]
    target = board[to]
    if kind == SLIDE:
        if target:
            return False
        if piece == SINGLETON:
            return orient != NO_ORIENT and line.direction % 2 == ORIENT[code]
        if piece == DOUBLET:
            return orient != NO_ORIENT
        return orient == NO_ORIENT and not line.between
    if kind == CAPTURE:
        if not target or CONTROLLER[target] == seat:
            return False
        if piece == SINGLETON:
            fits = (
                orient == NO_ORIENT
                and KIND[target] == SINGLETON
                and line.direction % 2 == ORIENT[code]
            )
        elif piece == DOUBLET:
            fits = orient != NO_ORIENT and line.direction % 2 == ORIENT[code]
        else:
            fits = orient == NO_ORIENT and not line.between
        return fits and vulnerable(board, to, seat, back)
    if kind == ABDICATE:
        return (
            piece == KING
            and orient != NO_ORIENT
            and KIND[target] == SINGLETON
            and CONTROLLER[target] == seat
        )
    return False


def apply_move(board: bytes, seat: int, move: int) -> tuple[bytes, int]:
    """The board after the legal ordinary ``move`` and the seat whose piece was captured
    (-1 if none)."""
    frm, to, kind, orient = move >> 10, (move >> 4) & 63, (move >> 2) & 3, move & 3
    code = board[frm]
    target = board[to]
    cells = bytearray(board)
    victim = -1
    if kind == ABDICATE:
        cells[to] = king(seat)
        cells[frm] = singleton(seat, orient)
        return bytes(cells), victim
    if kind == CAPTURE:
        victim = CONTROLLER[target]
    piece = KIND[code]
    if piece == SINGLETON:
        if victim >= 0:
            moved = doublet(seat, victim, 1 - ORIENT[target])
        else:
            moved = singleton(seat, orient)
    elif piece == DOUBLET:
        moved = doublet(seat, CAPTIVE[code], orient)
    else:
        moved = code
    cells[frm] = 0
    cells[to] = moved
    return bytes(cells), victim


def king_can_act(board: bytes, seat: int, back: Back) -> bool:
    """Whether ``seat``'s king can step, capture or abdicate (False without a king).

    Only the neighbours matter: a line whose first point is empty already gives a step.
    """
    where = board.find(KING_CODES[seat])
    if where < 0:
        return False
    for near in NEIGHBOURS[where]:
        if near < 0:
            continue
        code = board[near]
        if not code:
            return True
        if CONTROLLER[code] == seat:
            if KIND[code] == SINGLETON:
                return True
        elif vulnerable(board, near, seat, back):
            return True
    return False
