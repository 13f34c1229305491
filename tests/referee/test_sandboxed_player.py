"""A sandboxed engine gets a fresh process, and so an empty scratch, for every game; the
engines of a table without a process start together (``warm_up``), and those that stop
after the game stop together (``tell_game_over``)."""

from __future__ import annotations

import sys

import pytest

from protocol.keeper import available as keeper_available
from protocol.sandbox import SandboxSettings
from protocol.sandbox.host import SandboxUnavailable, probe
from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from referee.clock import TimeControl
from referee.core import Termination
from referee.match import play_game
from referee.players import EnginePlayer, warm_up
from referee.registry import make_game

pytestmark = pytest.mark.sandbox


@pytest.mark.parametrize("kept", [True, False], ids=["kept", "per-game"])
async def test_one_process_per_game_in_the_sandbox_and_reuse_outside(kept: bool) -> None:
    try:
        probe()
    except SandboxUnavailable as exc:
        pytest.skip(str(exc))
    argv = (sys.executable, "-m", "bots", "random")
    game = make_game("trike", {"size": "7"})
    tc = TimeControl.parse("10+0")
    async with (
        EnginePlayer.open(EngineSpec("plain", argv)) as plain,
        EnginePlayer.open(EngineSpec("boxed", argv, sandbox=SandboxSettings())) as boxed,
    ):
        boxed.keep_sandbox = kept
        results = [await play_game(game, [plain, boxed], tc, seed=s) for s in (1, 2, 3)]
        assert plain.starts == 1
        assert boxed.starts == 3
        # A kept sandbox's games share its process id (each is a fresh process in it).
        assert len(set(boxed.pids)) == (1 if kept and keeper_available(boxed.spec) else 3)
    for result in results:
        assert result.outcome.termination is not Termination.VOID
        assert result.outcome.culprit is None, result.outcome.reason


async def test_warm_up_starts_every_engine_of_the_table_before_the_game() -> None:
    argv = (sys.executable, "-m", "bots", "random")
    async with (
        EnginePlayer.open(EngineSpec("a", argv)) as a,
        EnginePlayer.open(EngineSpec("b", argv)) as b,
    ):
        assert a.transcript is None and b.transcript is None
        await warm_up([a, b])
        assert a.transcript is not None and b.transcript is not None
        assert a.starts == b.starts == 1


async def test_engines_that_stop_after_the_game_stop_side_by_side() -> None:
    # Each ignores quit and SIGTERM: its stop takes the quit grace and the kill grace.
    argv = (sys.executable, "-m", "bots", "faulty", "--mode", "ignore-quit")
    ended: list[Transcript] = []
    game = make_game("trike", {"size": "7"})
    async with (
        EnginePlayer.open(EngineSpec("a", argv, restart=True), on_transcript=ended.append) as a,
        EnginePlayer.open(EngineSpec("b", argv, restart=True), on_transcript=ended.append) as b,
    ):
        result = await play_game(game, [a, b], TimeControl.parse("10+0"), seed=1)
    assert result.outcome.culprit is None, result.outcome.reason
    quits, ends = [], []
    for transcript in ended:
        lines = transcript.entries()
        quits += [transcript.origin + e.time for e in lines if e.text == "quit"]
        ends += [transcript.origin + e.time for e in lines if e.text.startswith("process ")]
    assert len(quits) == len(ends) == 2
    # Both were asked to quit before either had ended: neither waited for the other.
    assert max(quits) < min(ends)
