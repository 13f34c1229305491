"""The faulty-bot matrix: every misdeed, as a real process, in 2- and 3-player games.

For each mode the faulty engine sits in seat 2 for two games in a row (its
misdeed starts at its second move). Checked: the termination and reason of the
first game, that the event goes on (the second game is played, the engine is
restarted after a failure), and that no process of the faulty engine is left —
not its children, not its forks, not even a zombie of our own child.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import pytest
import trio

from bots.faulty_bot import MODES
from bots.random_bot import RandomBrain
from protocol.spec import EngineSpec
from referee.clock import TimeControl
from referee.core import Termination
from referee.match import GameResult, play_game
from referee.players import EnginePlayer, Player
from referee.registry import GAMES, make_game
from tests.procs import group_members, live_with
from tests.tournaments.local import brain_player

pytestmark = pytest.mark.processes

T = Termination
EXPECTED: dict[str, tuple[Termination, str]] = {
    "illegal": (T.ILLEGAL_MOVE, "illegal move"),
    "unparsable": (T.ILLEGAL_MOVE, "'zz99'"),
    "garbage": (T.PROTOCOL_ERROR, "hello there"),
    "wrong-reply": (T.PROTOCOL_ERROR, "'ok'"),
    "non-utf8": (T.PROTOCOL_ERROR, "move"),
    "huge-info": (T.PROTOCOL_ERROR, "too long"),
    "flood": (T.PROTOCOL_ERROR, "too long"),
    "crash": (T.CRASH, "3"),
    "exit0": (T.CRASH, "0"),
    "stall": (T.TIMEOUT, "ms over"),
    "resign": (T.RESIGNATION, "resigns"),
    "linger-child": (T.CRASH, "3"),
    "fork": (T.CRASH, "3"),
    # Leaves the process group with setsid: killed as an orphan we reap (subreaper).
    "setsid-fork": (T.CRASH, "3"),
    # Floods meet the deadline as silence does; the reason counts from go.
    "info-flood": (T.TIMEOUT, "kept writing"),
    "info-trickle": (T.TIMEOUT, "ms over"),
    # A move nobody asked for is a violation at the next request, quoted.
    "double-move": (T.PROTOCOL_ERROR, "with no request outstanding"),
    "premove": (T.PROTOCOL_ERROR, "with no request outstanding"),
    # 'move e3' + U+00A0 is not 'move e3'.
    "odd-blank": (T.PROTOCOL_ERROR, "bad move"),
    # Leave the session without the tag, or change pid every millisecond: killed all the same.
    "setsid-scrub": (T.CRASH, "3"),
    "setsid-chain": (T.CRASH, "3"),
    "no-handshake": (T.VOID, "handshake"),
    "option-flood": (T.VOID, "options"),
    "handshake-flood": (T.VOID, "handshake"),
    "slow-handshake": (T.VOID, "handshake"),
    "crash-before": (T.VOID, "handshake"),
    "exit-on-newgame": (T.VOID, "failed to start"),
    "error-on-newgame": (T.VOID, "unsupported"),
    # The referee sends no ping during games: a bad pong changes nothing.
    "bad-pong": (T.RULES, ""),
    # Output after gameover is noticed at the next newgame; the engine is restarted.
    "after-gameover": (T.RULES, ""),
    # Ignoring quit only matters when the referee closes the engine: it is killed.
    "ignore-quit": (T.RULES, ""),
}


RACY: dict[str, tuple[Termination, str]] = {
    # The unasked line is a write of its own, after the answer: on a loaded machine it can
    # reach the pipe only after the referee looked for stale lines before the engine's
    # next request, and is then taken as that request's answer (an old move: illegal).
    # Either way the engine forfeits; the violation itself is shown without the race in
    # tests/protocol/test_channel_defences.py (the premove is in the pipe before the go).
    "premove": (T.ILLEGAL_MOVE, "illegal move"),
}
"""A second outcome a mode may have, when which one comes is a race of the engine's writes."""


COVERAGE_ONLY = {
    "ignore-state",
    "ignore-options",
    "no-swap",
    "die-on-unknown",
    "second-newgame",
    "no-castling-ep",
}
"""Faults that need what ``check-engine``'s coverage steps send (a ``position state``
start, other rule options, a pie swap, an unknown command, a second game in the same
process, a Trichess castling or en passant): ``tests/test_check_coverage.py`` and
``tests/test_check_special_histories.py`` show each named there."""


def test_every_mode_is_in_the_matrix() -> None:
    assert set(EXPECTED) | COVERAGE_ONLY == set(MODES)
    assert set(RACY) <= set(EXPECTED)
    assert not set(EXPECTED) & COVERAGE_ONLY


def _tables() -> Iterator[tuple[str, int]]:
    yield "trike", 2
    for cls in GAMES:
        if 3 in cls.player_counts:
            yield cls.name, 3
            return


TABLES = list(_tables())


MAX_PLIES = 8
"""Plies per seat after which a game is cut short (the misdeed comes at ply 2 or 3)."""
START_TIMEOUT = 3.0
"""Generous, for a loaded machine; ``slow-handshake`` sleeps far past it (``SLOW_HANDSHAKE``)."""
SLOW_HANDSHAKE = 20 * START_TIMEOUT
"""How long ``slow-handshake`` sleeps before answering, seconds. Far past the timeout:
the referee takes an answer it finds on its last look after the deadline, and a loaded
CI machine once woke it more than 3 s late (with a 6 s sleep, the handshake passed)."""


async def _run_mode(game_name: str, players: int, mode: str) -> str | None:
    """Play two games with the faulty engine in seat 2; None if all is as expected, else why."""
    termination, words = EXPECTED[mode]
    game = make_game(game_name)
    marker = f"--seed {4242 + 10 * players + sorted(EXPECTED).index(mode)}"
    slow = str(int(1000 * SLOW_HANDSHAKE)) if mode == "slow-handshake" else "0"
    faulty = EngineSpec(
        name="bad",
        argv=(
            sys.executable,
            "-m",
            "bots",
            "faulty",
            "--mode",
            mode,
            "--at",
            str(players),
            "--slow",
            slow,
            *marker.split(),
        ),
    )
    tc = TimeControl.parse("1+0", margin=0.2)
    results: list[GameResult] = []
    with trio.fail_after(60):
        async with contextlib.AsyncExitStack() as stack:
            bad = await stack.enter_async_context(
                EnginePlayer.open(faulty, start_timeout=START_TIMEOUT)
            )
            # The other seats play the random bot's moves in this process: what is tested
            # is the faulty engine's process, and processes of their own were half the
            # matrix's process starts at two seats, two thirds at three (most of its CPU).
            table: list[Player] = [bad]
            table += [brain_player(f"good{i}", RandomBrain()) for i in range(players - 1)]
            table[0], table[1] = table[1], table[0]  # the faulty engine sits in seat 2
            for seed in (1, 2):
                # Short games: what is tested is the misdeed, which comes early.
                results.append(
                    await play_game(game, table, tc, seed=seed, max_plies=MAX_PLIES * players)
                )
        pids = list(bad.pids)
    first, second = results
    outcome = first.outcome
    if mode in RACY and outcome.termination is RACY[mode][0]:
        termination, words = RACY[mode]
    allowed_second = {EXPECTED[mode][0], T.RULES, T.MOVE_LIMIT}
    if mode in RACY:
        allowed_second.add(RACY[mode][0])
    problems = []
    if termination is T.RULES and outcome.termination is T.MOVE_LIMIT:
        pass  # the game was cut short before its end, as asked
    elif outcome.termination is not termination:
        problems.append(f"termination {outcome.termination.value} ({outcome.reason})")
    if words not in outcome.reason:
        problems.append(f"reason {outcome.reason!r} lacks {words!r}")
    if termination is not T.RULES and outcome.culprit != 1:
        problems.append(f"culprit {outcome.culprit}")
    if termination.is_forfeit and outcome.ranks[1:2] != (players,):
        problems.append(f"ranks {outcome.ranks}")
    if second.outcome.termination not in allowed_second:
        problems.append(f"second game {second.outcome.termination.value}")
    if termination in (T.CRASH, T.TIMEOUT, T.PROTOCOL_ERROR) and len(pids) < 2:
        problems.append("the engine was not restarted after its failure")
    leftovers = live_with(marker) + group_members(pids)
    if leftovers:
        problems.append(f"processes left: {leftovers}")
    return "; ".join(problems) or None


@pytest.mark.parametrize(("game_name", "players"), TABLES, ids=[f"{g}-{n}p" for g, n in TABLES])
async def test_every_faulty_mode(game_name: str, players: int) -> None:
    """All modes, four at a time (each case mostly waits on its processes)."""
    failures: dict[str, str] = {}
    limiter = trio.CapacityLimiter(4)

    async def one(mode: str) -> None:
        async with limiter:
            problem = await _run_mode(game_name, players, mode)
        if problem is not None:
            failures[mode] = problem

    async with trio.open_nursery() as nursery:
        for mode in sorted(EXPECTED):
            nursery.start_soon(one, mode)
    assert failures == {}
