"""Trichess geometry: the 96-cell board of docs/rules/trichess.md, precomputed as tables.

A cell is ``(p, r, f)``: the territory's owner ``p`` (0 White, 1 Red, 2 Black),
the rank index ``r`` from that owner's back rank (0..3, labels 1..4) and the
file index ``f`` from the owner's left (0..7, labels ``a``..``h``). Its index is
``p * 32 + r * 8 + f`` and its name the territory letter, file and rank: ``Wd4``,
``Re1``, ``Bh4``.

Orthogonal steps ``U D L R`` are taken in the cell's own frame. ``U`` from rank 4
crosses a seam: files ``a``..``d`` lead into the territory on the owner's left
(``prev``), files ``e``..``h`` into the one on the right (``next``), both to rank 4
and file ``7 - f``; every later step of the same move is mirrored (U<->D, L<->R).
A diagonal step is the set of cells reached by "vertical then horizontal" and
"horizontal then vertical". The two differ only from a rosette cell (``d4``/``e4``)
towards the centre: the diagonal branches into both rosette cells of its colour
(``centre=rosette``), or stops there (``centre=no-diagonals``). The knight's targets
are the cells reached by ``X X Y`` or ``Y X X`` with ``X`` perpendicular to ``Y``.

``geometry(centre)`` computes every table once per centre option; callers only read.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

NUM_CELLS = 96
WHITE, RED, BLACK = 0, 1, 2
COLOURS = "WRB"
"""Territory / player letters in seat order."""
COLOUR_NAMES = ("White", "Red", "Black")
FILES = "abcdefgh"

U, D, L, R = 0, 1, 2, 3
MIRROR = (D, U, R, L)
"""The direction a step takes after crossing a seam (the frame flips)."""
PERPENDICULAR = ((L, R), (L, R), (U, D), (U, D))

CENTRES = ("rosette", "no-diagonals")
"""Values of the ``centre`` option."""

Path = tuple[int, ...]


def cell_of(p: int, r: int, f: int) -> int:
    """The index of cell ``(p, r, f)``."""
    return p * 32 + r * 8 + f


def cell_name(cell: int) -> str:
    """``Wd4`` for ``cell_of(0, 3, 3)``."""
    return f"{COLOURS[cell >> 5]}{FILES[cell & 7]}{((cell >> 3) & 3) + 1}"


NAMES: tuple[str, ...] = tuple(cell_name(c) for c in range(NUM_CELLS))
"""The canonical name of every cell index."""
INDEX: dict[str, int] = {name: c for c, name in enumerate(NAMES)}
"""Canonical name to cell index; exactly the names in ``NAMES``."""


def orth_step(cell: int, d: int) -> tuple[int, bool] | None:
    """One orthogonal step in ``cell``'s frame: ``(cell', crossed a seam)``, None off the board."""
    p, r, f = cell >> 5, (cell >> 3) & 3, cell & 7
    if d == U:
        if r < 3:
            return cell + 8, False
        q = (p + 2) % 3 if f <= 3 else (p + 1) % 3
        return cell_of(q, 3, 7 - f), True
    if d == D:
        return (cell - 8, False) if r > 0 else None
    if d == L:
        return (cell - 1, False) if f > 0 else None
    return (cell + 1, False) if f < 7 else None


def walk(cell: int, steps: tuple[int, ...]) -> tuple[int, bool] | None:
    """Follow ``steps`` from ``cell``, mirroring after each seam: ``(end, frame flipped)``."""
    flipped = False
    for d in steps:
        step = orth_step(cell, MIRROR[d] if flipped else d)
        if step is None:
            return None
        cell, crossed = step
        flipped ^= crossed
    return cell, flipped


def diag_step(cell: int, v: int, h: int, centre: str) -> list[tuple[int, bool]]:
    """The cells one diagonal step ``(v, h)`` away, each with its frame flip (0, 1 or 2 cells)."""
    a = walk(cell, (v, h))
    b = walk(cell, (h, v))
    if a is None or b is None:
        assert a is None and b is None, "a diagonal half off the board"
        return []
    if a[0] == b[0]:
        assert a[1] == b[1]
        return [a]
    return [] if centre == "no-diagonals" else [a, b]


def _diag_paths(cell: int, v: int, h: int, centre: str) -> list[Path]:
    """Every maximal diagonal ray from ``cell`` in direction ``(v, h)`` (several if it branches)."""
    out: list[Path] = []

    def extend(c: int, v: int, h: int, prefix: Path) -> None:
        nexts = diag_step(c, v, h, centre)
        if not nexts:
            if prefix:
                out.append(prefix)
            return
        for c2, flipped in nexts:
            assert c2 not in prefix and c2 != cell, "a diagonal ray loops"
            nv, nh = (MIRROR[v], MIRROR[h]) if flipped else (v, h)
            extend(c2, nv, nh, (*prefix, c2))

    extend(cell, v, h, ())
    return out


def _orth_path(cell: int, d: int) -> Path:
    out: list[int] = []
    c, flipped = cell, False
    while True:
        step = orth_step(c, MIRROR[d] if flipped else d)
        if step is None:
            return tuple(out)
        c, crossed = step
        flipped ^= crossed
        out.append(c)


def _shared_prefix(path: Path, earlier: list[Path]) -> int:
    best = 0
    for other in earlier:
        n = 0
        while n < min(len(path), len(other)) and path[n] == other[n]:
            n += 1
        best = max(best, n)
    return best


@dataclass(frozen=True, slots=True, eq=False)
class Geometry:
    """Every table of one ``centre`` option; compare by ``centre``."""

    centre: str
    orth: tuple[tuple[Path, ...], ...]
    """Per cell, the non-empty orthogonal rays (nearest cell first)."""
    diag: tuple[tuple[tuple[Path, int], ...], ...]
    """Per cell, ``(ray, skip)`` for every diagonal ray; a branch repeats the ``skip`` cells
    it shares with an earlier ray, which move generation walks without listing again."""
    diag_rays: tuple[tuple[Path, ...], ...]
    """Per cell, the diagonal rays without the skip counts (for attack tests)."""
    knight: tuple[tuple[int, ...], ...]
    """Per cell, the knight's targets in index order."""
    king: tuple[tuple[int, ...], ...]
    """Per cell, the king's targets (orthogonal and diagonal steps) in index order."""
    orth_between: tuple[dict[int, Path], ...]
    """Per cell, every cell on an orthogonal ray mapped to the cells strictly between."""
    diag_between: tuple[dict[int, Path], ...]
    """Per cell, every cell on a diagonal ray mapped to the cells strictly between."""
    lines: tuple[dict[int, tuple[tuple[Path, bool], ...]], ...]
    """Per cell ``s``, every cell ``c`` on a ray from ``s`` mapped to the rays through it,
    each with ``True`` for a diagonal: the lines a vacated ``c`` can open towards ``s``."""
    pawn_push: tuple[tuple[int, ...], ...]
    """``[owner][cell]``: the cell a pawn steps forward to, or -1."""
    pawn_caps: tuple[tuple[tuple[int, ...], ...], ...]
    """``[owner][cell]``: the cells a pawn captures on (rosette branches included)."""
    pawn_attackers: tuple[tuple[tuple[int, ...], ...], ...]
    """``[owner][cell]``: the cells from which a pawn of ``owner`` captures on ``cell``."""


def _forward(owner: int, cell: int) -> int:
    return U if cell >> 5 == owner else D


@cache
def geometry(centre: str = "rosette") -> Geometry:
    """The tables for ``centre`` (``rosette`` or ``no-diagonals``), computed once.

    :raises ValueError: an unknown centre value.
    """
    if centre not in CENTRES:
        raise ValueError(f"unknown trichess centre {centre!r}")
    orth: list[tuple[Path, ...]] = []
    diag: list[tuple[tuple[Path, int], ...]] = []
    knight: list[tuple[int, ...]] = []
    king: list[tuple[int, ...]] = []
    for cell in range(NUM_CELLS):
        orth.append(tuple(p for p in (_orth_path(cell, d) for d in (U, D, L, R)) if p))
        rays: list[tuple[Path, int]] = []
        for v in (U, D):
            for h in (L, R):
                paths = _diag_paths(cell, v, h, centre)
                for i, path in enumerate(paths):
                    rays.append((path, _shared_prefix(path, paths[:i])))
        diag.append(tuple(rays))
        jumps = set()
        for x in (U, D, L, R):
            for y in PERPENDICULAR[x]:
                for seq in ((x, x, y), (y, x, x)):
                    end = walk(cell, seq)
                    if end is not None:
                        jumps.add(end[0])
        jumps.discard(cell)
        knight.append(tuple(sorted(jumps)))
        near = {p[0] for p in orth[-1]} | {p[0] for p, _ in rays}
        king.append(tuple(sorted(near)))
    orth_between: list[dict[int, Path]] = []
    diag_between: list[dict[int, Path]] = []
    lines: list[dict[int, tuple[tuple[Path, bool], ...]]] = []
    for cell in range(NUM_CELLS):
        ob = {c: path[:i] for path in orth[cell] for i, c in enumerate(path)}
        db: dict[int, Path] = {}
        for path, _ in diag[cell]:
            for i, c in enumerate(path):
                assert db.get(c, path[:i]) == path[:i], "two diagonal routes to one cell"
                db[c] = path[:i]
        orth_between.append(ob)
        diag_between.append(db)
        through: dict[int, list[tuple[Path, bool]]] = {}
        rays_by_kind = ((orth[cell], False), (tuple(p for p, _ in diag[cell]), True))
        for ray_set, is_diag in rays_by_kind:
            for path in ray_set:
                for c in path:
                    through.setdefault(c, []).append((path, is_diag))
        lines.append({c: tuple(v) for c, v in through.items()})
    pushes: list[tuple[int, ...]] = []
    caps: list[tuple[tuple[int, ...], ...]] = []
    attackers: list[tuple[tuple[int, ...], ...]] = []
    for owner in range(3):
        own_push: list[int] = []
        own_caps: list[tuple[int, ...]] = []
        for cell in range(NUM_CELLS):
            fwd = _forward(owner, cell)
            step = orth_step(cell, fwd)
            own_push.append(-1 if step is None else step[0])
            targets = {c for h in (L, R) for c, _ in diag_step(cell, fwd, h, centre)}
            own_caps.append(tuple(sorted(targets)))
        back: list[list[int]] = [[] for _ in range(NUM_CELLS)]
        for cell, caught in enumerate(own_caps):
            for t in caught:
                back[t].append(cell)
        pushes.append(tuple(own_push))
        caps.append(tuple(own_caps))
        attackers.append(tuple(tuple(b) for b in back))
    return Geometry(
        centre=centre,
        orth=tuple(orth),
        diag=tuple(diag),
        diag_rays=tuple(tuple(p for p, _ in rays) for rays in diag),
        knight=tuple(knight),
        king=tuple(king),
        orth_between=tuple(orth_between),
        diag_between=tuple(diag_between),
        lines=tuple(lines),
        pawn_push=tuple(pushes),
        pawn_caps=tuple(caps),
        pawn_attackers=tuple(attackers),
    )
