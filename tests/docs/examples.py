"""The example blocks of the rules pages: a fenced ``text`` block whose first line is
``$ referee …``, the rest of the block being what that command prints."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PAGES = Path(__file__).resolve().parents[2] / "docs" / "rules"
PROMPT = "$ referee "


@dataclass(frozen=True)
class Example:
    """One example block."""

    page: str
    """The page's file name."""
    line: int
    """The line of its ``$ referee`` command, from 1."""
    command: str
    """The command line after ``$ `` (``referee …``)."""
    output: str
    """The block's other lines, each ending with a newline."""
    end: int
    """The line of the block's closing fence, from 1."""
    ordinal: int
    """Its place among the page's example blocks, from 0 (stable while outputs change)."""

    @property
    def slug(self) -> str:
        return f"{self.page}:{self.line}"


def examples_in(page: Path) -> list[Example]:
    """The example blocks of ``page`` in order. A block opens with a line of three or more
    backticks followed by ``text`` and closes with the same backticks."""
    found: list[Example] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        fence = lines[index].strip()
        index += 1
        if not (fence.startswith("```") and fence.lstrip("`") == "text"):
            continue
        ticks = fence[: len(fence) - len("text")]
        first = index
        while index < len(lines) and lines[index].strip() != ticks:
            index += 1
        body = lines[first:index]
        index += 1
        if body and body[0].startswith(PROMPT):
            output = "".join(line + "\n" for line in body[1:])
            found.append(Example(page.name, first + 1, body[0][2:], output, index, len(found)))
    return found


def all_examples() -> list[Example]:
    """Every example block of every page, page by page."""
    return [example for page in sorted(PAGES.glob("*.md")) for example in examples_in(page)]


def rewrite(page: Path, outputs: dict[int, str]) -> None:
    """Replace the output of the example blocks of ``page`` given by ``Example.ordinal`` as
    keys of ``outputs`` with the values (``UPDATE_GOLDEN``)."""
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    for example in reversed(examples_in(page)):
        if example.ordinal in outputs:
            lines[example.line : example.end - 1] = [outputs[example.ordinal]]
    page.write_text("".join(lines), encoding="utf-8")
