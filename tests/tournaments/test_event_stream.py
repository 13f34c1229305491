"""``open_event`` streams the same event that ``read_event`` reads whole: same header, same
games in the same order, same errors, for a journal as a crash or a hand edit leaves it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.core import Outcome, Termination
from tests.clirun import cli
from tournaments.event.wire import to_json
from tournaments.results.game import GameReport
from tournaments.results.summary import EventInfo
from tournaments.store.event_dir import open_event, read_event
from tournaments.store.journal import JOURNAL, JournalError, game_line

INFO = EventInfo(event="e", game="trike", names=("a", "b"), players=2, total=4)
HEADER = json.dumps({"type": "tournament", "version": 1, "config": {}, "info": to_json(INFO)})


def _game(number: int, winner: int = 0) -> str:
    ranks = (1, 2) if winner == 0 else (2, 1)
    report = GameReport(
        number=number,
        round=1,
        block=number,
        table=(0, 1),
        seats=("a", "b"),
        outcome=Outcome(Termination.RULES, ranks, reason=f"game {number}"),
        plies=3,
        record=f"record {number}\n",
    )
    return game_line(report).decode().rstrip("\n")


def _write(directory: Path, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / JOURNAL).write_text(text)
    return directory


def _both(directory: Path) -> tuple[object, object]:
    """What ``read_event`` and the stream give: (info, games) or the error text."""
    try:
        whole = read_event(directory)
        expected: object = (whole.info, list(whole.games))
    except JournalError as exc:
        expected = str(exc)
    try:
        stream = open_event(directory)
        got: object = (stream.info, list(stream.games()))
    except JournalError as exc:
        got = str(exc)
    return expected, got


VOID = json.dumps({"type": "void", **json.loads(_game(9))} | {"type": "void"})


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(f"{HEADER}\n{_game(1)}\n{_game(2, 1)}\n", id="clean"),
        pytest.param(f"{HEADER}\n{_game(1)}\n{_game(2)}", id="torn-last-line"),
        pytest.param(f"{HEADER}\n{_game(1)}\n{{not json\n", id="unreadable-last-line"),
        pytest.param(f"{HEADER}\n{{not json\n{_game(2)}\n", id="unreadable-middle-line"),
        pytest.param(f"{HEADER}\n{{not json\n{_game(2)}", id="unreadable-then-torn"),
        pytest.param(f"{HEADER}\n{_game(1)}\n{VOID}\n{_game(1, 1)}\n{_game(3)}\n", id="repeat"),
        pytest.param(f"{HEADER}\n[1]\n", id="not-an-object-last"),
        pytest.param(f'{HEADER}\n{{"type": "odd"}}\n{_game(1)}\n', id="unknown-type"),
        pytest.param('{"type": "game"}\n', id="no-header"),
        pytest.param(HEADER, id="torn-header"),
        pytest.param("", id="empty"),
        pytest.param(
            json.dumps({"type": "tournament", "version": 1, "config": {}, "info": {}}) + "\n",
            id="bad-info",
        ),
    ],
)
def test_stream_reads_what_read_event_reads(tmp_path: Path, text: str) -> None:
    expected, got = _both(_write(tmp_path / "event", text))
    assert got == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"{HEADER}\n{_game(1)}\n{_game(2, 1)}\n", [(1, 0), (2, 1)]),
        (f"{HEADER}\n{_game(1)}\n{_game(2)}", [(1, 0)]),  # a torn last line is ignored
        (f"{HEADER}\n{_game(1)}\n{{not json\n", [(1, 0)]),  # so is an unreadable last one
        (f"{HEADER}\n{_game(1)}\n{VOID}\n{_game(1, 1)}\n{_game(3)}\n", [(1, 0), (3, 0)]),
        (f"{HEADER}\n{{not json\n{_game(2)}\n", "journal.jsonl:2: unreadable journal line"),
        (f"{HEADER}\n{{not json\n{_game(2)}", "journal.jsonl:2: unreadable journal line"),
        (f'{HEADER}\n{{"type": "odd"}}\n{_game(1)}\n', "journal.jsonl:2: unreadable"),
        ('{"type": "game"}\n', "journal.jsonl:1: not a version-1 journal"),
        (HEADER, "holds no tournament"),
    ],
)
def test_the_journal_reading_rules(tmp_path: Path, text: str, expected: object) -> None:
    """The rules both readers share (one implementation, ``iter_entries``): a game's first
    entry counts, voids are skipped, a torn or unreadable last line is ignored, any other
    unreadable line is an error naming it."""
    whole, _ = _both(_write(tmp_path / "event", text))
    if isinstance(expected, str):
        assert isinstance(whole, str) and expected in whole
    else:
        assert isinstance(whole, tuple)
        assert [(g.number, g.outcome.ranks.index(1)) for g in whole[1]] == expected


def test_missing_directory_is_one_error(tmp_path: Path) -> None:
    expected, got = _both(tmp_path / "nothing")
    assert got == expected and isinstance(got, str) and "holds no tournament" in got


def test_games_are_read_lazily(tmp_path: Path) -> None:
    """Games before a broken line are yielded before the error: a report can be partly
    built, and memory holds one line at a time."""
    directory = _write(tmp_path / "event", f"{HEADER}\n{_game(1)}\n{{broken\n{_game(2)}\n")
    games = open_event(directory).games()
    assert next(games).number == 1
    with pytest.raises(JournalError, match=r"journal.jsonl:3: unreadable journal line"):
        next(games)


def test_a_journal_that_cannot_be_read_is_one_error(tmp_path: Path) -> None:
    """A journal that is a folder (or unreadable): every way of reading the directory
    says which directory and why, in one line (``journal.read_failed``)."""
    (tmp_path / "event" / JOURNAL).mkdir(parents=True)
    expected = f"cannot read {tmp_path / 'event'}: Is a directory"
    with pytest.raises(JournalError) as whole:
        read_event(tmp_path / "event")
    with pytest.raises(JournalError) as streamed:
        open_event(tmp_path / "event")
    assert str(whole.value) == str(streamed.value) == expected


def test_a_game_of_someone_not_in_the_header_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A journal whose header names other entrants than its games (edited by hand, pieced
    together from two events) made ``standings`` and ``report`` fail with a ``KeyError``
    traceback in the ratings. Every reader says which game and seat, in one line."""
    other = json.loads(HEADER)
    other["info"]["names"] = ["x", "y"]
    directory = _write(tmp_path / "event", f"{json.dumps(other)}\n{_game(1)}\n{_game(2, 1)}\n")
    message = f"{directory / JOURNAL}: game 1 seats 'a', who is not an entrant of the journal's"
    expected, got = _both(directory)
    assert isinstance(expected, str) and expected == got and expected.startswith(message)
    with pytest.raises(JournalError, match="game 1 seats 'a'"):
        open_event(directory).summary()
    for command in ("standings", "report"):
        code, _, err = cli(capsys, command, str(directory))
        assert code == 2 and err.startswith(f"referee: error: {message}"), err
        assert err.count("\n") == 1


def test_a_journal_with_no_readable_first_line_says_so(tmp_path: Path) -> None:
    """A journal cut inside its first line (killed as it began) holds no tournament; the
    error said 'no journal.jsonl' of a file that is there."""
    directory = _write(tmp_path / "event", HEADER)
    with pytest.raises(JournalError) as info:
        open_event(directory)
    assert str(info.value) == (
        f"{directory} holds no tournament (no readable first line in {JOURNAL})"
    )
