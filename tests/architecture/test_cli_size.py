"""The command line stays thin: no function in ``tournaments/cli/`` has a body longer than
``MAX_BODY_LINES`` lines.

How a body is counted: from the first line of its first statement after the docstring to
the last line of its last statement, every physical line in between (blank lines and
comments inside the body included, nested functions and classes counted with the function
that holds them). Not counted: the decorators, the signature (a typer command's option
declarations may be as long as its options need) and the docstring. A function is every
``def`` and ``async def``: module-level ones, methods and nested ones alike.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "tournaments" / "cli"
MAX_BODY_LINES = 60


def body_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The lines of ``function``'s body as the module docstring says they are counted."""
    body = function.body
    first = body[0]
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        body = body[1:]  # the docstring
    if not body:
        return 0
    end = body[-1].end_lineno
    assert end is not None
    return end - body[0].lineno + 1


def long_functions(source: str, limit: int = MAX_BODY_LINES) -> Iterator[tuple[str, int, int]]:
    """(name, line of the ``def``, body lines) of every function of ``source`` whose body
    is longer than ``limit`` lines."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = body_lines(node)
            if lines > limit:
                yield node.name, node.lineno, lines


def test_no_function_in_the_cli_has_a_body_over_the_limit() -> None:
    modules = sorted(CLI.rglob("*.py"))
    assert len(modules) > 5  # the folder is where this test thinks it is
    found = [
        f"{path.relative_to(ROOT)}:{line} {name}: {lines} lines"
        for path in modules
        for name, line, lines in long_functions(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"bodies over {MAX_BODY_LINES} lines: {found}"


def _function(body: int, *, docstring: bool, decorated: bool) -> str:
    """The source of a function whose body has ``body`` lines (one blank among them)."""
    head = "@app.command('x')\n" if decorated else ""
    head += "def f(\n    a: int = 1,\n    b: int = 2,\n) -> None:\n"
    if docstring:
        head += '    """Says what f does,\n\n    over three lines."""\n'
    lines = ["    x = 0"] + ["    x += 1" for _ in range(body - 3)] + ["", "    print(x)"]
    return head + "\n".join(lines) + "\n"


def test_the_count_leaves_out_decorators_signature_and_docstring() -> None:
    for docstring in (False, True):
        for decorated in (False, True):
            tree = ast.parse(_function(7, docstring=docstring, decorated=decorated))
            [function] = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
            assert body_lines(function) == 7


def test_a_body_one_line_over_the_limit_is_found_and_one_at_it_is_not() -> None:
    over = _function(MAX_BODY_LINES + 1, docstring=True, decorated=True)
    at = _function(MAX_BODY_LINES, docstring=True, decorated=True)
    assert list(long_functions(over)) == [("f", 2, MAX_BODY_LINES + 1)]
    assert list(long_functions(at)) == []
    nested = "def outer():\n" + "\n".join(
        "    " + line for line in _function(MAX_BODY_LINES + 1, docstring=False,
                                           decorated=False).splitlines()
    )  # fmt: skip
    assert [name for name, _, _ in long_functions(nested)] == ["outer", "f"]
