"""Tournament tables: a pure summary of the finished games, rendered with tabulate.

``summarize(info, games)`` computes everything (standings, pairwise crosstable,
ratings, SPRT) from the game reports; ``render(summary, fmt)`` only lays it out, in
``plain`` (terminal), ``github`` (Markdown), ``html`` or ``json``.

Two-player events get cutechess-style tables: each entrant's Elo against the
field with its 95% error bar, nElo and LOS, then every pair's W-D-L, Elo and LOS,
with the pentanomial counts and Elo where the games come in pairs (one opening
with seats swapped). Events of three or more seats get Plackett–Luce ratings
(``tournaments.ratings``). An SPRT, when configured, is reported last.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from tournaments.ratings import (
    EloEstimate,
    Pentanomial,
    Rating,
    Sprt,
    elo_pentanomial,
    elo_wdl,
    plackett_luce,
)
from tournaments.slot import GameReport
from tournaments.standings import Row, crosstable, has_game_points, placement_points, standings

if TYPE_CHECKING:
    from tournaments.plan import Plan

FORMATS = ("plain", "github", "html", "json")
"""Output formats of ``render``."""


@dataclass(frozen=True, slots=True)
class EventInfo:
    """What the tables need besides the games; kept in the journal's first line."""

    event: str
    game: str
    names: tuple[str, ...]
    """Entrant names in config order."""
    players: int
    total: int
    """Games scheduled (before any SPRT stop)."""
    points_table: tuple[float, ...] | None = None
    sprt: Sprt | None = None
    paired: bool = False
    """Games come in seat-swapped pairs per opening (two seats, even games per encounter)."""

    @classmethod
    def from_plan(cls, plan: Plan) -> EventInfo:
        """The info of a plan."""
        return cls(
            event=plan.config.event,
            game=plan.game.name,
            names=plan.names,
            players=plan.players,
            total=plan.total(),
            points_table=plan.points_table,
            sprt=plan.sprt,
            paired=plan.players == 2 and plan.games_per_encounter % 2 == 0,
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict."""
        sprt = self.sprt
        return {
            "event": self.event,
            "game": self.game,
            "names": list(self.names),
            "players": self.players,
            "total": self.total,
            "points_table": list(self.points_table) if self.points_table is not None else None,
            "sprt": None
            if sprt is None
            else {
                "elo0": sprt.elo0,
                "elo1": sprt.elo1,
                "alpha": sprt.alpha,
                "beta": sprt.beta,
                "model": sprt.model,
            },
            "paired": self.paired,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EventInfo:
        """The inverse of ``to_json``."""
        table = data.get("points_table")
        sprt = data.get("sprt")
        return cls(
            event=str(data["event"]),
            game=str(data["game"]),
            names=tuple(str(n) for n in data["names"]),
            players=int(data["players"]),
            total=int(data["total"]),
            points_table=tuple(float(v) for v in table) if table is not None else None,
            sprt=Sprt(**sprt) if sprt is not None else None,
            paired=bool(data.get("paired", False)),
        )


@dataclass(frozen=True, slots=True)
class EntrantElo:
    """One entrant's Elo against the whole field (two seats)."""

    name: str
    elo: EloEstimate | None
    games: int
    score: float
    draws: int


@dataclass(frozen=True, slots=True)
class PairResult:
    """The games of two entrants against each other (two seats), from ``a``'s side."""

    a: str
    b: str
    wins: int
    draws: int
    losses: int
    elo: EloEstimate | None
    penta: Pentanomial | None
    """Pair counts, when the games come in seat-swapped pairs."""
    penta_elo: EloEstimate | None


@dataclass(frozen=True, slots=True)
class SprtStatus:
    """The SPRT on the first two entrants' games."""

    sprt: Sprt
    llr: float
    decision: str | None
    pentanomial: bool


@dataclass(frozen=True, slots=True)
class Summary:
    """Everything the tables show."""

    info: EventInfo
    done: int
    rows: tuple[Row, ...]
    cross: Mapping[tuple[str, str], tuple[float, int]]
    entrant_elo: tuple[EntrantElo, ...]
    pairs: tuple[PairResult, ...]
    ratings: tuple[Rating, ...]
    sprt: SprtStatus | None
    game_points: bool = False
    """The game has in-game points (``standings.has_game_points``): show their sums."""

    @property
    def sprt_decision(self) -> str | None:
        """``H0``/``H1`` if an SPRT decided, else None."""
        return self.sprt.decision if self.sprt is not None else None


def _pentanomial(a: str, b: str, games: Sequence[GameReport]) -> Pentanomial | None:
    blocks: dict[int, list[GameReport]] = {}
    for game in games:
        blocks.setdefault(game.block, []).append(game)
    points: list[float] = []
    for block in blocks.values():
        if len(block) != 2 or {block[0].seats, block[1].seats} != {(a, b), (b, a)}:
            continue
        total = 0.0
        for game in block:
            seat = game.seats.index(a)
            total += placement_points(game.outcome.ranks)[seat]
        points.append(total)
    return Pentanomial.from_pair_points(points) if points else None


def _wdl(name: str, games: Sequence[GameReport]) -> tuple[int, int, int]:
    wins = draws = losses = 0
    for game in games:
        ranks = game.outcome.ranks
        mine = ranks[game.seats.index(name)]
        shared = ranks.count(mine) > 1
        if mine == 1 and not shared:
            wins += 1
        elif mine == len(ranks) and not shared:
            losses += 1
        else:
            draws += 1
    return wins, draws, losses


def summarize(info: EventInfo, games: Sequence[GameReport]) -> Summary:
    """The tables of ``games`` (void games are ignored)."""
    scored = [g for g in games if not g.void and len(g.outcome.ranks) == len(g.seats)]
    scored.sort(key=lambda g: g.number)
    rows = standings(((g.seats, g.outcome) for g in scored), info.names, info.points_table)
    cross = crosstable((g.seats, g.outcome.ranks) for g in scored)
    entrant_elo: list[EntrantElo] = []
    pairs: list[PairResult] = []
    if info.players == 2:
        for row in rows:
            entrant_elo.append(
                EntrantElo(
                    row.name,
                    elo_wdl(row.wins, row.draws, row.losses),
                    row.games,
                    row.score,
                    row.draws,
                )
            )
        names = list(info.names)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                met = [g for g in scored if set(g.seats) == {a, b}]
                if not met:
                    continue
                w, d, l_ = _wdl(a, met)
                penta = _pentanomial(a, b, met) if info.paired else None
                pairs.append(
                    PairResult(
                        a,
                        b,
                        w,
                        d,
                        l_,
                        elo_wdl(w, d, l_),
                        penta,
                        elo_pentanomial(penta) if penta is not None else None,
                    )
                )
    ratings = plackett_luce([(g.seats, g.outcome.ranks) for g in scored], info.names)
    sprt_status: SprtStatus | None = None
    if info.sprt is not None and len(info.names) == 2:
        a, b = info.names
        sprt = info.sprt
        penta = _pentanomial(a, b, scored) if info.paired else None
        if penta is not None:
            llr = sprt.llr_pentanomial(penta)
        else:
            w, d, l_ = _wdl(a, scored)
            llr = sprt.llr_wdl(w, d, l_)
        decision = sprt.decision(llr) if scored else None
        sprt_status = SprtStatus(sprt, llr, decision, penta is not None)
    return Summary(
        info,
        len(scored),
        tuple(rows),
        cross,
        tuple(entrant_elo),
        tuple(pairs),
        tuple(ratings),
        sprt_status,
        has_game_points(g.outcome for g in scored),
    )


# --- rendering ---------------------------------------------------------------------------


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


def standings_rows(summary: Summary) -> tuple[list[str], list[list[object]]]:
    """Headers and cells of the standings."""
    players = summary.info.players
    places = [f"{p}{_suffix(p)}" for p in range(1, players + 1)] if players > 2 else []
    headers = ["#", "Entrant", "Games", "Points", "Score"]
    headers += ["Game pts"] if summary.game_points else []
    headers += ["W", "D", "L"] if players == 2 else [*places, "Avg place"]
    headers.append("Forfeits")
    cells: list[list[object]] = []
    for place, row in enumerate(summary.rows, start=1):
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


def crosstable_rows(summary: Summary) -> tuple[list[str], list[list[object]]]:
    """Headers and cells of the pairwise crosstable, entrants in standings order."""
    order = [row.name for row in summary.rows]
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
    for place, entry in enumerate(summary.entrant_elo, start=1):
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


def sections(summary: Summary) -> list[tuple[str, tuple[list[str], list[list[object]]]]]:
    """The titled tables of a summary, in order."""
    out = [
        ("Standings", standings_rows(summary)),
        ("Crosstable (pairwise points: ahead 1, tied 1/2, behind 0)", crosstable_rows(summary)),
    ]
    if summary.info.players == 2:
        out.append(("Elo against the field (95% error bars)", elo_rows(summary)))
        if summary.pairs:
            out.append(("Pairs", pair_rows(summary)))
    else:
        out.append(
            ("Ratings (Plackett-Luce, Elo scale, mean 0, 95% error bars)", rating_rows(summary))
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
    for name, (headers, cells) in sections(summary):
        if fmt == "html":
            parts.append(f"<h3>{html.escape(name)}</h3>")
        elif fmt == "github":
            parts.append(f"### {name}")
        else:
            parts.append(name)
        parts.append(tabulate(cells, headers=headers, tablefmt=tablefmt, disable_numparse=True))
    line = sprt_line(summary)
    if line is not None:
        parts.append(f"<p>{html.escape(line)}</p>" if fmt == "html" else line)
    return "\n\n".join(parts) + "\n"


def _estimate_json(elo: EloEstimate | None) -> dict[str, float | None] | None:
    if elo is None:
        return None
    return {
        "elo": _finite(elo.diff),
        "error": _finite(elo.error),
        "los": elo.los,
        "nelo": _finite(elo.nelo),
        "nelo_error": _finite(elo.nelo_error),
        "score": elo.score,
    }


def _finite(value: float) -> float | None:
    # JSON has no infinity: an infinite Elo (perfect score) or error bar (see
    # ``error_bar``) is null; the score next to it tells which way.
    return value if math.isfinite(value) else None


def summary_json(summary: Summary) -> dict[str, Any]:
    """Every number of the summary as a JSON-able dict."""
    sprt = summary.sprt
    return {
        "event": summary.info.event,
        "game": summary.info.game,
        "games": summary.done,
        "total": summary.info.total,
        "standings": [
            {
                "rank": place,
                "name": row.name,
                "games": row.games,
                "points": row.points,
                "score": row.score,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "placements": {str(k): v for k, v in sorted(row.placements.items())},
                "game_points": row.game_points if summary.game_points else None,
                "forfeits": dict(sorted(row.forfeits.items())),
            }
            for place, row in enumerate(summary.rows, start=1)
        ],
        "crosstable": [
            {"entrant": a, "opponent": b, "points": points, "games": games}
            for (a, b), (points, games) in sorted(summary.cross.items())
        ],
        "elo": [
            {"name": e.name, "games": e.games, "score": e.score, **(_estimate_json(e.elo) or {})}
            for e in summary.entrant_elo
        ],
        "pairs": [
            {
                "a": p.a,
                "b": p.b,
                "wins": p.wins,
                "draws": p.draws,
                "losses": p.losses,
                "elo": _estimate_json(p.elo),
                "pentanomial": list(p.penta.counts) if p.penta is not None else None,
                "elo_pentanomial": _estimate_json(p.penta_elo),
            }
            for p in summary.pairs
        ],
        "ratings": [
            {"name": r.name, "rating": _finite(r.rating), "error": _finite(r.error)}
            for r in summary.ratings
        ],
        "sprt": None
        if sprt is None
        else {
            "elo0": sprt.sprt.elo0,
            "elo1": sprt.sprt.elo1,
            "alpha": sprt.sprt.alpha,
            "beta": sprt.sprt.beta,
            "model": sprt.sprt.model,
            "llr": sprt.llr,
            "lower": sprt.sprt.lower,
            "upper": sprt.sprt.upper,
            "decision": sprt.decision,
            "pentanomial": sprt.pentanomial,
        },
    }
