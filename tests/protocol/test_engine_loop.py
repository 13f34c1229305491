"""The bots' blocking engine loop and the random brain, run in-process on byte streams."""

from __future__ import annotations

import io

from bots.engine import EngineLoop
from bots.faulty_bot import find_illegal_move
from bots.position import PositionTracker
from bots.random_bot import RandomBrain
from protocol.codec import parse_reply
from protocol.messages import Go, MoveReply, NewGame, Position
from referee.core import AnyGame
from referee.registry import make_game


def converse(*lines: str, seed: int = 0) -> list[str]:
    stdin = io.BytesIO("".join(line + "\n" for line in lines).encode())
    stdout = io.BytesIO()
    loop = EngineLoop(RandomBrain(seed), name="random", author="me", stdin=stdin, stdout=stdout)
    assert loop.run() == 0
    return stdout.getvalue().decode().splitlines()


def test_handshake_ping_newgame_and_moves() -> None:
    out = converse(
        "rgp 1",
        "ping 5",
        "newgame game trike players 2 seat 1 seed 3 options size=7",
        "position start",
        "go time 1000,1000 inc 0,0",
        "quit",
        "ping 6",  # after quit: never read
    )
    assert out[:5] == ["id name random", "id author me", "rgpok", "pong 5", "ok"]
    assert out[5].startswith("move ")
    assert len(out) == 6


def test_errors_instead_of_crashes() -> None:
    out = converse(
        "rgp 2",
        "go",
        "what is this",
        "",
        "newgame game nosuchgame players 2 seat 1 seed 0",
        "newgame game trike players 2 seat 1 seed 0 options size=99",
        "newgame game trike players 2 seat 1 seed 0",
        "position start moves e3 e3",
        "go",
        "setoption name Hash value 1",
    )
    assert out[0] == "error unsupported protocol version"
    assert out[1] == "error no game: send newgame first"
    assert out[2].startswith("error unknown command")
    assert out[3].startswith("error unknown game 'nosuchgame'")
    assert out[4].startswith("error option size=99")
    assert out[5] == "ok"
    assert out[6].startswith("error move 2 'e3'")
    assert out[7] == "error unknown option Hash"
    assert all(isinstance(parse_reply(line), object) for line in out)


def test_end_of_input_ends_the_loop() -> None:
    assert converse() == []


def pick(brain: RandomBrain, game: AnyGame, moves: list[str], start: str | None = None) -> str:
    """The brain's move after ``moves``, from a fresh replay (as a restarted loop would)."""
    tracker = PositionTracker(game, 2)
    tracker.update(Position(tuple(moves), start))
    assert tracker.problem is None
    return brain.choose(tracker.state, Go(), lambda info: None)


def test_random_brain_is_deterministic() -> None:
    game = make_game("trike")
    brain = RandomBrain(seed=9)
    assert brain.newgame(game, NewGame("trike", 2, 1, 4)) is None
    history: list[str] = []
    for _ in range(10):
        history.append(pick(brain, game, history))
    again = RandomBrain(seed=9)
    again.newgame(game, NewGame("trike", 2, 2, 4))
    # Out of order: the same moves.
    assert pick(again, game, history[:5]) == history[5]
    assert pick(again, game, history[:2]) == history[2]
    assert pick(again, game, history[:9]) == history[9]
    other = RandomBrain(seed=10)
    other.newgame(game, NewGame("trike", 2, 1, 4))
    others: list[str] = []
    for _ in range(10):
        others.append(pick(other, game, others))
    assert others != history


def test_random_brain_plays_a_whole_game_from_an_encoded_state() -> None:
    game = make_game("trike", {"size": "7"})
    brain = RandomBrain(seed=1)
    brain.newgame(game, NewGame("trike", 2, 1, 0, (("size", "7"),)))
    start = game.encode(game.initial_state(2))
    history: list[str] = []
    while True:
        reply = pick(brain, game, history, start)
        if reply == "resign":
            break
        assert isinstance(parse_reply(f"move {reply}"), MoveReply)
        history.append(reply)
    state = game.initial_state(2)
    for text in history:
        state = state.play(game.parse_move(state, text))
    assert state.outcome() is not None


def test_find_illegal_move_finds_one_even_at_the_first_ply() -> None:
    game = make_game("trike")
    state = game.initial_state(2)
    text = find_illegal_move(game, state, ())
    assert text is not None
    assert not state.is_legal(game.parse_move(state, text))
