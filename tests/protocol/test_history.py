"""``MoveHistory``: a tuple's behaviour, O(1) growth along one line of play, safe branches."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.history import MoveHistory, as_history

TOKENS = st.sampled_from(["a1", "b2", "c3", "swap"])


@given(st.lists(st.tuples(st.integers(0, 30), TOKENS), max_size=40))
def test_histories_behave_as_the_tuples_of_their_moves(steps: list[tuple[int, str]]) -> None:
    """Grow histories from random earlier ones (branches included): every history keeps
    its moves, whatever is appended to the list it shares."""
    histories = [MoveHistory()]
    models: list[tuple[str, ...]] = [()]
    for pick, move in steps:
        index = pick % len(histories)
        histories.append(histories[index].appended(move))
        models.append((*models[index], move))
    for history, model in zip(histories, models, strict=True):
        assert len(history) == len(model)
        assert tuple(history) == model and history == model and list(history) == list(model)
        assert history[1:3] == model[1:3] and history[::-1] == model[::-1]
        if model:
            assert history[-1] == model[-1] and history[0] == model[0]
        assert ("b2" in history) == ("b2" in model)
        assert hash(history) == hash(model)
    for a, ma in zip(histories, models, strict=True):
        for b, mb in zip(histories, models, strict=True):
            assert a.extends(b) == (ma[: len(mb)] == mb)
            assert (a == b) == (ma == mb)


def test_one_line_of_play_shares_one_list() -> None:
    history = MoveHistory()
    lines = [history]
    for move in ("a1", "b2", "c3"):
        lines.append(lines[-1].appended(move))
    assert all(h._items is lines[-1]._items for h in lines)  # no copy along the line
    branch = lines[1].appended("x")  # a second way from an older history: a copy
    assert branch._items is not lines[-1]._items
    assert tuple(branch) == ("a1", "x") and tuple(lines[-1]) == ("a1", "b2", "c3")
    with pytest.raises(IndexError):
        lines[2][2]
    assert as_history(("a", "b")) == ("a", "b") and as_history(lines[3]) is lines[3]
    assert repr(lines[2]) == "MoveHistory(['a1', 'b2'])"
