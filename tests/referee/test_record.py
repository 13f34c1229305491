"""The ``.tgn`` record model, writer and strict reader (protocol/RECORD.md)."""

from __future__ import annotations

import dataclasses
import os
import re
import string
from dataclasses import dataclass
from fractions import Fraction
from importlib.metadata import version
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import (
    Game,
    OptionSpec,
    Outcome,
    State,
    Termination,
    ranks_from_scores,
)
from referee.errors import InvalidMoveError, InvalidOptionError, InvalidPositionError, PathError
from referee.record import append_record, build_record, format_record, timing_comment
from referee.record import parse_records as parse_via_record
from referee.record.model import (
    COMMENT_GAME_START,
    MOVE_NUMBER,
    MOVE_TOKEN,
    GameRecord,
    MoveEntry,
    RecordSyntaxError,
    TagError,
)
from referee.record.parse import parse_piece, parse_records, split_pieces
from referee.record.stream import read_records
from referee.results import (
    format_number,
    parse_result,
    result_text,
)
from referee.version import VERSION

# --- a tiny game whose Result lists in-game scores (like Trichess) -------------------------


@dataclass(frozen=True, slots=True)
class TallyState(State[str]):
    """Seats in turn play ``x`` (1 point) or ``y`` (2 points) until ``length`` plies."""

    points: tuple[int, ...]
    length: int
    ply: int = 0

    @property
    def num_players(self) -> int:
        return len(self.points)

    @property
    def to_move(self) -> int | None:
        return None if self.ply >= self.length else self.ply % len(self.points)

    def _generate(self) -> tuple[str, ...]:
        return () if self.to_move is None else ("x", "y")

    def outcome(self) -> Outcome | None:
        if self.to_move is not None:
            return None
        scores = tuple(float(p) for p in self.points)
        return Outcome(Termination.RULES, ranks_from_scores(scores), scores, reason="tally done")

    def _apply(self, move: str) -> TallyState:
        seat = self.ply % len(self.points)
        points = list(self.points)
        points[seat] += 1 if move == "x" else 2
        return TallyState(tuple(points), self.length, self.ply + 1)


class Tally(Game[TallyState, str]):
    """Scores decide the Result. ``parse_move`` also reads ``X``/``Y`` (non-canonical)."""

    name: ClassVar[str] = "tally"
    version: ClassVar[str] = "2"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("length", "6", minimum=0, maximum=99),
    )
    result_from_scores: ClassVar[bool] = True

    def initial_state(self, num_players: int) -> TallyState:
        self.check_players(num_players)
        return TallyState((0,) * num_players, int(self.options["length"]))

    def parse_move(self, state: TallyState, text: str) -> str:
        if text.lower() not in ("x", "y"):
            raise InvalidMoveError(f"bad tally move {text!r}")
        return text.lower()

    def format_move(self, state: TallyState, move: str) -> str:
        return move

    def score_unfinished(self, state: TallyState) -> tuple[tuple[int, ...], tuple[float, ...]]:
        scores = tuple(float(p) for p in state.points)
        return ranks_from_scores(scores), scores

    def encode(self, state: TallyState) -> str:
        return f"{state.length}/{state.ply}/" + ",".join(map(str, state.points))

    def decode(self, text: str) -> TallyState:
        try:
            length, ply, points = text.split("/")
            state = TallyState(tuple(int(p) for p in points.split(",")), int(length), int(ply))
        except ValueError:
            raise InvalidPositionError(f"bad tally position {text!r}") from None
        if state.length != int(self.options["length"]) or state.num_players not in (2, 3):
            raise InvalidPositionError(f"tally position {text!r} does not fit the options")
        return state


class ShareTally(Tally):
    """The same game, but the Result gives shares of one point."""

    name: ClassVar[str] = "share-tally"
    result_from_scores: ClassVar[bool] = False


def record_text(*tags: tuple[str, str], movetext: str = "e3 f4 1-0") -> str:
    return "".join(f'[{k} "{v}"]\n' for k, v in tags) + "\n" + movetext + "\n"


BASE_TAGS: tuple[tuple[str, str], ...] = (
    ("Game", "trike"),
    ("Options", "size=9,mode=zero,pie=yes"),
    ("RulesVersion", "1"),
    ("Players", "2"),
    ("Seat1", "alpha"),
    ("Seat2", "beta"),
    ("Result", "1-0"),
    ("Termination", "rules"),
)


def simple_record(**changes: str) -> GameRecord:
    tags = tuple((k, changes.get(k, v)) for k, v in BASE_TAGS)
    return GameRecord(tags, (MoveEntry("e3", "0.500s 59.500s"), MoveEntry("f4")))


# --- the model ------------------------------------------------------------------------------


def test_properties() -> None:
    record = GameRecord(
        (
            *BASE_TAGS,
            ("Event", "club"),
            ("Score", "-2,5"),
            ("Reason", "why"),
            ("Culprit", "2"),
            ("Start", "pos"),
        ),
        (MoveEntry("e3"),),
    )
    assert record.game == "trike"
    assert record.options == {"size": "9", "mode": "zero", "pie": "yes"}
    assert record.rules_version == "1"
    assert record.players == 2
    assert record.seats == ("alpha", "beta")
    assert record.result == "1-0"
    assert record.result_points == (Fraction(1), Fraction(0))
    assert record.termination is Termination.RULES
    assert record.score == (-2.0, 5.0)
    assert record.reason == "why"
    assert record.culprit_seat == 1
    assert record.start == "pos"
    assert record.tag("Event") == "club"
    assert record.tag("Nope") is None
    assert record.move_texts == ("e3",)


def test_optional_properties_absent_and_empty_options() -> None:
    record = simple_record(Options="", Result="*", Termination="void")
    assert record.options == {}
    assert record.score is None and record.reason is None
    assert record.culprit_seat is None and record.start is None
    assert record.result_points is None


@pytest.mark.parametrize(
    ("tags", "message", "index"),
    [
        (BASE_TAGS[1:], "missing required tag 'Game'", 0),
        ((BASE_TAGS[1], BASE_TAGS[0], *BASE_TAGS[2:]), "'Game' must be tag number 1", 1),
        (BASE_TAGS[:-1], "missing required tag 'Termination'", None),
        ((*BASE_TAGS[:5], *BASE_TAGS[6:]), "missing required tag 'Seat2'", 5),
        ((*BASE_TAGS, ("Seat3", "x")), None, None),  # extra seat tags are ordinary tags
        ((*BASE_TAGS, ("Game", "x")), "duplicate tag 'Game'", 8),
        ((*BASE_TAGS, ("9x", "x")), "bad tag name '9x'", 8),
        ((*BASE_TAGS, ("Event", "a\nb")), "control character U+000A", 8),
        ((*BASE_TAGS, ("Event", "a\tb")), None, None),
    ],
)
def test_tag_rules(
    tags: tuple[tuple[str, str], ...], message: str | None, index: int | None
) -> None:
    if message is None:
        GameRecord(tags)
        return
    with pytest.raises(TagError, match=re.escape(message)) as info:
        GameRecord(tags)
    assert info.value.index == index


@pytest.mark.parametrize(
    ("tag", "value", "message"),
    [
        ("Game", "", "Game must be a game id"),
        ("Game", " trike", "Game must be a game id"),
        ("Options", "size", "Options must be k=v"),
        ("Options", "size=9,", "Options must be k=v"),
        ("Options", "a=1, b=2", "Options must be k=v"),
        ("Options", "a=1,a=2", "given twice"),
        ("RulesVersion", "", "RulesVersion must not be empty"),
        ("Players", "0", "Players must be"),
        ("Players", "02", "Players must be"),
        ("Players", "1000", "Players must be"),
        ("Players", "two", "Players must be"),
        ("Result", "1-0-0", "3 parts for 2 players"),
        ("Result", "1--0", "is not '\\*'"),
        ("Result", "1/0-1", "is not '\\*'"),
        ("Result", "win", "is not '\\*'"),
        ("Result", "**", "is not '\\*'"),
        ("Termination", "normal", "unknown Termination 'normal'"),
    ],
)
def test_required_tag_values(tag: str, value: str, message: str) -> None:
    with pytest.raises(TagError, match=message):
        simple_record(**{tag: value})


@pytest.mark.parametrize(
    ("tag", "value", "message"),
    [
        ("Score", "5", "1 numbers for 2 players"),
        ("Score", "5;3", "not numbers"),
        ("Score", "5, 3", "not numbers"),
        ("Score", "--1,2", "not numbers"),
        ("Culprit", "0", "Culprit must be a seat number from 1 to 2"),
        ("Culprit", "3", "Culprit must be"),
        ("Culprit", "x", "Culprit must be"),
        ("Start", "a b", "Start must be one position token"),
        ("Start", "", "Start must be one position token"),
    ],
)
def test_optional_tag_values(tag: str, value: str, message: str) -> None:
    with pytest.raises(TagError, match=message):
        GameRecord((*BASE_TAGS, (tag, value)))


@pytest.mark.parametrize("value", ["5,3", "-2,-2", "1.5,0", "0,-0.25", "1e3,2"])
def test_score_values_accepted(value: str) -> None:
    GameRecord((*BASE_TAGS, ("Score", value)))


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "0.5-0.5", "3-1", "*"])
def test_result_values_accepted(result: str) -> None:
    assert simple_record(Result=result).result == result


def test_parse_result_compares_by_value() -> None:
    assert parse_result("1/2-1/2") == parse_result("0.5-0.5")
    assert parse_result("*") is None
    with pytest.raises(ValueError, match="bad result"):
        parse_result("x-y")


@pytest.mark.parametrize("text", ["", "e 3", "12.", "3...", "{x}", 'a"b', "a[b", "é3", "a\x00"])
def test_move_entry_rejects_non_tokens(text: str) -> None:
    with pytest.raises(ValueError, match="move"):
        MoveEntry(text)


def test_move_entry_rejects_brace_in_comment() -> None:
    with pytest.raises(ValueError, match="contains '}'"):
        MoveEntry("e3", "a } b")
    assert MoveEntry("O(-1,0)", "{ok").comment == "{ok"


# --- Result, Score, building ------------------------------------------------------------------


def outcome(ranks: tuple[int, ...], scores: tuple[float, ...] = (), **kw: object) -> Outcome:
    termination = kw.pop("termination", Termination.RULES)
    assert isinstance(termination, Termination)
    return Outcome(termination, ranks, scores, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "out", "expected"),
    [
        (ShareTally(), outcome((1, 2)), "1-0"),
        (ShareTally(), outcome((2, 1)), "0-1"),
        (ShareTally(), outcome((1, 1)), "1/2-1/2"),
        (ShareTally(), outcome((2, 1, 3)), "0-1-0"),
        (ShareTally(), outcome((1, 3, 1)), "1/2-0-1/2"),
        (ShareTally(), outcome((1, 1, 1)), "1/3-1/3-1/3"),
        (ShareTally(), outcome((1, 2), (5.0, 3.0)), "1-0"),
        (Tally(), outcome((1, 2, 3), (3.0, 1.0, 0.0)), "3-1-0"),
        (Tally(), outcome((1, 1, 3), (2.0, 2.0, 1.5)), "2-2-1.5"),
        (Tally(), outcome((1, 2, 3)), "1-0-0"),  # no scores: shares
        (
            Tally(),
            outcome((1, 3, 2), (1.0, 4.0, 0.0), termination=Termination.TIMEOUT, culprit=1),
            "1-0-0",
        ),
        (Tally(), outcome((), termination=Termination.VOID), "*"),
        (Tally(), None, "*"),
    ],
)
def test_result_text(game: Tally, out: Outcome | None, expected: str) -> None:
    assert result_text(game, out) == expected


def test_score_based_result_refuses_negative_scores() -> None:
    with pytest.raises(ValueError, match="negative"):
        result_text(Tally(), outcome((1, 2), (1.0, -1.0)))


@pytest.mark.parametrize(
    ("value", "text"), [(5.0, "5"), (-2.0, "-2"), (0.0, "0"), (-0.0, "0"), (1.5, "1.5"), (3, "3")]
)
def test_format_number(value: float, text: str) -> None:
    assert format_number(value) == text


def test_format_number_refuses_nan() -> None:
    with pytest.raises(ValueError, match="cannot record"):
        format_number(float("nan"))


def test_timing_comment() -> None:
    assert timing_comment(1.2344, 58.7656) == "1.234s 58.766s"
    assert timing_comment(0.5) == "0.500s"


def test_build_record_tags_in_order() -> None:
    game = ShareTally({"length": "4"})
    out = Outcome(
        Termination.TIMEOUT,
        (2, 1),
        (-2.0, -2.0),
        culprit=0,
        reason="seat 1 loses\non time",
    )
    record = build_record(
        game,
        ["alpha", "be\x07ta"],
        ["x", MoveEntry("y", "1.000s 2.000s")],
        out,
        {"Event": "club", "Round": "3"},
        start="4/0/0,0",
    )
    assert record.tags == (
        ("Game", "share-tally"),
        ("Options", "length=4"),
        ("RulesVersion", "2"),
        ("Players", "2"),
        ("Seat1", "alpha"),
        ("Seat2", "be ta"),
        ("Result", "0-1"),
        ("Termination", "timeout"),
        ("Event", "club"),
        ("Round", "3"),
        ("Referee", VERSION),
        ("Start", "4/0/0,0"),
        ("Score", "-2,-2"),
        ("Reason", "seat 1 loses on time"),
        ("Culprit", "1"),
    )
    assert record.moves == (MoveEntry("x"), MoveEntry("y", "1.000s 2.000s"))
    assert record.score == (-2.0, -2.0)


def test_build_record_unfinished_is_void_and_unscored() -> None:
    record = build_record(Tally(), ["a", "b", "c"], ["x"], None)
    assert record.result == "*"
    assert record.termination is Termination.VOID
    assert [k for k, _ in record.tags][-3:] == ["Result", "Termination", "Referee"]


def test_every_record_says_which_referee_judged_it() -> None:
    record = build_record(Tally(), ["a", "b", "c"], ["x"], None, {"Event": "e"})
    assert record.tag("Referee") == VERSION == version("referee")
    assert parse_via_record(format_record(record)) == [record]
    # a record built again from a read one (a copy, a re-judged game) keeps its own
    kept = build_record(Tally(), ["a", "b", "c"], ["x"], None, {"Referee": "0.0.9"})
    assert [v for k, v in kept.tags if k == "Referee"] == ["0.0.9"]


def test_build_record_scores_result_3p() -> None:
    game = Tally({"length": "3"})
    state = game.initial_state(3)
    for move in ("y", "x", "x"):
        state = state.play(move)
    record = build_record(game, ["a", "b", "c"], ["y", "x", "x"], state.outcome())
    assert record.result == "2-1-1"
    assert record.tag("Score") == "2,1,1"
    assert record.tag("Reason") == "tally done"


def test_build_record_checks_players_and_duplicates() -> None:
    with pytest.raises(InvalidOptionError, match="not 4"):
        build_record(Tally(), ["a", "b", "c", "d"], [], None)
    with pytest.raises(TagError, match="duplicate tag 'Result'"):
        build_record(Tally(), ["a", "b"], [], None, [("Result", "1-0")])
    with pytest.raises(ValueError, match="move"):
        build_record(Tally(), ["a", "b"], ["x y"], None)


# --- writing -----------------------------------------------------------------------------------


def test_format_layout() -> None:
    record = GameRecord(
        (
            *BASE_TAGS[:3],
            ("Players", "3"),
            ("Seat1", "a"),
            ("Seat2", 'b "q" \\'),
            ("Seat3", "c"),
            ("Result", "1-0-0"),
            ("Termination", "rules"),
        ),
        tuple(MoveEntry(t, "1.000s" if t == "m2" else None) for t in ("m1", "m2", "m3", "m4")),
    )
    text = format_record(record)
    assert text == (
        '[Game "trike"]\n[Options "size=9,mode=zero,pie=yes"]\n[RulesVersion "1"]\n'
        '[Players "3"]\n[Seat1 "a"]\n[Seat2 "b \\"q\\" \\\\"]\n[Seat3 "c"]\n'
        '[Result "1-0-0"]\n[Termination "rules"]\n'
        "\n1. m1 m2 {1.000s} m3 2. m4 1-0-0\n\n"
    )
    assert parse_records(text) == [record]


def test_format_wraps_long_movetext_between_units() -> None:
    moves = tuple(MoveEntry(f"m{i}", timing_comment(i, 100 - i)) for i in range(40))
    record = GameRecord(BASE_TAGS, moves)
    text = format_record(record)
    movetext = text.split("\n\n")[1].splitlines()
    assert len(movetext) > 5
    assert all(len(line) <= 79 for line in movetext)
    assert all(not line.startswith("{") for line in movetext)
    assert movetext[0].startswith("1. m0 {0.000s 100.000s} m1 {1.000s 99.000s} 2. m2")
    assert parse_records(text) == [record]


def test_empty_movetext_is_just_the_result() -> None:
    record = simple_record(Result="*", Termination="void")
    record = dataclasses.replace(record, moves=())
    text = format_record(record)
    assert text.endswith('[Termination "void"]\n\n*\n\n')
    assert parse_records(text) == [record]


# --- reading ----------------------------------------------------------------------------------


def test_parse_several_games_and_blank_lines() -> None:
    one, two = simple_record(), simple_record(Result="0-1")
    text = "\n\n" + format_record(one) + "\n \t\n" + format_record(two).rstrip("\n")
    assert parse_records(text) == [one, two]
    assert parse_via_record(text) == [one, two]
    assert parse_records("") == []
    assert parse_records("\n  \n") == []


def test_comments_and_move_numbers_are_ignored() -> None:
    text = record_text(
        *BASE_TAGS,
        movetext="{opening}\n1. e3 {first}{second} 2... f4\n {multi\nline\n\n ([comment])} 3. 1-0",
    )
    [record] = parse_records(text)
    assert record.moves == (
        MoveEntry("e3", "first second"),
        MoveEntry("f4", "multi\nline\n\n ([comment])"),
    )


def test_a_tag_line_after_a_blank_line_starts_a_game_even_in_a_comment() -> None:
    """The sync rule: such a line cannot be inside a comment, so the reader never needs the
    game before to find the next one (and a broken game cannot swallow the games after it)."""
    second = format_record(simple_record(Result="0-1"))
    text = record_text(*BASE_TAGS, movetext="e3 {a comment\n\n") + second
    assert where(text) == (10, 4, "unterminated comment: '{' without a closing '}'")
    pieces = list(split_pieces(text))
    assert [line for line, _ in pieces] == [1, 13]
    broken, game = (e for line, piece in pieces for e in parse_piece(piece, "games.tgn", line))
    assert isinstance(broken, RecordSyntaxError) and broken.line == 10
    assert game == simple_record(Result="0-1")
    with pytest.raises(ValueError, match="blank line"):
        MoveEntry("e3", "a comment\n \r\n[Game")
    assert MoveEntry("e3", "a comment\n\n (Game").comment == "a comment\n\n (Game"


def test_crlf_and_bom_are_accepted() -> None:
    text = "\ufeff" + format_record(simple_record()).replace("\n", "\r\n")
    assert parse_records(text) == [simple_record()]


def test_tag_spacing_and_escapes() -> None:
    text = '[Game\t "trike"]  \n' + record_text(*BASE_TAGS[1:]).replace(
        '[Seat1 "alpha"]', '[Seat1 "a \\"b\\" \\\\ c"]'
    )
    [record] = parse_records(text)
    assert record.seats == ('a "b" \\ c', "beta")


def where(text: str) -> tuple[int, int, str]:
    with pytest.raises(RecordSyntaxError) as info:
        parse_records(text, "games.tgn")
    error = info.value
    assert str(error) == f"games.tgn:{error.line}:{error.column}: {error.message}"
    return error.line, error.column, error.message


HEAD = record_text(*BASE_TAGS, movetext="").rstrip("\n") + "\n\n"  # tags and the blank line


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (HEAD.replace("\n\n", "\n") + "e3 1-0\n", 9, 1, "missing blank line between the tags"),
        ('[Game "trike"\n', 1, 14, "expected ']'"),
        ('[Game "trike"] x\n', 1, 16, "unexpected 'x' after the tag"),
        ('[ Game "trike"]\n', 1, 2, "expected a tag name"),
        ('[Game"trike"]\n', 1, 6, "expected a space"),
        ("[Game trike]\n", 1, 7, "expected a quoted value"),
        ('[Game "tri\\ke"]\n', 1, 11, "bad escape"),
        ('[Game "tri\x01ke"]\n', 1, 11, "control character U+0001"),
        ('[Game "trike]\n', 1, 7, "unterminated string"),
        (HEAD + "e3 {clock\nf4 1-0\n", 10, 4, "unterminated comment"),
        (HEAD + "e3 f4 0-1\n", 10, 7, "result token '0-1' does not match the Result tag '1-0'"),
        (HEAD + "e3 f4\n", 10, 4, "result token 'f4' does not match"),
        (HEAD + "{only a comment}\n", 10, 1, "missing result token"),
        (HEAD + "e3 1-0 {late}\n", 10, 8, "must end with the result token, not a comment"),
        (HEAD + "e3 1-0 2.\n", 10, 8, "not the move number '2.'"),
        (HEAD + "e3 } 1-0\n", 10, 4, "unexpected '}' outside a comment"),
        (HEAD + 'e3 "x" 1-0\n', 10, 4, "unexpected '\"'"),
        (HEAD + "e3 é4 1-0\n", 10, 4, "printable ASCII"),
        (HEAD + "e3\x0c 1-0\n", 10, 3, "U+000C"),
        (HEAD + "e3 1-0\n" + HEAD, 11, 1, "unexpected '['"),
        (HEAD, 10, 1, "missing movetext"),
        (HEAD + "e3 1-0\n\njunk\n", 12, 1, "expected a tag line"),
        ("junk\n", 1, 1, "expected a tag line"),
        (record_text(*BASE_TAGS[:-1]), 1, 1, "missing required tag 'Termination'"),
        (record_text(*BASE_TAGS[:3], ("Players", "x"), *BASE_TAGS[4:]), 4, 1, "Players must"),
        (record_text(*BASE_TAGS, ("Score", "1")), 9, 1, "Score '1' has 1 numbers"),
        (record_text(*BASE_TAGS, ("Culprit", "1"), ("Culprit", "2")), 10, 1, "duplicate"),
    ],
)
def test_syntax_errors_have_line_and_column(
    text: str, line: int, column: int, message: str
) -> None:
    got_line, got_column, got_message = where(text)
    assert message in got_message
    assert (got_line, got_column) == (line, column)


def test_second_game_error_is_located_in_the_second_game() -> None:
    text = format_record(simple_record()) + format_record(simple_record()).replace('"1-0"', '"0-1"')
    line, _, message = where(text)
    assert line == 21
    assert "does not match the Result tag '0-1'" in message


def test_read_and_append(tmp_path: Path) -> None:
    path = tmp_path / "games.tgn"
    records = [simple_record(), simple_record(Result="1/2-1/2"), simple_record(Result="0-1")]
    for record in records:
        append_record(path, record, fsync=False)
    assert read_records(path) == records
    assert path.read_text() == "".join(format_record(r) for r in records)


@pytest.mark.parametrize("tail", ["", "\n", "\n\n", "\n\n\n", "x"])
def test_append_separates_from_an_unterminated_file(tmp_path: Path, tail: str) -> None:
    path = tmp_path / "games.tgn"
    path.write_text(format_record(simple_record()).rstrip("\n") + tail if tail != "x" else "")
    append_record(path, simple_record(Result="0-1"))
    assert [r.result for r in read_records(path)][-1] == "0-1"


def test_append_to_a_device_or_a_pipe(tmp_path: Path) -> None:
    # Not regular files: nothing to look back at, nothing to sync (fsync refuses both).
    append_record("/dev/null", simple_record())
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    # The read end is open before the write (a reader thread might open it only after
    # the writer closed, and the record would be gone); the record fits the pipe's buffer.
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        append_record(fifo, simple_record(Result="0-1"))
        got = os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    assert got == format_record(simple_record(Result="0-1")).encode()


def test_read_reports_bad_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.tgn"
    path.write_bytes(format_record(simple_record()).encode() + b'[Game "tr\xffike"]\n')
    with pytest.raises(RecordSyntaxError, match="invalid UTF-8") as info:
        read_records(path)
    assert (info.value.line, info.value.column) == (12, 10)
    assert str(info.value).startswith(f"{path}:12:10:")


def test_read_missing_file_is_one_line_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "none.tgn"
    with pytest.raises(PathError) as info:
        read_records(path)
    assert str(info.value) == f"cannot read {path}: No such file or directory"
    with pytest.raises(PathError, match=f"cannot read {tmp_path}: Is a directory"):
        read_records(tmp_path)


def test_append_into_a_missing_folder_is_one_line_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "games.tgn"
    with pytest.raises(PathError) as info:
        append_record(path, simple_record())
    assert str(info.value) == f"cannot write records to {path}: No such file or directory"


def test_append_is_one_write_and_fsyncs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_write, real_fsync = os.write, os.fsync

    def write(fd: int, data: bytes) -> int:
        calls.append("write")
        return real_write(fd, data)

    def fsync(fd: int) -> None:
        calls.append("fsync")
        real_fsync(fd)

    monkeypatch.setattr(os, "write", write)
    monkeypatch.setattr(os, "fsync", fsync)
    append_record(tmp_path / "g.tgn", simple_record())
    assert calls == ["write", "fsync"]


# --- properties ---------------------------------------------------------------------------------

_VALUE_CHARS = st.characters(
    exclude_categories=["Cs"], exclude_characters=[chr(c) for c in (*range(9), *range(10, 32), 127)]
)
_values = st.text(_VALUE_CHARS, max_size=12)
_tokens = st.from_regex(MOVE_TOKEN, fullmatch=True).filter(lambda t: not MOVE_NUMBER.fullmatch(t))
_COMMENT_CHARS = st.characters(exclude_characters="}", exclude_categories=["Cs"])
_comments = st.none() | st.text(_COMMENT_CHARS, max_size=15).filter(
    lambda c: not COMMENT_GAME_START.search(c)
)
_number = st.sampled_from(["0", "1", "3", "1/2", "1/3", "0.5", "12"])
_option = st.from_regex(r"[a-z][a-z-]{0,6}=[a-z0-9]{1,3}", fullmatch=True)


# Built once: a strategy made inside ``records`` would be made again (and its regex
# compiled, its emptiness worked out) for every example drawn. Same draws, a few times faster.
_GAME_NAMES = st.from_regex(r"[a-z][a-z-]{0,8}", fullmatch=True)
_OPTIONS = st.lists(_option, max_size=3, unique_by=lambda o: o.split("=")[0])
_RESULTS = {
    n: st.just("*") | st.lists(_number, min_size=n, max_size=n).map("-".join) for n in range(1, 5)
}
_RULES_VERSIONS = st.text(_VALUE_CHARS, min_size=1, max_size=4)
_TERMINATIONS = st.sampled_from([t.value for t in Termination])
_EXTRA_TAGS = st.lists(st.sampled_from(["Event", "Round", "Date", "Reason", "X_1"]), unique=True)
_SCORES = {n: st.lists(st.integers(-9, 9), min_size=n, max_size=n) for n in range(1, 5)}
_CULPRITS = {n: st.integers(1, n) for n in range(1, 5)}
_MOVES = st.lists(st.builds(MoveEntry, _tokens, _comments), max_size=8)


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    players = draw(st.integers(1, 4))
    options = draw(_OPTIONS)
    result = draw(_RESULTS[players])
    tags = [
        ("Game", draw(_GAME_NAMES)),
        ("Options", ",".join(options)),
        ("RulesVersion", draw(_RULES_VERSIONS)),
        ("Players", str(players)),
        *((f"Seat{n}", draw(_values)) for n in range(1, players + 1)),
        ("Result", result),
        ("Termination", draw(_TERMINATIONS)),
    ]
    extra = draw(_EXTRA_TAGS)
    tags += [(name, draw(_values)) for name in extra]
    if draw(st.booleans()):
        scores = draw(_SCORES[players])
        tags.append(("Score", ",".join(map(str, scores))))
    if draw(st.booleans()):
        tags.append(("Culprit", str(draw(_CULPRITS[players]))))
    moves = draw(_MOVES)
    return GameRecord(tuple(tags), tuple(moves))


@settings(max_examples=150, deadline=None)
@given(st.lists(records(), max_size=3))
def test_round_trip(games: list[GameRecord]) -> None:
    text = "".join(format_record(g) for g in games)
    assert parse_records(text) == games


def _parses_or_raises_syntax_error(text: str) -> None:
    try:
        parse_records(text, "fuzz.tgn")
    except RecordSyntaxError as error:
        assert error.line >= 1 and error.column >= 1
        assert error.line <= text.count("\n") + 1


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_fuzz_any_text(text: str) -> None:
    _parses_or_raises_syntax_error(text)


_NOISE_CHARS = '[]{}"\\\n\r\t .-*/=,' + string.ascii_letters[:6] + "19é\x00"
_NOISE = st.text(st.sampled_from(_NOISE_CHARS), max_size=4)


_EDITS = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 3), _NOISE), max_size=4)


@pytest.mark.marathon
@settings(max_examples=400, deadline=None)
@given(records(), _EDITS)
def test_fuzz_mutated_records(record: GameRecord, edits: list[tuple[int, int, str]]) -> None:
    text = format_record(record)
    for position, deleted, inserted in edits:
        at = position % (len(text) + 1)
        text = text[:at] + inserted + text[at + deleted :]
    _parses_or_raises_syntax_error(text)
