"""The position token of the two hexhex capture games: ``rows:seat:quiet:ply``.

Tricouleur and Whistling Captures write a position the same way: the board's screen
rows joined by ``/``, one character per cell (``.`` empty, else its stone's letter),
then the seat to move (``1``, ``2``, or ``-`` when the game is over), the no-capture
count and the ply, as canonical decimals. Only the rows, the letters and the names in
messages differ: a ``RowsToken`` holds those and encodes and decodes (with every check)
for its game, through byte translation tables, so a position costs a few C calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from referee.errors import InvalidPositionError
from referee.games.hex.coords import bits


class RawFields(NamedTuple):
    """The fields of a position token, parsed but not checked against the rules."""

    stones: tuple[int, ...]
    """One mask per stone kind, in the order of the token's letters."""
    turn: int
    """The seat to move, -1 when the game is over."""
    quiet: int
    ply: int


class RowsToken:
    """The token of one game.

    ``game``: its name in messages; ``rows``: the slots of each screen row, top first,
    each row a run of consecutive slots; ``letters``: each stone kind's letter, in the
    order of the masks; ``shape``: the rows' shape in messages ("15 rows of 8..15..8
    cells").
    """

    def __init__(self, game: str, rows: Sequence[Sequence[int]], letters: str, shape: str) -> None:
        self.game = game
        self.shape = shape
        self.letters = letters.encode("ascii")
        self.cells = ". " + " ".join(letters)
        self.alphabet = b"./" + self.letters
        self.slots = max(max(row) for row in rows) + 1
        self.spans = [(row[0], row[-1] + 1) for row in rows]
        marks = b"." + self.letters
        self.kind_bits = [
            bytes.maketrans(marks, bytes(b"01"[i == kind + 1] for i in range(len(marks))))
            for kind in range(len(letters))
        ]

    def encode(self, stones: Sequence[int], turn: int, quiet: int, ply: int) -> str:
        """The token of a position (``turn`` -1 when the game is over)."""
        chars = bytearray(b"." * self.slots)
        for mark, mask in zip(self.letters, stones, strict=True):
            for s in bits(mask):
                chars[s] = mark
        text = b"/".join(chars[a:b] for a, b in self.spans).decode("ascii")
        return f"{text}:{'-' if turn < 0 else turn + 1}:{quiet}:{ply}"

    def decode(self, text: str) -> RawFields:
        """Split and parse a position token.

        :raises InvalidPositionError: wrong field count, row shape, cell character,
            seat or counters.
        """
        game = self.game
        fields = text.split(":")
        if len(fields) != 4:
            raise InvalidPositionError(
                f"bad {game} position {text!r}: expected rows:seat:quiet:ply"
            )
        rows_word, seat_word, quiet_word, ply_word = fields
        words = rows_word.split("/")
        if len(words) != len(self.spans) or any(
            len(w) != b - a for w, (a, b) in zip(words, self.spans, strict=False)
        ):
            raise InvalidPositionError(
                f"{game} position {text!r}: expected {self.shape} joined by '/'"
            )
        if not rows_word.isascii() or rows_word.encode("ascii").translate(None, self.alphabet):
            bad = next(ch for ch in rows_word if ch.encode() not in self.alphabet)
            raise InvalidPositionError(
                f"{game} position {text!r}: bad cell {bad!r} (expected {self.cells})"
            )
        chars = bytearray(b"." * self.slots)
        for word, (a, b) in zip(words, self.spans, strict=True):
            chars[a:b] = word.encode("ascii")
        chars.reverse()  # slot 0 is the lowest bit
        stones = tuple(int(chars.translate(table), 2) for table in self.kind_bits)
        if seat_word not in ("1", "2", "-"):
            raise InvalidPositionError(f"{game} position {text!r}: seat must be 1, 2 or -")
        turn = -1 if seat_word == "-" else int(seat_word) - 1
        quiet = counter(quiet_word, "no-capture count", text)
        return RawFields(stones, turn, quiet, counter(ply_word, "ply", text))


def counter(word: str, what: str, text: str) -> int:
    """A canonical non-negative decimal of at most 6 digits.

    :raises InvalidPositionError: anything else.
    """
    if not (word.isascii() and word.isdigit()) or (word != "0" and word[0] == "0") or len(word) > 6:
        raise InvalidPositionError(f"bad {what} {word!r} in position {text!r}")
    return int(word)
