"""The shell shared by the self-contained HTML pages (``referee report``, ``adjudicate --html``).

Contract: every function returns a fragment of HTML text in which every piece of
outside data (names, tags, moves, reasons) has been escaped; nothing refers to a
network resource or another file, so a page can be mailed or archived as one file.
JSON data for the page's script goes in ``<script type="application/json">``
blocks (``json_block``), which the browser never executes.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from typing import Any

STYLE = """
:root { color-scheme: light; --line: #c9ccd1; --soft: #f3f4f6; --accent: #1f5fbf; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 72em;
       padding: 0 1em; color: #1b1d21; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 1.8em; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid var(--line); padding: 0.2em 0.55em; text-align: right; }
th { background: var(--soft); }
td.name, th.name, td.text { text-align: left; }
td.self { background: var(--soft); text-align: center; }
.note { color: #555; }
.bad { color: #a01010; font-weight: 600; }
.good { color: #10702a; font-weight: 600; }
nav a { margin-right: 1em; }
details.game { border: 1px solid var(--line); margin: 0.4em 0; padding: 0.3em 0.6em; }
details.game[open] { background: #fcfcfd; }
summary { cursor: pointer; }
.replay { display: flex; flex-wrap: wrap; gap: 1.2em; align-items: flex-start; }
.replay .boardcol { flex: 0 1 30em; min-width: 16em; }
.replay .side { flex: 1 1 20em; min-width: 16em; }
.board svg { width: 100%; height: auto; }
.board pre { font-size: 12px; line-height: 1.15; }
.controls { margin: 0.3em 0; }
.controls button { min-width: 2.6em; margin-right: 0.2em; }
.moves { font-family: ui-monospace, monospace; line-height: 1.7; }
.moves span, .moves b { white-space: nowrap; }
.moves span { cursor: pointer; padding: 0 0.15em; }
figure.chart { margin: 1em 0; }
figure.chart figcaption { font-weight: 600; }
figure .board { max-width: 30em; }
.moves span.current { background: var(--accent); color: white; }
.tags td { text-align: left; }
svg.chart text { font: 11px system-ui, sans-serif; }
.pager { margin: 0.4em 0; }
.pager input.page { width: 6em; }
#game-view details.game { margin-top: 1em; }
figure.evaluation svg.chart { width: 100%; height: auto; }
.moves small.search { color: #666; font-size: 0.8em; margin-right: 0.3em; }
"""


INLINE = "'unsafe-inline'"
"""The ``script-src`` of a page whose scripts are all inline."""


def esc(value: object) -> str:
    """``value`` as text safe inside an element or a double-quoted attribute."""
    return html.escape(str(value), quote=True)


def json_block(element_id: str, data: Any) -> str:
    """A ``<script type="application/json">`` holding ``data``.

    ``<``, ``>`` and ``&`` are written as ``\\u003c`` etc., so no string in the
    data can close the script element; ``JSON.parse`` reads them back unchanged.
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f'<script type="application/json" id="{esc(element_id)}">{text}</script>'


def table_head(
    headers: Sequence[str], *, css_class: str = "", text_columns: Iterable[int] = (1,)
) -> str:
    """The start of a ``table``: up to and including ``<tbody>``."""
    left = set(text_columns)
    head = "".join(
        f"<th{' class=name' if i in left else ''}>{esc(h)}</th>" for i, h in enumerate(headers)
    )
    klass = f' class="{esc(css_class)}"' if css_class else ""
    return f"<table{klass}><thead><tr>{head}</tr></thead><tbody>"


TABLE_TAIL = "</tbody></table>"
"""The end of a table begun by ``table_head``."""


def table_row(
    row: Sequence[object], *, text_columns: Iterable[int] = (1,), attrs: Sequence[str] = ()
) -> str:
    """One body row of a ``table``; ``attrs[col]`` is extra (already escaped) attribute
    text for that cell."""
    left = set(text_columns)
    cells = []
    for c, value in enumerate(row):
        klass = ' class="name"' if c in left else ""
        extra = f" {attrs[c]}" if c < len(attrs) and attrs[c] else ""
        cells.append(f"<td{klass}{extra}>{esc(value)}</td>")
    return "<tr>" + "".join(cells) + "</tr>"


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    css_class: str = "",
    text_columns: Iterable[int] = (1,),
    cell_attrs: dict[tuple[int, int], str] | None = None,
) -> str:
    """An HTML table; ``text_columns`` are left-aligned, ``cell_attrs[(row, col)]`` is
    extra (already escaped) attribute text for one body cell."""
    columns = tuple(text_columns)
    cells = cell_attrs or {}
    body = []
    for r, row in enumerate(rows):
        attrs = [cells.get((r, c), "") for c in range(len(row))] if cells else ()
        body.append(table_row(row, text_columns=columns, attrs=attrs))
    head = table_head(headers, css_class=css_class, text_columns=columns)
    return head + "".join(body) + TABLE_TAIL


def page_frame(
    title: str, *, script: str = "", scripts: str = INLINE, connect_self: bool = False
) -> tuple[str, str]:
    """The text before and after a page's body: ``page(t, b) == before + b + after``.

    The Content-Security-Policy forbids every network fetch, so a page that
    accidentally referred to an outside resource would show it broken (and a
    browser test would see the console error) instead of silently loading it.
    ``scripts`` is its ``script-src``: inline scripts only, unless a page loads its
    own script files (the paged report's blocks). ``connect_self`` allows one kind of
    fetch: connections to the page's own server (the live view's event stream).
    """
    csp = f"default-src 'none'; style-src 'unsafe-inline'; script-src {scripts}; img-src data:"
    if connect_self:
        csp += "; connect-src 'self'"
    js = f"<script>{script}</script>" if script else ""
    before = (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(csp)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>"
    )
    return before, f"{js}</body></html>\n"


def page(
    title: str,
    body: str,
    *,
    script: str = "",
    scripts: str = INLINE,
    connect_self: bool = False,
) -> str:
    """A complete HTML5 document: inline style, ``body``, then the inline ``script``
    (see ``page_frame``)."""
    before, after = page_frame(title, script=script, scripts=scripts, connect_self=connect_self)
    return before + body + after
