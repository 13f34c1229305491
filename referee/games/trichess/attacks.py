"""Trichess pieces, attacks and the legality tests of docs/rules/trichess.md.

A board is 96 bytes, one per cell index (see ``board``): 0 for an empty cell,
else ``owner * 8 + type`` with the types below. A move is an ``int``
``from << 10 | to << 3 | liberation`` (``liberation`` a piece type 1..5, or 0);
``from == to`` is the deferred exchange of a waiting pawn (``liberation-empty-pool=
deferred``). Sorting move ints sorts by origin, destination, then choice.

Attack detection walks the reverse rays from the attacked cell (every ray,
knight and king relation of the board is symmetric; pawns have their own
reverse table), so "is this king attacked by either opponent" is one pass.
A move's legality is tested on the board after it; when the mover's king was
not in check and does not move, only the lines through the vacated cells can
have opened, so only those are walked.
"""

from __future__ import annotations

from referee.games.trichess.board import NUM_CELLS, Geometry, cell_of

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
PIECE_LETTERS = ".PNBRQK"
"""The letter of each piece type (index 0 unused)."""
VALUES = (0, 1, 3, 3, 5, 9, 0)
"""Material value of each type for non-aggression (the king counts 0)."""
INITIAL_COUNTS = (0, 8, 2, 2, 2, 1, 1)
"""How many pieces of each type a player starts with."""
BACK_RANK = (ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK)


def _codes(mask: int, types: tuple[int, ...]) -> frozenset[int]:
    return frozenset(o * 8 + t for o in range(3) if mask >> o & 1 for t in types)


_MASKS = range(8)
ORTH_ATTACKERS = tuple(_codes(m, (ROOK, QUEEN)) for m in _MASKS)
"""``[owner mask]``: the piece codes that attack along an orthogonal ray."""
DIAG_ATTACKERS = tuple(_codes(m, (BISHOP, QUEEN)) for m in _MASKS)
"""``[owner mask]``: the piece codes that attack along a diagonal ray."""
KNIGHTS = tuple(_codes(m, (KNIGHT,)) for m in _MASKS)
KINGS = tuple(_codes(m, (KING,)) for m in _MASKS)
_OWNERS = tuple(tuple(o for o in range(3) if m >> o & 1) for m in _MASKS)

E1 = tuple(cell_of(p, 0, 4) for p in range(3))
"""Each player's king start cell."""
CASTLES = tuple(
    (
        # (rights bit, king to, rook from, rook to, cells that must be empty, cells not attacked)
        (p * 2, cell_of(p, 0, 6), cell_of(p, 0, 7), cell_of(p, 0, 5),
         (cell_of(p, 0, 5), cell_of(p, 0, 6)), (E1[p], cell_of(p, 0, 5), cell_of(p, 0, 6))),
        (p * 2 + 1, cell_of(p, 0, 2), cell_of(p, 0, 0), cell_of(p, 0, 3),
         (cell_of(p, 0, 1), cell_of(p, 0, 2), cell_of(p, 0, 3)),
         (E1[p], cell_of(p, 0, 3), cell_of(p, 0, 2))),
    )
    for p in range(3)
)  # fmt: skip
"""Per player, the king-side and queen-side castling: what moves and what is checked."""


def attacked(board: bytes | bytearray, s: int, mask: int, geo: Geometry) -> bool:
    """Whether a piece of an owner in ``mask`` (bit ``1 << owner``) could capture on ``s``.

    Pure movement: legality filters (non-aggression, pins, the shield) do not apply.
    """
    codes = KNIGHTS[mask]
    for c in geo.knight[s]:
        if board[c] in codes:
            return True
    codes = KINGS[mask]
    for c in geo.king[s]:
        if board[c] in codes:
            return True
    for o in _OWNERS[mask]:
        pawn = o * 8 + PAWN
        for c in geo.pawn_attackers[o][s]:
            if board[c] == pawn:
                return True
    codes = ORTH_ATTACKERS[mask]
    for path in geo.orth[s]:
        for c in path:
            v = board[c]
            if v:
                if v in codes:
                    return True
                break
    codes = DIAG_ATTACKERS[mask]
    for path in geo.diag_rays[s]:
        for c in path:
            v = board[c]
            if v:
                if v in codes:
                    return True
                break
    return False


def opened(board: bytes | bytearray, s: int, vacated: int, mask: int, geo: Geometry) -> bool:
    """Whether a slider of ``mask`` attacks ``s`` along a line through ``vacated``.

    Used after a move when ``s`` was not attacked before it: only a vacated cell can
    open a line (non-sliding attacks never depend on other pieces).
    """
    lines = geo.lines[s].get(vacated)
    if lines is None:
        return False
    for path, is_diag in lines:
        codes = DIAG_ATTACKERS[mask] if is_diag else ORTH_ATTACKERS[mask]
        for c in path:
            v = board[c]
            if v:
                if v in codes:
                    return True
                break
    return False


def after_move(board: bytes, mover: int, move: int, geo: Geometry) -> tuple[bytearray, int, int]:
    """The board after a pseudo-legal ``move``: ``(board, captured code, captured cell)``.

    Handles en passant (a pawn moving diagonally onto an empty cell takes the pawn
    one cell behind it), castling (the king's two-cell move from e1 also moves the
    rook) and liberation. ``captured`` is 0 when nothing is taken.
    """
    frm, to, lib = move >> 10, (move >> 3) & 127, move & 7
    b = bytearray(board)
    piece = board[frm]
    if frm == to:  # deferred exchange of a waiting pawn
        b[to] = mover * 8 + lib
        return b, 0, to
    captured, cap_cell = board[to], to
    kind = piece & 7
    if kind == PAWN and not captured and to != geo.pawn_push[mover][frm] and to != frm + 16:
        cap_cell = to + 8  # en passant: the pawn stands on its owner's rank 4
        captured = board[cap_cell]
        b[cap_cell] = 0
    elif kind == KING and frm == E1[mover] and (to - frm) in (2, -2):
        for _, king_to, rook_from, rook_to, _, _ in CASTLES[mover]:
            if king_to == to:
                b[rook_from] = 0
                b[rook_to] = mover * 8 + ROOK
    b[frm] = 0
    b[to] = mover * 8 + lib if lib else piece
    return b, captured, cap_cell


def check_move(
    board: bytes,
    mover: int,
    move: int,
    kings: tuple[int, int, int],
    in_check: bool,
    mat: tuple[int, int, int],
    geo: Geometry,
    pinned: frozenset[int] | None = None,
    king_safety: bool = True,
) -> bool:
    """Whether ``move`` passes the legality tests of docs/rules/trichess.md (king safety,
    shield, non-aggression).

    ``move`` must be pseudo-legal (castling conditions already met). ``in_check`` says
    whether the mover's king is attacked now. With ``king_safety=False`` test 1 is
    skipped (the set M of ``TrichessState`` that tells single mates from coalitions). ``pinned`` is
    ``pinned_cells`` of the position when the caller tests many moves of it.

    Before the move the previous seat's king is not attacked by the next seat (the
    previous seat moved legally), and, unless ``in_check``, the mover's king is not
    attacked: a move that vacates no cell on a line to either king, moves no king and
    takes nothing on a protected territory is legal without building the new board.
    """
    frm, to = move >> 10, (move >> 3) & 127
    if frm == to:
        return True  # an exchange changes no occupancy: nothing can open or close
    nxt, prv = (mover + 1) % 3, (mover + 2) % 3
    own, guard = kings[mover], kings[prv]
    lines = geo.lines
    piece = board[frm]
    moved_king = piece & 7 == KING
    captured = board[to]
    restricted = captured and to >> 5 == captured >> 3 and mat[mover] - mat[captured >> 3] >= 3
    if not (
        moved_king
        or (in_check and king_safety)
        or restricted
        or (frm in pinned if pinned is not None else frm in lines[guard] or frm in lines[own])
        or (piece & 7 == PAWN and not captured and (to - frm) & 7)  # maybe en passant
    ):
        return True
    b, captured, cap_cell = after_move(board, mover, move, geo)
    special = cap_cell != to or (moved_king and frm == E1[mover] and (to - frm) in (2, -2))
    if king_safety:
        opp = (1 << nxt) | (1 << prv)
        if moved_king or in_check or special:
            if attacked(b, to if moved_king else own, opp, geo):
                return False
        elif opened(b, own, frm, opp, geo):
            return False
    # The shield: the previous seat's king must not be left attacked by the next one.
    if special:
        if attacked(b, guard, 1 << nxt, geo):
            return False
    elif opened(b, guard, frm, 1 << nxt, geo):
        return False
    if captured:
        victim = captured >> 3
        if cap_cell >> 5 == victim and mat[mover] - mat[victim] >= 3:
            # Non-aggression: allowed only if the capture leaves the victim in check by the mover.
            return attacked(b, kings[victim], 1 << mover, geo)
    return True


def pinned_cells(
    board: bytes, mover: int, kings: tuple[int, int, int], geo: Geometry
) -> frozenset[int]:
    """The mover's pieces whose leaving could open a line: the first piece on a ray from
    the mover's king with an opponent's slider next behind it, or the first piece on a ray
    from the previous seat's king with a slider of the next seat next behind it."""
    nxt, prv = (mover + 1) % 3, (mover + 2) % 3
    found = set()
    for king, mask in ((kings[mover], (1 << nxt) | (1 << prv)), (kings[prv], 1 << nxt)):
        lines = (
            (geo.orth[king], ORTH_ATTACKERS[mask]),
            (geo.diag_rays[king], DIAG_ATTACKERS[mask]),
        )
        for paths, codes in lines:
            for path in paths:
                first = -1
                for c in path:
                    v = board[c]
                    if not v:
                        continue
                    if first >= 0:
                        if v in codes:
                            found.add(first)
                        break
                    if v >> 3 != mover:
                        break
                    first = c
    return frozenset(found)


def find_kings(board: bytes | bytearray) -> list[list[int]]:
    """The cells of each player's kings (a legal position has exactly one each)."""
    kings: list[list[int]] = [[], [], []]
    for c in range(NUM_CELLS):
        v = board[c]
        if v & 7 == KING:
            kings[v >> 3].append(c)
    return kings


def piece_cells(board: bytes | bytearray) -> tuple[tuple[int, ...], ...]:
    """Per player, the cells of its pieces in index order."""
    cells: tuple[list[int], list[int], list[int]] = ([], [], [])
    for c, v in enumerate(board):
        if v:
            cells[v >> 3].append(c)
    return tuple(tuple(own) for own in cells)


def material(board: bytes | bytearray) -> tuple[int, int, int]:
    """Each player's on-board material, king excluded (P1 N3 B3 R5 Q9)."""
    mat = [0, 0, 0]
    for v in board:
        if v:
            mat[v >> 3] += VALUES[v & 7]
    return mat[0], mat[1], mat[2]
