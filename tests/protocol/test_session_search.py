"""The session and structured info, against a bash engine written from SPEC.md alone.

``tests/engines/trike_thinker.sh`` declares ``feature nodes depth`` and reports
structured ``info`` items; with ``garbage`` it also sends malformed items, which
must be kept as text and noted, never a violation.
"""

from __future__ import annotations

import shutil

import pytest
import trio

from protocol.messages import Go, NewGame, Position
from protocol.search_info import SearchInfo, Shares
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from tests.conftest import ROOT, bot_argv

THINKER = ROOT / "tests" / "engines" / "trike_thinker.sh"
TRIKE = NewGame(game="trike", players=2, seat=1, seed=0, options=(("size", "9"),))

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")


def thinker(*args: str) -> EngineSpec:
    return EngineSpec(name="thinker", argv=(str(THINKER), *args), cwd=str(ROOT))


async def test_features_and_merged_search_info() -> None:
    async with EngineSession.open(thinker()) as session:
        assert session.engine_features == {"nodes", "depth"}
        await session.new_game(TRIKE, timeout=5)
        deadline = trio.current_time() + 10
        # The apex a1 has two neighbours' lines open: b1.. and b2.. down to the base.
        answer = await session.request_move(
            Position(("a1",)), Go(nodes=400, depth=3), deadline=deadline
        )
        assert answer.move is not None
        search = answer.search
        assert search.depth == 1 and search.seldepth == 1 and search.time == 1
        assert search.nodes == 16  # 8 cells down each side of the triangle
        assert search.pv == (answer.move,) and search.string == "bash"
        # Seat 2 to move, with 16 moves: 400 + 16 * 4 thousandths.
        assert search.score == Shares((536, 464))
        assert answer.infos[-1].startswith("depth 1 ")
    sent = [line for line in session.transcript.lines() if " > go" in line]
    assert sent and sent[-1].endswith("> go nodes 400 depth 3")


async def test_garbage_items_are_noted_not_violations() -> None:
    async with EngineSession.open(thinker("garbage")) as session:
        await session.new_game(TRIKE, timeout=5)
        answer = await session.request_move(Position(), Go(), deadline=trio.current_time() + 10)
        assert answer.move is not None
        assert answer.search.nodes == 45 and answer.search.string == "bash"
        assert len(answer.infos) == 3
    notes = [line for line in session.transcript.lines() if " # info item" in line]
    assert len(notes) == 4, notes
    joined = "\n".join(notes)
    for item in ("'depth deep'", "'score 600,300'", "'pv'", "'nodes -5'"):
        assert item in joined
    assert "sum to 900" in joined


async def test_an_engine_without_features_declares_none() -> None:
    spec = EngineSpec(name="random", argv=bot_argv("random"), cwd=str(ROOT))
    async with EngineSession.open(spec) as session:
        assert session.engine_features == frozenset()
        await session.new_game(TRIKE, timeout=5)
        answer = await session.request_move(Position(), Go(), deadline=trio.current_time() + 10)
        assert answer.search == SearchInfo()
