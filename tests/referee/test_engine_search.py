"""Real engine processes in ``play_game``: search info per move, limits, score adjudication.

The scripted engine (``tests/engines/scored_engine.py``) plays random legal moves and
reports the scores its script says; the records built from the games are checked by
``referee.adjudicate`` — confirmed as played, disputed once an ``s=`` item is edited.
"""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from typing import Any

import pytest

from protocol.errors import EngineStartError
from protocol.search_info import Shares
from protocol.session import EngineSession
from protocol.spec import EngineSpec
from referee.adjudicate import VerdictKind, adjudicate
from referee.clock import TimeControl
from referee.core import Termination
from referee.match import GameResult, play_game
from referee.players import EnginePlayer
from referee.record import MoveEntry, build_record, format_record, parse_records, timing_comment
from referee.record.model import GameRecord
from referee.registry import make_game
from referee.score_rules import TAG, DrawRule, ResignRule, ScoreRules
from tests.conftest import ROOT, bot_argv

SCORED = ROOT / "tests" / "engines" / "scored_engine.py"
TC = TimeControl.parse("30+0.5")


def scored(name: str, *script: str) -> EngineSpec:
    argv = [sys.executable, str(SCORED)]
    for item in script:
        argv += ["--score", item]
    return EngineSpec(name=name, argv=tuple(argv), cwd=str(ROOT))


async def play(
    game_name: str, specs: list[EngineSpec], rules: ScoreRules | None, **options: str
) -> tuple[GameResult, GameRecord]:
    game = make_game(game_name, options)
    async with (
        EnginePlayer.open(specs[0]) as first,
        EnginePlayer.open(specs[1]) as second,
    ):
        players: list[Any] = [first, second]
        if len(specs) == 3:
            async with EnginePlayer.open(specs[2]) as third:
                result = await play_game(game, [*players, third], TC, adjudication=rules)
        else:
            result = await play_game(game, players, TC, adjudication=rules)
    moves = [
        MoveEntry(m.text, timing_comment(m.elapsed, m.remaining, m.search)) for m in result.moves
    ]
    tags = [(TAG, rules.tag_text())] if rules else []
    record = build_record(game, [s.name for s in specs], moves, result.outcome, tags)
    return result, record


def edited(record: GameRecord, ply: int, new_score: str) -> GameRecord:
    """The record with the ``s=`` item of move ``ply`` (1-based) replaced, read back from text."""
    moves = list(record.moves)
    move = moves[ply - 1]
    assert move.comment is not None
    moves[ply - 1] = MoveEntry(move.text, re.sub(r"s=\S+", f"s={new_score}", move.comment))
    (text_record,) = parse_records(format_record(replace(record, moves=tuple(moves))))
    return text_record


@pytest.mark.parametrize(
    ("game", "seats", "script", "loser"),
    [
        ("trike", 2, ("0:500,500", "4:960,40"), 1),
        ("tricolor", 3, ("0:334,333,333", "3:500,480,20"), 2),
    ],
)
async def test_resign_ends_real_games_early_and_adjudicate_confirms(
    game: str, seats: int, script: tuple[str, ...], loser: int
) -> None:
    rules = ScoreRules(resign=ResignRule(movecount=2, share=50))
    specs = [scored(f"s{i}", *script) for i in range(1, seats + 1)]
    result, record = await play(game, specs, rules)
    outcome = result.outcome
    assert outcome.termination is Termination.ADJUDICATION
    assert outcome.culprit == loser
    # From the turn after `3:`/`4:` plies, every engine agrees for two turns each.
    first = int(script[1].split(":")[0])
    assert len(result.moves) == first + 2 * seats
    assert outcome.ranks[loser] == seats
    assert (
        f"seat {loser + 1} is lost" in outcome.reason and "movecount=2,share=50" in outcome.reason
    )
    assert result.moves[-1].search.score == Shares(tuple(map(int, script[1][2:].split(","))))
    (read_back,) = parse_records(format_record(record))
    assert read_back.tag(TAG) == "resign movecount=2,share=50"
    assert adjudicate(read_back).verdict is VerdictKind.CONFIRMED
    # Hand-edit the last move's score: the rule no longer fires where the record ends.
    spoiled = edited(read_back, len(result.moves), "500,500" if seats == 2 else "334,333,333")
    verdict = adjudicate(spoiled)
    assert verdict.verdict is VerdictKind.WRONG_RESULT
    assert "do not justify" in verdict.reason


@pytest.mark.parametrize(
    ("game", "seats", "even"), [("trike", 2, "510,490"), ("tricolor", 3, "340,330,330")]
)
async def test_draw_ends_real_games_early_and_adjudicate_confirms(
    game: str, seats: int, even: str
) -> None:
    rules = ScoreRules(draw=DrawRule(movenumber=8, movecount=2, spread=20))
    specs = [scored(f"s{i}", f"0:{even}") for i in range(1, seats + 1)]
    result, record = await play(game, specs, rules)
    outcome = result.outcome
    assert outcome.termination is Termination.ADJUDICATION and outcome.culprit is None
    assert len(result.moves) == 8  # two turns each long done by then; not before ply 8
    assert set(outcome.ranks) == {1} and "even game" in outcome.reason
    assert record.result == ("1/2-1/2" if seats == 2 else "1/3-1/3-1/3")
    (read_back,) = parse_records(format_record(record))
    assert adjudicate(read_back).verdict is VerdictKind.CONFIRMED
    # An edit that makes the rule fire earlier: the record should have stopped there.
    spoiled = edited(read_back, 8, "1000" + ",0" * (seats - 1))
    assert adjudicate(spoiled).verdict is VerdictKind.WRONG_RESULT
    early = ScoreRules(draw=DrawRule(movenumber=6, movecount=2, spread=20))
    retagged = replace(
        read_back,
        tags=tuple((n, early.tag_text() if n == TAG else v) for n, v in read_back.tags),
    )
    verdict = adjudicate(retagged)
    assert verdict.verdict is VerdictKind.WRONG_RESULT and "goes on" in verdict.reason


async def test_an_engine_without_scores_blocks_adjudication() -> None:
    rules = ScoreRules(ResignRule(1, 100), DrawRule(0, 1, 100))
    specs = [scored("talks", "0:990,10"), scored("silent", "0:none")]
    result, record = await play("trike", specs, rules)
    assert result.outcome.termination is Termination.RULES
    assert adjudicate(record).verdict is VerdictKind.CONFIRMED
    # Giving the silent engine a score on its first move makes the rule fire there.
    assert adjudicate(edited_add_score(record, 2, "990,10")).verdict is VerdictKind.WRONG_RESULT


def edited_add_score(record: GameRecord, ply: int, score: str) -> GameRecord:
    moves = list(record.moves)
    move = moves[ply - 1]
    moves[ply - 1] = MoveEntry(move.text, f"{move.comment} s={score}")
    return replace(record, moves=tuple(moves))


async def test_node_limits_are_sent_and_need_the_feature() -> None:
    limited = replace(scored("a", "0:500,500"), nodes=400, depth=3)
    async with EngineSession.open(limited) as session:
        assert session.engine_features == {"nodes", "depth"}
    random = EngineSpec(name="random", argv=bot_argv("random"), cwd=str(ROOT), nodes=400)
    with pytest.raises(EngineStartError, match="does not declare 'feature nodes'"):
        async with EngineSession.open(random):
            pass
    result, record = await play("trike", [limited, scored("b")], None)
    assert result.moves[0].search.depth == 1
    assert "d=1 n=45 s=500,500" in (record.moves[0].comment or "")
    transcripts: list[str] = []
    async with (
        EnginePlayer.open(limited, on_transcript=lambda t: transcripts.extend(t.lines())) as player,
        EnginePlayer.open(scored("b")) as other,
    ):
        await play_game(make_game("trike", {}), [player, other], TC, max_plies=2)
    assert any(
        line.endswith("go nodes 400 depth 3 time 30000,30000 inc 500,500") for line in transcripts
    )
