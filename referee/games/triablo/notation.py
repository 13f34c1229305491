"""Triablo text: move notation, the position token and the diagram (no rules here).

Moves (docs/rules/triablo.md): ``b2-d4/W`` singleton or doublet move with the orientation
after the move (a singleton move always carries it, even unchanged; a doublet's is the
cover's); ``a1-b2`` king step; ``c3xd4`` singleton capture and ``a1xb2`` king capture
(no suffix); ``c3xd4/E`` doublet capture (the cover's orientation after it);
``a1>b2/E`` abdication (orientation of the singleton left on ``a1``). Setup moves
(``setup=free``): every singleton of the mover in point order as ``POINT/O`` joined by
``,``: ``a2/W,a3/W,b1/E,b2/W,b3/W,c1/W,c2/W,c3/W``.

Piece tokens (positions and diagrams): an upper-case seat letter (``W`` White,
``R`` Red, ``B`` Black) followed by ``<`` (Type-W, tips W/NE/SE, drawn ◀) or ``>``
(Type-E, tips E/NW/SW, drawn ▶) is a singleton; a doublet adds the captive's
lower-case letter after its cover (``W>r``: a White Type-E cover on a Red captive,
which is Type-W); a king is the letter and ``K`` (``WK``).

The position token is nine fields joined by ``:``::

    players:setup:captive-tips:no-capture-draw:rows:seat:ply:quiet:out
    2:figure:yes:100:4/W<3R>/W<W<2R>R>/WKW<W<1R>R>RK/W<W<2R>R>/W<3R>/4:1:0:0:-

- ``players`` 2 or 3; the three options as in ``Game.options``;
- ``rows``: the seven screen rows from the top (``a4``…``d7``) to the bottom
  (``d1``…``g4``), left to right, joined by ``/``; a digit is a run of empty points;
- ``seat``: the seat to move, 1-based, ``-`` when the game is over;
- ``ply``: moves played (setup moves included); ``quiet``: plies since the last capture
  (setup moves not counted);
- ``out``: the eliminated seats in order, each as its 1-based number and the reason
  (``k`` king captured, ``f`` fewer than three pieces, ``m`` king cannot move or
  abdicate), e.g. ``3m2k``; ``-`` if none.
"""

from __future__ import annotations

from typing import NamedTuple

from referee.errors import InvalidMoveError, InvalidPositionError
from referee.games.triablo.board import INDEX, NAMES, NUM_POINTS, ROWS
from referee.games.triablo.movegen import (
    ABDICATE,
    CAPTURE,
    NO_ORIENT,
    SETUP,
    SLIDE,
    make_move,
)
from referee.games.triablo.pieces import (
    CAPTIVE,
    CONTROLLER,
    KIND,
    KING,
    ORIENT,
    ORIENT_LETTERS,
    SEAT_LETTERS,
    SINGLETON,
    TYPE_E,
    TYPE_W,
    doublet,
    king,
    singleton,
)
from referee.games.triablo.start import setup_move, setup_parts

KING_CAPTURED, TOO_FEW, KING_STUCK = "k", "f", "m"
"""Elimination reasons: king captured, fewer than three pieces, king cannot move."""
REASONS = KING_CAPTURED + TOO_FEW + KING_STUCK

_SIGN = {SLIDE: "-", CAPTURE: "x", ABDICATE: ">"}


def _move_texts() -> dict[int, str]:
    texts: dict[int, str] = {}
    for frm in range(NUM_POINTS):
        for to in range(NUM_POINTS):
            if frm == to:
                continue
            for kind, sign in _SIGN.items():
                head = f"{NAMES[frm]}{sign}{NAMES[to]}"
                for orient in (TYPE_E, TYPE_W):
                    texts[make_move(frm, to, kind, orient)] = f"{head}/{ORIENT_LETTERS[orient]}"
                if kind != ABDICATE:
                    texts[make_move(frm, to, kind, NO_ORIENT)] = head
    return texts


MOVE_TEXT: dict[int, str] = _move_texts()
"""The text of every well-formed ordinary move (legal somewhere or not)."""
TEXT_MOVE: dict[str, int] = {text: move for move, text in MOVE_TEXT.items()}


def format_move(move: int) -> str:
    """Canonical text of an ordinary or setup move.

    :raises InvalidMoveError: ``move`` is not a well-formed move value.
    """
    text = MOVE_TEXT.get(move)
    if text is not None:
        return text
    if isinstance(move, int) and move & SETUP and move > SETUP:
        points, orients = setup_parts(move)
        if points and move == setup_move(points, orients):
            return ",".join(
                f"{NAMES[p]}/{ORIENT_LETTERS[o]}" for p, o in zip(points, orients, strict=True)
            )
    raise InvalidMoveError(f"no triablo move has the value {move!r}")


def parse_move(text: str) -> int:
    """The move written ``text`` (canonical text only; legality is not checked).

    :raises InvalidMoveError: anything else.
    """
    move = TEXT_MOVE.get(text)
    if move is not None:
        return move
    points: list[int] = []
    orients: list[int] = []
    for part in text.split(","):
        name, slash, letter = part.partition("/")
        point = INDEX.get(name, -1)
        if not slash or point < 0 or letter not in ("E", "W") or (points and point <= points[-1]):
            raise InvalidMoveError(
                f"invalid triablo move {text!r}: expected e.g. 'b2-d4/W', 'a1-b2', 'c3xd4', "
                "'c3xd4/E', 'a1>b2/E' or a setup 'a2/W,a3/E,...' in point order"
            )
        points.append(point)
        orients.append(TYPE_E if letter == "E" else TYPE_W)
    return setup_move(points, orients)


# --- pieces as text -------------------------------------------------------------------


def piece_token(code: int) -> str:
    """The token of a non-empty point code."""
    kind = KIND[code]
    letter = SEAT_LETTERS[CONTROLLER[code]]
    if kind == KING:
        return letter + "K"
    shape = "<" if ORIENT[code] == TYPE_W else ">"
    if kind == SINGLETON:
        return letter + shape
    return letter + shape + SEAT_LETTERS[CAPTIVE[code]].lower()


def rows_text(board: bytes) -> str:
    """The ``rows`` field of the position token."""
    out: list[str] = []
    for row in ROWS:
        parts: list[str] = []
        run = 0
        for point in row:
            code = board[point]
            if not code:
                run += 1
                continue
            if run:
                parts.append(str(run))
                run = 0
            parts.append(piece_token(code))
        if run:
            parts.append(str(run))
        out.append("".join(parts))
    return "/".join(out)


def _parse_row(row: str, text: str) -> list[int]:
    codes: list[int] = []
    i = 0
    while i < len(row):
        ch = row[i]
        if ch in "1234567":
            codes.extend([0] * int(ch))
            i += 1
            continue
        seat = SEAT_LETTERS.find(ch)
        shape = row[i + 1 : i + 2]
        if seat < 0 or shape not in ("K", "<", ">"):
            raise InvalidPositionError(f"triablo position {text!r}: bad piece at {row[i:]!r}")
        i += 2
        if shape == "K":
            codes.append(king(seat))
            continue
        orient = TYPE_W if shape == "<" else TYPE_E
        captive = SEAT_LETTERS.lower().find(row[i : i + 1]) if i < len(row) else -1
        if captive >= 0 and captive != seat:
            codes.append(doublet(seat, captive, orient))
            i += 1
        else:
            codes.append(singleton(seat, orient))
    return codes


def parse_rows(rows: str, text: str) -> bytes:
    """The board of a ``rows`` field (canonical spelling only)."""
    parts = rows.split("/")
    if len(parts) != len(ROWS):
        raise InvalidPositionError(f"triablo position {text!r}: expected 7 rows joined by '/'")
    cells = bytearray(NUM_POINTS)
    for row, part in zip(ROWS, parts, strict=True):
        codes = _parse_row(part, text)
        if len(codes) != len(row):
            raise InvalidPositionError(
                f"triablo position {text!r}: row {part!r} must hold {len(row)} points"
            )
        for point, code in zip(row, codes, strict=True):
            cells[point] = code
    board = bytes(cells)
    if rows_text(board) != rows:
        raise InvalidPositionError(f"triablo position {text!r}: rows are not in canonical form")
    return board


# --- the position token ---------------------------------------------------------------


class RawPosition(NamedTuple):
    """The fields of a position token, parsed but not checked against the rules."""

    players: int
    options: tuple[str, str, str]
    board: bytes
    seat: int
    ply: int
    quiet: int
    out: tuple[tuple[int, str], ...]


def encode(raw: RawPosition) -> str:
    """The position token (see the module doc)."""
    out = "".join(f"{seat + 1}{why}" for seat, why in raw.out) or "-"
    seat = "-" if raw.seat < 0 else str(raw.seat + 1)
    numbers = (str(raw.ply), str(raw.quiet))
    return ":".join((str(raw.players), *raw.options, rows_text(raw.board), seat, *numbers, out))


def _number(word: str, what: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or (word != "0" and word[0] == "0") or len(word) > 7:
        raise InvalidPositionError(f"bad {what} {word!r} in triablo position {text!r}")
    return int(word)


def decode(text: str) -> RawPosition:
    """Split and parse a position token.

    :raises InvalidPositionError: wrong field count, player count, rows, seat, numbers
        or eliminations.
    """
    fields = text.split(":")
    if len(fields) != 9:
        raise InvalidPositionError(
            f"bad triablo position {text!r}: expected "
            "players:setup:captive-tips:no-capture-draw:rows:seat:ply:quiet:out"
        )
    players_word, setup, captive, draw, rows, seat_word, ply_word, quiet_word, out_word = fields
    if players_word not in ("2", "3"):
        raise InvalidPositionError(f"triablo position {text!r}: players must be 2 or 3")
    players = int(players_word)
    board = parse_rows(rows, text)
    if seat_word == "-":
        seat = -1
    elif seat_word in ("1", "2", "3")[:players]:
        seat = int(seat_word) - 1
    else:
        raise InvalidPositionError(f"triablo position {text!r}: bad seat {seat_word!r}")
    ply = _number(ply_word, "ply", text)
    quiet = _number(quiet_word, "quiet count", text)
    out: list[tuple[int, str]] = []
    if out_word != "-":
        if len(out_word) % 2:
            raise InvalidPositionError(f"triablo position {text!r}: bad eliminations {out_word!r}")
        for i in range(0, len(out_word), 2):
            who, why = out_word[i], out_word[i + 1]
            if who not in "123"[:players] or why not in REASONS:
                raise InvalidPositionError(
                    f"triablo position {text!r}: bad elimination {out_word[i : i + 2]!r}"
                )
            out.append((int(who) - 1, why))
    return RawPosition(players, (setup, captive, draw), board, seat, ply, quiet, tuple(out))


def render(board: bytes) -> str:
    """The hexagon, one screen row per line, with the first and last point of each row
    named at its ends; ``.`` is an empty point."""
    lines = []
    for row in ROWS:
        pad = "  " * (7 - len(row))
        cells = " ".join((piece_token(board[p]) if board[p] else ".").ljust(3) for p in row)
        lines.append(f"{NAMES[row[0]]}  {pad}{cells}{pad}  {NAMES[row[-1]]}".rstrip())
    lines.append("W/R/B White/Red/Black; > Type-E (tips E NW SW), < Type-W (tips W NE SE);")
    lines.append("K king; a lower-case letter after a cover is its captive")
    return "\n".join(lines)
