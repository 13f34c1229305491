"""The ``mcts`` engine: ``python -m bots mcts [--seed S] [--exploration C] [--minimax W]
[--scale X] [--max-children N] [--material-only]``.

It plays every registered game and seat count through the engine loop
(``bots.engine``), searches with ``bots.mcts.search`` for as long as ``bots.mcts.timeman``
allows (``go time … inc …``, ``go movetime``), or a number of iterations (``go nodes``,
declared with ``feature nodes``), and reports structured ``info`` every 250 ms and at
the end of each search: ``depth`` (the PV's length), ``seldepth``, ``nodes``
(iterations), ``nps``, ``time``, ``score`` (each seat's share of the points, or
``win 1`` when the move played wins at once) and ``pv``.

The search's generator is seeded by the bot's seed, the game's seed and the ply (as
the random bot's), so the same seed, position and node limit give the same move. A
timed search continues the tree of the engine's previous search where that tree holds
the new position (its visits are kept); a node-limited one always starts afresh.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Sequence
from typing import Any

from bots.engine import RESIGN, Report, run_engine
from bots.mcts.search import (
    DEFAULT_EXPLORATION,
    DEFAULT_MAX_CHILDREN,
    DEFAULT_MINIMAX_WEIGHT,
    Limits,
    Node,
    Search,
    subtree,
)
from bots.mcts.search import Report as SearchReport
from bots.mcts.timeman import UNTIMED, OverheadMeter, clock_budget, movetime_budget
from bots.mcts.values import AnyState, Valuer, default_scale, shares
from bots.random_bot import mix_seed
from protocol.messages import Go, NewGame
from protocol.search_info import ForcedWin, SearchInfo, Shares
from referee.core import AnyGame

REPORT_EVERY = 0.25
"""Seconds between two ``info`` lines of one search."""


class MctsBrain:
    """Chooses moves by Monte Carlo tree search (see the module docstring)."""

    def __init__(
        self,
        seed: int = 0,
        *,
        exploration: float = DEFAULT_EXPLORATION,
        minimax_weight: float = DEFAULT_MINIMAX_WEIGHT,
        scale: float | None = None,
        max_children: int = DEFAULT_MAX_CHILDREN,
        positional: bool = True,
    ) -> None:
        self.seed = seed
        self.use_positional = positional
        """Whether to add the game's positional term (``heuristics``) to its material."""
        self.exploration = exploration
        self.minimax_weight = minimax_weight
        self.scale = scale
        self.max_children = max_children
        self.game: AnyGame | None = None
        self.valuer: Valuer | None = None
        self.game_seed = 0
        self.overhead = OverheadMeter()
        self.start_clock = 0.0
        """The most time this seat had on its clock in this game (its start), seconds."""
        self.tree: Node | None = None
        """The last timed search's tree, for the next search to continue (``subtree``)."""
        self.seen: tuple[tuple[float, ...], int, int] | None = None
        """The heuristic's raw values, the ply and the shuffling plies at the last search."""

    def newgame(self, game: AnyGame, cmd: NewGame) -> str | None:
        """Accept any game the loop could build; fix the heuristic's scale for it."""
        scale = self.scale
        if scale is None:
            scale = default_scale(game, game.initial_state(cmd.players))
        self.game, self.game_seed = game, cmd.seed
        self.valuer = Valuer(game, cmd.players, scale, use_positional=self.use_positional)
        self.overhead.reset()
        self.tree, self.seen, self.start_clock = None, None, 0.0
        gc.collect()  # the engine runs with the cyclic collector off (``main``): not on the clock
        return None

    def shuffling(self, state: AnyState) -> int:
        """Plies since the heuristic's raw values last changed in the game, as far as the
        engine saw: counted on from its last search if they are the same as then, else
        0 (they changed on the way; the search damps long unchanged leads, ``values``)."""
        assert self.valuer is not None
        raw = self.valuer.raw(state)
        seen = self.seen
        quiet = 0
        if seen is not None and seen[0] == raw and seen[1] <= state.ply:
            quiet = seen[2] + state.ply - seen[1]
        self.seen = (raw, state.ply, quiet)
        return quiet

    def limits(self, seat: int, go: Go, started: float) -> Limits:
        """The search's limits for ``go`` (time from ``timeman``, nodes as given)."""
        budget: float | None = None
        if go.times is not None and go.incs is not None and seat < len(go.times):
            remaining, increment = go.times[seat] / 1000, go.incs[seat] / 1000
            self.overhead.charged(remaining)
            self.start_clock = max(self.start_clock, remaining)
            budget = clock_budget(
                remaining, increment, self.overhead.estimate, self.start_clock, go.movestogo
            )
        elif go.movetime is not None:
            budget = movetime_budget(go.movetime / 1000, self.overhead.estimate)
        elif go.nodes is None:
            budget = UNTIMED
        deadline = None if budget is None else started + budget
        return Limits(nodes=go.nodes, deadline=deadline, max_children=self.max_children)

    def search(self, state: AnyState, limits: Limits, report: Report | None = None) -> Search:
        """Run one search from ``state`` (public for tests and benchmarks).

        A search without a node limit continues the tree of the last one where it holds
        ``state``; a node-limited search starts afresh, so its move depends only on the
        seed, the position and the limit.
        """
        valuer = self.valuer
        assert valuer is not None, "newgame first"
        rng = random.Random(mix_seed(self.seed, self.game_seed, state.ply))
        root: AnyState | Node = state
        if limits.nodes is None and self.tree is not None:
            root = subtree(self.tree, state) or state
        quiet = self.shuffling(state)
        search = Search(
            valuer,
            root,
            rng,
            quiet=quiet,
            exploration=self.exploration,
            minimax_weight=self.minimax_weight,
        )
        on_report = None
        if report is not None:

            def on_report(progress: SearchReport) -> None:
                report(self.info(state, progress))

        search.run(limits, time.monotonic, on_report=on_report, report_every=REPORT_EVERY)
        # A cut expansion lacks moves: such a tree is not kept for the next search.
        self.tree = search.root if limits.nodes is None and not search.truncated else None
        return search

    def choose(self, state: AnyState, go: Go, report: Report) -> str:
        """The search's move, or ``resign`` if the position is already over."""
        started = time.monotonic()
        seat = state.to_move
        game = self.game
        if seat is None or game is None:
            return RESIGN
        limits = self.limits(seat, go, started)
        search = self.search(state, limits, report)
        report(self.info(state, search.report()))
        text = game.format_move(state, search.best_move())
        if go.times is not None and go.incs is not None and seat < len(go.times):
            self.overhead.searched(
                go.times[seat] / 1000, go.incs[seat] / 1000, time.monotonic() - started
            )
        return text

    def info(self, state: AnyState, progress: SearchReport) -> SearchInfo:
        """The ``info`` items of a search report, moves in the game's notation."""
        game = self.game
        assert game is not None
        pv: list[str] = []
        position: Any = state
        for move in progress.pv:
            pv.append(game.format_move(position, move))
            position = position._apply(move)
        score = (
            ForcedWin(progress.win_in)
            if progress.win_in is not None
            else Shares(shares(progress.points))
        )
        return SearchInfo(
            depth=len(pv),
            seldepth=progress.seldepth,
            nodes=progress.nodes,
            nps=progress.nps,
            time=round(progress.seconds * 1000),
            score=score,
            pv=tuple(pv),
        )


def build_parser(prog: str = "python -m bots mcts") -> argparse.ArgumentParser:
    """The command-line options of the mcts bot."""
    parser = argparse.ArgumentParser(
        prog=prog, description="A Monte Carlo tree search engine for every game."
    )
    parser.add_argument("--seed", type=int, default=0, help="the bot's seed (default 0)")
    parser.add_argument(
        "--exploration",
        type=float,
        default=DEFAULT_EXPLORATION,
        metavar="C",
        help=f"UCT exploration constant (default {DEFAULT_EXPLORATION})",
    )
    parser.add_argument(
        "--minimax",
        type=float,
        default=DEFAULT_MINIMAX_WEIGHT,
        metavar="W",
        help="weight of a move's max-n value against its mean, 0..1 "
        f"(default {DEFAULT_MINIMAX_WEIGHT})",
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=None,
        metavar="X",
        help="units of the game's heuristic that make a clear lead (default: from the start)",
    )
    parser.add_argument(
        "--max-children",
        type=int,
        default=DEFAULT_MAX_CHILDREN,
        metavar="N",
        help=f"stop a search once its tree holds N children (default {DEFAULT_MAX_CHILDREN})",
    )
    parser.add_argument(
        "--material-only",
        action="store_true",
        help="value positions by the game's own evaluation alone, without the engine's "
        "positional term (Triablo's aims; bots/mcts/heuristics.py)",
    )
    return parser


def main(argv: Sequence[str]) -> int:
    """Run the mcts bot as an engine on stdin/stdout."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.exploration < 0 or (args.scale is not None and args.scale <= 0):
        parser.error("--exploration must be >= 0 and --scale > 0")
    if not 0 <= args.minimax <= 1:
        parser.error("--minimax must be between 0 and 1")
    # A tree of a few hundred thousand children is millions of objects: a full pass of
    # the cyclic collector over them stalls the engine for up to seconds, on the clock.
    # The tree has no cycles (reference counting frees it); ``newgame`` collects the rest.
    gc.disable()
    return run_engine(
        lambda: MctsBrain(
            args.seed,
            exploration=args.exploration,
            minimax_weight=args.minimax,
            scale=args.scale,
            max_children=max(1, args.max_children),
            positional=not args.material_only,
        ),
        name=f"mcts-{args.seed}",
        author="referee project",
        features=("nodes",),
    )
