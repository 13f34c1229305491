"""An independent, deliberately naive Tricolor model, and the cross-checks that use it.

It shares no code or formula with ``referee.games.tricolor``: the board is built from
the vertex lattice and Cartesian geometry, not from the index formulas of ``geometry``.

- Vertices ``(i, j)`` with ``max(|i|, |j|, |i+j|) <= n``; their point is
  ``x = j·√3/2, y = i + j/2``, kept exact as ``(j, 2i + j)`` (units √3/2 and 1/2).
- Triangles: every set of three pairwise adjacent vertices (distance 1).
- Lozenges: every pair of triangles sharing an edge. Its long diagonal joins the two
  unshared vertices: horizontal is orange, rising left to right green, falling yellow.
  Its name uses its right-pointing triangle (two vertices on its left, vertical edge),
  whose lower-left vertex gives ``(i, j)``.
- At a vertex a lozenge has an acute angle if the vertex is an end of the long diagonal
  (one triangle there), an obtuse one if it is on the shared edge (two triangles).
- Crown: three placed lozenges acute at one vertex whose triangles there are
  consecutive around it (a 180° fan); star: six; hexagon: three placed lozenges obtuse
  at one vertex; empty triangle: an empty triangle whose edge neighbours are all covered.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from functools import cached_property

import pytest

from referee.games.tricolor import Tricolor
from referee.games.tricolor.configs import completed, configs_for, on_board
from referee.games.tricolor.geometry import board_for
from referee.perft import perft

Vertex = tuple[int, int]
Triangle = frozenset[Vertex]
UNIT = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def _point(v: Vertex) -> tuple[int, int]:
    """``(X, Y)`` with x = X·√3/2 and y = Y/2."""
    i, j = v
    return j, 2 * i + j


def _angle_sector(centre: Vertex, tri: Triangle) -> int:
    """Which of the six 60° sectors around ``centre`` the triangle fills (0..5)."""
    cx, cy = _point(centre)
    others = [v for v in tri if v != centre]
    # the sector's bisector points at the midpoint of the opposite edge
    sx = sum(_point(v)[0] - cx for v in others)
    sy = sum(_point(v)[1] - cy for v in others)
    # (sx, sy) is in units (√3/2, 1/2); the six bisectors point at 0°, 60°, … 300°
    angle = math.degrees(math.atan2(sy / 2, sx * math.sqrt(3) / 2)) % 360
    return round(angle / 60) % 6


@dataclass(frozen=True)
class Lozenge:
    colour: str
    name: str
    triangles: frozenset[Triangle]
    acute: tuple[Vertex, Vertex]
    obtuse: tuple[Vertex, Vertex]


class NaiveBoard:
    def __init__(self, n: int, rim_crowns: bool = True) -> None:
        self.n = n
        self.rim_crowns = rim_crowns

    @cached_property
    def vertices(self) -> list[Vertex]:
        n = self.n
        return [
            (i, j)
            for i in range(-n, n + 1)
            for j in range(-n, n + 1)
            if max(abs(i), abs(j), abs(i + j)) <= n
        ]

    @cached_property
    def triangles(self) -> list[Triangle]:
        on = set(self.vertices)
        found: set[Triangle] = set()
        for v in self.vertices:
            for (a, b), (c, d) in itertools.combinations(UNIT, 2):
                p, q = (v[0] + a, v[1] + b), (v[0] + c, v[1] + d)
                if p in on and q in on and (p[0] - q[0], p[1] - q[1]) in UNIT:
                    found.add(frozenset((v, p, q)))
        return sorted(found, key=sorted)

    @cached_property
    def neighbours(self) -> dict[Triangle, list[Triangle]]:
        return {t: [u for u in self.triangles if len(t & u) == 2] for t in self.triangles}

    @cached_property
    def lozenges(self) -> dict[str, Lozenge]:
        out: dict[str, Lozenge] = {}
        for t in self.triangles:
            for u in self.neighbours[t]:
                shared = t & u
                (a,) = t - shared
                (b,) = u - shared
                dx = _point(b)[0] - _point(a)[0]
                dy = _point(b)[1] - _point(a)[1]
                if dy == 0:
                    colour = "O"
                elif (dx > 0) == (dy > 0):
                    colour = "G"
                else:
                    colour = "Y"
                right = next(tri for tri in (t, u) if self._points_right(tri))
                low_left = min(right, key=lambda v: (_point(v)[0], _point(v)[1]))
                name = f"{colour}({low_left[0]},{low_left[1]})"
                e1, e2 = sorted(shared)
                out[name] = Lozenge(colour, name, frozenset((t, u)), (a, b), (e1, e2))
        return out

    @staticmethod
    def _points_right(tri: Triangle) -> bool:
        xs = sorted(_point(v)[0] for v in tri)
        return xs[0] == xs[1]

    def is_rim(self, v: Vertex) -> bool:
        return max(abs(v[0]), abs(v[1]), abs(v[0] + v[1])) == self.n

    # --- configurations present on a board --------------------------------------------

    @cached_property
    def incident(self) -> dict[Vertex, list[tuple[str, int | None]]]:
        """Per vertex, each lozenge touching it with its sector there if acute, else None."""
        out: dict[Vertex, list[tuple[str, int | None]]] = {v: [] for v in self.vertices}
        for lz in self.lozenges.values():
            for v in lz.acute:
                (tri,) = [t for t in lz.triangles if v in t]
                out[v].append((lz.name, _angle_sector(v, tri)))
            for v in lz.obtuse:
                out[v].append((lz.name, None))
        return out

    def configurations(self, placed: set[str]) -> set[tuple[str, object]]:
        covered = {t for name in placed for t in self.lozenges[name].triangles}
        found: set[tuple[str, object]] = set()
        for v in self.vertices:
            acute: set[int] = set()
            obtuse = 0
            for name, sector in self.incident[v]:
                if name in placed:
                    if sector is None:
                        obtuse += 1
                    else:
                        acute.add(sector)
            if len(acute) == 6:
                found.add(("star", v))
            if obtuse == 3:
                found.add(("hexagon", v))
            if self.rim_crowns or not self.is_rim(v):
                for k in range(6):
                    if all((k + d) % 6 in acute for d in range(3)):
                        found.add(("crown", (v, k)))
        for t in self.triangles:
            if t not in covered and all(u in covered for u in self.neighbours[t]):
                found.add(("empty", t))
        return found

    def possible(self) -> tuple[int, int, int, int]:
        """(crowns, rim crowns, stars, hexagons) that some placement could complete."""
        crowns = rim = stars = hexagons = 0
        for v in self.vertices:
            sectors = set()
            around_obtuse = []
            for lz in self.lozenges.values():
                if v in lz.acute:
                    (tri,) = [t for t in lz.triangles if v in t]
                    sectors.add(_angle_sector(v, tri))
                elif v in lz.obtuse:
                    around_obtuse.append(lz)
            fans = sum(1 for k in range(6) if all((k + d) % 6 in sectors for d in range(3)))
            if self.is_rim(v):
                rim += fans
            if self.rim_crowns or not self.is_rim(v):
                crowns += fans
            stars += len(sectors) == 6
            for trio in itertools.combinations(around_obtuse, 3):
                tris = [t for lz in trio for t in lz.triangles]
                hexagons += len(set(tris)) == 6
        return crowns, rim, stars, hexagons

    def completed(self, placed: set[str], name: str) -> tuple[int, int, int, int]:
        """(crowns, stars, hexagons, empty triangles) that placing ``name`` completes."""
        new = self.configurations(placed | {name}) - self.configurations(placed)
        kinds = [kind for kind, _ in new]
        return (
            kinds.count("crown"),
            kinds.count("star"),
            kinds.count("hexagon"),
            kinds.count("empty"),
        )

    def free(self, placed: set[str], colour: str) -> list[str]:
        covered = {t for name in placed for t in self.lozenges[name].triangles}
        return sorted(
            lz.name
            for lz in self.lozenges.values()
            if lz.colour == colour and not (lz.triangles & covered)
        )

    def perft(self, placed: frozenset[str], depth: int) -> int:
        if depth == 0:
            return 1
        moves = self.free(set(placed), "OGY"[len(placed) % 3])
        return sum(self.perft(placed | {m}, depth - 1) for m in moves)


# --- cross-checks -----------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_same_positions_and_names(n: int) -> None:
    naive = NaiveBoard(n)
    board = board_for(n)
    assert set(naive.lozenges) == set(board.index)
    assert len(naive.triangles) == board.triangles == 6 * n * n
    for name, lz in naive.lozenges.items():
        move = board.index[name]
        assert "OGY"[move // board.plane] == lz.colour == name[0]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("rim", [True, False])
def test_same_possible_configurations(n: int, rim: bool) -> None:
    crowns, rim_crowns, stars, hexagons = NaiveBoard(n, rim).possible()
    cfg = configs_for(n, rim)
    assert (len(cfg.crowns), len(cfg.stars), len(cfg.hexagons)) == (crowns, stars, hexagons)
    at_rim = sum(1 for v in cfg.crown_vertices if max(abs(v[0]), abs(v[1]), abs(sum(v))) == n)
    assert at_rim == (rim_crowns if rim else 0)


def test_naive_counts_of_the_rules_file() -> None:
    assert NaiveBoard(4).possible() == (180, 18, 19, 74)
    assert NaiveBoard(4, rim_crowns=False).possible() == (162, 18, 19, 74)
    assert NaiveBoard(1).possible() == (0, 0, 0, 2)


@pytest.mark.parametrize(("n", "rim", "games"), [(2, True, 40), (3, False, 25), (4, True, 15)])
def test_every_placement_completes_the_same_configurations(n: int, rim: bool, games: int) -> None:
    """Random games: the game's (C, S, H, E) and free positions equal the naive model's."""
    game = Tricolor({"n": str(n), "rim-crowns": "yes" if rim else "no"})
    naive = NaiveBoard(n, rim)
    rng = random.Random(100 + n)
    totals = [0, 0, 0, 0]
    for _ in range(games):
        state = game.initial_state(2)
        placed: set[str] = set()
        while state.to_move is not None:
            texts = [game.format_move(state, m) for m in state.legal_moves()]
            assert naive.free(placed, "OGY"[state.ply % 3]) == sorted(texts)
            move = rng.choice(state.legal_moves())
            name = game.format_move(state, move)
            got = tuple(completed(state.configs, state.placed, state.covered, move))
            assert got == naive.completed(placed, name), name
            totals = [a + b for a, b in zip(totals, got, strict=True)]
            placed.add(name)
            state = state.play(move)
        assert naive.free(placed, "OGY"[state.ply % 3]) == []
    assert all(totals[k] > 0 for k in (0, 2, 3)), totals  # crowns, hexagons, empty triangles


def random_pieces(board: NaiveBoard, rng: random.Random) -> set[str]:
    """A random set of lozenges, no two overlapping, of any colours (not necessarily a
    position a game reaches): every second set starts from a star (the six lozenges with
    an acute angle at a random vertex that has six, if any), then each lozenge in a
    random order is kept with one chance."""
    names = sorted(board.lozenges)
    rng.shuffle(names)
    keep = rng.random()
    fans = [
        [name for name, sector in board.incident[v] if sector is not None] for v in board.vertices
    ]
    stars = [fan for fan in fans if len(fan) == 6]
    start = rng.choice(stars) if stars and rng.random() < 0.5 else []
    covered: set[Triangle] = set()
    placed: set[str] = set()
    for name in start + names:
        triangles = board.lozenges[name].triangles
        if not triangles & covered and rng.random() < keep:
            placed.add(name)
            covered |= triangles
    return placed


@pytest.mark.parametrize(("n", "sets"), [(1, 60), (2, 150), (3, 150), (4, 100)])
@pytest.mark.parametrize("rim", [True, False])
def test_on_board_counts_what_the_naive_model_sees(n: int, rim: bool, sets: int) -> None:
    """``on_board`` (whole-board bit operations, the score check of every decoded
    position) finds the configurations the naive model finds, on random sets of pieces."""
    naive = NaiveBoard(n, rim)
    cfg = configs_for(n, rim)
    board = cfg.board
    rng = random.Random(300 + n)
    totals = [0, 0, 0, 0]
    for _ in range(sets):
        names = random_pieces(naive, rng)
        placed = covered = 0
        for name in names:
            placed |= 1 << board.index[name]
            covered |= board.tmask[board.index[name]]
        kinds = [kind for kind, _ in naive.configurations(names)]
        expected = tuple(kinds.count(k) for k in ("crown", "star", "hexagon", "empty"))
        got = on_board(cfg, placed, covered)
        assert tuple(got) == expected, sorted(names)
        assert on_board(cfg, placed, covered, crowns=False) == got._replace(crowns=0)
        totals = [a + b for a, b in zip(totals, got, strict=True)]
    # every kind the board can hold was met (n = 1 holds no crown and no star)
    assert [t > 0 for t in totals] == ([False, False, True, True] if n == 1 else [True] * 4)


@pytest.mark.parametrize(("n", "depth"), [(1, 4), (2, 4), (3, 3), (4, 2)])
def test_naive_perft_agrees(n: int, depth: int) -> None:
    state = Tricolor({"n": str(n)}).initial_state(2)
    naive = NaiveBoard(n)
    for d in range(1, depth + 1):
        assert perft(state, d) == naive.perft(frozenset(), d)
