"""Long games stay linear: ``python benchmarks/long_game.py [--plies 10000] [--window 200]``.

Plays one game of Tricolor on its largest board (``n=64``: about 10,800 placements,
always ended by the rules) between two ``random`` engine processes through the
referee's match loop (``referee.match.play_game``, untimed), and compares the plies
around ply 100 with the plies around ply ``--plies`` (``--window`` plies each):

* **plies/s**: moves played per second of the game's wall clock in the window;
* **referee per ply**: the referee's own time between a reply's arrival and the next
  request (rules check and apply, clock, the next ``position`` line, transcript),
  median; and the same less the rules' part, measured by replaying the window's moves
  in this process (``parse_move`` + ``play``, median), which leaves the protocol's part;
* **referee CPU per ply**: the CPU time of this process (the referee: match loop,
  sessions, rules) per ply over the window, and the same less the rules' part; CPU time
  does not count the waits that other processes on a busy machine cause;
* **round trip**: request written to reply read (the engine's whole turn: reading the
  ``position`` line, updating its position, choosing), median.

The rules of Tricolor cost more as the board fills up differently, so the protocol's
part is the figure that says whether the referee's own cost grows with the game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

import trio

from protocol.spec import EngineSpec
from referee.clock import TimeControl
from referee.match import GameResult, PlayedMove, play_game
from referee.players import EnginePlayer
from referee.registry import make_game


def _window(moves: tuple[PlayedMove, ...], around: int, width: int) -> range:
    """Indexes of ``width`` moves centred on ply ``around`` (clipped to the game)."""
    first = max(1, min(around - width // 2, len(moves) - width - 1))
    return range(first, min(len(moves) - 1, first + width))


def _rules_median(game: Any, texts: list[str], window: range) -> float:
    """Median seconds of ``parse_move`` + ``play`` for the moves in ``window``."""
    state = game.initial_state(2)
    costs = []
    for index, text in enumerate(texts):
        if index in window:
            start = time.perf_counter()
            state = state.play(game.parse_move(state, text))
            costs.append(time.perf_counter() - start)
        else:
            state = state.play(game.parse_move(state, text))
    return statistics.median(costs)


def measure(
    result: GameResult, cpu: list[float], game: Any, around: int, width: int
) -> dict[str, float]:
    """The window's figures (module docstring); times in microseconds. ``cpu[i]`` is the
    process's CPU time when move ``i`` was played."""
    moves = result.moves
    window = _window(moves, around, width)
    cpu_per_ply = (cpu[window[-1]] - cpu[window[0]]) / (len(window) - 1)
    span = moves[window[-1]].arrived_at - moves[window[0]].arrived_at
    referee = [moves[i + 1].sent_at - moves[i].arrived_at for i in window]
    trips = [moves[i].arrived_at - moves[i].sent_at for i in window]
    rules = _rules_median(game, [m.text for m in moves], window)
    median_referee = statistics.median(referee)
    return {
        "plies_per_s": (len(window) - 1) / span,
        "referee_us": 1e6 * median_referee,
        "rules_us": 1e6 * rules,
        "protocol_us": 1e6 * (median_referee - rules),
        "round_trip_us": 1e6 * statistics.median(trips),
        "cpu_us": 1e6 * cpu_per_ply,
        "cpu_protocol_us": 1e6 * (cpu_per_ply - rules),
        "line_bytes": float(sum(len(m.text) + 1 for m in moves[: window[-1]]) + 30),
    }


async def _play(options: dict[str, str], cpu: list[float]) -> GameResult:
    game = make_game("tricolor", options)
    spec = EngineSpec(name="random", argv=(sys.executable, "-m", "bots", "random"))

    def on_move(number: int, move: PlayedMove) -> None:
        cpu.append(time.process_time())

    async with EnginePlayer.open(spec) as first, EnginePlayer.open(spec) as second:
        return await play_game(game, [first, second], TimeControl(), seed=1, on_move=on_move)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=10_000, help="the late window's ply")
    parser.add_argument("--window", type=int, default=200, help="plies per window")
    parser.add_argument("--n", default="64", help="Tricolor's board option n (default 64)")
    args = parser.parse_args(argv)
    options = {"n": args.n}
    started = time.perf_counter()
    cpu: list[float] = []
    result = trio.run(_play, options, cpu)
    print(
        f"tricolor n={args.n}: {len(result.moves)} plies in {time.perf_counter() - started:.1f} s "
        f"({result.outcome.termination.value})"
    )
    game = make_game("tricolor", options)
    for around in (100, args.plies):
        if len(result.moves) < around + 2:
            print(f"  ply {around}: the game ended at ply {len(result.moves)}")
            continue
        f = measure(result, cpu, game, around, args.window)
        print(
            f"  around ply {around:>6}: {f['plies_per_s']:5.0f} plies/s; referee per ply "
            f"{f['referee_us']:5.0f} us (rules {f['rules_us']:4.0f}, protocol "
            f"{f['protocol_us']:4.0f}); referee CPU per ply {f['cpu_us']:5.0f} us (less "
            f"rules {f['cpu_protocol_us']:4.0f}); round trip {f['round_trip_us']:5.0f} us; "
            f"position line ~{f['line_bytes'] / 1000:.0f} kB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
