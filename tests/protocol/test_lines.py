"""LineBuffer and LossyLineBuffer: framing, limits, bounded memory."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.errors import ProtocolViolation
from protocol.lines import MAX_LINE_BYTES, LineBuffer, LossyLineBuffer


def feed_all(buffer: LineBuffer | LossyLineBuffer, chunks: list[bytes]) -> list[str]:
    return [line for chunk in chunks for line in buffer.feed(chunk)]


def test_one_line_per_chunk() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"move e3\n") == ["move e3"]
    assert buffer.pending == 0


def test_lines_split_across_chunks() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"info de") == []
    assert buffer.pending == 7
    assert buffer.feed(b"pth 3\nmo") == ["info depth 3"]
    assert buffer.feed(b"ve e3\npong 1\n") == ["move e3", "pong 1"]
    assert buffer.pending == 0


def test_crlf_empty_lines_and_lone_cr() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"ok\r\n\n\r\nmove a\rb\r\r\n") == ["ok", "", "", "move a\rb\r"]


def test_cr_and_lf_in_separate_chunks() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"rgpok\r") == []
    assert buffer.feed(b"\n") == ["rgpok"]


def test_invalid_utf8_is_replaced() -> None:
    assert LineBuffer().feed(b"info \xff\xfe caf\xc3\xa9\n") == ["info \ufffd\ufffd café"]


def test_a_multibyte_character_split_across_chunks() -> None:
    buffer = LineBuffer()
    encoded = "info é".encode()
    assert buffer.feed(encoded[:-1]) == []
    assert buffer.feed(encoded[-1:] + b"\n") == ["info é"]


# Lines are UTF-8 text: surrogates (category Cs) cannot be encoded, so they are no input.
_LINE_TEXT = st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\n\r"))


@given(st.lists(_LINE_TEXT, max_size=8), st.data())
def test_any_chunking_gives_the_same_lines(lines: list[str], data: st.DataObject) -> None:
    stream = b"".join(line.encode() + b"\n" for line in lines)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=6)))
    chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]
    assert feed_all(LineBuffer(), chunks) == lines


def test_line_at_the_limit_is_accepted_and_one_more_byte_is_not() -> None:
    buffer = LineBuffer(max_line_bytes=10)
    assert buffer.feed(b"x" * 10 + b"\r\n") == ["x" * 10]
    assert buffer.feed(b"x" * 10 + b"\n") == ["x" * 10]
    assert buffer.feed(b"x" * 10 + b"\r") == []  # may still be a CRLF-terminated line
    assert buffer.feed(b"\n") == ["x" * 10]
    with pytest.raises(ProtocolViolation, match="line too long: 11 bytes, the limit is 10"):
        buffer.feed(b"x" * 11 + b"\n")
    assert buffer.pending == 0


def test_overlong_partial_line_raises_as_soon_as_it_passes_the_limit() -> None:
    buffer = LineBuffer(max_line_bytes=10)
    assert buffer.feed(b"x" * 6) == []
    with pytest.raises(ProtocolViolation, match="without a newline"):
        buffer.feed(b"x" * 5)
    assert buffer.pending == 0


def test_overlong_tail_after_complete_lines_raises() -> None:
    buffer = LineBuffer(max_line_bytes=10)
    with pytest.raises(ProtocolViolation, match="line too long: over 10 bytes"):
        buffer.feed(b"ok\n" + b"y" * 20)


def test_default_limit_is_the_protocol_limit() -> None:
    buffer = LineBuffer()
    assert buffer.max_line_bytes == MAX_LINE_BYTES == 65536
    assert buffer.feed(b"i" * 65536 + b"\n") == ["i" * 65536]


def test_flood_without_newline_raises_within_two_chunks_and_holds_little() -> None:
    """100 MB in 64 KiB chunks: the violation comes at once, memory stays below 2 chunks."""
    buffer = LineBuffer()
    chunk = b"z" * (64 * 1024)
    fed = 0
    with pytest.raises(ProtocolViolation):
        while fed < 100 * 1024 * 1024:
            buffer.feed(chunk)
            fed += len(chunk)
            assert buffer.pending <= buffer.max_line_bytes + 1
    assert fed <= 2 * len(chunk)
    assert buffer.pending == 0


def test_message_shows_the_start_of_the_line() -> None:
    with pytest.raises(ProtocolViolation, match="'abcabc"):
        LineBuffer(max_line_bytes=5).feed(b"abcabcabc\n")


def test_rejects_a_nonpositive_limit() -> None:
    with pytest.raises(ValueError):
        LineBuffer(0)
    with pytest.raises(ValueError):
        LossyLineBuffer(0)


# --- LossyLineBuffer (stderr) ----------------------------------------------------------


def test_lossy_truncates_long_lines_and_keeps_framing() -> None:
    buffer = LossyLineBuffer(max_line_bytes=4)
    assert buffer.feed(b"ab\nabcdefgh") == ["ab"]
    assert buffer.pending == 4
    assert buffer.feed(b"ijkl" * 1000) == []
    assert buffer.pending == 4
    assert buffer.feed(b"\r\nxy\r\n") == ["abcd [...]", "xy"]


def test_lossy_flush_returns_the_partial_line() -> None:
    buffer = LossyLineBuffer()
    assert buffer.feed(b"panic: out of") == []
    assert buffer.flush() == ["panic: out of"]
    assert buffer.flush() == []


def test_lossy_flood_holds_at_most_the_limit() -> None:
    buffer = LossyLineBuffer(max_line_bytes=100)
    for _ in range(100):
        assert buffer.feed(b"q" * 65536) == []
        assert buffer.pending == 100
    assert buffer.feed(b"\n") == ["q" * 100 + " [...]"]
