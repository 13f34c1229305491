"""Reading and adjudicating a record file game by game (protocol/RECORD.md, section 4)."""

from __future__ import annotations

import gc
import re
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.adjudicate import VerdictKind
from referee.adjudicate_stream import adjudicate_file, iter_adjudged, keep_disputed
from referee.record import format_record
from referee.record import parse as record_parse
from referee.record.model import GameRecord, RecordSyntaxError
from referee.record.parse import StrayTextError, parse_piece, parse_records, split_pieces
from referee.record.stream import (
    NotTextError,
    iter_entries,
    parse_batch,
    read_batches,
    read_records,
)
from tests.referee.test_adjudicate import edit, finished
from tests.referee.test_record import _EDITS, records

CONFIRMED = VerdictKind.CONFIRMED
INVALID = VerdictKind.INVALID_RECORD


def _games(count: int, first_seed: int = 1) -> list[str]:
    return [format_record(finished(seed)) for seed in range(first_seed, first_seed + count)]


def _line_of(texts: list[str], index: int) -> int:
    """The line on which ``texts[index]`` starts in ``"".join(texts)``."""
    return "".join(texts[:index]).count("\n") + 1


BROKEN: list[tuple[Callable[[str], str], str, Callable[[str], int] | None]] = [
    # (how a good game is damaged, the message, where in the damaged game it points)
    (lambda t: t.replace('[Result "', '[Result "x', 1), "Result 'x", lambda t: t.index("[Result")),
    (lambda t: t.replace("}", ""), "unterminated comment", lambda t: t.index("{")),
    (
        lambda t: t.replace('[Seat2 "beta"]', '[Seat2 "beta"', 1),
        "expected ']'",
        lambda t: t.index('[Seat2 "beta"') + len('[Seat2 "beta"'),
    ),
    (lambda t: t.replace("\n\n", "\n", 1), "missing blank line", lambda t: t.index("\n1. ") + 1),
    (lambda t: t.rstrip("\n")[:-4] + "\n\n", "result token", None),
]


def _position(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


@pytest.mark.parametrize(("damage", "message", "marker"), BROKEN)
def test_a_broken_game_in_the_middle_is_one_verdict(
    tmp_path: Path,
    damage: Callable[[str], str],
    message: str,
    marker: Callable[[str], int] | None,
) -> None:
    texts = _games(5)
    texts[2] = damage(texts[2])
    path = tmp_path / "games.tgn"
    path.write_text("".join(texts))
    verdicts = adjudicate_file(path)
    assert [v.verdict for v in verdicts] == [CONFIRMED, CONFIRMED, INVALID, CONFIRMED, CONFIRMED]
    reason = verdicts[2].reason
    assert reason.startswith(f"{path}:") and message in reason
    line, column = (int(n) for n in reason.removeprefix(f"{path}:").split(":")[:2])
    start = _line_of(texts, 2)
    if marker is None:  # somewhere in that game
        assert start <= line < _line_of(texts, 3)
    else:
        in_game, column_in_game = _position(texts[2], marker(texts[2]))
        assert (line, column) == (start + in_game - 1, column_in_game)


def test_invalid_utf8_breaks_only_its_game(tmp_path: Path) -> None:
    texts = _games(3)
    data = [t.encode() for t in texts]
    data[1] = data[1].replace(b"alpha", b"al\xffpha", 1)
    path = tmp_path / "games.tgn"
    path.write_bytes(b"".join(data))
    first, broken, last = adjudicate_file(path)
    assert first.confirmed and last.confirmed
    assert broken.reason == f"{path}:{_line_of(texts, 1) + 4}:11: invalid UTF-8"


def test_stray_text_is_an_entry_but_not_a_game(tmp_path: Path) -> None:
    texts = _games(2)
    path = tmp_path / "games.tgn"
    path.write_text("a note before the games\n\n" + texts[0] + "\nmore notes\n\n" + texts[1])
    adjudged = list(iter_adjudged(path))
    assert [(a.verdict.verdict, a.game) for a in adjudged] == [
        (INVALID, False),
        (CONFIRMED, True),
        (INVALID, False),
        (CONFIRMED, True),
    ]
    assert adjudged[0].verdict.reason.startswith(f"{path}:1:1: expected a tag line")
    assert adjudged[2].verdict.reason.startswith(f"{path}:{texts[0].count(chr(10)) + 4}:1:")


def test_a_nul_byte_at_the_start_means_not_text(tmp_path: Path) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(NotTextError, match=r"image.png:1:1: invalid UTF-8 \(not a text file\)"):
        adjudicate_file(path)
    path.write_bytes(b"[Game \x00")
    with pytest.raises(NotTextError, match=r":1:7: a NUL byte \(not a text file\)"):
        read_records(path)


def test_kept_records_are_those_of_disputes(tmp_path: Path) -> None:
    good, bad = finished(3), edit(finished(4), 3, "zz")
    path = tmp_path / "games.tgn"
    path.write_text(format_record(good) + format_record(bad))
    kept = [a.record for a in iter_adjudged(path, keep=keep_disputed)]
    assert kept == [None, bad]
    assert [a.record for a in iter_adjudged(path)] == [None, None]


def _entries_of_text(text: str, source: str) -> list[object]:
    return [e for line, piece in split_pieces(text) for e in parse_piece(piece, source, line)]


def _same(entries: Sequence[object]) -> list[object]:
    return [str(e) if isinstance(e, RecordSyntaxError) else e for e in entries]


@pytest.mark.parametrize("batch_bytes", [1, 5, 64, 700, 100_000])
def test_batches_do_not_change_what_is_read(tmp_path: Path, batch_bytes: int) -> None:
    texts = _games(6)
    texts[1] = texts[1].replace("}", "")  # broken
    texts[4] = "\n \r\n" + texts[4].replace("\n", "\r\n") + "stray\n\n"
    text = "\ufeff" + "".join(texts)
    path = tmp_path / "games.tgn"
    path.write_text(text, newline="")
    read = list(iter_entries(path, batch_bytes=batch_bytes))
    assert _same(read) == _same(_entries_of_text(text, str(path)))
    assert [type(e) for e in read] == [GameRecord, RecordSyntaxError] + [GameRecord] * 3 + [
        StrayTextError,
        GameRecord,
    ]


def test_an_overlong_game_is_skipped_and_reading_goes_on(tmp_path: Path) -> None:
    texts = _games(3)
    long_game = texts[1].replace("{", "{" + "x" * 5000, 1)
    path = tmp_path / "games.tgn"
    path.write_text(texts[0] + long_game + texts[2])
    batches = list(read_batches(path, batch_bytes=512, max_game_bytes=3000))
    entries = [e for batch in batches for e in parse_batch(batch)]
    assert entries[0] == finished(1) and entries[2] == finished(3)
    assert isinstance(entries[1], RecordSyntaxError)
    assert not isinstance(entries[1], StrayTextError)
    line = _line_of(texts, 1)
    assert str(entries[1]) == (
        f"{path}:{line}:1: a game of more than 3,000 bytes: not read "
        "(reading goes on at the next game)"
    )
    assert max(len(b.data) for b in batches) < 3000 + 512


@pytest.mark.marathon  # a big fuzz: the streaming reader against the text one
@settings(max_examples=150, deadline=None)
@given(st.lists(records(), min_size=1, max_size=4), _EDITS, st.integers(1, 300))
def test_streaming_reads_as_the_text_reader(
    tmp_path_factory: pytest.TempPathFactory,
    games: list[GameRecord],
    edits: list[tuple[int, int, str]],
    batch_bytes: int,
) -> None:
    text = "".join(format_record(g) for g in games)
    for position, deleted, inserted in edits:
        at = position % (len(text) + 1)
        text = text[:at] + inserted + text[at + deleted :]
    path = tmp_path_factory.mktemp("fuzz") / "g.tgn"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        read = list(iter_entries(path, batch_bytes=batch_bytes))
    except NotTextError:
        assert "\x00" in text  # files that small are sniffed whole
        return
    assert "\x00" not in text
    assert _same(read) == _same(_entries_of_text(text, str(path)))
    good = [e for e in read if isinstance(e, GameRecord)]
    errors = [e for e in read if isinstance(e, RecordSyntaxError)]
    if errors:
        with pytest.raises(RecordSyntaxError) as info:
            parse_records(text, str(path))
        assert str(info.value) == str(errors[0])
    else:
        assert parse_records(text, str(path)) == good


@pytest.mark.marathon  # a big fuzz: the streaming reader against the text one
@settings(max_examples=300, deadline=None)
@given(records(), _EDITS)
def test_the_fast_paths_read_as_the_slow_one(
    record: GameRecord, edits: list[tuple[int, int, str]]
) -> None:
    text = format_record(record)
    for position, deleted, inserted in edits:
        at = position % (len(text) + 1)
        text = text[:at] + inserted + text[at + deleted :]
    fast = _same(_entries_of_text(text, "f"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(record_parse._Parser, "fast_movetext", lambda *_: None)
        patch.setattr(record_parse, "_TAG_LINE", re.compile(r"(?!)"))
        slow = _same(_entries_of_text(text, "f"))
    assert fast == slow


def _peak_bytes(run: Callable[[Callable[[], None]], object]) -> int:
    """The peak of traced memory while ``run(tick)`` runs; it calls ``tick()`` per entry.

    Every 25 entries ``tick`` empties CPython's free lists (``gc.collect``): they keep the
    memory of freed tuples and floats traced, filling up to a fixed bound over thousands
    of games, which would blur what the reader itself holds. What lived before the run is
    frozen out of those collections (``gc.freeze``): late in the whole suite the test
    runner holds millions of objects, and walking them all at every tick cost seconds.
    """
    count = 0

    def tick() -> None:
        nonlocal count
        count += 1
        if count % 25 == 0:
            gc.collect()

    gc.collect()
    gc.freeze()
    tracemalloc.start()
    try:
        run(tick)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        gc.unfreeze()


def _files(tmp_path: Path) -> tuple[Path, Path]:
    games = _games(20)
    games[7] = format_record(edit(finished(8), 2, "zz"))  # a dispute: its record is kept
    small, big = tmp_path / "small.tgn", tmp_path / "big.tgn"
    small.write_text("".join(games) * 3)  # 60 games, several batches of 16 KiB
    big.write_text("".join(games) * 60)  # 1,200 games
    assert big.stat().st_size == 20 * small.stat().st_size
    return small, big


@pytest.mark.marathon
def test_memory_does_not_grow_with_the_file(tmp_path: Path) -> None:
    """A file 20 times bigger needs about the same peak memory (one batch, one game)."""
    small, big = _files(tmp_path)

    def adjudicate_all(path: Path) -> Callable[[Callable[[], None]], None]:
        def run(tick: Callable[[], None]) -> None:
            for _ in iter_adjudged(path, keep=keep_disputed, batch_bytes=16 * 1024):
                tick()

        return run

    _peak_bytes(adjudicate_all(small))  # warm the lazy tables of the game first
    small_peak, big_peak = _peak_bytes(adjudicate_all(small)), _peak_bytes(adjudicate_all(big))
    assert big_peak < 1.25 * small_peak + 32 * 1024, (small_peak, big_peak)


@pytest.mark.marathon
def test_a_list_would_grow(tmp_path: Path) -> None:
    """The measure above can fail: holding every record, the peak grows with the file."""
    small, big = _files(tmp_path)

    def hold_all(path: Path) -> Callable[[Callable[[], None]], None]:
        def run(tick: Callable[[], None]) -> None:
            held: list[object] = []
            for entry in iter_entries(path, batch_bytes=16 * 1024):
                held.append(entry)
                tick()

        return run

    assert _peak_bytes(hold_all(big)) > 10 * _peak_bytes(hold_all(small))


def test_read_records_is_strict(tmp_path: Path) -> None:
    texts = _games(3)
    path = tmp_path / "games.tgn"
    path.write_text(texts[0] + texts[1].replace("}", "") + texts[2])
    with pytest.raises(RecordSyntaxError, match="unterminated comment"):
        read_records(path)
    path.write_text("".join(texts))
    assert read_records(path) == [finished(1), finished(2), finished(3)]
    read = read_records(path)[0]  # its moves are a compact MoveList, equal entry by entry
    assert read.tags == finished(1).tags and tuple(read.moves) == finished(1).moves
