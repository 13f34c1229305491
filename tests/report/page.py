"""Read a generated page back with the standard library's HTML parser (no browser)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any


@dataclass
class Cell:
    """A ``<td>``: its attributes and its text."""

    attrs: dict[str, str]
    text: str = ""


@dataclass
class Page:
    """What the tests look at in a page."""

    json_blocks: dict[str, Any] = field(default_factory=dict)
    ids: list[str] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    """Every ``href`` and ``src`` value."""
    tags: set[str] = field(default_factory=set)
    scripts: int = 0
    """``<script>`` elements that run (not JSON data)."""


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._json: str | None = None
        self._text: list[str] = []
        self._cell: Cell | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        self.page.tags.add(tag)
        if "id" in values:
            self.page.ids.append(values["id"])
        self.page.urls += [values[k] for k in ("href", "src") if k in values]
        if tag == "script":
            if values.get("type") == "application/json":
                self._json, self._text = values["id"], []
            else:
                self.page.scripts += 1
        elif tag == "td":
            self._cell = Cell(values)
            self.page.cells.append(self._cell)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._json is not None:
            self.page.json_blocks[self._json] = json.loads("".join(self._text))
            self._json = None
        elif tag == "td":
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._json is not None:
            self._text.append(data)
        elif self._cell is not None:
            self._cell.text += data


def read_page(text: str) -> Page:
    """The parts of ``text`` the tests check."""
    reader = _Reader()
    reader.feed(text)
    reader.close()
    return reader.page
