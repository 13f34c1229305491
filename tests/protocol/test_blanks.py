"""Only ASCII space and tab separate words (SPEC.md §2): any other character, even one
Unicode calls a space, is part of the word it touches, and a word with it is no token."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from protocol.codec import parse_command, parse_reply
from protocol.errors import ProtocolViolation
from protocol.messages import ErrorReply, Info, MoveReply, Pong
from protocol.search_info import parse_info
from protocol.words import BLANKS, words_of

NAMED = ["\u00a0", "\u0085", "\u2003", "\u3000", "\u001c", "\u000b", "\u000c", "\u2028", "\u200b"]
"""Characters ``str.split()`` treats as blanks (or that look like one), none of them ours."""

others = st.characters(blacklist_characters=" \t\n\r")
"""Any character that is not a separator (and not a line break)."""


@pytest.mark.parametrize("char", NAMED, ids=[f"U+{ord(c):04X}" for c in NAMED])
def test_a_move_with_a_unicode_blank_is_refused(char: str) -> None:
    for line in (f"move e3{char}", f"move {char}e3", f"move e3{char}d4"):
        with pytest.raises(ProtocolViolation, match="bad move"):
            parse_reply(line)


@given(char=others)
@example(char="\u00a0")
@example(char="\u0085")
@example(char="\u3000")
@example(char="\u001c")
def test_no_other_character_separates_words(char: str) -> None:
    assert words_of(f"move e3{char}") == ["move", f"e3{char}"]
    try:
        reply = parse_reply(f"move e3{char}")
    except ProtocolViolation:
        assert not (char.isascii() and char.isprintable())
    else:
        # Only a printable ASCII character can belong to a token (then the move is "e3x").
        assert reply == MoveReply(f"e3{char}")
    with pytest.raises(ProtocolViolation):
        parse_reply(f"ok{char}")  # one word, not 'ok'
    with pytest.raises(ProtocolViolation):
        parse_command(f"quit{char}")


@given(blanks=st.text(alphabet=BLANKS, min_size=1, max_size=4))
def test_space_and_tab_runs_separate_words(blanks: str) -> None:
    assert parse_reply(f"{blanks}move{blanks}e3{blanks}") == MoveReply("e3")
    assert parse_reply(f"pong{blanks}7") == Pong("7")


def test_texts_keep_unicode_blanks_at_their_ends() -> None:
    # A *text* runs to the end of the line; only space and tab around it are trimmed.
    assert parse_reply("info hello\u00a0") == Info("hello\u00a0")
    assert parse_reply("error \u3000 no") == ErrorReply("\u3000 no")
    with pytest.raises(ProtocolViolation):
        parse_reply("info\u00a0depth 3")  # 'info\xa0depth' is one word, no reply


def test_info_items_split_at_space_and_tab_only() -> None:
    assert parse_info("depth 7\tnodes 20").depth == 7
    info = parse_info("depth 7\u00a0nodes 20")
    assert info.depth is None and info.nodes is None
    assert info.rejected  # '7\xa0nodes' is not a number: noted, not taken
