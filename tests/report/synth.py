"""A big tournament directory made without playing it, for the paged report's tests and
benchmarks:

    python -m tests.report.synth OUT --games 100000 [--pool 64] [--game trike] [--seed 1]

The event is a real one as far as every reader can tell: its header is the one
``run_tournament`` writes for a two-entrant match of ``--games`` games (the config goes
through ``parse_config`` and ``Plan``), and it is written through ``Journal`` (so it
follows the journal's format wherever that goes). Its games are ``--pool`` distinct
games of ``--game`` played with seeded uniformly random legal moves from the start
position, each game of the schedule taking one of them at random (the seats' entrants,
its number, round and block are the schedule's own); every ``FORFEIT_EVERY``-th game is
cut short instead as a time forfeit of the side to move (``forfeit_outcome``), so the
forfeit columns and the termination search have something to find. Every record is
built by ``build_record``/``format_record`` with the tags a tournament writes.

``--pool`` equal to ``--games`` gives every game its own moves (slow to make, and what a
real event costs a report); a small pool makes a big event in seconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from referee.core import AnyGame, Outcome, Termination
from referee.record import MoveEntry, build_record, format_record, timing_comment
from referee.registry import make_game
from referee.results import forfeit_outcome
from tournaments.event.config import parse_config
from tournaments.event.plan import Plan
from tournaments.event.wire import to_json
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo
from tournaments.store.writer import Journal

FORFEIT_EVERY = 97
"""Every this many games (by schedule position) one ends as a time forfeit."""
BATCH = 2000
"""Games per journal write (one ``fsync`` each)."""


@dataclass(frozen=True, slots=True)
class PoolGame:
    """One random game: its moves (with timing comments) and how it ended."""

    moves: tuple[MoveEntry, ...]
    outcome: Outcome


def random_game(game: AnyGame, rng: random.Random, *, forfeit: bool = False) -> PoolGame | None:
    """A game played by uniformly random legal moves (None if it did not end within 2,000
    plies); with ``forfeit`` it stops at a random ply as a time forfeit of the mover."""
    state = game.initial_state(2)
    clocks = [10.0, 10.0]
    moves: list[MoveEntry] = []
    stop = rng.randrange(1, 12) if forfeit else -1
    while state.to_move is not None and len(moves) < 2000:
        seat = state.to_move
        if len(moves) == stop:
            reason = f"seat {seat + 1} exceeded its clock"
            return PoolGame(
                tuple(moves), forfeit_outcome(game, state, Termination.TIMEOUT, seat, reason)
            )
        move = rng.choice(state.legal_moves())
        used = rng.uniform(0.0, 0.2)
        clocks[seat] += 0.1 - used
        moves.append(MoveEntry(game.format_move(state, move), timing_comment(used, clocks[seat])))
        state = state.play(move)
    outcome = state.outcome()
    return None if outcome is None else PoolGame(tuple(moves), outcome)


def settings(games: int, game: str) -> dict[str, object]:
    """The config of the synthetic event: two built-in entrants, ``games`` games."""
    return {
        "event": f"Synthetic {game} event of {games} games",
        "game": game,
        "entrants": [
            {"name": "alpha", "command": "random --seed 1"},
            {"name": "beta", "command": "random --seed 2"},
        ],
        "games": games,
    }


_HOLES = ("@round@", "@number@", "@seed@")
"""Placeholders for the tags that differ between games of one pool game and table: the
record is formatted once per pair and filled in per game (``format_record`` writes a
tag's value as it is, so the text is exactly what formatting each game would give)."""


def _reports(
    plan: Plan, pool: list[PoolGame], forfeits: list[PoolGame], seed: int
) -> Iterator[GameReport]:
    rng = random.Random(seed)
    game = make_game(plan.game.name, dict(plan.game.options))
    names = plan.names
    texts: dict[tuple[int, bool, tuple[int, ...]], str] = {}
    for index, fixture in enumerate(plan.static_fixtures()):
        job = plan.job(fixture)
        failed = (index + 1) % FORFEIT_EVERY == 0
        chosen = forfeits if failed else pool
        pick = rng.randrange(len(chosen))
        played = chosen[pick]
        seats = tuple(names[i] for i in job.table)
        key = (pick, failed, job.table)
        if key not in texts:
            tags = [
                ("Event", plan.config.event),
                ("Round", _HOLES[0]),
                ("GameNumber", _HOLES[1]),
                ("Date", "2026.01.01"),
                ("TimeControl", "10+0.1"),
                ("Seed", _HOLES[2]),
            ]
            texts[key] = format_record(
                build_record(game, list(seats), played.moves, played.outcome, tags)
            )
        text = texts[key]
        for hole, value in zip(_HOLES, (job.round, job.number, job.seed), strict=True):
            text = text.replace(hole, str(value), 1)
        yield GameReport(
            number=job.number,
            round=job.round,
            block=job.block,
            table=job.table,
            seats=seats,
            outcome=played.outcome,
            plies=len(played.moves),
            record=text,
        )


def synth_event(
    out: Path, games: int, *, game: str = "trike", pool: int = 64, seed: int = 1
) -> Path:
    """Write the synthetic event of ``games`` games into the new directory ``out``.

    :raises JournalError: ``out`` already holds a tournament.
    """
    plan = Plan.from_config(parse_config(settings(games, game), "synthetic"), "synthetic")
    rng = random.Random(seed)
    rules = make_game(plan.game.name, dict(plan.game.options))
    distinct: list[PoolGame] = []
    while len(distinct) < max(1, pool):
        played = random_game(rules, rng)
        if played is not None:
            distinct.append(played)
    forfeits = [g for g in (random_game(rules, rng, forfeit=True) for _ in range(8)) if g]
    info = EventInfo.from_plan(plan)
    config = plan.config.model_dump(mode="json")
    with Journal.open(out, config, to_json(info), resume=False) as journal:
        batch: list[GameReport] = []
        for report in _reports(plan, distinct, forfeits or distinct, seed):
            batch.append(report)
            if len(batch) == BATCH:
                journal.write_batch(batch)
                journal.note(batch)
                batch = []
        if batch:
            journal.write_batch(batch)
            journal.note(batch)
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the event; print where, how many games and how long it took."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--pool", type=int, default=64, help="distinct games played")
    parser.add_argument("--game", default="trike")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    synth_event(args.out, args.games, game=args.game, pool=args.pool, seed=args.seed)
    seconds = time.perf_counter() - started
    print(f"{args.out}: {args.games:,} games ({seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
