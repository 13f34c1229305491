"""The capture search of Whistling Captures: maximum capture count, maximal chains, checks.

A whistling chain (docs/rules/whistling-captures.md) moves one stone ``P0`` through legs
``P0 -> P1 -> … -> Pm``; each leg is a straight slide through cells empty at that moment (``P0``
itself is empty once the stone has left) that takes at least one enemy stone (see
``referee.games.hex``), and its victims leave the board when the leg ends. Each leg changes
direction (a reversal is a change). With the closer rule on captures, ``Pm`` must be
strictly nearer (Euclidean) than ``P0`` to some enemy stone on the board at the start
of the turn. Every prefix of a chain is itself a chain.

``CaptureSearch`` finds, for one position and mover, the maximum ``M`` over all
chains and crushes (a crush counts 1) without listing the chains: a depth-first
search per start stone, memoised on ``(cell, last direction, enemies left)`` (all the
rest of a chain depends on). Only the stones that have a capturing first leg are
searched (``Rotations.whistlers``), a cell from which no slide could reach any enemy
stone is a leaf at once (``HexBoard.sweep_any``), and the closer rule is evaluated
only where a chain can stop. The end cells of a leg are taken in runs that share the
same victims (found from ``HexBoard.projections``). Listing the chains that
reach ``M`` then follows only the branches whose memoised best completes exactly ``M``.

Checking one move (``exceeds``) needs less than ``M``: a move taking ``k`` stones is a
maximum iff nothing takes more than ``k``, so every search starts with ``k`` as its
floor (only better totals are followed) and stops at the first better capture.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.games.hex import HexBoard, bits

NONE = -1
"""Best count of a node from which no chain can legally end."""
_POSITIVE = (True, False, False, False, True, True)
"""Whether each direction's slot step is positive (E, SE, SW): its nearest blocker is
then the lowest set bit of a ray's blockers, else the highest."""

Node = Callable[[int, int, int, int], int]
"""``node(p, last, enemy, floor)``: see ``CaptureSearch._search``."""
Stop = Callable[[int], int]
"""``stop(p)``: 0 if a chain may end on ``p`` (closer rule), else ``NONE``."""


class CaptureSearch:
    """Captures available to ``mine`` against ``theirs`` in one position (computed lazily)."""

    __slots__ = (
        "_best",
        "_closer",
        "_enemies",
        "_maximum",
        "_searches",
        "_whistlers",
        "board",
        "closer_captures",
        "mine",
        "spread",
        "theirs",
    )

    def __init__(
        self,
        board: HexBoard,
        mine: int,
        theirs: int,
        closer_captures: bool,
        spread: tuple[int, int] | None = None,
        whistlers: list[int] | None = None,
    ) -> None:
        """``spread``: ``mine`` and ``theirs`` in the layout of ``board.rotations``, which
        makes the first tests much cheaper (computed here when not given); ``whistlers``:
        ``whistlers()`` when the caller already knows it."""
        self.board = board
        if spread is None:
            spread = (board.rotations.spread(mine), board.rotations.spread(theirs))
        self.spread = spread
        self.mine = mine
        self.theirs = theirs
        self.closer_captures = closer_captures
        self._maximum: int | None = None
        self._whistlers = whistlers
        self._best: dict[int, int] = {}
        self._searches: dict[int, tuple[Node, Stop]] = {}
        self._enemies: list[tuple[int, int]] | None = None
        self._closer: dict[int, int] = {}
        """Per start slot, the closer-rule mask once built; at ``-1 - slot``, the number
        of checks made before."""

    def crush_exists(self) -> bool:
        """Whether some stone of ``mine`` touches an enemy stone."""
        return bool(self.spread[0] >> 1 & self.spread[1])  # see ``Rotations.steps_onto``

    def whistlers(self) -> list[int]:
        """The stones of ``mine`` with a capturing first leg, in reading order."""
        found = self._whistlers
        if found is None:
            found = self._whistlers = self.board.rotations.whistlers(*self.spread)
        return found

    def maximum(self) -> int:
        """The compulsory capture count ``M``: 0 when no capture exists."""
        found = self._maximum
        if found is None:
            found = 1 if self.crush_exists() else 0
            everything, theirs = self.theirs.bit_count(), self.theirs
            for p0 in self.whistlers():
                # Chains from p0 that cannot beat ``found`` need not be checked.
                found = self._search(p0)[0](p0, -1, theirs, found)
                if found == everything:
                    break
            self._maximum = found
        return found

    def exceeds(self, count: int) -> bool:
        """Whether some capture takes more than ``count`` stones (``count >= 0``): the
        test of a move taking ``count``, cheaper than ``maximum()`` since every search
        starts with ``count`` as its floor and stops at the first better capture."""
        found = self._maximum
        if found is not None:
            return found > count
        theirs = self.theirs
        if count >= theirs.bit_count():
            return False
        if count == 0 and self.crush_exists():
            return True
        return any(self._search(p0)[0](p0, -1, theirs, count) > count for p0 in self.whistlers())

    def settle(self, count: int) -> None:
        """Record ``count`` as ``maximum()`` once a legal move is known to take it."""
        self._maximum = count

    def closer(self, p0: int, end: int) -> bool:
        """Whether a chain from ``p0`` may stop on ``end`` under the closer rule."""
        if not self.closer_captures:
            return True
        board = self.board
        where = board.line[p0].get(end)
        if where is not None:  # on a line from p0: the closer cells form a half-plane
            return bool(self.theirs & board.zones[p0][where[0]][where[1]])
        masks = self._closer
        mask = masks.get(p0)
        if mask is None:
            if masks.get(-1 - p0, 0) < 2:  # the first checks: one at a time
                masks[-1 - p0] = masks.get(-1 - p0, 0) + 1
                # ``end`` is nearer than ``p0`` to ``y`` iff ``2·B(y, end - p0)`` exceeds
                # ``|end|² - |p0|²`` (squared norms ``q² + q·r + r²``): a half-plane.
                coords = board.coords
                sq, sr = coords[p0]
                eq, er = coords[end]
                a, b = eq - sq, er - sr
                alpha, beta = 2 * a + b, a + 2 * b
                gamma = eq * eq + eq * er + er * er - sq * sq - sq * sr - sr * sr
                theirs = self.theirs  # in slot order, stopping at the first nearer stone
                while theirs:
                    low = theirs & -theirs
                    q, r = coords[low.bit_length() - 1]
                    if q * alpha + r * beta > gamma:
                        return True
                    theirs ^= low
                return False
            mask = masks[p0] = board.closer_mask(p0, bits(self.theirs))
        return bool(mask >> end & 1)

    def enemies(self) -> list[tuple[int, int]]:
        """The coordinates of ``theirs`` (cached)."""
        found = self._enemies
        if found is None:
            where = self.board.coords
            found = self._enemies = [where[y] for y in bits(self.theirs)]
        return found

    def best_from(self, p0: int) -> int:
        """The largest count of a legal chain from the stone on ``p0`` (``NONE`` if none)."""
        found = self._best.get(p0)
        if found is None:
            found = self._search(p0)[0](p0, -1, self.theirs, NONE)
            self._best[p0] = found
        return found

    def _search(self, p0: int) -> tuple[Node, Stop]:
        """The search functions of chains from ``p0``.

        ``node(p, last, enemy, floor)`` is the larger of ``floor`` and the best further
        count from ``p`` after a leg in direction ``last`` (-1 before the first leg, where
        stopping is no capture) with ``enemy`` left, ``NONE`` meaning that no chain can
        legally end from there. What cannot beat ``floor`` is not evaluated (in particular
        the closer rule where a chain could stop), and ``floor`` passes down the search as
        a bound, so only values computed with ``floor`` below 0 are exact and memoised
        (searches with a floor of 0 or more rarely meet the same node twice). Created once
        per ``p0``.
        """
        found = self._searches.get(p0)
        if found is not None:
            return found
        memo: dict[tuple[int, int, int], int] = {}
        stops: dict[int, int] = {}
        board = self.board
        lines, along = board.whistle_lines, board.along
        friends = self.mine ^ (1 << p0)
        closer = self.closer

        def stop(p: int) -> int:
            value = stops.get(p)
            if value is None:
                value = stops[p] = 0 if closer(p0, p) else NONE
            return value

        def node(p: int, last: int, enemy: int, floor: int) -> int:
            ceiling = enemy.bit_count()
            if ceiling <= floor:  # even taking every stone left cannot beat ``floor``
                return floor
            if floor < 0:  # only exact values are memoised (bounded searches rarely meet)
                key = (p, last, enemy)
                known = memo.get(key)
                if known is not None:
                    return known
                floor = NONE
            result = floor
            occ = friends | enemy
            p_along = along[p]
            for line in lines[p][last + 1]:
                hit = enemy & line[1]
                if not hit:
                    continue
                d, _, mask, positive, ray, sweep, proj, gate = line
                blockers = occ & mask
                if blockers:
                    if positive:
                        run = p_along[(blockers & -blockers).bit_length() - 1]
                    else:
                        run = p_along[blockers.bit_length() - 1]
                    if run < 3:
                        continue
                    hit &= sweep[run - 1]
                    if not hit:
                        continue
                else:
                    run = len(ray)
                # A stone ``y`` of ``hit`` becomes a victim at ray index
                # (P_d(y) - P_d(p) + 1) // 2 (see ``HexBoard.whistle_lines``); the victims,
                # hence the rest, are the same for every end cell up to the next such index.
                base = proj[p] - 1
                if hit.bit_count() == 1:
                    segments = [((proj[hit.bit_length() - 1] - base) >> 1, run, 1, enemy ^ hit)]
                else:
                    starts = sorted({(proj[y] - base) >> 1 for y in bits(hit)})
                    starts.append(run)
                    segments = []
                    for j in range(len(starts) - 1):
                        victims = enemy & sweep[starts[j]]
                        segments.append(
                            (starts[j], starts[j + 1], victims.bit_count(), enemy ^ victims)
                        )
                for first, end, count, rest in segments:
                    for c in ray[first:end]:
                        if rest & gate[c]:
                            # only a better total matters: the child need not beat
                            # result - count
                            more = node(c, d, rest, result - count)
                        elif count <= result:
                            continue  # stopping on c (a leaf) cannot beat ``result``
                        else:
                            more = stop(c)
                        if more >= 0:
                            more += count
                            if more > result:
                                result = more
                                if more == ceiling:  # every stone left: exact
                                    if floor < 0:
                                        memo[key] = result
                                    return result
            if result < 0 and last >= 0:
                result = stop(p)
            if floor < 0:
                memo[key] = result
            return result

        self._searches[p0] = (node, stop)
        return node, stop

    def chains(self, limit: int = 0) -> list[tuple[int, ...]]:
        """Every legal chain taking ``maximum()`` stones (none when it is 0), as paths
        ``(P0, P1, …, Pm)``: start stones in reading order, then depth first with
        directions E, W, NE, NW, SE, SW and nearer cells first. With ``limit > 0``,
        only the first ``limit`` of them."""
        out: list[tuple[int, ...]] = []
        need = self.maximum()
        if need == 0:
            return out
        for p0 in self.whistlers():
            search = self._search(p0)
            if search[0](p0, -1, self.theirs, need - 1) == need:
                self._collect(search, p0, p0, -1, self.theirs, need, (p0,), out, limit)
                if limit and len(out) >= limit:
                    break
        return out

    def first_chain(self) -> tuple[int, ...] | None:
        """The first of ``chains()``, found without listing the others (None if none)."""
        found = self.chains(limit=1)
        return found[0] if found else None

    def _collect(
        self,
        search: tuple[Node, Stop],
        p0: int,
        p: int,
        last: int,
        enemy: int,
        need: int,
        path: tuple[int, ...],
        out: list[tuple[int, ...]],
        limit: int,
    ) -> None:
        if need == 0:
            out.append(path)
            return
        node, stop = search
        board = self.board
        occ = (self.mine ^ (1 << p0)) | enemy
        rays, sweeps, sweep_any = board.rays[p], board.sweeps[p], board.sweep_any
        for d in range(6):
            sweep = sweeps[d]
            if d == last or not sweep or not enemy & sweep[-1]:
                continue
            for i, c in enumerate(rays[d]):
                if occ >> c & 1:
                    break
                victims = enemy & sweep[i]
                if victims:
                    count = victims.bit_count()
                    if count > need:
                        break
                    rest = enemy ^ victims
                    value = node(c, d, rest, NONE) if rest & sweep_any[c][d + 1] else stop(c)
                    if value == need - count:
                        self._collect(search, p0, c, d, rest, need - count, (*path, c), out, limit)
                        if limit and len(out) >= limit:
                            return

    def chain_count(self, path: tuple[int, ...]) -> int:
        """The stones the chain ``path`` takes if it is a geometrically valid chain of
        ``mine`` (every leg straight, on empty cells, capturing, changing direction), else
        ``NONE``. The closer rule and the maximum are not checked here."""
        board = self.board
        p0 = path[0]
        if not self.mine >> p0 & 1:
            return NONE
        friends = self.mine ^ (1 << p0)
        enemy = self.theirs
        total, last, p = 0, -1, p0
        for nxt in path[1:]:
            where = board.line[p].get(nxt) if type(nxt) is int else None
            if where is None:
                return NONE
            d, i = where
            if d == last or board.paths[p][d][i] & (friends | enemy):
                return NONE
            victims = enemy & board.sweeps[p][d][i]
            if not victims:
                return NONE
            total += victims.bit_count()
            enemy ^= victims
            last, p = d, nxt
        return total
