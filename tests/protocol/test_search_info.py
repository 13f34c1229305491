"""Structured info items: exact parses, rejected items, formatting and round trips."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from protocol.errors import ProtocolViolation
from protocol.search_info import (
    KEYS,
    MAX_COUNT,
    ForcedWin,
    RejectedItem,
    SearchInfo,
    Shares,
    format_info,
    format_info_line,
    merge,
    parse_info,
)

FULL = (
    "depth 7 seldepth 12 nodes 20450 nps 41000 time 499 score 700,300 pv e3 d4 swap"
    " string hello  depth 3"
)


def test_a_full_line_parses_into_every_item() -> None:
    info = parse_info(FULL)
    assert info == SearchInfo(
        depth=7,
        seldepth=12,
        nodes=20450,
        nps=41000,
        time=499,
        score=Shares((700, 300)),
        pv=("e3", "d4", "swap"),
        string="hello  depth 3",
    )
    # The formatter writes the canonical order; the tail keeps its inner blanks.
    assert format_info(info) == FULL
    assert format_info_line(info) == f"info {FULL}"


@pytest.mark.parametrize(
    ("text", "info"),
    [
        ("", SearchInfo()),
        ("   ", SearchInfo()),
        ("score win 5", SearchInfo(score=ForcedWin(5))),
        ("score 334,333,333 depth 2", SearchInfo(depth=2, score=Shares((334, 333, 333)))),
        ("score 1000", SearchInfo(score=Shares((1000,)))),
        ("pv a1-b2/E c3xd4 nodes 9", SearchInfo(nodes=9, pv=("a1-b2/E", "c3xd4"))),
        ("string", SearchInfo(string="")),
        ("string depth 5", SearchInfo(string="depth 5")),
        ("\tdepth\t3 ", SearchInfo(depth=3)),
        # Free text (first word not a key) is all text, as before structured items.
        ("thinking hard, depth 5", SearchInfo(string="thinking hard, depth 5")),
        ("Depth 5", SearchInfo(string="Depth 5")),
    ],
)
def test_examples(text: str, info: SearchInfo) -> None:
    assert parse_info(text) == info


@pytest.mark.parametrize(
    ("text", "rejected", "kept"),
    [
        ("depth x", "depth x", SearchInfo()),
        ("depth", "depth", SearchInfo()),
        ("depth 5 6", "depth 5 6", SearchInfo()),
        ("nodes -5 string tail", "nodes -5", SearchInfo(string="tail")),
        ("score 700,200", "score 700,200", SearchInfo()),
        ("score 700,,300", "score 700,,300", SearchInfo()),
        ("score -100,1100", "score -100,1100", SearchInfo()),
        ("score win 0", "score win 0", SearchInfo()),
        ("score win", "score win", SearchInfo()),
        ("score lose 3", "score lose 3", SearchInfo()),
        ("pv", "pv", SearchInfo()),
        ("pv e3 \u00e93", "pv e3 \u00e93", SearchInfo()),
        ("depth 3 depth 4", "depth 4", SearchInfo(depth=3)),
        ("time 99999999999999999", "time 99999999999999999", SearchInfo()),
        ("depth 2 hashfull 300 nodes 5", "depth 2 hashfull 300", SearchInfo(nodes=5)),
    ],
)
def test_malformed_items_are_kept_as_text_with_a_reason(
    text: str, rejected: str, kept: SearchInfo
) -> None:
    info = parse_info(text)
    assert [item.text for item in info.rejected] == [rejected]
    assert all(item.reason for item in info.rejected)
    assert replace(info, rejected=()) == kept
    # Rejected items survive formatting, with the same reasons.
    assert parse_info(format_info(info)) == info


def test_a_rejected_item_keeps_its_reason_wherever_it_is_written() -> None:
    info = parse_info("depth x depth 5 depth 6")
    assert info.depth == 5
    assert [item.text for item in info.rejected] == ["depth x", "depth 6"]
    assert "integer" in info.rejected[0].reason and "repeated" in info.rejected[1].reason
    assert parse_info(format_info(info)) == info


@pytest.mark.parametrize(
    "info",
    [
        SearchInfo(depth=-1),
        SearchInfo(nodes=MAX_COUNT + 1),
        SearchInfo(score=Shares((700, 200))),
        SearchInfo(score=Shares(())),
        SearchInfo(score=Shares((1100, -100))),
        SearchInfo(score=ForcedWin(0)),
        SearchInfo(pv=()),
        SearchInfo(pv=("e3", "depth")),
        SearchInfo(pv=("e 3",)),
        SearchInfo(pv=("",)),
        SearchInfo(string="two\nlines"),
    ],
)
def test_unformattable_values_are_refused(info: SearchInfo) -> None:
    with pytest.raises(ProtocolViolation):
        format_info(info)


def test_merge_keeps_each_items_latest_value() -> None:
    first = parse_info("depth 1 nodes 10 score 500,500 pv e3")
    second = parse_info("depth 2 nodes 90 pv d4 c3 string done")
    third = parse_info("depth 3 score win 3 bad")
    merged = merge(merge(first, second), third)
    assert merged == SearchInfo(
        depth=3, nodes=90, score=Shares((500, 500)), pv=("d4", "c3"), string="done"
    )
    assert merge(merged, SearchInfo()) == merged
    assert merge(SearchInfo(), parse_info("depth x")) == SearchInfo()
    assert SearchInfo().empty and not merged.empty


def test_scores_print_as_sent() -> None:
    assert str(Shares((500, 250, 250))) == "500,250,250"
    assert str(ForcedWin(5)) == "win 5"


# --- properties -------------------------------------------------------------------------

counts = st.one_of(st.none(), st.integers(0, MAX_COUNT))
move_tokens = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=8
).filter(lambda word: word not in KEYS)


@st.composite
def shares(draw: st.DrawFn) -> Shares:
    seats = draw(st.integers(1, 6))
    cuts = sorted(draw(st.lists(st.integers(0, 1000), min_size=seats - 1, max_size=seats - 1)))
    bounds = [0, *cuts, 1000]
    return Shares(tuple(b - a for a, b in pairwise(bounds)))


scores = st.one_of(st.none(), shares(), st.builds(ForcedWin, st.integers(1, MAX_COUNT)))
tails = st.one_of(
    st.none(),
    st.text(
        alphabet=st.characters(exclude_characters="\n\r", categories=("L", "N", "P", "S", "Zs"))
    ).map(str.strip),
)
infos = st.builds(
    SearchInfo,
    depth=counts,
    seldepth=counts,
    nodes=counts,
    nps=counts,
    time=counts,
    score=scores,
    pv=st.one_of(st.none(), st.lists(move_tokens, min_size=1, max_size=6).map(tuple)),
    string=tails,
)


@given(infos)
def test_generated_infos_round_trip(info: SearchInfo) -> None:
    text = format_info(info)
    assert "\n" not in text and "\r" not in text
    assert parse_info(text) == info


ITEM_WORDS = [
    *sorted(KEYS), "win", "0", "1", "7", "-3", "500,500", "334,333,333", "700,200", "1000",
    ",", "e3", "x", "\u00e9", "\t", "99999999999999999",
]  # fmt: skip
item_texts = st.one_of(
    st.text(alphabet=st.characters(exclude_characters="\n\r")),
    st.lists(st.sampled_from(ITEM_WORDS), max_size=14).map(" ".join),
)


@given(item_texts)
@example("depth x depth 5 depth 6")
@example("pv e3 pv d4")
@settings(max_examples=600)
def test_any_text_parses_and_its_parse_survives_formatting(text: str) -> None:
    info = parse_info(text)
    assert all(isinstance(item, RejectedItem) and item.reason for item in info.rejected)
    again = parse_info(format_info(info))
    assert again == info
