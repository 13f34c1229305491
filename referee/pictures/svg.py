"""Building blocks of an SVG document as text: escaping, numbers, elements.

Pure string functions, so a picture is deterministic and golden-testable: numbers are
printed with at most two decimals, attributes in the order given, no ids (several
pictures may share one HTML page), no scripts and no external references.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import cache

Point = tuple[float, float]

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"})


def esc(text: str) -> str:
    """``text`` safe inside XML character data and double-quoted attribute values."""
    return text.translate(_ESCAPES)


def num(value: float) -> str:
    """A number with at most two decimals and no trailing zeros (``-0`` is ``0``)."""
    text = f"{value:.2f}"
    if text[-1] == "0":  # most coordinates are not round: skip the strips for them
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


_NAMES: dict[str, str] = {}
"""Keyword to attribute name, memoised: pictures repeat a dozen names thousands of times."""


def attrs(pairs: dict[str, str | float | None]) -> str:
    """`` name="value"`` for every pair whose value is not None, in the order given.

    A trailing underscore is dropped and other underscores become hyphens, so
    ``class_`` is ``class`` and ``stroke_width`` is ``stroke-width``.
    """
    out = []
    for key, value in pairs.items():
        if value is None:
            continue
        name = _NAMES.get(key)
        if name is None:
            name = _NAMES[key] = key.rstrip("_").replace("_", "-")
        text = value.translate(_ESCAPES) if isinstance(value, str) else num(value)
        out.append(f' {name}="{text}"')
    return "".join(out)


def element(tag: str, content: str | None = None, /, **pairs: str | float | None) -> str:
    """``<tag …/>``, or ``<tag …>content</tag>`` when ``content`` is given (not escaped)."""
    if content is None:
        return f"<{tag}{attrs(pairs)}/>"
    return f"<{tag}{attrs(pairs)}>{content}</{tag}>"


def points(corners: Iterable[Point]) -> str:
    """The ``points`` attribute of a polygon or polyline."""
    return " ".join(f"{num(x)},{num(y)}" for x, y in corners)


def polygon(corners: Iterable[Point], **pairs: str | float | None) -> str:
    """A closed polygon through ``corners``."""
    return element("polygon", points=points(corners), **pairs)


def circle(centre: Point, radius: float, **pairs: str | float | None) -> str:
    """A circle."""
    return element("circle", cx=centre[0], cy=centre[1], r=radius, **pairs)


def line(a: Point, b: Point, **pairs: str | float | None) -> str:
    """A straight segment."""
    return element("line", x1=a[0], y1=a[1], x2=b[0], y2=b[1], **pairs)


def text(at: Point, words: str, **pairs: str | float | None) -> str:
    """Escaped text centred on ``at`` unless overridden (``dy`` centres it vertically,
    which every renderer supports, unlike ``dominant-baseline``)."""
    pairs.setdefault("text_anchor", "middle")
    pairs.setdefault("dy", "0.35em")
    return element("text", esc(words), x=at[0], y=at[1], **pairs)


def group(children: Iterable[str], **pairs: str | float | None) -> str:
    """A ``<g>`` holding ``children`` (already SVG text)."""
    return element("g", "".join(children), **pairs)


def titled(child_tag: str, tooltip: str, **pairs: str | float | None) -> str:
    """An element with a ``<title>`` child: a hover text naming the cell or piece."""
    return element(child_tag, element("title", esc(tooltip)), **pairs)


def arrow(path: Sequence[Point], *, colour: str, width: float, head: float, **pairs: str) -> str:
    """A polyline through ``path`` with a filled arrowhead at its last point.

    The head is a polygon rather than an SVG marker, since markers need ids.
    """
    (x0, y0), (x1, y1) = path[-2], path[-1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    base = (x1 - ux * head, y1 - uy * head)
    left = (base[0] - uy * head * 0.5, base[1] + ux * head * 0.5)
    right = (base[0] + uy * head * 0.5, base[1] - ux * head * 0.5)
    shaft = [*path[:-1], base]
    return group(
        [
            element(
                "polyline",
                points=points(shaft),
                fill="none",
                stroke=colour,
                stroke_width=width,
                stroke_linecap="round",
                stroke_linejoin="round",
            ),
            polygon([(x1, y1), left, right], fill=colour),
        ],
        **pairs,
    )


def cross(centre: Point, size: float, *, colour: str, width: float) -> str:
    """Two crossing strokes: the mark of a captured stone."""
    x, y = centre
    d = f"M{num(x - size)},{num(y - size)}L{num(x + size)},{num(y + size)}"
    d += f"M{num(x - size)},{num(y + size)}L{num(x + size)},{num(y - size)}"
    return element(
        "path", d=d, fill="none", stroke=colour, stroke_width=width, stroke_linecap="round"
    )


def document(
    width: float, height: float, body: Iterable[str], *, title: str, size: float | None
) -> str:
    """A standalone SVG document of the given drawing size.

    ``size`` is the rendered width in pixels (height scaled to keep the aspect), or None
    for one pixel per drawing unit.
    """
    return "".join(document_parts(width, height, body, title=title, size=size))


def document_parts(
    width: float, height: float, body: Iterable[str], *, title: str, size: float | None
) -> list[str]:
    """``document``'s text as the pieces it joins: the drawing's pieces as given, the
    repeated ones the very same string objects each time."""
    head, tail = _document_parts(width, height, size)
    return [head, esc(title), tail, *body, "</svg>\n"]


@cache
def _document_parts(width: float, height: float, size: float | None) -> tuple[str, str]:
    """The document's text before and after its title's words (made once per size)."""
    scale = 1.0 if size is None else size / width
    background = element("rect", x=0, y=0, width=width, height=height, fill="#ffffff")
    whole = element(
        "svg",
        element("title", HOLE) + background,
        xmlns="http://www.w3.org/2000/svg",
        width=width * scale,
        height=height * scale,
        viewBox=f"0 0 {num(width)} {num(height)}",
        font_family="DejaVu Sans, Verdana, Arial, sans-serif",
    )
    return cut(whole.removesuffix("</svg>"))


HOLE = "\0"
"""A placeholder that no picture's text contains. An element that repeats with only its
words changing is built once around ``HOLE`` and ``cut``; each use then only escapes
and inserts its words, and is still exactly what the builders above would write."""


def cut(element: str) -> tuple[str, str]:
    """``element``'s text before and after its single ``HOLE``."""
    head, tail = element.split(HOLE)
    return head, tail
