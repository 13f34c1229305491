"""An independent, deliberately naive Trichess referee, compared with ``referee.games.trichess``.

Written from docs/rules/trichess.md with ``(p, r, f)`` coordinates and
dicts, sharing no code with the package: attacks are forward capture sets of every
piece (not reverse rays), every legality rule is re-tested on a copied board after
every move (no pins, no incremental tests), en-passant rights are tracked as the set
of opponents who may still use them. It follows whole random games from the start,
applying moves itself, and must agree on every legal move list and every result.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from referee.games.trichess import Trichess, TrichessState

Cell = tuple[int, int, int]
Piece = tuple[int, str]
Move = tuple[str, dict[Cell, Piece], Cell | None, Piece | None]
LETTERS = "WRB"
FILES = "abcdefgh"
U, D, L, R = "U", "D", "L", "R"
FLIP = {U: D, D: U, L: R, R: L}
SIDE = {U: (L, R), D: (L, R), L: (U, D), R: (U, D)}
VALUE = {"P": 1, "N": 3, "B": 3, "R": 5, "Q": 9, "K": 0}


def name(c: Cell) -> str:
    return f"{LETTERS[c[0]]}{FILES[c[2]]}{c[1] + 1}"


@cache
def step(c: Cell, d: str) -> tuple[Cell, bool] | None:
    p, r, f = c
    if d == U:
        if r < 3:
            return (p, r + 1, f), False
        return (((p + 2) % 3 if f < 4 else (p + 1) % 3), 3, 7 - f), True
    if d == D:
        return ((p, r - 1, f), False) if r > 0 else None
    if d == L:
        return ((p, r, f - 1), False) if f > 0 else None
    return ((p, r, f + 1), False) if f < 7 else None


@cache
def walk(c: Cell, seq: tuple[str, ...]) -> tuple[Cell, bool] | None:
    flipped = False
    for d in seq:
        s = step(c, FLIP[d] if flipped else d)
        if s is None:
            return None
        c, crossed = s
        flipped ^= crossed
    return c, flipped


@cache
def diagonal(c: Cell, v: str, h: str, centre: str) -> tuple[tuple[Cell, bool], ...]:
    ends = dict(w for w in (walk(c, (v, h)), walk(c, (h, v))) if w is not None)
    return () if len(ends) == 2 and centre == "no-diagonals" else tuple(ends.items())


def reach(board: dict[Cell, Piece], c: Cell, kind: str, owner: int, centre: str) -> set[Cell]:
    """Cells the piece could move to or capture on by movement alone (own pieces included)."""
    out: set[Cell] = set()
    if kind == "P":
        fwd = U if c[0] == owner else D
        return {n for h in (L, R) for n, _ in diagonal(c, fwd, h, centre)}
    if kind == "N":
        for x in (U, D, L, R):
            for y in SIDE[x]:
                for seq in ((x, x, y), (y, x, x)):
                    w = walk(c, seq)
                    if w is not None:
                        out.add(w[0])
        return out
    dirs: list[tuple[str, ...]] = []
    if kind in "RQK":
        dirs += [(d,) for d in (U, D, L, R)]
    if kind in "BQK":
        dirs += [(v, h) for v in (U, D) for h in (L, R)]
    for start in dirs:
        todo = [(c, start)]
        while todo:
            cur, ds = todo.pop()
            if len(ds) == 1:
                s = step(cur, ds[0])
                nexts: tuple[tuple[Cell, bool], ...] = () if s is None else (s,)
            else:
                nexts = diagonal(cur, ds[0], ds[1], centre)
            for n, flipped in nexts:
                out.add(n)
                if n not in board and kind != "K":
                    todo.append((n, tuple(FLIP[d] for d in ds) if flipped else ds))
    return out


@dataclass
class Naive:
    options: dict[str, str]
    board: dict[Cell, Piece] = field(default_factory=dict)
    turn: int = 0
    exchanged: bool = False
    rights: set[tuple[int, int]] = field(default_factory=set)
    ep: dict[int, tuple[Cell, set[int]]] = field(default_factory=dict)
    pools: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter(), Counter()])
    pending: set[Cell] = field(default_factory=set)
    clock: int = 0
    start: bool = True

    def __post_init__(self) -> None:
        if not self.start:
            return
        for p in range(3):
            for f, kind in enumerate("RNBQKBNR"):
                self.board[(p, 0, f)] = (p, kind)
                self.board[(p, 1, f)] = (p, "P")
            if self.options["castling"] == "yes":
                self.rights |= {(p, 0), (p, 1)}

    @property
    def deferred(self) -> bool:
        return self.options["liberation-empty-pool"] == "deferred"

    def king(self, p: int, board: dict[Cell, Piece] | None = None) -> Cell:
        b = self.board if board is None else board
        return next(c for c, piece in b.items() if piece == (p, "K"))

    def attacked(self, board: dict[Cell, Piece], s: Cell, owner: int) -> bool:
        centre = self.options["centre"]
        return any(
            s in reach(board, c, kind, o, centre) for c, (o, kind) in board.items() if o == owner
        )

    def mat(self, p: int) -> int:
        return sum(VALUE[k] for o, k in self.board.values() if o == p)

    def pseudo(self) -> list[Move]:
        """(text, board after, captured cell, captured piece) for every pseudo-legal move."""
        x, board = self.turn, self.board
        out: list[Move] = []
        pool = self.pools[x]
        if self.options["liberation-empty-pool"] == "deferred" and +pool:
            waiting = sorted(c for c in self.pending if board[c][0] == x)
            if waiting:
                for c in waiting:
                    for kind in sorted(+pool):
                        nb = dict(board)
                        nb[c] = (x, kind)
                        out.append((f"{name(c)}={kind}", nb, None, None))
                return out
        centre = self.options["centre"]
        for c, (o, kind) in list(board.items()):
            if o != x:
                continue
            targets: list[tuple[Cell, Cell | None]] = []  # (to, en-passant victim cell)
            if kind == "P":
                fwd = U if c[0] == x else D
                s = step(c, fwd)
                if s and s[0] not in board:
                    targets.append((s[0], None))
                    two = step(s[0], U)
                    if (
                        self.options["double-step"] == "yes"
                        and c[0] == x
                        and c[1] == 1
                        and two
                        and two[0] not in board
                    ):
                        targets.append((two[0], None))
                for t in reach(board, c, "P", x, centre):
                    if t in board and board[t][0] != x and board[t][1] != "K":
                        targets.append((t, None))
                    for d, (cell, users) in self.ep.items():
                        behind = (cell[0], 3, cell[2])
                        still = board.get(behind) == (d, "P")
                        if t == cell and x in users and t not in board and still:
                            targets.append((t, behind))
            else:
                for t in reach(board, c, kind, x, centre):
                    if t not in board or (board[t][0] != x and board[t][1] != "K"):
                        targets.append((t, None))
            for t, victim in targets:
                cap = victim or (t if t in board else None)
                nb = dict(board)
                captured = nb.pop(cap) if cap else None
                del nb[c]
                nb[t] = (x, kind)
                choices = [""]
                if kind == "P" and t[0] != x and t[1] == 0 and +pool:
                    choices = sorted(+pool)
                for choice in choices:
                    nb2 = dict(nb)
                    if choice:
                        nb2[t] = (x, choice)
                    text = f"{name(c)}-{name(t)}" + (f"={choice}" if choice else "")
                    out.append((text, nb2, cap, captured))
        opp = [o for o in range(3) if o != x]
        for side, (rook_f, king_f, new_rook_f, empty, safe) in enumerate(
            ((7, 6, 5, (5, 6), (4, 5, 6)), (0, 2, 3, (1, 2, 3), (4, 3, 2)))
        ):
            if (x, side) not in self.rights:
                continue
            if board.get((x, 0, 4)) != (x, "K") or board.get((x, 0, rook_f)) != (x, "R"):
                continue
            if any((x, 0, f) in board for f in empty):
                continue
            if any(self.attacked(board, (x, 0, f), o) for f in safe for o in opp):
                continue
            nb = dict(board)
            del nb[(x, 0, 4)], nb[(x, 0, rook_f)]
            nb[(x, 0, king_f)], nb[(x, 0, new_rook_f)] = (x, "K"), (x, "R")
            out.append((f"{name((x, 0, 4))}-{name((x, 0, king_f))}", nb, None, None))
        return out

    def passes(self, nb: dict[Cell, Piece], cap: Cell | None, captured: Piece | None) -> bool:
        """The legality tests 2 and 3 (shield, non-aggression)."""
        x = self.turn
        nxt, prv = (x + 1) % 3, (x + 2) % 3
        if self.attacked(nb, self.king(prv, nb), nxt):
            return False
        if captured and cap and cap[0] == captured[0]:
            q = captured[0]
            if self.mat(x) - self.mat(q) >= 3 and not self.attacked(nb, self.king(q, nb), x):
                return False
        return True

    def legal(self) -> dict[str, dict[Cell, Piece]]:
        x = self.turn
        out = {}
        for text, nb, cap, captured in self.pseudo():
            if "=" in text and "-" not in text:
                out[text] = nb
                continue
            if any(self.attacked(nb, self.king(x, nb), o) for o in range(3) if o != x):
                continue
            if self.passes(nb, cap, captured):
                out[text] = nb
        return out

    def result(self, moves: dict[str, Any]) -> tuple[int, ...] | None:
        x = self.turn
        last = x if self.exchanged else (x + 2) % 3
        others = [o for o in range(3) if o != last]
        if all(self.attacked(self.board, self.king(o), last) for o in others):
            return tuple(3 if s == last else 0 for s in range(3))
        if not moves:
            opps = [(x + 1) % 3, (x + 2) % 3]
            if not any(self.attacked(self.board, self.king(x), o) for o in opps):
                return (1, 1, 1)
            alone = []
            for y in opps:
                if not self.attacked(self.board, self.king(x), y):
                    continue
                m_set = [t for t in self.pseudo() if self.passes(t[1], t[2], t[3])]
                if all(self.attacked(nb, self.king(x, nb), y) for _, nb, _, _ in m_set):
                    alone.append(y)
            scores = [0, 0, 0]
            if len(alone) == 1:
                scores[alone[0]] = 3
                scores[3 - x - alone[0]] = 1
            elif alone:
                scores = [0 if s == x else 2 for s in range(3)]
            else:
                scores = [1 if s == (x + 2) % 3 else 2 for s in range(3)]
            return tuple(scores)
        cap = self.options["draw-cap"]
        if cap != "none" and self.clock >= int(cap):
            return (1, 1, 1)
        return None

    def play(self, text: str, nb: dict[Cell, Piece]) -> None:
        x, before = self.turn, self.board
        self.board = nb
        if "-" not in text:  # a deferred exchange: the same seat moves on
            cell = next(c for c in self.pending if name(c) == text[:3])
            self.pending.discard(cell)
            self.pools[x][text[-1]] -= 1
            self.exchanged, self.clock = True, 0
            return
        frm_name, to_name = text[:3], text[4:7]
        frm = next(c for c in before if name(c) == frm_name)
        to = next(c for c in nb if name(c) == to_name)
        kind = before[frm][1]
        gone = {c: p for c, p in before.items() if p[0] != x and (c not in nb or nb[c][0] != p[0])}
        for c, (o, k) in gone.items():
            self.pools[o][k] += 1
            self.pending.discard(c)
        if "=" in text:
            self.pools[x][text[-1]] -= 1
        elif kind == "P" and to[0] != x and to[1] == 0 and self.deferred:
            self.pending.add(to)
        if kind == "K":
            self.rights -= {(x, 0), (x, 1)}
        for c in (frm, to):
            for p in range(3):
                if c == (p, 0, 7):
                    self.rights.discard((p, 0))
                if c == (p, 0, 0):
                    self.rights.discard((p, 1))
        for d in list(self.ep):
            self.ep[d][1].discard(x)
            if not self.ep[d][1] or d == x:
                del self.ep[d]
        mode = self.options["en-passant"]
        if kind == "P" and frm[0] == x and frm[1] == 1 and to[1] == 3 and mode != "no":
            users = {(x + 1) % 3} | ({(x + 2) % 3} if mode == "each-opponent" else set())
            self.ep[x] = ((x, 2, frm[2]), users)
        self.clock = 0 if kind == "P" or gone else self.clock + 1
        self.turn, self.exchanged = (x + 1) % 3, False


def load(text: str, options: dict[str, str]) -> Naive:
    """A naive referee in the position of a position token (format: protocol/SPEC.md)."""
    ranks, seat, castling, ep, pools, pending, clock, _ = text.split(":")
    n = Naive(dict(options), start=False)
    for i, rank in enumerate(ranks.split("/")):
        f = 0
        for token in re.findall(r"[1-8]|[wrb][PNBRQK]", rank):
            if token.isdigit():
                f += int(token)
            else:
                n.board[(i // 4, i % 4, f)] = ("wrb".index(token[0]), token[1])
                f += 1
    n.turn, n.exchanged = LETTERS.index(seat[0]), seat.endswith("+")
    for group in re.findall(r"[WRB][KQ]+", castling):
        n.rights |= {(LETTERS.index(group[0]), "KQ".index(side)) for side in group[1:]}
    x = n.turn
    for name_ in [] if ep == "-" else ep.split(","):
        d = LETTERS.index(name_[0])
        cell = (d, int(name_[2]) - 1, FILES.index(name_[1]))
        users = {x} | ({(x + 1) % 3} if d == (x + 2) % 3 else set())
        if options["en-passant"] == "next-only":
            users = {x}
        n.ep[d] = (cell, users)
    for p, word in enumerate(pools.split(",")):
        n.pools[p] = Counter(word.replace("-", ""))
    for name_ in [] if pending == "-" else pending.split(","):
        n.pending.add((LETTERS.index(name_[0]), int(name_[2]) - 1, FILES.index(name_[1])))
    n.clock = int(clock)
    return n


def clone(n: Naive) -> Naive:
    child = Naive(n.options, dict(n.board), n.turn, n.exchanged, set(n.rights), start=False)
    child.ep = {d: (c, set(u)) for d, (c, u) in n.ep.items()}
    child.pools = [Counter(p) for p in n.pools]
    child.pending, child.clock = set(n.pending), n.clock
    return child


def count(n: Naive, depth: int) -> int:
    """Naive perft."""
    legal = n.legal()
    if n.result(legal) is not None:
        return 0
    if depth == 1:
        return len(legal)
    total = 0
    for text, nb in legal.items():
        child = clone(n)
        child.play(text, nb)
        total += count(child, depth - 1)
    return total


def follow(options: dict[str, str], seed: int, plies: int) -> int:
    """Play one random game with both referees side by side; return the plies compared."""
    game = Trichess(options)
    naive = Naive(game.options)
    state: TrichessState = game.initial_state(3)
    rng = random.Random(seed)
    for ply in range(plies):
        legal = naive.legal()
        mine = {game.format_move(state, m): m for m in state.legal_moves()}
        where = f"seed {seed} ply {ply} {game.encode(state)}"
        expected = naive.result(legal)
        outcome = state.outcome()
        got = None if outcome is None else tuple(int(s) for s in outcome.scores)
        assert got == expected, where
        if outcome is not None:
            assert not mine
            return ply
        assert sorted(mine) == sorted(legal), where
        assert state.to_move == naive.turn
        text = rng.choice(sorted(mine))
        naive.play(text, legal[text])
        state = state.play(mine[text])
    return plies


CASES = [
    ({"draw-cap": "12"}, 1, 150),
    (
        {"centre": "no-diagonals", "en-passant": "next-only", "castling": "no", "draw-cap": "12"},
        2,
        150,
    ),
    ({"liberation-empty-pool": "deferred", "double-step": "no", "draw-cap": "12"}, 4, 150),
]
"""(options, seed, plies): many more seeds were compared while writing the rules; these
keep the suite fast."""


@pytest.mark.parametrize(("options", "seed", "plies"), CASES)
def test_naive_referee_agrees_on_random_games(
    options: dict[str, str], seed: int, plies: int
) -> None:
    assert follow(options, seed, plies) > 20


PERFT_FILE = Path(__file__).resolve().parent.parent / "data" / "perft" / "trichess.perft"


def perft_cases() -> list[tuple[str, dict[str, str], str, int, int]]:
    cases, block = [], {}
    for line in PERFT_FILE.read_text().splitlines():
        key, _, value = line.partition(" ")
        if key in ("id", "game", "options", "pos", "players"):
            block[key] = value
        elif key == "perft":
            depth, number = map(int, value.split())
            options = dict(item.split("=", 1) for item in block["options"].split(","))
            cases.append((block["id"], options, block["pos"], depth, number))
    return cases


NAIVE_PERFT = [
    c
    for c in perft_cases()
    if c[3] <= 2 or (c[3] == 3 and c[0] in ("trichess-specials", "trichess-deferred"))
]


@pytest.mark.parametrize(
    ("name", "options", "pos", "depth", "number"),
    NAIVE_PERFT,
    ids=[f"{c[0]}-d{c[3]}" for c in NAIVE_PERFT],
)
def test_naive_referee_agrees_with_the_perft_file(
    name: str, options: dict[str, str], pos: str, depth: int, number: int
) -> None:
    game = Trichess(options)
    state = game.initial_state(3) if pos == "start" else game.decode(pos)
    naive = load(game.encode(state), game.options)
    assert count(naive, depth) == number
