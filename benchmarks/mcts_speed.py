"""mcts nodes per second in every game: ``python benchmarks/mcts_speed.py [--nodes 300]``.

For each game and seat count, positions from seeded random play (plies 4, 12, 24, 40,
or fewer in short games) are searched to ``--nodes`` iterations each, in this process.
Reported per CPU second (``time.process_time``, so a busy machine slows it less than
the wall clock): **iterations** (the ``nodes`` of ``info`` and ``go nodes``: one
expansion each) and **positions** valued (every child of an expanded position is
applied and valued, so this is iterations times the branching factor). A second,
profiled pass splits the time between the **rules** (``referee/``: move generation,
applying moves, the end test, ``Game.evaluate``), the **values** (``bots/mcts/values.py``:
the heuristic turned into per-seat points, and ``bots/mcts/heuristics.py``: the engine's
positional term, Triablo's aims) and the **tree** (``bots/mcts/search.py`` and
the built-ins it calls: selection, the expansion loop, backup); the profiler's own cost
is spread over all three.
"""

from __future__ import annotations

import argparse
import cProfile
import random
import sys
import time
from typing import Any

from bots.mcts.brain import MctsBrain
from bots.mcts.search import Limits
from protocol.messages import NewGame
from referee.registry import make_game

CASES = (
    ("trike", 2),
    ("tricouleur", 2),
    ("whistling-captures", 2),
    ("trichess", 3),
    ("tricolor", 2),
    ("tricolor", 3),
    ("tricolor", 4),
    ("triablo", 2),
    ("triablo", 3),
)
PLIES = (4, 12, 24, 40)


def positions(name: str, players: int) -> list[Any]:
    """Positions with a choice of moves, from seeded random games."""
    game = make_game(name)
    found = []
    for target in PLIES:
        for seed in range(50):
            state = game.initial_state(players)
            rng = random.Random(seed * 100 + target)
            while state.to_move is not None and state.ply < target:
                moves = state.legal_moves()
                state = state.play(moves[rng.randrange(len(moves))])
            if state.to_move is not None and len(state.legal_moves()) > 1:
                found.append(state)
                break
    return found


def run(name: str, players: int, states: list[Any], nodes: int) -> tuple[int, int]:
    """Search every state; return (iterations, positions valued)."""
    brain = MctsBrain(1)
    brain.newgame(make_game(name), NewGame(name, players, 1, 1))
    iterations = children = 0
    for state in states:
        search = brain.search(state, Limits(nodes=nodes))
        iterations += search.iterations
        children += search.children_stored
    return iterations, children


def shares(name: str, players: int, states: list[Any], nodes: int) -> tuple[float, float]:
    """The fractions of profiled time spent in the rules (``referee/``) and in turning
    the heuristic into values (``bots/mcts/values.py``, ``bots/mcts/heuristics.py``); the
    rest is the tree (selection, expansion's bookkeeping, backup) and the built-ins it
    calls."""
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    run(name, players, states, nodes)
    profile.disable()
    total = rules = values = 0.0
    for entry in profile.getstats():
        code = entry.code
        path = code if isinstance(code, str) else code.co_filename
        total += entry.inlinetime
        if "/referee/" in path:
            rules += entry.inlinetime
        elif path.endswith(("bots/mcts/values.py", "bots/mcts/heuristics.py")):
            values += entry.inlinetime
    return (rules / total, values / total) if total else (0.0, 0.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=300, help="iterations per search")
    args = parser.parse_args(argv)
    print(
        "| game | seats | iterations/s | positions valued/s | positions per iteration "
        "| rules | values | tree |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, players in CASES:
        states = positions(name, players)
        started = time.process_time()
        iterations, children = run(name, players, states, args.nodes)
        cpu = time.process_time() - started
        rules, values = shares(name, players, states, args.nodes)
        print(
            f"| {name} | {players} | {iterations / cpu:,.0f} | {children / cpu:,.0f} "
            f"| {children / iterations:.0f} | {100 * rules:.0f} % | {100 * values:.0f} % "
            f"| {100 * (1 - rules - values):.0f} % |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
