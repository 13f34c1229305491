"""Every example block of the rules pages prints exactly what the page shows: the legal
move lists and positions of the pages cannot drift from the rules the referee enforces.

A block is a fenced ``text`` block whose first line is ``$ referee …``; the command is
split as a shell would (``shlex``) and run in this process; the rest of the block must
equal what it writes (standard output, then standard error for an error line).

To write a new example, write its fence and command line only and run this file with
``UPDATE_GOLDEN=1``: every block's output is rewritten from what the command prints now.
Then read the diff: the output is the rules' word, and the page's text must agree with it.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from tests.clirun import cli
from tests.docs.examples import PAGES, Example, all_examples, examples_in, rewrite

EXAMPLES = all_examples()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.slug for e in EXAMPLES])
def test_example_prints_what_the_page_shows(
    example: Example, capsys: pytest.CaptureFixture[str]
) -> None:
    words = shlex.split(example.command)
    assert words[0] == "referee"
    _, out, err = cli(capsys, *words[1:])
    if os.environ.get("UPDATE_GOLDEN") == "1" and out + err != example.output:
        rewrite(PAGES / example.page, {example.ordinal: out + err})
        return
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
    assert [(e.line, e.command, e.output, e.end) for e in found] == [
        (4, "referee moves trike", "line one\nline two\n", 7),
        (14, "referee games", "```\n", 16),
    ]
    rewrite(page, {0: "new output\n"})
    assert [(e.line, e.output, e.end) for e in examples_in(page)] == [
        (4, "new output\n", 6),
        (13, "```\n", 15),
    ]


def test_every_page_has_example_positions() -> None:
    pages = [page for page in PAGES.glob("*.md") if page.name != "README.md"]
    for page in pages:
        moves = [e for e in examples_in(page) if e.command.startswith("referee moves ")]
        assert len(moves) >= 2, f"{page.name} shows fewer than two `referee moves` examples"
