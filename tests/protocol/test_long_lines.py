"""Long games: position lines past the pipe's default capacity reach the engine whole,
and the engine's stdin pipe grows so that such a line takes one write."""

from __future__ import annotations

import fcntl

import pytest
import trio

from protocol.errors import ProtocolViolation
from protocol.messages import Go, NewGame, Position
from protocol.process import DEFAULT_PIPE_BYTES
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from tests.conftest import ROOT, bot_argv


async def test_a_line_past_the_pipe_is_read_whole_and_the_pipe_grows() -> None:
    spec = EngineSpec(name="random", argv=bot_argv("random"), cwd=str(ROOT))
    async with EngineSession.open(spec) as session:
        await session.new_game(NewGame("trike", 2, 1, 1), timeout=10)
        fd = session._stdin_fd
        assert fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ) == DEFAULT_PIPE_BYTES
        answer = await session.request_move(
            Position(("e5",)), Go(), deadline=trio.current_time() + 30
        )
        assert answer.move is not None
        assert fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ) == DEFAULT_PIPE_BYTES  # short: unchanged
        # 30,000 moves (about 90 KB): the engine reads them all before it can answer
        # about the second one, which repeats the first.
        history = ("e5",) * 30_000
        with pytest.raises(ProtocolViolation, match="move 2 'e5'"):
            await session.request_move(Position(history), Go(), deadline=trio.current_time() + 30)
        assert fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ) >= len(" ".join(history))
