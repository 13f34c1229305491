"""The pure summary of a tournament: every number the tables show, from the game reports.

``summarize(info, games)`` computes standings, the pairwise crosstable, ratings and
the SPRT from the finished games (void ones ignored), in game-number order, by folding
them into ``tournaments.results.counts.Counts`` (``summarize_counts`` takes such counts
directly: a million games' tables cost what a few hundred distinct outcomes cost);
``summary_json`` gives every number as JSON (``results.json``, with null for an
infinite Elo or error bar). Nothing here formats text or does I/O: ``tournaments.results.tables``
lays a ``Summary`` out as tables, ``tournaments.html.report`` as a page.

Two-player events get cutechess-style numbers: each entrant's Elo against the field
with its 95% error bar, nElo and LOS, then every pair's W-D-L, Elo and LOS, with the
pentanomial counts and Elo where the games come in pairs (one opening with seats
swapped) (``tournaments.results.elo``). Events of three or more seats get Plackett–Luce
ratings (``tournaments.results.plackett_luce``). The SPRT (``tournaments.results.sprt``) runs on the
first two entrants' games: pentanomial when paired, else W/D/L.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from referee.version import VERSION
from tournaments.results.counts import Counts
from tournaments.results.elo import EloEstimate, Pentanomial, elo_pentanomial, elo_wdl
from tournaments.results.game import GameReport
from tournaments.results.plackett_luce import Rating, counted_plackett_luce
from tournaments.results.sprt import Sprt
from tournaments.results.standings import (
    Row,
    counted_crosstable,
    counted_standings,
    has_game_points,
)


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class _EventConfig(Protocol):
    @property
    def event(self) -> str: ...


class PlanLike(Protocol):
    """What ``EventInfo.from_plan`` reads of a ``tournaments.event.plan.Plan``.

    A protocol, so that the results layer does not import the event layer above it.
    """

    @property
    def config(self) -> _EventConfig: ...
    @property
    def game(self) -> _Named: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def players(self) -> int: ...
    @property
    def points_table(self) -> tuple[float, ...] | None: ...
    @property
    def sprt(self) -> Sprt | None: ...
    @property
    def games_per_encounter(self) -> int: ...
    def total(self) -> int: ...


@dataclass(frozen=True, slots=True)
class EventInfo:
    """What the tables need besides the games; kept in the journal's first line as the
    one codec writes it (``tournaments.event.wire``)."""

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
    def from_plan(cls, plan: PlanLike) -> EventInfo:
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
    voids: int = 0
    """Void games played again (not in the tables), when the caller knows them."""
    runner_voids: int = 0
    """Of ``voids``, those voided by the referee's own lateness, not by an engine."""

    @property
    def sprt_decision(self) -> str | None:
        """``H0``/``H1`` if an SPRT decided, else None."""
        return self.sprt.decision if self.sprt is not None else None


def summarize(info: EventInfo, games: Sequence[GameReport]) -> Summary:
    """The tables of ``games`` (void games are ignored)."""
    return summarize_counts(info, Counts.of(info.names, info.paired, games))


def summarize_counts(info: EventInfo, counts: Counts) -> Summary:
    """The tables of the games folded into ``counts`` (``tournaments.results.counts``):
    the same numbers as ``summarize`` of those games, at a cost that does not grow with
    the number of games."""
    outcomes = list(counts.outcomes())
    rows = counted_standings(outcomes, info.names, info.points_table)
    cross = counted_crosstable((seats, o.ranks, n) for seats, o, n in outcomes)
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
        pairs = _pair_results(info, counts)
    seen: dict[tuple[tuple[str, ...], tuple[int, ...]], int] = {}
    for seats, outcome, n in outcomes:
        key = (seats, outcome.ranks)
        seen[key] = seen.get(key, 0) + n
    ratings = counted_plackett_luce(seen, info.names)
    done = sum(n for _s, _o, n in outcomes)
    sprt_status: SprtStatus | None = None
    if info.sprt is not None and len(info.names) == 2:
        a, b = info.names
        sprt = info.sprt
        penta = counts.pentanomial(a, b) if info.paired else None
        if penta is not None:
            llr = sprt.llr_pentanomial(penta)
        else:
            w, d, l_ = counts.wdl(a)
            llr = sprt.llr_wdl(w, d, l_)
        decision = sprt.decision(llr) if done else None
        sprt_status = SprtStatus(sprt, llr, decision, penta is not None)
    return Summary(
        info,
        done,
        tuple(rows),
        cross,
        tuple(entrant_elo),
        tuple(pairs),
        tuple(ratings),
        sprt_status,
        has_game_points(o for _s, o, _n in outcomes),
    )


def _pair_results(info: EventInfo, counts: Counts) -> list[PairResult]:
    """Every pair that met (two seats), in the order of ``info.names``, from ``a``'s side
    (``a`` named first). One pass over the outcome keys: the cost grows with the games
    played, never with the square of the field."""
    order = {name: i for i, name in enumerate(info.names)}
    met: dict[tuple[str, str], list[int]] = {}
    for (seats, _token, ranks, _scores, _culprit), n in counts.games.items():
        if len(seats) != 2 or seats[0] == seats[1] or not all(s in order for s in seats):
            continue
        a, b = sorted(seats, key=order.__getitem__)
        wdl = met.setdefault((a, b), [0, 0, 0])
        mine, theirs = ranks[seats.index(a)], ranks[seats.index(b)]
        wdl[0 if mine < theirs else 1 if mine == theirs else 2] += n
    pairs: list[PairResult] = []
    for (a, b), (w, d, l_) in sorted(
        met.items(), key=lambda item: (order[item[0][0]], order[item[0][1]])
    ):
        penta = counts.pentanomial(a, b) if info.paired else None
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
    return pairs


# --- JSON --------------------------------------------------------------------------------


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
    # ``report.error_bar``) is null; the score next to it tells which way.
    return value if math.isfinite(value) else None


def standing_json(place: int, row: Row) -> dict[str, Any]:
    """One entrant's line of the standings, at ``place`` (from 1), as JSON: the keys the
    event stream's ``standings`` rows and ``results.json``'s standings share."""
    return {
        "rank": place,
        "name": row.name,
        "games": row.games,
        "points": row.points,
        "score": row.score,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
    }


def summary_json(summary: Summary) -> dict[str, Any]:
    """Every number of the summary as a JSON-able dict, and under ``referee`` the version
    of the referee that computed it."""
    sprt = summary.sprt
    return {
        "referee": VERSION,
        "event": summary.info.event,
        "game": summary.info.game,
        "games": summary.done,
        "total": summary.info.total,
        "void_games": {"played_again": summary.voids, "runner_late": summary.runner_voids},
        "standings": [
            {
                **standing_json(place, row),
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
