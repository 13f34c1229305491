"""Tournament tables: a ``Summary`` laid out as text with tabulate.

``render(summary, fmt)`` only lays out what ``tournaments.results.summary.summarize``
computed, in ``plain`` (terminal), ``github`` (Markdown), ``html`` or ``json`` (the
``summary_json`` dict); it raises ``ValueError`` for any other format. The row
builders (``standings_rows``, ``crosstable_rows``, ``elo_rows``, ``pair_rows``,
``rating_rows``) return headers and cells, shared with ``tournaments.html.report``.
Numbers are printed with fixed digits, never ``-0.0``; an error bar without a finite
value prints as ``—`` (``error_bar``).

Two-player events get cutechess-style tables (Elo against the field, then every
pair, with pentanomial columns when paired); events of three or more seats get a
Plackett–Luce ratings table. An SPRT, when configured, is reported last.
"""

from __future__ import annotations

import html
import json
import math

from tabulate import tabulate

from tournaments.results.summary import Summary, summary_json

FORMATS = ("plain", "github", "html", "json")
"""Output formats of ``render``."""


def _num(value: float, digits: int = 1) -> str:
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "-"
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.0"


def _points(value: float) -> str:
    return f"{value:g}"


UNDEFINED_BAR = "—"
"""How the tables print an error bar that is not a finite number (see ``error_bar``)."""


def error_bar(value: float) -> str:
    """A 95% error bar's half-width, or ``—`` when it has none.

    The Elo interval is the Elo of the score interval ``s ± 1.96·σ/√N`` (cutechess,
    fastchess). When that interval reaches a score of 0 or 1 (every game won or lost,
    or a score so near it, usually after few games, that the normal approximation
    crosses it), one end's Elo is infinite and the half-width is ``inf``; cutechess and
    fastchess print ``inf`` or ``nan`` there (``nan`` when every game was won: both ends
    are then ``inf``). A bar of ``inf`` says nothing
    and reads like a number, so the tables print ``—`` instead, and ``results.json``
    holds ``null``; the Elo column itself keeps ``inf``/``-inf`` for a perfect or null
    score. The same goes for a Plackett–Luce rating whose information cannot be
    inverted.
    """
    return _num(value) if math.isfinite(value) else UNDEFINED_BAR


LIST_LIMIT = 100
"""Fields over this many entrants list in the text tables (standings, Elo, ratings) only
the entrants who played, numbered among themselves: a field of 10,000 after 4 games
would print 9,992 empty rows (``results.json`` keeps every entrant)."""


def _listed(summary: Summary, games: int) -> bool:
    """Whether a row of an entrant with ``games`` games is listed (``LIST_LIMIT``)."""
    return games > 0 or len(summary.info.names) <= LIST_LIMIT


def unlisted(summary: Summary) -> int:
    """Entrants the text tables leave out: those without a game, in a field over
    ``LIST_LIMIT``."""
    if len(summary.info.names) <= LIST_LIMIT:
        return 0
    return sum(1 for row in summary.rows if not row.games)


def _titled(title: str, summary: Summary) -> str:
    left_out = unlisted(summary)
    return f"{title} ({left_out} entrants without a game not listed)" if left_out else title


def standings_rows(summary: Summary) -> tuple[list[str], list[list[object]]]:
    """Headers and cells of the standings."""
    players = summary.info.players
    places = [f"{p}{_suffix(p)}" for p in range(1, players + 1)] if players > 2 else []
    headers = ["#", "Entrant", "Games", "Points", "Score"]
    headers += ["Game pts"] if summary.game_points else []
    headers += ["W", "D", "L"] if players == 2 else [*places, "Avg place"]
    headers.append("Forfeits")
    cells: list[list[object]] = []
    for place, row in enumerate((r for r in summary.rows if _listed(summary, r.games)), 1):
        line: list[object] = [place, row.name, row.games, _points(row.points)]
        line.append(f"{100 * row.score:.1f}%")
        if summary.game_points:
            line.append(_points(row.game_points))
        if players == 2:
            line += [row.wins, row.draws, row.losses]
        else:
            line += [row.placements.get(p, 0) for p in range(1, players + 1)]
            line.append(_num(row.average_place, 2) if row.games else "-")
        line.append(", ".join(f"{k} {v}" for k, v in sorted(row.forfeits.items())) or "-")
        cells.append(line)
    return headers, cells


def _suffix(place: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")


CROSSTABLE_LIMIT = 100
"""Most entrants a crosstable shows: it has a cell per two entrants, so a field of
10,000 would make 100 million cells (and nobody reads a table 100 columns wide)."""


def crosstable_names(summary: Summary) -> list[str] | None:
    """The entrants of the crosstable, in standings order: every entrant of a field of
    up to ``CROSSTABLE_LIMIT``; of a larger field, those who played a game, if they are
    no more than that; else None (the crosstable is left out: ``results.json`` lists
    every pair that met, whatever the field)."""
    names = [row.name for row in summary.rows]
    if len(names) <= CROSSTABLE_LIMIT:
        return names
    played = [row.name for row in summary.rows if row.games]
    return played if len(played) <= CROSSTABLE_LIMIT else None


def crosstable_title(summary: Summary) -> str:
    """The crosstable's heading, saying whom it leaves out in a large field."""
    title = "Crosstable (pairwise points: ahead 1, tied 1/2, behind 0)"
    shown = crosstable_names(summary)
    field = len(summary.rows)
    if shown is None:
        return (
            f"Crosstable left out: more than {CROSSTABLE_LIMIT} of the {field} entrants "
            "played (results.json lists every pair that met)"
        )
    if len(shown) < field:
        return f"{title}, the {len(shown)} of {field} entrants who played"
    return title


def crosstable_rows(summary: Summary) -> tuple[list[str], list[list[object]]]:
    """Headers and cells of the pairwise crosstable of ``crosstable_names`` (none when
    it is left out)."""
    order = crosstable_names(summary)
    if order is None:
        return [], []
    headers = ["#", "Entrant", *[str(i) for i in range(1, len(order) + 1)], "Score"]
    cells: list[list[object]] = []
    for i, a in enumerate(order, start=1):
        line: list[object] = [i, a]
        total, games = 0.0, 0
        for b in order:
            if a == b:
                line.append("-")
                continue
            points, met = summary.cross.get((a, b), (0.0, 0))
            total += points
            games += met
            line.append(f"{_points(points)}/{met}" if met else "")
        line.append(f"{_points(total)}/{games}")
        cells.append(line)
    return headers, cells


def elo_rows(summary: Summary) -> tuple[list[str], list[list[object]]]:
    """Headers and cells of each entrant's Elo against the field (two seats)."""
    headers = ["#", "Entrant", "Elo", "+/-", "nElo", "LOS", "Games", "Score", "Draw"]
    cells: list[list[object]] = []
    listed = (e for e in summary.entrant_elo if _listed(summary, e.games))
    for place, entry in enumerate(listed, start=1):
        elo = entry.elo
        cells.append(
            [
                place,
                entry.name,
                _num(elo.diff) if elo else "-",
                error_bar(elo.error) if elo else "-",
                _num(elo.nelo) if elo else "-",
                f"{100 * elo.los:.1f}%" if elo else "-",
                entry.games,
                f"{100 * entry.score:.1f}%",
                f"{100 * entry.draws / entry.games:.1f}%" if entry.games else "-",
            ]
        )
    return headers, cells


def pair_rows(summary: Summary) -> tuple[list[str], list[list[object]]]:
    """Headers and cells of every pair's result (two seats)."""
    headers = ["Pair", "W-D-L", "Score", "Elo", "+/-", "LOS", "nElo"]
    paired = any(p.penta is not None for p in summary.pairs)
    if paired:
        headers += ["Ptnml(0-2)", "Elo (ptnml)", "+/-"]
    cells: list[list[object]] = []
    for pair in summary.pairs:
        elo = pair.elo
        games = pair.wins + pair.draws + pair.losses
        score = (pair.wins + pair.draws / 2) / games if games else 0.0
        line: list[object] = [
            f"{pair.a} vs {pair.b}",
            f"{pair.wins}-{pair.draws}-{pair.losses}",
            f"{100 * score:.1f}%",
            _num(elo.diff) if elo else "-",
            error_bar(elo.error) if elo else "-",
            f"{100 * elo.los:.1f}%" if elo else "-",
            _num(elo.nelo) if elo else "-",
        ]
        if paired:
            penta, pelo = pair.penta, pair.penta_elo
            line += [
                "[" + ", ".join(str(c) for c in penta.counts) + "]" if penta else "-",
                _num(pelo.diff) if pelo else "-",
                error_bar(pelo.error) if pelo else "-",
            ]
        cells.append(line)
    return headers, cells


def rating_rows(summary: Summary) -> tuple[list[str], list[list[object]]]:
    """Headers and cells of the Plackett–Luce ratings, best first."""
    headers = ["#", "Entrant", "Rating", "+/-", "Games"]
    places = {row.name: row for row in summary.rows}
    cells: list[list[object]] = []
    ordered = sorted(summary.ratings, key=lambda r: (-r.rating, r.name))
    ordered = [r for r in ordered if _listed(summary, r.games)]
    for place, rating in enumerate(ordered, start=1):
        row = places.get(rating.name)
        cells.append(
            [
                place,
                rating.name,
                _num(rating.rating),
                error_bar(rating.error),
                row.games if row else rating.games,
            ]
        )
    return headers, cells


def sprt_line(summary: Summary) -> str | None:
    """One line on the SPRT, or None without one."""
    status = summary.sprt
    if status is None:
        return None
    sprt = status.sprt
    verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "continue"}[status.decision]
    kind = "pentanomial" if status.pentanomial else "trinomial"
    return (
        f"SPRT [{sprt.elo0:g}, {sprt.elo1:g}] ({sprt.model}, {kind}, alpha {sprt.alpha:g}, "
        f"beta {sprt.beta:g}): LLR {status.llr:.2f} ({sprt.lower:.2f}, {sprt.upper:.2f}): {verdict}"
    )


def title(summary: Summary) -> str:
    """``Event: game, done/total games``."""
    info = summary.info
    return f"{info.event}: {info.game}, {summary.done}/{info.total} games"


def voids_text(summary: Summary) -> str | None:
    """``3 void game(s) played again, 1 of them because the runner itself was late (no
    engine blamed).``, or None without void games (``Summary.voids``): the counts of
    ``results.json``'s ``void_games``, in words."""
    if not summary.voids:
        return None
    return (
        f"{summary.voids} void game(s) played again, {summary.runner_voids} of them"
        " because the runner itself was late (no engine blamed)."
    )


def sections(summary: Summary) -> list[tuple[str, tuple[list[str], list[list[object]]]]]:
    """The titled tables of a summary, in order."""
    out = [
        (_titled("Standings", summary), standings_rows(summary)),
        (crosstable_title(summary), crosstable_rows(summary)),
    ]
    if summary.info.players == 2:
        out.append((_titled("Elo against the field (95% error bars)", summary), elo_rows(summary)))
        if summary.pairs:
            out.append(("Pairs", pair_rows(summary)))
    else:
        out.append(
            (
                _titled("Ratings (Plackett-Luce, Elo scale, mean 0, 95% error bars)", summary),
                rating_rows(summary),
            )
        )
    return out


def render(summary: Summary, fmt: str = "plain") -> str:
    """The tables as text in ``fmt`` (see ``FORMATS``).

    :raises ValueError: an unknown format.
    """
    if fmt == "json":
        return json.dumps(summary_json(summary), indent=2) + "\n"
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    tablefmt = {"plain": "simple", "github": "github", "html": "html"}[fmt]
    parts: list[str] = []
    heading = title(summary)
    if fmt == "html":
        parts.append(f"<h2>{html.escape(heading)}</h2>")
    elif fmt == "github":
        parts.append(f"## {heading}")
    else:
        parts.append(heading)
    voids = voids_text(summary)
    if voids is not None:
        parts.append(f"<p>{html.escape(voids)}</p>" if fmt == "html" else voids)
    for name, (headers, cells) in sections(summary):
        if fmt == "html":
            parts.append(f"<h3>{html.escape(name)}</h3>")
        elif fmt == "github":
            parts.append(f"### {name}")
        else:
            parts.append(name)
        if headers:  # a table left out has its heading only
            parts.append(tabulate(cells, headers=headers, tablefmt=tablefmt, disable_numparse=True))
    line = sprt_line(summary)
    if line is not None:
        parts.append(f"<p>{html.escape(line)}</p>" if fmt == "html" else line)
    return "\n\n".join(parts) + "\n"
