"""Why a Trichess move is illegal (``TrichessState.explain_illegal``).

The checks of ``TrichessState.is_legal`` in the order a player thinks of them: the
deferred exchange that must come first, whose piece, the destination, how the piece
moves (pawn steps, double steps, captures and en passant, the liberation choice,
castling's conditions, the lines of the sliders and their blockers), then the legality
tests of docs/rules/trichess.md on the board after the move: the mover's king not in check
(naming a piece that gives it), the shield, and non-aggression. Pure; only for the illegal path.
"""

from __future__ import annotations

from typing import Protocol

from referee.games.trichess.attacks import (
    CASTLES,
    DIAG_ATTACKERS,
    E1,
    KING,
    KINGS,
    KNIGHT,
    KNIGHTS,
    ORTH_ATTACKERS,
    PAWN,
    ROOK,
    after_move,
    attacked,
)
from referee.games.trichess.board import COLOUR_NAMES, NAMES, Geometry
from referee.games.trichess.movegen import Moves


class Options(Protocol):
    """What ``explain`` reads of a ``position.Config``."""

    @property
    def geo(self) -> Geometry: ...
    @property
    def castling(self) -> bool: ...


class Prelude(Protocol):
    """What ``explain`` reads of ``TrichessState.prelude()``."""

    @property
    def exchange(self) -> bool: ...


class Position(Protocol):
    """What ``explain`` reads of a ``position.TrichessState`` (a protocol, so that this
    module, which ``position`` imports, does not import ``position`` back)."""

    @property
    def cfg(self) -> Options: ...
    @property
    def board(self) -> bytes: ...
    @property
    def turn(self) -> int: ...
    @property
    def castling(self) -> int: ...
    @property
    def pending(self) -> tuple[int, ...]: ...
    @property
    def kings(self) -> tuple[int, int, int]: ...
    @property
    def mat(self) -> tuple[int, int, int]: ...
    def pool(self, seat: int) -> bytes: ...
    def context(self, seat: int | None = None) -> Moves: ...
    def prelude(self) -> Prelude: ...


PIECE_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
"""The name of each piece type (index 0 unused)."""


def _piece(code: int) -> str:
    """``Red's queen``."""
    return f"{COLOUR_NAMES[code >> 3]}'s {PIECE_NAMES[code & 7]}"


def attacker(board: bytes | bytearray, s: int, mask: int, geo: Geometry) -> int:
    """A cell whose piece (of an owner in ``mask``) attacks ``s``, or -1: the search of
    ``attacks.attacked``, returning where it found the attack."""
    for codes, cells in ((KNIGHTS[mask], geo.knight[s]), (KINGS[mask], geo.king[s])):
        for c in cells:
            if board[c] in codes:
                return c
    for o in range(3):
        if mask >> o & 1:
            for c in geo.pawn_attackers[o][s]:
                if board[c] == o * 8 + PAWN:
                    return c
    for codes, paths in (
        (ORTH_ATTACKERS[mask], geo.orth[s]),
        (DIAG_ATTACKERS[mask], geo.diag_rays[s]),
    ):
        for path in paths:
            for c in path:
                v = board[c]
                if v:
                    if v in codes:
                        return c
                    break
    return -1


def explain(state: Position, move: int) -> str | None:
    """The rule ``move`` breaks for the seat to move, or None (the game not over)."""
    x = state.turn
    frm, to, lib = move >> 10, (move >> 3) & 127, move & 7
    if state.prelude().exchange:
        waiting = ", ".join(NAMES[c] for c in state.pending if state.board[c] >> 3 == x)
        if frm != to:
            return (
                "liberation-empty-pool=deferred: the waiting pawn on "
                f"{waiting} must first be exchanged (e.g. {waiting.split(',')[0]}=Q)"
            )
        if to not in state.pending or state.board[to] >> 3 != x:
            return f"no pawn of {COLOUR_NAMES[x]} waits for liberation on {NAMES[to]}"
        return None if state.pool(x)[lib] else f"the pool holds no {PIECE_NAMES[lib]} to liberate"
    if frm == to:
        return f"an exchange ({NAMES[to]}=X) is only for a pawn waiting for liberation"
    return _movement(state, move) or _safety(state, move)


def _movement(state: Position, move: int) -> str | None:
    """Pseudo-legality: how the piece moves (``movegen.is_pseudo_legal``)."""
    board, x, ctx, geo = state.board, state.turn, state.context(), state.cfg.geo
    frm, to, lib = move >> 10, (move >> 3) & 127, move & 7
    piece, v = board[frm], board[to]
    if not piece:
        return f"there is no piece on {NAMES[frm]}"
    if piece >> 3 != x:
        return (
            f"the {PIECE_NAMES[piece & 7]} on {NAMES[frm]} is {COLOUR_NAMES[piece >> 3]}'s, "
            f"not {COLOUR_NAMES[x]}'s"
        )
    if v and v >> 3 == x:
        return f"{NAMES[to]} holds {COLOUR_NAMES[x]}'s own {PIECE_NAMES[v & 7]}"
    if v and v & 7 == KING:
        return f"a king is never captured: {NAMES[to]} holds {_piece(v)}"
    kind, name = piece & 7, f"the {PIECE_NAMES[piece & 7]} on {NAMES[frm]}"
    if kind == PAWN:
        if to == geo.pawn_push[x][frm]:
            if v:
                return f"a pawn steps forward only onto an empty cell; {NAMES[to]} is occupied"
            return _liberation(ctx, lib, to)
        if to in geo.pawn_caps[x][frm]:
            if v:
                return _liberation(ctx, lib, to)
            if ctx.ep and ctx.ep_victim(board, to):
                return None if not lib else "an en-passant capture carries no liberation"
            return f"a pawn moves diagonally only to capture; {NAMES[to]} is empty (no en passant)"
        if to == frm + 16 and frm >> 5 == x and (frm >> 3) & 3 == 1:
            if not ctx.double_step:
                return "double-step=no: a pawn advances one cell"
            if board[frm + 8]:
                return f"the pawn's double step is blocked at {NAMES[frm + 8]}"
            if v:
                return f"a pawn steps forward only onto an empty cell; {NAMES[to]} is occupied"
            return None if not lib else "a double step carries no liberation"
        return f"{name} cannot move to {NAMES[to]}"
    if lib:
        return f"only a pawn is liberated: '={'PNBRQ'[lib - 1]}' does not fit a {PIECE_NAMES[kind]}"
    if kind == KNIGHT:
        return None if to in geo.knight[frm] else f"{name} cannot jump to {NAMES[to]}"
    if kind == KING:
        if to in geo.king[frm]:
            return None
        return (
            _castling(state, to)
            if frm == E1[x]
            else f"a king moves one cell; {name} cannot reach {NAMES[to]}"
        )
    between = geo.diag_between[frm].get(to) if kind != ROOK else None
    if between is None and kind != 3:
        between = geo.orth_between[frm].get(to)
    if between is None:
        return f"{NAMES[to]} is not on a line of {name}"
    for c in between:
        if board[c]:
            return f"the path from {NAMES[frm]} to {NAMES[to]} is blocked at {NAMES[c]}"
    return None


def _liberation(ctx: Moves, lib: int, to: int) -> str | None:
    """The liberation choice of a pawn of the mover arriving on ``to`` (``Moves.choices``)."""
    choices = ctx.choices(to)
    if lib in choices:
        return None
    if choices == (0,):
        letter = "PNBRQ"[lib - 1]
        if to >> 5 == ctx.mover or to & 24:
            return f"only a pawn reaching an opponent's rank 1 is liberated: drop '={letter}'"
        return f"the pool is empty, so the move carries no liberation: drop '={letter}'"
    if not lib:
        letters = ", ".join(f"={'PNBRQ'[k - 1]}" for k in choices)
        return f"liberation is compulsory: name a piece of the pool ({letters})"
    return f"the pool holds no {PIECE_NAMES[lib]} to liberate"


def _castling(state: Position, to: int) -> str | None:
    """Castling's conditions (docs/rules/trichess.md) for the king's move from e1 to ``to``."""
    board, x, geo = state.board, state.turn, state.cfg.geo
    for bit, king_to, rook_from, _, empty, safe in CASTLES[x]:
        if king_to != to:
            continue
        if not state.cfg.castling:
            return "castling=no: the king moves one cell"
        if not state.castling >> bit & 1:
            return "castling is no longer allowed on that side: the king or the rook has moved"
        if board[rook_from] != x * 8 + ROOK:
            return f"castling needs the rook on {NAMES[rook_from]}"
        for c in empty:
            if board[c]:
                return f"castling needs {NAMES[c]} empty"
        opponents = 7 & ~(1 << x)
        for c in safe:
            found = attacker(board, c, opponents, geo)
            if found >= 0:
                by = f"{_piece(board[found])} on {NAMES[found]}"
                return f"castling: {NAMES[c]} is attacked by {by}"
        return None
    return f"a king moves one cell; it cannot reach {NAMES[to]}"


def _safety(state: Position, move: int) -> str | None:
    """The legality tests of docs/rules/trichess.md on the board after a pseudo-legal
    ``move`` (``attacks.check_move``)."""
    board, x, geo, kings, mat = state.board, state.turn, state.cfg.geo, state.kings, state.mat
    frm, to = move >> 10, (move >> 3) & 127
    nxt, prv = (x + 1) % 3, (x + 2) % 3
    after, captured, cap_cell = after_move(board, x, move, geo)
    own = to if board[frm] & 7 == KING else kings[x]
    found = attacker(after, own, (1 << nxt) | (1 << prv), geo)
    if found >= 0:
        return (
            f"the king would be in check: {_piece(after[found])} on {NAMES[found]} "
            f"attacks {NAMES[own]}"
        )
    found = attacker(after, kings[prv], 1 << nxt, geo)
    if found >= 0:
        return (
            f"shield: the move would leave {COLOUR_NAMES[prv]}'s king on {NAMES[kings[prv]]} "
            f"attacked by {_piece(after[found])} on {NAMES[found]}"
        )
    if captured:
        victim = captured >> 3
        richer = mat[x] - mat[victim]
        if (
            cap_cell >> 5 == victim
            and richer >= 3
            and not attacked(after, kings[victim], 1 << x, geo)
        ):
            return (
                f"non-aggression: {COLOUR_NAMES[x]} has {mat[x]} points of material to "
                f"{COLOUR_NAMES[victim]}'s {mat[victim]}, so a capture on {COLOUR_NAMES[victim]}'s "
                f"territory must leave its king in check by {COLOUR_NAMES[x]}"
            )
    return None
