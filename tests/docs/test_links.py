"""The repository is self-contained: every relative link of every Markdown file resolves to
a file or folder of the repository, and no file names the folder of the reference texts
the rules were written from, which is not part of the repository."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".git", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", "node_modules"}
"""Folders that are not the repository's own text (tool caches, git's store), when there is
no git to ask."""
OUTSIDE = "sha" + "red/"
"""The name to refuse (built from pieces so that this file does not name it)."""
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
"""An inline Markdown link or image: ``[text](target)``, ``![alt](target "title")``."""
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.MULTILINE)
"""A reference definition: ``[name]: target``."""
HTML = re.compile(r"""<(?:a|img)\b[^>]*\b(?:href|src)\s*=\s*["']([^"']+)["']""")


def repository_files() -> Iterator[Path]:
    """Every file of the repository: in a git checkout the tracked files and the new ones
    git does not ignore (so a virtual environment or a build folder inside the clone is not
    read); elsewhere (an unpacked archive) every file but caches and build output."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode("utf-8")
    except (OSError, subprocess.CalledProcessError):
        listed = None
    if listed is not None:
        for name in sorted(set(filter(None, listed.split("\0")))):
            path = ROOT / name
            if path.is_file():  # a deleted but not yet committed file is listed too
                yield path
        return
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if any(p in SKIP or p.endswith(".egg-info") for p in parts) or not path.is_file():
            continue
        yield path


def links(text: str) -> list[str]:
    """The link targets of a Markdown text, outside code blocks and code spans."""
    text = re.sub(r"(?ms)^(\s*)(`{3,}|~{3,}).*?^\1\2[`~]*\s*$", "", text)
    text = re.sub(r"(`+)(?:(?!\1).)+?\1", "", text)
    found = LINK.findall(text) + REFERENCE.findall(text) + HTML.findall(text)
    return [target for target in found if target]


def is_relative(target: str) -> bool:
    return not re.match(r"^(?:[a-z][a-z0-9+.-]*:|#|//)", target, re.IGNORECASE)


def test_every_relative_link_of_every_markdown_file_resolves() -> None:
    broken = []
    pages = [path for path in repository_files() if path.suffix == ".md"]
    assert len(pages) >= 8, "the walk missed the repository's pages"
    for page in pages:
        for target in links(page.read_text(encoding="utf-8")):
            if not is_relative(target):
                continue
            file_part = target.split("#", 1)[0].split("?", 1)[0]
            if not file_part:
                continue
            resolved = (page.parent / file_part).resolve()
            inside = resolved == ROOT or ROOT in resolved.parents
            if not inside or not resolved.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "links that do not resolve inside the repository: " + "; ".join(broken)


def test_no_file_names_the_reference_folder() -> None:
    naming = []
    for path in repository_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # not text (an image, a compiled file): it names nothing
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE in line:
                naming.append(f"{path.relative_to(ROOT)}:{number}")
    assert not naming, f"files that point outside the repository ({OUTSIDE}): {naming}"


def test_the_link_reader_finds_links_and_skips_code() -> None:
    text = (
        'See [the spec](protocol/SPEC.md#grammar) and ![board](img/b.svg "title").\n'
        "[ref]: docs/x.md\n"
        '<img src="pic.svg"> and `[not](a-link.md)`\n'
        "```\n[inside](code.md)\n```\n"
        "[web](https://example.org) [anchor](#top)\n"
    )
    found = links(text)
    assert found[:2] == ["protocol/SPEC.md#grammar", "img/b.svg"]
    assert set(found) == {
        "protocol/SPEC.md#grammar", "img/b.svg", "docs/x.md", "pic.svg",
        "https://example.org", "#top",
    }  # fmt: skip
    assert [t for t in found if is_relative(t)] == [
        "protocol/SPEC.md#grammar", "img/b.svg", "docs/x.md", "pic.svg",
    ]  # fmt: skip
