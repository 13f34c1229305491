"""Monte Carlo tree search on the ``Game``/``State`` contract, for any number of seats.

The tree (pure: no I/O; the clock is passed in):

* A **node** is a position with a seat to move. Its children are kept in arrays in the
  node (visits and summed values per child, a flat list of ``n_seats`` values per child),
  and a child becomes a node of its own only when the search descends into it.
* **Expansion** values every child at once: the successor of each legal move is valued
  exactly if it ends the game, else by the game's heuristic and the engine's positional
  term for it, if any (``values.Valuer``, ``heuristics``); that
  value counts as the child's first visit. The iteration then backs up, from the
  expanded node, the child values best for the seat to move there (one ply of max-n),
  so the first visit of a node is already a one-ply search. Every seat has its own
  component in every value, which is how three seats (and a Tricolor seat that moves
  twice in a row) need nothing special: at each node the seat to move maximises its
  own component.
* **Selection** is UCT on the mover's component, ``q + c · sqrt(ln N / n)``, where ``q``
  mixes the child's mean with its max-n value over the tree below it (implicit minimax
  backups, weight ``DEFAULT_MINIMAX_WEIGHT``): means alone are slow to see a refutation
  that the heuristic values show at once. The heuristic first visit acts as a prior, so
  a child the heuristic dislikes is tried late, not never.
* An **iteration** descends by selection to a child that is not a node yet, makes it
  one and expands it (or, for a child that ends the game, backs up its exact value
  again), then adds the backed-up values along the path. ``nodes`` in limits and in
  reports counts iterations (positions expanded), the usual MCTS meaning.

The move played is the most visited child of the root (the best mean breaks ties).
A later search may start from a subtree of an earlier one (``subtree``: the position
after the moves played since, if the earlier search expanded it), keeping its visits.
Children are ordered by a seeded rotation at expansion (ties in selection go to the
earlier child), so a search is a pure function of the position, the seed and the
iteration count: the same seed and node limit give the same move.

The heuristic values also carry a count of plies since they last changed
(``Node.quiet``, from the game before the root on), with which ``values`` damps leads
that go nowhere.

Cost: an expansion generates the legal moves once and applies and evaluates every
one of them, so the rules (``legal_moves``, ``_apply``, ``outcome``, ``Game.evaluate``)
take most of the time (``benchmarks/mcts_speed.py``); selection and backup work on
per-child lists with ``map`` at C speed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from operator import add, itemgetter
from typing import Any

from bots.mcts.values import AnyState, Valuer, Values

DEFAULT_EXPLORATION = 0.5
"""UCT's ``c`` on points in 0..1."""

DEFAULT_MINIMAX_WEIGHT = 0.4
"""Weight of a child's max-n value against its mean in selection (implicit minimax)."""

DEFAULT_MAX_CHILDREN = 500_000
"""The search ends once its tree holds this many children, whatever the time given: a
child costs about 400 bytes (its values, visits and, once expanded, its node and
state), so about 200 MB. At 5+0.05 a search stores a few tens of thousands."""


class Node:
    """One expanded position: its legal moves and, per child, visits and summed values."""

    __slots__ = (
        "best",
        "children",
        "inv_sqrt",
        "minimax",
        "moves",
        "n",
        "q",
        "quiet",
        "raw",
        "seat",
        "state",
        "terminal",
        "visits",
        "wsum",
    )

    def __init__(self, state: AnyState, raw: tuple[float, ...], quiet: int) -> None:
        self.state = state
        self.raw = raw
        """The heuristic's raw values here (``Valuer.raw``)."""
        self.quiet = quiet
        """Plies since the raw values last changed, counted from before the root."""
        seat = state.to_move
        assert seat is not None, "a node is never a finished game"
        self.seat: int = seat
        self.n = 0
        """Visits of this node (its children's visits summed)."""
        self.moves: tuple[Any, ...] = ()
        """The legal moves in the order searched (a seeded rotation); empty until expanded."""
        self.visits: list[int] = []
        self.wsum: list[float] = []
        """Summed values, ``num_players`` entries per child, child after child."""
        self.minimax: list[Values] = []
        """Per child, its max-n value over the tree below it (its heuristic value until
        it is expanded, its exact value if it ends the game)."""
        self.best: Values = []
        """This node's max-n value: the child ``minimax`` best for its mover."""
        self.q: list[float] = []
        """Per child, the value selection uses for the mover: mean and max-n mixed."""
        self.inv_sqrt: list[float] = []
        """Per child, ``1 / sqrt(visits)`` (kept so selection runs at C speed)."""
        self.children: list[Node | None] = []
        self.terminal: list[Values | None] = []
        """The exact values of the children that end the game."""


@dataclass(frozen=True, slots=True)
class Limits:
    """When a search stops: the first limit reached (at least one iteration is always run)."""

    nodes: int | None = None
    """Iterations (expansions)."""
    deadline: float | None = None
    """Absolute time on the search's clock."""
    max_children: int = DEFAULT_MAX_CHILDREN


@dataclass(frozen=True, slots=True)
class Report:
    """What the search knows at one moment (for ``info`` lines)."""

    nodes: int
    """Iterations so far."""
    seconds: float
    """Time since the search started."""
    points: tuple[float, ...]
    """Expected placement points per seat after the best move (``values`` module)."""
    pv: tuple[Any, ...]
    """Principal variation: most visited children from the root while they are nodes."""
    seldepth: int
    """Deepest node the search reached, in plies from the root."""
    win_in: int | None = None
    """Plies to a forced win for the seat to move, when the best move ends the game
    with that seat sole first (the only forced win the search proves)."""

    @property
    def nps(self) -> int:
        """Iterations per second."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


def subtree(old: Node, state: AnyState) -> Node | None:
    """The node of ``state`` in the tree below ``old``, if the search expanded it.

    Looks at most as many plies deep as ``state`` is after ``old``'s position, through
    expanded children only; states are compared with ``==`` (every game's state is a
    frozen dataclass whose caches are left out of comparisons).
    """
    depth = state.ply - old.state.ply
    level = [old]
    for _ in range(depth):
        level = [child for node in level for child in node.children if child is not None]
        if not level:
            return None
    return next((node for node in level if node.state == state), None)


class Search:
    """One search from one root; ``run`` it once, then read ``best_move``/``report``."""

    def __init__(
        self,
        valuer: Valuer,
        root: AnyState | Node,
        rng: random.Random,
        *,
        quiet: int = 0,
        exploration: float = DEFAULT_EXPLORATION,
        minimax_weight: float = DEFAULT_MINIMAX_WEIGHT,
    ) -> None:
        self.valuer = valuer
        self.rng = rng
        self.c = exploration
        self.alpha = minimax_weight
        self.players = valuer.num_players
        self.root = root if isinstance(root, Node) else Node(root, valuer.raw(root), quiet)
        """The root: a new node, or a subtree kept from an earlier search (``subtree``)."""
        self.iterations = 0
        self.children_stored = 0
        self.seldepth = 0
        self.started = 0.0
        self.elapsed = 0.0
        self.truncated = False
        """Whether an expansion was cut short by the deadline (its node lacks moves)."""
        self.clock: Callable[[], float] = lambda: 0.0
        self.deadline: float | None = None
        """Set by ``run``: expansions check it every 64 moves."""
        self.won: int | None = None
        """A root child that ends the game with the mover sole first (found at expansion)."""

    # --- one iteration -----------------------------------------------------------------

    def node(self, parent: Node, state: AnyState) -> Node:
        """A new node for ``state``, a child of ``parent``."""
        raw = self.valuer.raw(state)
        return Node(state, raw, parent.quiet + 1 if raw == parent.raw else 0)

    def expand(self, node: Node) -> Values:
        """Value every child of ``node``; return the child values best for its mover."""
        state = node.state
        moves = state.legal_moves()
        if len(moves) > 1:
            # A seeded rotation (and direction) of the canonical order: ties in selection
            # go to the earlier child, so the seed varies play at a fraction of a shuffle's cost.
            k = self.rng.randrange(len(moves))
            moves = moves[k:] + moves[:k]
            if self.rng.random() < 0.5:
                moves = moves[::-1]
        players, seat = self.players, node.seat
        valuer, apply, parent_raw = self.valuer, state._apply, node.raw
        raw, points, exact = valuer.raw_of, valuer.memo_points, valuer.exact
        positional, with_term = valuer.positional, valuer.positional_points
        quieter = node.quiet + 1
        terminal: list[Values | None] = []
        minimax: list[Values] = []
        clock, deadline = self.clock, self.deadline
        for done, move in enumerate(moves):
            if done & 63 == 63 and deadline is not None and clock() >= deadline:
                # A position too wide to value in the time left (Tricolor on its largest
                # boards has thousands of moves): keep the moves valued so far.
                moves = moves[:done]
                self.truncated = True
                break
            child = apply(move)
            outcome = child.outcome()
            if outcome is None:
                values_raw = raw(child)
                quiet = quieter if values_raw == parent_raw else 0
                if positional is None:
                    values = points(values_raw, quiet)
                else:
                    values = with_term(values_raw, child, quiet)
                terminal.append(None)
            else:
                values = exact(outcome)
                terminal.append(values)
            minimax.append(values)
        # The per-child lists, built at C speed from the values.
        q = list(map(itemgetter(seat), minimax))
        wsum = list(chain.from_iterable(minimax))
        best = minimax[q.index(max(q))]
        count = len(moves)
        node.moves = moves
        node.visits = [1] * count
        node.wsum = wsum
        node.children = [None] * count
        node.terminal = terminal
        node.minimax = minimax
        node.q = q
        node.inv_sqrt = [1.0] * count
        node.n = count
        self.children_stored += count
        assert len(wsum) == count * players
        node.best = best
        return best

    def select(self, node: Node) -> int:
        """The child of ``node`` with the best UCT score for its mover: ``q`` (the mean
        mixed with the child's max-n value: implicit minimax backups) plus exploration."""
        c_log = self.c * math.sqrt(math.log(node.n))
        scores = list(map(add, node.q, map(c_log.__mul__, node.inv_sqrt)))
        return scores.index(max(scores))

    def iterate(self) -> None:
        """One descent, expansion and backup (module docstring)."""
        node = self.root
        path: list[tuple[Node, int]] = []
        if not node.moves:
            values = self.expand(node)
        else:
            while True:
                index = self.select(node)
                path.append((node, index))
                exact = node.terminal[index]
                if exact is not None:
                    values = exact
                    break
                child = node.children[index]
                if child is None:
                    child = self.node(node, node.state._apply(node.moves[index]))
                    node.children[index] = child
                    values = self.expand(child)
                    break
                node = child
        if len(path) > self.seldepth:
            self.seldepth = len(path)
        players, alpha = self.players, self.alpha
        beta = 1.0 - alpha
        # From the expanded node up: visits, sums and, where a child is a node whose
        # max-n value may have changed, the max-n values.
        for parent, index in reversed(path):
            parent.n += 1
            n = parent.visits[index] + 1
            parent.visits[index] = n
            base = index * players
            wsum = parent.wsum
            for seat in range(players):
                wsum[base + seat] += values[seat]
            seat = parent.seat
            child = parent.children[index]
            if child is not None:
                parent.minimax[index] = child.best
                parent.best = max(parent.minimax, key=itemgetter(seat))
            parent.inv_sqrt[index] = 1.0 / math.sqrt(n)
            parent.q[index] = beta * wsum[base + seat] / n + alpha * parent.minimax[index][seat]
        self.iterations += 1

    # --- the loop ----------------------------------------------------------------------

    def run(
        self,
        limits: Limits,
        clock: Callable[[], float],
        *,
        on_report: Callable[[Report], None] | None = None,
        report_every: float = 0.25,
    ) -> Report:
        """Iterate until a limit; call ``on_report`` every ``report_every`` seconds of
        ``clock``; return the final report."""
        self.clock, self.deadline = clock, limits.deadline
        self.started = start = clock()
        next_report = start + report_every
        self.iterate()
        root = self.root
        self.won = next(
            (i for i, v in enumerate(root.terminal) if v is not None and v[root.seat] >= 1.0),
            None,
        )
        if len(root.moves) == 1 or self.won is not None:
            limits = Limits(nodes=1)  # nothing to search: one move, or a win at once
        nodes, deadline, max_children = limits.nodes, limits.deadline, limits.max_children
        while True:
            now = clock()
            self.elapsed = now - start
            if on_report is not None and now >= next_report:
                on_report(self.report())
                next_report = now + report_every
            if nodes is not None and self.iterations >= nodes:
                break
            if deadline is not None and now >= deadline:
                break
            if self.children_stored >= max_children:
                break
            self.iterate()
        return self.report()

    # --- results -----------------------------------------------------------------------

    def best_index(self, node: Node) -> int:
        """The most visited child of ``node``; the best mean for its mover breaks ties."""
        won = self.won if node is self.root else None
        if won is not None:
            return won
        players, seat = self.players, node.seat
        best: tuple[int, float] = (-1, -math.inf)
        chosen = 0
        for i, n in enumerate(node.visits):
            key = (n, node.wsum[i * players + seat] / n)
            if key > best:
                best, chosen = key, i
        return chosen

    def best_move(self) -> Any:
        """The move to play (after ``run``)."""
        return self.root.moves[self.best_index(self.root)]

    def report(self) -> Report:
        """The current best line and its values."""
        root, players = self.root, self.players
        index = self.best_index(root)
        n = root.visits[index]
        points = tuple(root.wsum[index * players + s] / n for s in range(players))
        pv: list[Any] = [root.moves[index]]
        node = root.children[index]
        while node is not None and node.moves:
            i = self.best_index(node)
            pv.append(node.moves[i])
            node = node.children[i]
        win_in = 1 if self.won is not None else None
        return Report(self.iterations, self.elapsed, points, tuple(pv), self.seldepth, win_in)
