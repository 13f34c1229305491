"""The engine side's incremental position: the same states as a full replay, in linear time."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

from bots.engine import EngineLoop
from bots.position import PositionTracker
from bots.random_bot import RandomBrain
from protocol.errors import ProtocolViolation
from protocol.messages import Go, NewGame, Position
from referee.registry import make_game


def random_history(name: str, players: int, plies: int, seed: int) -> list[str]:
    game = make_game(name)
    state = game.initial_state(players)
    rng = random.Random(seed)
    texts: list[str] = []
    while state.to_move is not None and len(texts) < plies:
        move = rng.choice(state.legal_moves())
        texts.append(game.format_move(state, move))
        state = state.play(move)
    return texts


def replayed(name: str, players: int, texts: list[str]) -> str:
    game = make_game(name)
    state = game.initial_state(players)
    for text in texts:
        state = state.play(game.parse_move(state, text))
    return game.encode(state)


def line(texts: list[str], start: str | None = None) -> str:
    head = "position start" if start is None else f"position state {start}"
    return f"{head} moves {' '.join(texts)}" if texts else head


class CountingGame:
    """Wraps a game and counts ``parse_move`` calls."""

    def __init__(self, game: Any) -> None:
        self.game, self.parsed = game, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def parse_move(self, state: Any, text: str) -> Any:
        self.parsed += 1
        return self.game.parse_move(state, text)


@pytest.mark.parametrize(
    ("name", "players"), [("trike", 2), ("trichess", 3), ("tricolor", 4), ("triablo", 3)]
)
def test_each_extending_line_gives_the_full_replay_and_parses_only_new_moves(
    name: str, players: int
) -> None:
    texts = random_history(name, players, 120, seed=5)
    counting = CountingGame(make_game(name))
    tracker = PositionTracker(counting, players)  # type: ignore[arg-type]
    for ply in range(len(texts) + 1):
        tracker.update_line(line(texts[:ply]))
        assert tracker.problem is None
        assert tracker.moves == texts[:ply]
    assert counting.game.encode(tracker.state) == replayed(name, players, texts)
    # Every move was parsed once: nothing was replayed from the start.
    assert counting.parsed == len(texts)


def test_lines_that_do_not_extend_the_last_one_are_replayed() -> None:
    texts = random_history("triablo", 2, 60, seed=8)
    other = random_history("triablo", 2, 60, seed=9)
    tracker = PositionTracker(make_game("triablo"), 2)
    tracker.update_line(line(texts[:40]))
    for moves in (texts[:10], other[:30], texts[:41], texts[:41], []):  # back, elsewhere, on
        tracker.update_line(line(moves))
        assert tracker.problem is None
        assert make_game("triablo").encode(tracker.state) == replayed("triablo", 2, moves)
    # Extra blanks and a different start text are not a prefix match, and still right.
    tracker.update_line("position  start moves " + "  ".join(texts[:5]) + "  ")
    assert tracker.moves == texts[:5]
    game = make_game("triablo")
    start = game.encode(game.initial_state(2))
    tracker.update_line(line(texts[:3], start))
    assert tracker.start == start and tracker.moves == texts[:3]
    assert game.encode(tracker.state) == replayed("triablo", 2, texts[:3])


def test_parsed_positions_take_the_same_path() -> None:
    texts = random_history("trike", 2, 30, seed=2)
    tracker = PositionTracker(make_game("trike"), 2)
    for ply in (3, 7, 7, 2, 30):
        tracker.update(Position(tuple(texts[:ply])))
        assert make_game("trike").encode(tracker.state) == replayed("trike", 2, texts[:ply])


def test_a_bad_move_is_kept_as_the_problem_until_a_good_line() -> None:
    texts = random_history("trike", 2, 12, seed=4)
    tracker = PositionTracker(make_game("trike"), 2)
    tracker.update_line(line(texts[:4]))
    tracker.update_line(line([*texts[:4], texts[0]]))  # the first cell again: occupied
    assert tracker.problem is not None and tracker.problem.startswith(f"move 5 {texts[0]!r}")
    tracker.update_line(line([*texts[:4], texts[0], texts[5]]))
    assert tracker.problem is not None and tracker.problem.startswith("move 5")
    tracker.update_line(line(texts[:6]))
    assert tracker.problem is None
    assert make_game("trike").encode(tracker.state) == replayed("trike", 2, texts[:6])
    tracker.update_line("position state nonsense")
    assert tracker.problem is not None and tracker.problem.startswith("bad start position")


def test_malformed_lines_are_protocol_violations_and_change_nothing() -> None:
    texts = random_history("trike", 2, 6, seed=1)
    tracker = PositionTracker(make_game("trike"), 2)
    tracker.update_line("position start")
    for bad in ("position start e3", "position start moves", "position start moves é"):
        with pytest.raises(ProtocolViolation):
            tracker.update_line(bad)
    tracker.update_line(line(texts[:2]))
    with pytest.raises(ProtocolViolation):
        tracker.update_line(line(texts[:2]) + " \x7f")
    assert tracker.moves == texts[:2]
    tracker.update_line(line(texts[:3]))
    assert make_game("trike").encode(tracker.state) == replayed("trike", 2, texts[:3])


def test_the_engine_loop_answers_from_the_tracked_position() -> None:
    texts = random_history("trike", 2, 8, seed=6)
    lines = [
        "rgp 1",
        "newgame game trike players 2 seat 1 seed 3",
        line(texts[:4]),
        "go",
        line(texts[:6]),
        "go",
        line(texts[:2]),  # back: replayed
        "go",
        line([*texts[:2], texts[0]]),  # illegal: answered at go
        "go",
        "position start moves",  # malformed: answered at once
        "quit",
    ]
    stdin = io.BytesIO("".join(x + "\n" for x in lines).encode())
    stdout = io.BytesIO()
    loop = EngineLoop(RandomBrain(3), name="r", author="a", stdin=stdin, stdout=stdout)
    assert loop.run() == 0
    out = stdout.getvalue().decode().splitlines()[4:]
    fresh = []
    for ply in (4, 6, 2):
        brain = RandomBrain(3)
        game = make_game("trike")
        brain.newgame(game, NewGame("trike", 2, 1, 3))
        tracker = PositionTracker(game, 2)
        tracker.update(Position(tuple(texts[:ply])))
        fresh.append("move " + brain.choose(tracker.state, Go(), lambda info: None))
    assert out[:3] == fresh
    assert out[3].startswith("error move 3")
    assert out[4].startswith("error malformed position")
