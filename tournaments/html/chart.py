"""Inline SVG line charts, drawn in Python (no script, no library, no network).

``line_chart`` is pure: series of (x, y) points in, one ``<svg>`` element out. A
``None`` y leaves a gap in its line (an Elo that is infinite after a clean sweep);
horizontal reference lines (an SPRT's bounds) are dashed and labelled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.html.page import esc

PALETTE = (
    "#1f5fbf",
    "#d1495b",
    "#2a9d3f",
    "#e08a00",
    "#7b3fb8",
    "#00838f",
    "#8d6e63",
    "#c2185b",
)
"""Line colours, cycled."""

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 14, 36
"""Plot margins; the right one holds the legend."""


@dataclass(frozen=True, slots=True)
class Series:
    """One line: a name for the legend and its points in x order."""

    name: str
    points: tuple[tuple[float, float | None], ...]


def _ticks(low: float, high: float, count: int = 5, *, whole: bool = False) -> list[float]:
    """About ``count`` round values from ``low`` to ``high`` (whole numbers if ``whole``)."""
    if high <= low:
        return [low]
    raw = (high - low) / count
    if whole:
        raw = max(raw, 1.0)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]


def _label(value: float) -> str:
    return f"{value:.6g}" if value != 0 else "0"


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    x_label: str,
    y_label: str,
    hlines: Sequence[tuple[str, float]] = (),
    whole_x: bool = True,
    y_range: tuple[float, float] | None = None,
) -> str:
    """An ``<svg class="chart">`` with axes, ticks, one polyline per series and a legend.

    The y range covers every point and every ``hlines`` value (with 5% air); an
    empty chart (no finite point) says so instead of drawing axes. ``whole_x``: the
    x values count something (games), so x ticks are whole numbers. ``y_range`` fixes
    the y axis instead (points outside it are drawn at its edge).
    """
    xs = [x for s in series for x, _ in s.points]
    ys = [y for s in series for _, y in s.points if y is not None and math.isfinite(y)]
    ys += [value for _, value in hlines]
    head = (
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{esc(title)}">'
        f"<title>{esc(title)}</title>"
    )
    if not xs or not ys:
        return head + f'<text x="{LEFT}" y="{HEIGHT / 2}">no data yet</text></svg>'
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if x1 == x0:
        x1 = x0 + 1
    if y_range is not None:
        y0, y1 = y_range
    else:
        air = (y1 - y0) * 0.05 or 1.0
        y0, y1 = y0 - air, y1 + air
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (x - x0) / (x1 - x0) * plot_w

    def py(y: float) -> float:
        return TOP + (y1 - min(y1, max(y0, y))) / (y1 - y0) * plot_h

    parts = [head, '<g stroke="#c9ccd1" stroke-width="1">']
    for y in _ticks(y0, y1):
        parts.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{py(y):.1f}" y2="{py(y):.1f}"/>')
    parts.append("</g>")
    parts.append('<g fill="#333" text-anchor="end">')
    for y in _ticks(y0, y1):
        parts.append(f'<text x="{LEFT - 5}" y="{py(y) + 4:.1f}">{esc(_label(y))}</text>')
    parts.append('</g><g fill="#333" text-anchor="middle">')
    for x in _ticks(x0, x1, 8, whole=whole_x):
        parts.append(f'<text x="{px(x):.1f}" y="{TOP + plot_h + 15}">{esc(_label(x))}</text>')
    parts.append("</g>")
    parts.append(
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 4}" text-anchor="middle">{esc(x_label)}</text>'
        f'<text transform="translate(13 {TOP + plot_h / 2}) rotate(-90)" text-anchor="middle">'
        f"{esc(y_label)}</text>"
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" '
        'stroke="#888"/>'
    )
    for name, value in hlines:
        y = py(value)
        parts.append(
            f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#555" '
            f'stroke-dasharray="5 4"/><text x="{LEFT + plot_w + 4}" y="{y + 4:.1f}">'
            f"{esc(name)} {value:.2f}</text>"
        )
    legend_y = TOP + 8 + 16 * len(hlines)
    for i, line in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        for run in _runs(line.points):
            if len(run) == 1:
                x, y = run[0]
                parts.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2" fill="{colour}"/>')
            else:
                path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in run)
                parts.append(
                    f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}"/>'
                )
        y = legend_y + 16 * i
        parts.append(
            f'<line x1="{LEFT + plot_w + 6}" x2="{LEFT + plot_w + 22}" y1="{y}" y2="{y}" '
            f'stroke="{colour}" stroke-width="3"/>'
            f'<text x="{LEFT + plot_w + 26}" y="{y + 4}">{esc(line.name)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _runs(points: Sequence[tuple[float, float | None]]) -> list[list[tuple[float, float]]]:
    """The stretches of finite points between gaps."""
    runs: list[list[tuple[float, float]]] = [[]]
    for x, y in points:
        if y is None or not math.isfinite(y):
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append((x, y))
    return [run for run in runs if run]
