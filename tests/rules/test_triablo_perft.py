"""Triablo move generation checked against a naive generator written separately.

The naive generator reads the position text (not the board bytes), works on axial
coordinates and dictionaries, and finds vulnerability from the attackers' side (every
tip of the colour, walked to the first piece), where ``referee.games.triablo`` counts
from the target or in one combined pass. It lists move texts, which are compared
with the real ones along seeded random games, and its counts check the depth-3 perft
of both starts (and so tests/data/perft/triablo.perft).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from referee.games.triablo import Triablo, TriabloState
from referee.perft import perft

Point = tuple[int, int]
STEP = {"E": (1, 0), "NE": (1, -1), "NW": (0, -1), "W": (-1, 0), "SW": (-1, 1), "SE": (0, 1)}
TYPE_TIPS = {"E": ("E", "NW", "SW"), "W": ("W", "NE", "SE")}
OPPOSITE_TYPE = {"E": "W", "W": "E"}
ROW_SIZES = (4, 5, 6, 7, 6, 5, 4)


@dataclass(frozen=True)
class Piece:
    top: str
    """Seat letter of the singleton on top (the controller)."""
    bottom: str | None
    """Seat letter of the covered singleton, None for a singleton."""
    orient: str
    """``E`` or ``W``: the top's type (meaningless for a king)."""

    @property
    def is_king(self) -> bool:
        return self.top == self.bottom

    def tips(self, captive_tips: bool) -> dict[str, str]:
        if self.is_king:
            return dict.fromkeys(STEP, self.top)
        tips = dict.fromkeys(TYPE_TIPS[self.orient], self.top)
        if self.bottom is not None and captive_tips:
            tips.update(dict.fromkeys(TYPE_TIPS[OPPOSITE_TYPE[self.orient]], self.bottom))
        return tips


def name(point: Point) -> str:
    q, r = point
    n = q + 4
    return f"{chr(ord('a') + r + n - 1)}{n}"


def on_board(point: Point) -> bool:
    q, r = point
    return max(abs(q), abs(r), abs(q + r)) <= 3


def read_position(text: str) -> tuple[dict[Point, Piece], str, bool]:
    """Pieces, the seat letter to move and the captive-tips option, from the token."""
    fields = text.split(":")
    pieces: dict[Point, Piece] = {}
    for r, (row, size) in enumerate(zip(fields[4].split("/"), ROW_SIZES, strict=True), -3):
        q = max(-3, -3 - r)
        i = 0
        while i < len(row):
            if row[i].isdigit():
                q += int(row[i])
                i += 1
                continue
            top, mark = row[i], row[i + 1]
            i += 2
            if mark == "K":
                pieces[(q, r)] = Piece(top, top, "E")
            else:
                bottom = None
                if i < len(row) and row[i].islower():
                    bottom = row[i].upper()
                    i += 1
                pieces[(q, r)] = Piece(top, bottom, "E" if mark == ">" else "W")
            q += 1
        assert q == max(-3, -3 - r) + size
    seat = "WRB"[int(fields[5]) - 1]
    return pieces, seat, fields[2] == "yes"


def walk(pieces: dict[Point, Piece], start: Point, step: str) -> tuple[list[Point], Point | None]:
    """The empty points along a line, then the first piece's point (or None)."""
    dq, dr = STEP[step]
    q, r = start
    empty: list[Point] = []
    while True:
        q, r = q + dq, r + dr
        if not on_board((q, r)):
            return empty, None
        if (q, r) in pieces:
            return empty, (q, r)
        empty.append((q, r))


def vulnerable(pieces: dict[Point, Piece], target: Point, colour: str, captive: bool) -> bool:
    count = 0
    for where, piece in pieces.items():
        for step, tip_colour in piece.tips(captive).items():
            if tip_colour == colour and walk(pieces, where, step)[1] == target:
                count += 1
    return count >= 3


def naive_moves(text: str) -> set[str]:
    pieces, seat, captive = read_position(text)
    moves: set[str] = set()
    for where, piece in pieces.items():
        if piece.top != seat:
            continue
        here = name(where)
        for step in STEP:
            empty, hit = walk(pieces, where, step)
            enemy = hit is not None and pieces[hit].top != seat
            if piece.is_king:
                if empty:
                    moves.add(f"{here}-{name(empty[0])}")
                elif enemy and hit is not None and vulnerable(pieces, hit, seat, captive):
                    moves.add(f"{here}x{name(hit)}")
                if hit is not None and pieces[hit].top == seat and pieces[hit].bottom is None:
                    moves.update(f"{here}>{name(hit)}/{o}" for o in "EW")
                continue
            tip = step in TYPE_TIPS[piece.orient]
            if piece.bottom is None and not tip:
                continue
            moves.update(f"{here}-{name(p)}/{o}" for p in empty for o in "EW")
            if not (tip and enemy and hit is not None):
                continue
            if not vulnerable(pieces, hit, seat, captive):
                continue
            if piece.bottom is not None:
                moves.update(f"{here}x{name(hit)}/{o}" for o in "EW")
            elif pieces[hit].bottom is None:
                moves.add(f"{here}x{name(hit)}")
    return moves


def real_moves(game: Triablo, state: TriabloState) -> set[str]:
    return {game.format_move(state, move) for move in state.legal_moves()}


@pytest.mark.parametrize(
    ("options", "players"),
    [({}, 2), ({}, 3), ({"captive-tips": "no"}, 2), ({"captive-tips": "no"}, 3)],
)
def test_naive_generator_agrees_along_random_games(options: dict[str, str], players: int) -> None:
    game = Triablo(options)
    rng = random.Random(players * 10 + len(options))
    captures = 0
    for _ in range(8):
        state = game.initial_state(players)
        while state.to_move is not None:
            if rng.random() < 0.25:
                real = real_moves(game, state)
                assert naive_moves(game.encode(state)) == real, game.encode(state)
                captures += sum("x" in text for text in real)
            state = state.play(rng.choice(state.legal_moves()))
    assert captures > 10


@pytest.mark.parametrize(("players", "expected"), [(2, 31656), (3, 8336)])
def test_naive_generator_counts_the_start_to_depth_3(players: int, expected: int) -> None:
    game = Triablo()
    start = game.initial_state(players)
    total = 0
    for first in start.legal_moves():
        after = start.play(first)
        for second in after.legal_moves():
            total += len(naive_moves(game.encode(after.play(second))))
    assert total == expected == perft(start, 3)
