"""``referee.errors.leaves``: the errors of a nursery's group, flattened, which the CLI, the
signal runner and the game slots read to tell one user error from a bug."""

from __future__ import annotations

from referee.errors import UserError, leaves


def test_nested_groups_give_their_errors_depth_first_in_order() -> None:
    first, second, third = UserError("a"), ValueError("b"), KeyboardInterrupt()
    group = BaseExceptionGroup("outer", [first, BaseExceptionGroup("inner", [second, third])])
    assert leaves(group) == [first, second, third]
    assert leaves(ExceptionGroup("one", [second])) == [second]
