"""The shared hexhex geometry (referee/games/hex/) against the definitions of
docs/rules/tricouleur.md and docs/rules/whistling-captures.md, computed
naively from axial coordinates."""

from __future__ import annotations

import itertools
import pickle
import random
import subprocess
import sys

import pytest

from referee.games.hex import (
    DIRECTIONS,
    FLANKS,
    OPPOSITE,
    bits,
    dist2,
    hex_board,
    hex_distance,
    nearer_to_some,
    step_zones,
)

Cell = tuple[int, int]


def _ray(board_cells: set[Cell], start: Cell, d: tuple[int, int]) -> list[Cell]:
    out = []
    q, r = start
    while (q + d[0], r + d[1]) in board_cells:
        q, r = q + d[0], r + d[1]
        out.append((q, r))
    return out


def _naive_victims(start: Cell, ray: list[Cell], index: int, cells: set[Cell]) -> set[Cell]:
    """Cells touching an interior cell of the slide start -> ray[index] and neither end."""
    end, interior = ray[index], ray[:index]
    path = {start, *ray[: index + 1]}
    near = {(q + dq, r + dr) for q, r in interior for dq, dr in DIRECTIONS} & cells
    return {
        y
        for y in near - path
        if any(hex_distance(y, c) == 1 for c in interior)
        and hex_distance(y, start) != 1
        and hex_distance(y, end) != 1
    }


def _cells(mask: int, where: dict[int, Cell]) -> set[Cell]:
    return {where[s] for s in bits(mask)}


@pytest.mark.parametrize(("side", "count"), [(2, 7), (4, 37), (8, 169), (11, 331)])
def test_board_sizes_and_coordinates(side: int, count: int) -> None:
    board = hex_board(side)
    assert len(board.cells) == count == 3 * side * (side - 1) + 1
    assert board.mask.bit_count() == count
    radius = side - 1
    for s in board.cells:
        q, r = board.coords[s]
        assert max(abs(q), abs(r), abs(q + r)) <= radius
        assert board.slot_of[(q, r)] == s
    # slots in increasing order are the cells in reading order: rows top down, then q
    assert list(board.cells) == sorted(board.cells, key=lambda s: board.coords[s][::-1])


def test_rejects_tiny_side() -> None:
    with pytest.raises(ValueError):
        hex_board(1)


def test_directions_opposites_and_flanks() -> None:
    for d, (dq, dr) in enumerate(DIRECTIONS):
        assert DIRECTIONS[OPPOSITE[d]] == (-dq, -dr)
        for f in FLANKS[d]:
            fq, fr = DIRECTIONS[f]
            # a flank direction is a neighbour of both 0 and d
            assert hex_distance((fq, fr), (dq, dr)) == 1


@pytest.mark.parametrize("side", [8, 11])
def test_adjacency_and_shifts(side: int) -> None:
    board = hex_board(side)
    where = board.coords
    for s in board.cells:
        expected = {y for y in board.cells if hex_distance(where[s], where[y]) == 1}
        assert set(bits(board.adjacent[s])) == expected
        assert board.dilate(1 << s) == board.adjacent[s]
        for d in range(6):
            assert board.shift(1 << s, d) == (1 << board.rays[s][d][0] if board.rays[s][d] else 0)
    rng = random.Random(side)
    for _ in range(50):
        mask = sum(1 << s for s in rng.sample(board.cells, 30))
        union = 0
        for s in bits(mask):
            union |= board.adjacent[s]
        assert board.dilate(mask) == union


@pytest.mark.parametrize("side", [5, 8])
def test_rays_paths_lines_and_sweeps_match_the_definitions(side: int) -> None:
    board = hex_board(side)
    where = board.coords
    cells = set(board.slot_of)
    for s in board.cells:
        for d, step in enumerate(DIRECTIONS):
            ray = _ray(cells, where[s], step)
            assert [where[c] for c in board.rays[s][d]] == ray
            for i, end in enumerate(ray):
                slot = board.slot_of[end]
                assert board.line[s][slot] == (d, i)
                assert board.along[s][slot] == i
                assert _cells(board.paths[s][d][i], where) == set(ray[: i + 1])
                victims = _naive_victims(where[s], ray, i, cells)
                assert _cells(board.sweeps[s][d][i], where) == victims, (s, d, i)
                if i < 2:
                    assert not victims  # a whistle needs k >= 3 steps
            whole = board.sweeps[s][d][-1] if ray else 0
            assert board.sweep_whole[s][d] == whole
        every = 0
        for whole in board.sweep_whole[s]:
            every |= whole
        assert board.sweep_any[s][0] == every
        for d in range(6):
            rest = 0
            for e in range(6):
                if e != d:
                    rest |= board.sweep_whole[s][e]
            assert board.sweep_any[s][d + 1] == rest


def test_sweeps_sample_on_side_11() -> None:
    board = hex_board(11)
    where = board.coords
    cells = set(board.slot_of)
    for s in board.cells[::9]:
        for d, step in enumerate(DIRECTIONS):
            ray = _ray(cells, where[s], step)
            for i in range(len(ray)):
                assert _cells(board.sweeps[s][d][i], where) == _naive_victims(
                    where[s], ray, i, cells
                )


def test_three_step_whistle_takes_a_stone_beside_its_two_interior_cells() -> None:
    # From (0,0) east to (3,0): interior (1,0), (2,0). (2,-1) touches both and neither end.
    board = hex_board(8)
    s, slot = board.slot_of[(0, 0)], board.slot_of
    assert board.sweeps[s][0][2] == (1 << slot[(2, -1)]) | (1 << slot[(1, 1)])
    # Two steps: (1,-1) touches the interior cell (1,0) but also the end (2,0)... and
    # the start: no victims at all.
    assert board.sweeps[s][0][1] == 0


@pytest.mark.parametrize("side", [8, 11])
def test_euclidean_zones_match_the_definition(side: int) -> None:
    board = hex_board(side)
    where = board.coords
    for s in board.cells[:: 2 if side == 8 else 7]:
        for d in range(6):
            for i, end in enumerate(board.rays[s][d]):
                expected = {
                    y
                    for y in board.cells
                    if dist2(where[y], where[end]) < dist2(where[y], where[s])
                }
                assert set(bits(board.zones[s][d][i])) == expected


def test_step_zones_match_the_definition() -> None:
    board = hex_board(8)
    zones = step_zones(8)
    where = board.coords
    for s in board.cells[::5]:
        for d in range(6):
            for i, end in enumerate(board.rays[s][d]):
                expected = {
                    y
                    for y in board.cells
                    if hex_distance(where[y], where[end]) < hex_distance(where[y], where[s])
                }
                assert set(bits(zones[s][d][i])) == expected


def test_metrics_differ_sideways() -> None:
    # The metrics differ: P (0,0), enemy (2,0); (1,-1) is Euclid-closer (3 < 4), not step-closer.
    assert dist2((1, -1), (2, 0)) == 3 < dist2((0, 0), (2, 0)) == 4
    assert hex_distance((1, -1), (2, 0)) == hex_distance((0, 0), (2, 0)) == 2
    board = hex_board(8)
    s, d = board.slot_of[(0, 0)], DIRECTIONS.index((1, -1))
    enemy = 1 << board.slot_of[(2, 0)]
    assert board.zones[s][d][0] & enemy
    assert not step_zones(8)[s][d][0] & enemy


@pytest.mark.parametrize("side", [8, 11])
def test_zones_shrink_along_a_ray(side: int) -> None:
    """Closer slides in one direction are exactly the shortest ones (convexity)."""
    board = hex_board(side)
    for table in (board.zones, step_zones(side)) if side == 8 else (board.zones,):
        for s in board.cells:
            for zone in table[s]:
                for near, far in itertools.pairwise(zone):
                    assert far & ~near == 0


@pytest.mark.parametrize("side", [8, 11])
def test_closer_neighbour_lemma(side: int) -> None:
    """Every cell two or more steps from Y has a neighbour strictly
    closer to Y, in Euclidean distance and in steps (so stalemate is impossible)."""
    board = hex_board(side)
    cells = set(board.slot_of)
    for p in cells:
        near = [(p[0] + dq, p[1] + dr) for dq, dr in DIRECTIONS]
        near = [n for n in near if n in cells]
        for y in cells:
            if hex_distance(p, y) < 2:
                continue
            euclid, steps = dist2(p, y), hex_distance(p, y)
            assert any(dist2(n, y) < euclid for n in near), (p, y)
            assert any(hex_distance(n, y) < steps for n in near), (p, y)


def _random_mask(board_cells: tuple[int, ...], rng: random.Random, n: int) -> int:
    return sum(1 << s for s in rng.sample(board_cells, n))


@pytest.mark.parametrize("side", [8, 11])
def test_whistlers_and_closer_slides_match_a_naive_scan(side: int) -> None:
    board = hex_board(side)
    rng = random.Random(side * 7)
    for trial in range(150):
        stones = rng.sample(board.cells, rng.randrange(6, 60))
        cut = rng.randrange(1, len(stones))
        movers = sum(1 << s for s in stones[:cut])
        targets = sum(1 << s for s in stones[cut:])
        occupied = movers | targets
        empty = board.mask & ~occupied
        expected_whistlers = 0
        expected_slides = []
        for s in bits(movers):
            for d, ray in enumerate(board.rays[s]):
                for i, c in enumerate(ray):
                    if occupied >> c & 1:
                        break
                    if targets & board.sweeps[s][d][i]:
                        expected_whistlers |= 1 << s
                    if nearer_to_some(
                        board.coords[s], board.coords[c], [board.coords[y] for y in bits(targets)]
                    ):
                        expected_slides.append((s, c))
        assert board.whistlers(movers, targets, empty) == expected_whistlers, trial
        assert board.closer_slides(movers, occupied, targets) == expected_slides, trial
        assert board.zone_slides(movers, occupied, targets, board.zones) == expected_slides


def test_nearer_to_some_is_the_closer_rule() -> None:
    assert nearer_to_some((0, 0), (1, 0), [(3, 0)])
    assert not nearer_to_some((0, 0), (0, 1), [(1, -1)])  # 3 > 1
    assert not nearer_to_some((0, 0), (-1, 0), [(3, 0), (0, 4)])
    assert nearer_to_some((0, 0), (-1, 0), [(3, 0), (-4, 2)])  # one enemy is enough
    assert not nearer_to_some((0, 0), (1, 0), [])
    assert not nearer_to_some((0, 0), (0, 1), [(1, 0)])  # equal (1 = 1) is not closer


@pytest.mark.parametrize("side", [4, 8, 11])
def test_rotations_match_the_whistle_and_step_tests(side: int) -> None:
    """The six-copy layout finds the same whistlers (and crushes) as ``HexBoard.whistlers``
    and ``dilate``, on random positions, dense and sparse."""
    board = hex_board(side)
    rotations = board.rotations
    rng = random.Random(side)
    for trial in range(300):
        stones = rng.sample(board.cells, rng.randrange(2, min(60, len(board.cells))))
        cut = rng.randrange(1, len(stones))
        movers = sum(1 << s for s in stones[:cut])
        targets = sum(1 << s for s in stones[cut:])
        spread_movers, spread_targets = rotations.spread(movers), rotations.spread(targets)
        empty = board.mask & ~(movers | targets)
        assert rotations.whistlers(spread_movers, spread_targets) == bits(
            board.whistlers(movers, targets, empty)
        ), trial
        assert rotations.steps_onto(spread_movers, spread_targets) == bool(
            board.dilate(movers) & targets
        )
    for s in board.cells:
        copies = rotations.bits_of[s]
        assert copies.bit_count() == 6
        assert {rotations.owner[b] for b in bits(copies)} == {s}
    assert rotations.spread(board.mask) == rotations.mask


def test_whistle_lines_give_the_first_index_of_each_victim() -> None:
    board = hex_board(8)
    for p in board.cells[::5]:
        for last in range(-1, 6):
            for line in board.whistle_lines[p][last + 1]:
                d, whole, mask, positive, ray, sweep, proj, gate = line
                assert d != last and len(ray) >= 3
                assert whole == sweep[-1] and mask == board.paths[p][d][-1]
                assert positive == (board.step[d] > 0) and gate == board.sweep_other[d]
                for y in bits(whole):
                    i = (proj[y] - proj[p] + 1) // 2
                    assert sweep[i] >> y & 1 and not (i and sweep[i - 1] >> y & 1)


def test_boards_are_shared_read_only_and_pickle_to_the_same_board() -> None:
    board = hex_board(11)
    assert hex_board(11) is board
    assert pickle.loads(pickle.dumps(board)) is board
    with pytest.raises(AttributeError):
        board.side = 3
    with pytest.raises(AttributeError):
        _ = board.no_such_table


def test_importing_the_registry_builds_no_tables() -> None:
    """Start-up stays fast: the tables of a board are built on first use."""
    code = (
        "import referee.registry\n"
        "from referee.games.hex import hex_board\n"
        "for side in (8, 11):\n"
        "    board = hex_board(side)\n"
        "    for name in ('rays', 'sweeps', 'zones', 'rotations'):\n"
        "        try:\n"
        "            object.__getattribute__(board, name)\n"
        "        except AttributeError:\n"
        "            continue\n"
        "        raise SystemExit(f'{name} of side {side} built at import')\n"
        "assert len(hex_board(11).rays) > 0\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr + done.stdout
