"""bots/c/trike_engine.c as a real process: handshake, newgame, and legal replies.

Positions come from the Python Trike rules (random legal games); every reply of
the engine must be legal there. Skipped when no C compiler is installed.
"""

from __future__ import annotations

import os
import random
import select
import subprocess
import time
from pathlib import Path

import pytest

from protocol.codec import parse_reply
from protocol.messages import ErrorReply, HelloOk, IdReply, MoveReply, Ok, Pong
from referee.games.trike import SWAP, Trike, TrikeState
from tests.c_build import build_trike_engine

TIMEOUT = 30.0


@pytest.fixture(scope="module")
def engine() -> Path:
    try:
        path = build_trike_engine()
    except subprocess.CalledProcessError as err:
        pytest.fail(f"bots/c/trike_engine.c does not compile:\n{err.stderr}")
    if path is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH")
    return path


def run_script(engine: Path, lines: list[str]) -> list[str]:
    """Send every line at once, then EOF; return the engine's output lines."""
    done = subprocess.run(
        [str(engine)],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


class Interactive:
    """One engine process driven line by line, with a timeout on every read."""

    def __init__(self, engine: Path) -> None:
        self.proc = subprocess.Popen(
            [str(engine)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
        )
        self.pending = b""

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{line}\n".encode())
        self.proc.stdin.flush()

    def read_line(self, timeout: float = 5.0) -> str:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(left, 0.0))
            if not ready:
                raise AssertionError(f"no reply within {timeout} s (output is buffered?)")
            chunk = os.read(fd, 4096)
            if not chunk:
                raise AssertionError("the engine closed its output")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode()

    def close(self) -> int:
        """Send ``quit`` and return the exit status (the process is killed if it hangs)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.send("quit")
            return self.proc.wait(timeout=5)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdin.close()
            self.proc.stdout.close()


def newgame(options: dict[str, str], seed: int = 1, seat: int = 1) -> str:
    text = Trike(options).options_text()
    return f"newgame game trike players 2 seat {seat} seed {seed} options {text}"


def test_handshake_ping_and_newgame_interactively(engine: Path) -> None:
    session = Interactive(engine)
    try:
        session.send("rgp 1")
        assert parse_reply(session.read_line()) == IdReply("name", "trike-c 1.0")
        assert parse_reply(session.read_line()) == IdReply("author", "referee project")
        assert parse_reply(session.read_line()) == HelloOk()
        session.send("ping t-42")
        assert parse_reply(session.read_line()) == Pong("t-42")
        session.send("setoption name Hash value 16")
        session.send(newgame({}))
        assert parse_reply(session.read_line()) == Ok()
        session.send("position start")
        session.send("ping after-position")
        assert session.read_line() == "pong after-position"
        session.send("go time 1000,1000 inc 0,0")
        reply = parse_reply(session.read_line())
        assert isinstance(reply, MoveReply)
        session.send("gameover result 1-0 reason rules")
        session.send("ping x")
        assert session.read_line() == "pong x"
    finally:
        assert session.close() == 0


def test_eof_exits_cleanly(engine: Path) -> None:
    assert run_script(engine, ["rgp 1"])[-1] == "rgpok"


@pytest.mark.parametrize(
    "line",
    [
        "newgame game chess players 2 seat 1 seed 3",
        "newgame game trike players 3 seat 1 seed 3",
        "newgame game trike players 2 seat 1 seed 3 options size=20,mode=zero,pie=yes",
        "newgame game trike players 2 seat 1 seed 3 options size=6",
        "newgame game trike players 2 seat 1 seed 3 options mode=foo",
        "newgame game trike players 2 seat 1 seed 3 options pie=maybe",
        "newgame game trike players 2 seat 1 seed 3 options colour=red",
    ],
)
def test_newgame_refused(engine: Path, line: str) -> None:
    (out,) = run_script(engine, [line])
    assert isinstance(parse_reply(out), ErrorReply)


@pytest.mark.parametrize(
    "line",
    [
        "newgame game trike players 2 seat 2 seed 3",
        "newgame game pure-trike players 2 seat 1 seed 3",
        "newgame game trike players 2 seat 1 seed 3 options size=19,mode=odd,pie=no",
        "newgame game trike players 2 seat 1 seed 3 options mode=even",
    ],
)
def test_newgame_accepted(engine: Path, line: str) -> None:
    assert run_script(engine, [line]) == ["ok"]


def _random_position(game: Trike, rng: random.Random) -> tuple[TrikeState, list[str]]:
    """A random unfinished position and the move texts that reach it."""
    state = game.initial_state(2)
    history: list[tuple[TrikeState, str]] = []
    while state.to_move is not None:
        moves = state.legal_moves()
        # swap more often than uniformly, so that positions after a swap are common
        move = SWAP if SWAP in moves and rng.random() < 0.3 else rng.choice(moves)
        history.append((state, game.format_move(state, move)))
        state = state.play(move)
    cut = rng.randrange(len(history))
    return history[cut][0], [text for _, text in history[:cut]]


def _classes(state: TrikeState, move: int) -> int:
    """3 wins at once, 0 loses at once, 1 otherwise (the engine's first two criteria)."""
    after = state.play(move)
    outcome = after.outcome()
    if outcome is None:
        return 1
    return 3 if outcome.ranks[state.to_move or 0] == 1 else 0


CONFIGS = [
    {"size": str(size), "mode": mode, "pie": pie}
    for size in (7, 9, 19)
    for mode in ("zero", "even", "odd")
    for pie in (("yes", "no") if size == 9 else ("yes",))
]


@pytest.mark.parametrize("options", CONFIGS, ids=["-".join(c.values()) for c in CONFIGS])
def test_replies_are_legal_on_random_positions(engine: Path, options: dict[str, str]) -> None:
    game = Trike(options)
    rng = random.Random(f"{options}")
    positions = [_random_position(game, rng) for _ in range(80)]
    script = [newgame(options, seed=rng.randrange(2**32))]
    for index, (state, moves) in enumerate(positions):
        if index % 4 == 3:  # some through an encoded start position
            script.append(f"position state {game.encode(state)}")
        else:
            script.append("position start" + (f" moves {' '.join(moves)}" if moves else ""))
        script.append("go movetime 10")
    out = run_script(engine, script)
    assert out[0] == "ok" and len(out) == 1 + len(positions)
    for (state, moves), line in zip(positions, out[1:], strict=True):
        reply = parse_reply(line)
        assert isinstance(reply, MoveReply), f"{line!r} after {moves}"
        move = game.parse_move(state, reply.move)
        assert state.is_legal(move), f"illegal {reply.move} after {moves}"
        assert move != SWAP
        best = max(_classes(state, m) for m in state.legal_moves() if m != SWAP)
        got = _classes(state, move)
        assert got == best, f"{reply.move} after {moves}"


def test_replies_are_deterministic(engine: Path) -> None:
    script = [newgame({}, seed=99), "position start moves e3 swap e1", "go", "go"]
    first = run_script(engine, script)
    assert first == run_script(engine, script)
    assert first[1] == first[2]


def test_bad_position_is_reported_at_go(engine: Path) -> None:
    out = run_script(engine, [newgame({}), "position start moves e3 e3", "go"])
    assert out[0] == "ok"
    assert isinstance(parse_reply(out[1]), ErrorReply)
    out = run_script(engine, ["position start", "go"])
    assert isinstance(parse_reply(out[0]), ErrorReply)


def test_long_history_line(engine: Path) -> None:
    options = {"size": "19", "mode": "even"}
    game = Trike(options)
    rng = random.Random(8)
    state, texts = game.initial_state(2), []
    while len(state.legal_moves()) > 0 and state.ply < 185:
        move = rng.choice(state.legal_moves())
        texts.append(game.format_move(state, move))
        state = state.play(move)
    out = run_script(engine, [newgame(options), f"position start moves {' '.join(texts)}", "go"])
    reply = parse_reply(out[1])
    assert isinstance(reply, MoveReply)
    assert state.is_legal(game.parse_move(state, reply.move))
