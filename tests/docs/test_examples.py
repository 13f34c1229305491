"""Every example block of the rules pages prints exactly what the page shows: the legal
move lists and positions of the pages cannot drift from the rules the referee enforces.

A block is a fenced ``text`` block whose first line is ``$ referee …``; the command is
split as a shell would (``shlex``) and run in this process; the rest of the block must
equal what it writes (standard output, then standard error for an error line).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.clirun import cli
from tests.docs.examples import PAGES, Example, all_examples, examples_in

EXAMPLES = all_examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.slug for e in EXAMPLES])
def test_example_prints_what_the_page_shows(
    example: Example, capsys: pytest.CaptureFixture[str]
) -> None:
    words = shlex.split(example.command)
    assert words[0] == "referee"
    _, out, err = cli(capsys, *words[1:])
    assert out + err == example.output, f"{example.slug}: `{example.command}` prints otherwise"


def test_blocks_are_found_and_other_blocks_are_not(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Intro\n\n```text\n$ referee moves trike\nline one\nline two\n```\n\n"
        "```text\na diagram, not a command\n```\n\n"
        "````text\n$ referee games\n```\n````\n"
        "```python\n$ referee perft trike 1\n```\n",
        encoding="utf-8",
    )
    found = examples_in(page)
    assert [(e.line, e.command, e.output) for e in found] == [
        (4, "referee moves trike", "line one\nline two\n"),
        (14, "referee games", "```\n"),
    ]


def test_every_page_has_example_positions() -> None:
    pages = [page for page in PAGES.glob("*.md") if page.name != "README.md"]
    for page in pages:
        moves = [e for e in examples_in(page) if e.command.startswith("referee moves ")]
        assert len(moves) >= 2, f"{page.name} shows fewer than two `referee moves` examples"
