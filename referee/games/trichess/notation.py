"""Trichess move text, position text and diagrams (pure text; no rules beyond shapes).

Moves (see ``attacks`` for the move int):

- ``Wd2-Wd4``: origin and destination cell names; captures, en passant and double
  steps are written the same way;
- castling is the king's move on its back rank: ``We1-Wg1`` (king side, rook h1->f1)
  and ``We1-Wc1`` (queen side, rook a1->d1), the same in every territory (``Re1-Rg1``);
- liberation adds the chosen piece: ``Be3-Bd1=N`` (``Q R B N P``); it is required
  exactly when the owner's pool is not empty, and absent otherwise;
- the deferred exchange of a waiting pawn (``liberation-empty-pool=deferred``) is the
  pawn's cell and the chosen piece: ``Bd1=N``.

The position token is eight fields joined by ``:``::

    ranks:seat:castling:ep:pools:pending:clock:ply

- ``ranks``: twelve ranks joined by ``/``: White's ranks 1..4, then Red's, then Black's,
  each from file ``a`` to ``h`` of its own territory; a piece is its owner's letter
  ``w r b`` and its type ``P N B R Q K`` (``wK``); a digit 1..8 counts empty cells;
- ``seat``: ``W``, ``R`` or ``B``, the seat to move (or that would move if the game is
  over), followed by ``+`` if that seat has just exchanged a waiting pawn;
- ``castling``: ``-`` or, per seat with rights, its letter then ``K`` and/or ``Q``;
- ``ep``: ``-`` or the cells a pawn has just passed over with a double step, ``,``-joined;
- ``pools``: three ``,``-joined groups (White, Red, Black) of captured pieces, letters
  in the order ``Q R B N P``, ``-`` for an empty pool;
- ``pending``: ``-`` or the ``,``-joined cells of pawns waiting for liberation;
- ``clock``: plies since the last capture, pawn move or exchange; ``ply``: plies played.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from referee.errors import InvalidMoveError, InvalidPositionError
from referee.games.trichess.attacks import PIECE_LETTERS
from referee.games.trichess.board import COLOURS, FILES, INDEX, NAMES

LIB_LETTERS = "PNBRQ"
_LIB_VALUE = {letter: i + 1 for i, letter in enumerate(LIB_LETTERS)}
_OWNER_LETTERS = "wrb"
_POOL_ORDER = (5, 4, 3, 2, 1)
_CASTLE_LETTERS = "KQ"
_TOKEN = re.compile(r"[1-8]|[wrb][PNBRQK]")
_RANK = re.compile(r"(?:[1-8]?(?:[wrb][PNBRQK])+)*[1-8]?")
"""A rank: pieces, with at most one digit (a run of empty cells) between them."""
_TOKEN_BYTES = {str(n): bytes(n) for n in range(1, 9)} | {
    _OWNER_LETTERS[o] + PIECE_LETTERS[t]: bytes((o * 8 + t,)) for o in range(3) for t in range(1, 7)
}


def format_move(move: int) -> str:
    """Canonical text of a move int.

    :raises InvalidMoveError: not a move int of this game.
    """
    if type(move) is not int or move < 0 or move >= 96 << 10:
        raise InvalidMoveError(f"no trichess move has the number {move!r}")
    frm, to, lib = move >> 10, (move >> 3) & 127, move & 7
    if to >= 96 or lib > 5 or (frm == to and not lib):
        raise InvalidMoveError(f"no trichess move has the number {move!r}")
    suffix = f"={LIB_LETTERS[lib - 1]}" if lib else ""
    if frm == to:
        return NAMES[to] + suffix
    return f"{NAMES[frm]}-{NAMES[to]}{suffix}"


def parse_move(text: str) -> int:
    """The move int of canonical move text; legality is not checked.

    :raises InvalidMoveError: anything but ``Wd2-Wd4``, ``Be3-Bd1=N`` or ``Bd1=N`` shapes
        with canonical cell names (``wd2``, ``Wd2 -Wd4``, ``Wd2-Wd2``, ``=K`` do not parse).
    """
    n = len(text)
    lib = 0
    if n == 5 or n == 9:
        lib = _LIB_VALUE.get(text[-1], 0) if text[-2] == "=" else 0
        if not lib:
            raise _bad(text)
    if n == 5:
        cell = INDEX.get(text[:3])
        if cell is None:
            raise _bad(text)
        return cell << 10 | cell << 3 | lib
    if n != 7 and n != 9:
        raise _bad(text)
    frm = INDEX.get(text[:3])
    to = INDEX.get(text[4:7])
    if frm is None or to is None or text[3] != "-" or frm == to:
        raise _bad(text)
    return frm << 10 | to << 3 | lib


def _bad(text: str) -> InvalidMoveError:
    return InvalidMoveError(
        f"invalid trichess move {text!r}: expected e.g. 'Wd2-Wd4', 'Be3-Bd1=N' or 'Bd1=N'"
    )


class RawPosition(NamedTuple):
    """The fields of a position token, parsed but not checked against the rules."""

    board: bytes
    turn: int
    exchanged: bool
    castling: int
    ep: tuple[int, ...]
    pools: bytes
    pending: tuple[int, ...]
    clock: int
    ply: int


def encode(raw: RawPosition) -> str:
    """The position token (see the module doc)."""
    board = raw.board
    ranks = [_rank_text(board[r0 : r0 + 8]) for r0 in range(0, 96, 8)]
    seat = COLOURS[raw.turn] + ("+" if raw.exchanged else "")
    castling = "".join(
        COLOURS[p] + "".join(_CASTLE_LETTERS[s] for s in (0, 1) if raw.castling >> (2 * p + s) & 1)
        for p in range(3)
        if raw.castling >> (2 * p) & 3
    )
    pools = ",".join(
        "".join(PIECE_LETTERS[t] * raw.pools[6 * p + t] for t in _POOL_ORDER) or "-"
        for p in range(3)
    )
    return ":".join(
        (
            "/".join(ranks),
            seat,
            castling or "-",
            _cells(raw.ep),
            pools,
            _cells(raw.pending),
            str(raw.clock),
            str(raw.ply),
        )
    )


@lru_cache(maxsize=4096)
def _rank_text(cells: bytes) -> str:
    out, empty = "", 0
    for v in cells:
        if not v:
            empty += 1
            continue
        if empty:
            out, empty = out + str(empty), 0
        out += _OWNER_LETTERS[v >> 3] + PIECE_LETTERS[v & 7]
    return out + (str(empty) if empty else "")


@lru_cache(maxsize=4096)
def _rank_cells(rank: str) -> bytes | None:
    """The 8 cell codes of a rank's text, or None if it is not a canonical rank."""
    if not _RANK.fullmatch(rank):
        return None
    cells = b"".join(map(_TOKEN_BYTES.__getitem__, _TOKEN.findall(rank)))
    return cells if len(cells) == 8 else None


def _cells(cells: tuple[int, ...]) -> str:
    return ",".join(NAMES[c] for c in cells if c >= 0) or "-"


def _fail(text: str, why: str) -> InvalidPositionError:
    return InvalidPositionError(f"bad trichess position {text!r}: {why}")


def _number(word: str, what: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or (word != "0" and word[0] == "0") or len(word) > 9:
        raise _fail(text, f"bad {what} {word!r}")
    return int(word)


def _parse_cells(word: str, what: str, text: str) -> tuple[int, ...]:
    if word == "-":
        return ()
    cells = []
    for name in word.split(","):
        if name not in INDEX:
            raise _fail(text, f"bad {what} cell {name!r}")
        cells.append(INDEX[name])
    if cells != sorted(set(cells)):
        raise _fail(text, f"{what} cells must be distinct and in board order")
    return tuple(cells)


def decode(text: str) -> RawPosition:
    """Split and parse a position token; the rules are checked by the caller.

    :raises InvalidPositionError: wrong field count or any malformed field.
    """
    fields = text.split(":")
    if len(fields) != 8:
        raise _fail(text, "expected ranks:seat:castling:ep:pools:pending:clock:ply")
    ranks_w, seat_w, castle_w, ep_w, pools_w, pending_w, clock_w, ply_w = fields
    ranks = ranks_w.split("/")
    if len(ranks) != 12:
        raise _fail(text, "expected 12 ranks joined by '/'")
    board = bytearray()
    for rank in ranks:
        cells = _rank_cells(rank)
        if cells is None:
            raise _fail(text, f"bad rank {rank!r} (8 cells: pieces such as 'wK', digits 1-8)")
        board += cells
    if not 1 <= len(seat_w) <= 2 or seat_w[0] not in COLOURS or seat_w[1:] not in ("", "+"):
        raise _fail(text, f"bad seat {seat_w!r} (expected W, R or B, then '+' or nothing)")
    castling = 0
    if castle_w != "-":
        rest, last = castle_w, -1
        while rest:
            p = COLOURS.find(rest[0])
            sides = rest[1:3] if rest[1:3] == "KQ" else rest[1:2]
            if p <= last or sides not in ("K", "Q", "KQ"):
                raise _fail(text, f"bad castling rights {castle_w!r}")
            castling |= sum(1 << (2 * p + _CASTLE_LETTERS.index(s)) for s in sides)
            rest, last = rest[1 + len(sides) :], p
    pool_words = pools_w.split(",")
    if len(pool_words) != 3:
        raise _fail(text, "expected three pools joined by ','")
    pools = bytearray(18)
    for p, word in enumerate(pool_words):
        if word == "-":
            continue
        order = [_POOL_ORDER.index(PIECE_LETTERS.find(ch)) if ch in "QRBNP" else -1 for ch in word]
        if -1 in order or order != sorted(order):
            raise _fail(text, f"bad pool {word!r} (letters Q R B N P in that order, or '-')")
        for ch in word:
            pools[6 * p + PIECE_LETTERS.index(ch)] += 1
    return RawPosition(
        board=bytes(board),
        turn=COLOURS.index(seat_w[0]),
        exchanged=seat_w.endswith("+"),
        castling=castling,
        ep=_parse_cells(ep_w, "en-passant", text),
        pools=bytes(pools),
        pending=_parse_cells(pending_w, "pending", text),
        clock=_number(clock_w, "clock", text),
        ply=_number(ply_w, "ply", text),
    )


def render(board: bytes) -> str:
    """The three territories side by side, each in its owner's frame (rank 4 on top).

    A piece is its owner's letter and type (``wK``); ``.`` is an empty cell. Files
    a-d of a territory continue (past its rank 4) into the territory on its owner's
    left, e-h into the one on the right, with a<->h and d<->e.
    """
    titles = ("White (seat 1)", "Red (seat 2)", "Black (seat 3)")
    lines = ["   " + "".join(f"{t:<29}" for t in titles).rstrip()]
    for r in range(3, -1, -1):
        parts = []
        for p in range(3):
            row = board[p * 32 + r * 8 : p * 32 + r * 8 + 8]
            cells = " ".join(
                (_OWNER_LETTERS[v >> 3] + PIECE_LETTERS[v & 7]) if v else " ." for v in row
            )
            parts.append(f"{r + 1} {cells}")
        lines.append("   ".join(parts).rstrip())
    files = "  " + " ".join(f" {f}" for f in FILES)
    lines.append("   ".join([files] * 3).rstrip())
    return "\n".join(lines)
