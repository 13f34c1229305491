"""The adjudicator replays records under the real rules (protocol/RECORD.md section 5)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from referee.adjudicate import (
    Verdict,
    VerdictKind,
    adjudicate,
    format_verdict,
    verdict_to_json,
)
from referee.adjudicate_stream import adjudicate_file
from referee.core import AnyGame, Game, Outcome, Termination
from referee.errors import UnknownGameError
from referee.record import append_record, build_record, format_record, timing_comment
from referee.record.model import GameRecord, MoveEntry
from referee.record.parse import parse_records
from referee.registry import make_game
from referee.results import (
    forfeit_outcome,
    unfinished_outcome,
)
from tests.referee.test_record import ShareTally, Tally

CONFIRMED = VerdictKind.CONFIRMED
ILLEGAL = VerdictKind.ILLEGAL_MOVE
WRONG = VerdictKind.WRONG_RESULT
INVALID = VerdictKind.INVALID_RECORD


def random_game(
    seed: int, options: Mapping[str, str] | None = None, stop: int | None = None
) -> tuple[AnyGame, list[Any], list[str]]:
    """A random legal Trike game: the game, the state after each ply (index 0 = start), moves."""
    game = make_game("trike", options)
    rng = random.Random(seed)
    states = [game.initial_state(2)]
    texts: list[str] = []
    while states[-1].to_move is not None and (stop is None or len(texts) < stop):
        state = states[-1]
        move = rng.choice(state.legal_moves())
        texts.append(game.format_move(state, move))
        states.append(state.play(move))
    return game, states, texts


def finished(seed: int = 1, options: Mapping[str, str] | None = None) -> GameRecord:
    game, states, texts = random_game(seed, options)
    moves = [MoveEntry(t, timing_comment(0.25, 60 - i)) for i, t in enumerate(texts)]
    return build_record(game, ["alpha", "beta"], moves, states[-1].outcome(), {"Event": "t"})


def retag(record: GameRecord, **values: str | None) -> GameRecord:
    """Change, add (at the end) or remove (None) tags."""
    tags = [(k, values.get(k, v)) for k, v in record.tags]
    tags += [(k, v) for k, v in values.items() if k not in dict(record.tags)]
    return dataclasses.replace(record, tags=tuple((k, v) for k, v in tags if v is not None))


def edit(record: GameRecord, ply: int, text: str) -> GameRecord:
    moves = list(record.moves)
    moves[ply - 1] = MoveEntry(text)
    return dataclasses.replace(record, moves=tuple(moves))


# --- confirmed ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize(
    "options",
    [{}, {"size": "7"}, {"pie": "no", "size": "8"}, {"mode": "even", "size": "7"}, {"mode": "odd"}],
)
def test_random_finished_games_are_confirmed(seed: int, options: dict[str, str]) -> None:
    record = finished(seed, options)
    verdict = adjudicate(record)
    assert verdict == Verdict(CONFIRMED, "confirmed", claimed=record.result, correct=record.result)
    assert verdict.confirmed
    assert record.result in ("1-0", "0-1")
    assert record.tag("Score") is not None
    assert parse_records(format_record(record)) == [record]


def test_missing_options_are_defaults_and_score_is_optional() -> None:
    record = finished(3)
    record = retag(record, Options="", Score=None)
    assert adjudicate(record).confirmed
    assert adjudicate(retag(finished(3, {"size": "7"}), Options="size=7")).confirmed


def test_alias_and_start_position() -> None:
    game, states, texts = random_game(4)
    record = build_record(
        game, ["a", "b"], texts[6:], states[-1].outcome(), start=game.encode(states[6])
    )
    assert adjudicate(retag(record, Game="pure-trike")).confirmed


# --- illegal moves ---------------------------------------------------------------------------


@pytest.mark.parametrize("ply", [3, 5, 10])
def test_edited_illegal_move_is_found_at_its_ply_and_seat(ply: int) -> None:
    record = finished(2)
    _, states, _ = random_game(2)
    occupied = record.moves[0].text  # the first checker's cell is never free again
    verdict = adjudicate(edit(record, ply, occupied))
    assert verdict.verdict is ILLEGAL
    assert verdict.ply == ply
    assert verdict.seat == states[ply - 1].to_move + 1
    assert verdict.move == occupied
    assert verdict.claimed is None and verdict.correct is None
    head = f"move {ply} '{occupied}' by seat {verdict.seat} is illegal: "
    assert verdict.reason.startswith(head + f"the cell {occupied} is occupied (seat ")


def test_plies_of_a_record_with_a_start_count_from_the_initial_position() -> None:
    """A record that starts after an opening numbers its moves after the opening's plies,
    as the match's forfeit reasons do: the third move after a 6-ply start is ply 9."""
    game, states, texts = random_game(4)
    record = build_record(
        game, ["a", "b"], texts[6:], states[-1].outcome(), start=game.encode(states[6])
    )
    occupied = texts[0]  # the first checker's cell
    verdict = adjudicate(edit(record, 3, occupied))
    assert verdict.verdict is ILLEGAL
    assert verdict.ply == 9
    assert verdict.seat == states[8].to_move + 1
    assert verdict.reason.startswith(f"move 9 '{occupied}' by seat {verdict.seat} is illegal: ")


def test_unreadable_move() -> None:
    verdict = adjudicate(edit(finished(5), 4, "z99"))
    assert (verdict.verdict, verdict.ply, verdict.move) == (ILLEGAL, 4, "z99")
    assert "unreadable" in verdict.reason


def test_swap_after_the_first_reply_is_illegal() -> None:
    verdict = adjudicate(edit(finished(5), 3, "swap"))
    assert (verdict.verdict, verdict.ply, verdict.seat) == (ILLEGAL, 3, 1)


def test_move_after_the_end() -> None:
    record = finished(6)
    extra = dataclasses.replace(record, moves=(*record.moves, MoveEntry("a1")))
    verdict = adjudicate(extra)
    assert (verdict.verdict, verdict.ply, verdict.seat) == (ILLEGAL, len(record.moves) + 1, None)
    assert "already over" in verdict.reason


def test_non_canonical_move() -> None:
    game = Tally()
    state = game.initial_state(2)
    record = build_record(game, ["a", "b"], ["x", "Y"], None)
    verdict = adjudicate(record, make=lambda name, options: Tally(options))
    assert (verdict.verdict, verdict.ply, verdict.seat, verdict.move) == (ILLEGAL, 2, 2, "Y")
    assert "not canonical (write 'y')" in verdict.reason
    assert state.to_move == 0


# --- results ---------------------------------------------------------------------------------


def test_wrong_result() -> None:
    record = finished(7)
    claimed = "0-1" if record.result == "1-0" else "1-0"
    verdict = adjudicate(retag(record, Result=claimed))
    assert verdict.verdict is WRONG
    assert (verdict.claimed, verdict.correct) == (claimed, record.result)
    assert verdict.ply is None
    assert f"Result is '{claimed}', but the correct result is '{record.result}'" in verdict.reason


def test_result_compared_by_value() -> None:
    record = finished(7)
    value = "1.0-0" if record.result == "1-0" else "0-1.0"
    assert adjudicate(retag(record, Result=value)).confirmed


def test_wrong_score() -> None:
    record = finished(8)
    score = record.tag("Score")
    assert score is not None
    wrong = ",".join(reversed(score.split(","))) if len(set(score.split(","))) > 1 else "0,0"
    verdict = adjudicate(retag(record, Score=wrong))
    assert verdict.verdict is WRONG
    assert f"Score is '{wrong}', but the correct score is '{score}'" == verdict.reason


def test_unfinished_result_on_a_finished_game() -> None:
    record = retag(finished(9), Result="*", Termination="void", Score=None)
    verdict = adjudicate(record)
    assert verdict.verdict is WRONG
    assert verdict.claimed == "*" and verdict.correct == finished(9).result
    assert "over by the rules, but Termination is 'void'" in verdict.reason


def test_unfinished_result_on_an_unfinished_game() -> None:
    game, _, texts = random_game(10, stop=9)
    record = build_record(game, ["a", "b"], texts, None)
    assert (record.result, record.termination) == ("*", Termination.VOID)
    assert adjudicate(record).confirmed


def test_void_game_may_name_a_culprit() -> None:
    game = make_game("trike")
    out = Outcome(Termination.VOID, (), (), 1, "seat 2 failed to start")
    record = build_record(game, ["a", "b"], [], out)
    assert record.tag("Culprit") == "2"
    assert adjudicate(record).confirmed


def test_decisive_result_on_an_unfinished_game_needs_a_forfeit() -> None:
    game, _, texts = random_game(10, stop=9)
    record = build_record(game, ["a", "b"], texts, None)
    verdict = adjudicate(retag(record, Result="1-0"))
    assert (verdict.verdict, verdict.correct) == (WRONG, "*")
    verdict = adjudicate(retag(record, Result="1-0", Termination="rules"))
    assert verdict.verdict is WRONG
    assert "not over" in verdict.reason


def forfeit_record(
    termination: Termination, culprit: int | None = None, seed: int = 11, stop: int = 8
) -> GameRecord:
    game, states, texts = random_game(seed, stop=stop)
    state = states[-1]
    seat = state.to_move if culprit is None else culprit
    out = forfeit_outcome(game, state, termination, seat, f"seat {seat + 1} forfeits")
    return build_record(game, ["a", "b"], texts, out)


@pytest.mark.parametrize("termination", [t for t in Termination if t.is_forfeit])
def test_forfeit_with_consistent_result_is_confirmed(termination: Termination) -> None:
    record = forfeit_record(termination)
    to_move = 8 % 2  # seat 1 moves at odd plies (no swap in this game before ply 8)
    assert record.culprit_seat == to_move
    assert record.result == ("0-1" if to_move == 0 else "1-0")
    assert adjudicate(record).confirmed


def test_timeout_as_the_match_loop_writes_it() -> None:
    game, states, texts = random_game(12, stop=5)
    culprit = states[-1].to_move
    ranks = (2, 1) if culprit == 0 else (1, 2)
    out = Outcome(Termination.TIMEOUT, ranks, (), culprit, "seat loses on time (37 ms over)")
    record = build_record(game, ["a", "b"], texts, out)
    assert record.tag("Score") is None
    assert adjudicate(record).confirmed


def test_forfeit_with_the_winner_swapped() -> None:
    record = forfeit_record(Termination.TIMEOUT)
    claimed = "1-0" if record.result == "0-1" else "0-1"
    verdict = adjudicate(retag(record, Result=claimed))
    assert (verdict.verdict, verdict.claimed, verdict.correct) == (WRONG, claimed, record.result)


def test_timeout_by_a_seat_not_to_move() -> None:
    record = forfeit_record(Termination.TIMEOUT, culprit=1)  # seat 1 (index 0) is to move
    verdict = adjudicate(record)
    assert verdict.verdict is WRONG
    assert verdict.reason == "Culprit is seat 2, but seat 1 was to move at the timeout"


def test_resignation_out_of_turn_is_allowed() -> None:
    assert adjudicate(forfeit_record(Termination.RESIGNATION, culprit=1)).confirmed
    assert adjudicate(forfeit_record(Termination.CRASH, culprit=1)).confirmed


def test_forfeit_without_culprit() -> None:
    record = retag(forfeit_record(Termination.CRASH), Culprit=None)
    verdict = adjudicate(record)
    assert verdict.verdict is WRONG
    assert "needs a Culprit tag" in verdict.reason


def test_illegal_move_forfeit_keeps_the_illegal_move_out_of_the_movetext() -> None:
    record = forfeit_record(Termination.ILLEGAL_MOVE)
    record = retag(record, Reason="seat 1 sent illegal move 'z9'")
    assert "z9" not in record.move_texts
    assert adjudicate(record).confirmed


def test_move_limit_uses_score_unfinished() -> None:
    game, states, texts = random_game(13, stop=12)
    out = unfinished_outcome(game, states[-1], Termination.MOVE_LIMIT, "move limit of 12 plies")
    record = build_record(game, ["a", "b"], texts, out)
    assert adjudicate(record).confirmed
    assert adjudicate(retag(record, Score=None)).confirmed
    verdict = adjudicate(retag(record, Result="1/2-1/2" if record.result != "1/2-1/2" else "1-0"))
    assert verdict.verdict is WRONG
    verdict = adjudicate(retag(record, Culprit="1"))
    assert verdict.reason == "Culprit tag with Termination 'move-limit'"


def test_adjudication_with_and_without_culprit() -> None:
    game, states, texts = random_game(14, stop=10)
    out = unfinished_outcome(game, states[-1], Termination.ADJUDICATION)
    assert adjudicate(build_record(game, ["a", "b"], texts, out)).confirmed
    out = forfeit_outcome(game, states[-1], Termination.ADJUDICATION, 1)
    record = build_record(game, ["a", "b"], texts, out)
    assert record.result == "1-0"
    assert adjudicate(record).confirmed


def test_rules_termination_on_a_finished_game_with_culprit_or_other_termination() -> None:
    record = finished(15)
    verdict = adjudicate(retag(record, Culprit="1"))
    assert verdict.verdict is WRONG
    assert verdict.reason == "Culprit tag on a game that ended by the rules"
    verdict = adjudicate(retag(record, Termination="timeout", Culprit="1"))
    assert verdict.verdict is WRONG
    assert "Termination is 'timeout'" in verdict.reason


class UnscoredTally(ShareTally):
    """No scores for unfinished games (``Game.score_unfinished``'s default)."""

    def score_unfinished(self, state: Any) -> tuple[tuple[int, ...], tuple[float, ...]]:
        return Game.score_unfinished(self, state)


def test_score_on_an_outcome_without_scores() -> None:
    game = UnscoredTally({"length": "4"})
    state = game.initial_state(2)
    out = forfeit_outcome(game, state, Termination.RESIGNATION, 0)
    assert out.scores == ()
    record = build_record(game, ["a", "b"], [], out)
    make = lambda name, options: UnscoredTally(options)  # noqa: E731
    assert adjudicate(record, make=make).confirmed
    verdict = adjudicate(retag(record, Score="1,1"), make=make)
    assert verdict.verdict is WRONG
    assert "the correct score is 'no Score tag'" in verdict.reason


# --- three players (a fake game whose Result lists its scores) ----------------------------------


def make_tally(name: str, options: Mapping[str, str]) -> AnyGame:
    if name == "tally":
        return Tally(options)
    if name == "share-tally":
        return ShareTally(options)
    raise UnknownGameError(f"unknown game {name!r}")


def play_tally(game: Tally, moves: str) -> Any:
    state = game.initial_state(3)
    for move in moves:
        state = state.play(move)
    return state


def test_three_players_scores_result() -> None:
    game = Tally({"length": "6"})
    state = play_tally(game, "yxxyxx")
    record = build_record(game, ["a", "b", "c"], list("yxxyxx"), state.outcome())
    assert (record.result, record.tag("Score")) == ("4-2-2", "4,2,2")
    assert adjudicate(record, make=make_tally).confirmed
    verdict = adjudicate(retag(record, Result="1-0-0"), make=make_tally)
    assert (verdict.verdict, verdict.correct) == (WRONG, "4-2-2")


def test_three_players_forfeit_shares() -> None:
    game = ShareTally({"length": "9"})
    state = play_tally(game, "xxxx")  # seats 1 and 2 tie on points; seat 2 is to move
    out = forfeit_outcome(game, state, Termination.TIMEOUT, 1, "seat 2 loses on time")
    assert out.ranks == (1, 3, 2)
    record = build_record(game, ["a", "b", "c"], list("xxxx"), out)
    assert (record.result, record.tag("Score")) == ("1-0-0", "2,1,1")
    assert adjudicate(record, make=make_tally).confirmed
    state = play_tally(game, "xxx")
    out = forfeit_outcome(game, state, Termination.CRASH, 0, "seat 1 crashed")
    record = build_record(game, ["a", "b", "c"], list("xxx"), out)
    assert record.result == "0-1/2-1/2"
    assert adjudicate(record, make=make_tally).confirmed
    verdict = adjudicate(retag(record, Result="0-1-0"), make=make_tally)
    assert (verdict.verdict, verdict.correct) == (WRONG, "0-1/2-1/2")


# --- records that cannot be set up ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"Game": "chess"}, "unknown game 'chess'"),
        ({"Options": "size=99,mode=zero,pie=yes"}, "size=99"),
        ({"Options": "colour=red"}, "unknown option 'colour'"),
        ({"Options": "mode=sideways"}, "mode='sideways'"),
        ({"RulesVersion": "0"}, "rules version '0'"),
        ({"Start": "garbage"}, "garbage"),
    ],
)
def test_invalid_records(changes: dict[str, str], message: str) -> None:
    verdict = adjudicate(retag(finished(16), **changes))
    assert verdict.verdict is INVALID
    assert message in verdict.reason
    assert (verdict.ply, verdict.seat, verdict.move, verdict.claimed) == (None, None, None, None)


def test_invalid_player_count() -> None:
    record = finished(16)
    tags = [(k, v) for k, v in record.tags if k not in ("Result", "Score")]
    tags.insert(tags.index(("Seat2", "beta")) + 1, ("Seat3", "gamma"))
    tags.insert(tags.index(("Seat3", "gamma")) + 1, ("Result", "1-0-0"))
    three = GameRecord(tuple((k, "3" if k == "Players" else v) for k, v in tags), record.moves)
    verdict = adjudicate(three)
    assert verdict.verdict is INVALID
    assert "played by 2 players, not 3" in verdict.reason


def test_start_with_the_wrong_seat_count() -> None:
    game = Tally()
    record = build_record(game, ["a", "b", "c"], [], None, start="6/0/0,0")
    verdict = adjudicate(record, make=make_tally)
    assert (verdict.verdict, verdict.reason) == (
        INVALID,
        "the Start position has 2 seats, not 3",
    )


# --- files and output ---------------------------------------------------------------------------


def test_adjudicate_file(tmp_path: Path) -> None:
    path = tmp_path / "games.tgn"
    good, bad = finished(17), edit(finished(18), 2, "zz")
    for record in (good, bad, good):
        append_record(path, record, fsync=False)
    verdicts = adjudicate_file(path)
    assert [v.verdict for v in verdicts] == [CONFIRMED, ILLEGAL, CONFIRMED]
    data = verdict_to_json(2, verdicts[1])
    assert data == {
        "index": 2,
        "verdict": "illegal-move",
        "ply": 2,
        "seat": 2,
        "move": "zz",
        "reason": verdicts[1].reason,
        "claimed": None,
        "correct": None,
    }
    json.dumps(data)
    line = format_verdict(2, verdicts[1])
    assert line.startswith("game 2: illegal-move at ply 2 (seat 2, 'zz'): ")
    assert format_verdict(1, verdicts[0]) == "game 1: confirmed"


def test_disputes_show_the_position_at_the_dispute() -> None:
    game, states, _ = random_game(2)
    record = finished(2)
    illegal = adjudicate(edit(record, 5, record.moves[0].text))
    assert illegal.position == game.render(states[4])  # before the bad move
    text = format_verdict(1, illegal)
    head, *diagram = text.splitlines()
    assert head.startswith("game 1: illegal-move at ply 5 (seat ")
    assert diagram == [("    " + row).rstrip() for row in game.render(states[4]).splitlines()]
    assert "position" not in verdict_to_json(1, illegal)

    loser = "0-1" if record.result == "1-0" else "1-0"
    wrong = adjudicate(retag(record, Result=loser))
    assert wrong.verdict is WRONG
    assert wrong.position == game.render(states[-1])  # the final position
    assert format_verdict(4, wrong).splitlines()[1:] == [
        ("    " + row).rstrip() for row in game.render(states[-1]).splitlines()
    ]

    confirmed = adjudicate(record)
    assert confirmed.position is None
    assert format_verdict(1, confirmed) == "game 1: confirmed"
    invalid = adjudicate(retag(record, Game="no-such-game"))
    assert invalid.position is None
    assert "\n" not in format_verdict(1, invalid)


def test_adjudicate_file_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "games.tgn"
    text = format_record(finished(17))
    path.write_text(text + "junk\n")
    good, junk = adjudicate_file(path)
    assert good.confirmed
    assert junk.verdict is VerdictKind.INVALID_RECORD
    line = text.count("\n") + 1
    assert junk.reason.startswith(f"{path}:{line}:1: expected a tag line such as [Game ")


# --- the examples of protocol/RECORD.md -----------------------------------------------------------

RECORD_MD = Path(__file__).resolve().parents[2] / "protocol" / "RECORD.md"


def example(heading: str) -> str:
    text = RECORD_MD.read_text()
    section = text[text.index(heading) :]
    start = section.index("```\n") + 4
    return section[start : section.index("```", start)]


def test_record_md_trike_example_is_confirmed() -> None:
    [record] = parse_records(example("### 6.1"), "RECORD.md")
    assert adjudicate(record).confirmed
    assert format_record(record) == example("### 6.1")


def test_record_md_three_player_example_parses() -> None:
    [record] = parse_records(example("### 6.2"), "RECORD.md")
    assert (record.players, record.result, record.culprit_seat) == (3, "1/2-0-1/2", 1)
    assert format_record(record) == example("### 6.2")
    verdict = adjudicate(record)
    assert verdict.confirmed, verdict.reason
