"""What a game slot needs, as small JSON-able values: ``SlotSetup`` once, a ``Job`` per game.

Kept free of pydantic and of the schedule so a worker process imports little.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from protocol.sandbox import SandboxSettings
from protocol.spec import EngineSpec
from referee.clock import TimeControl
from referee.core import AnyGame
from referee.registry import make_game
from referee.score_rules import ScoreRules


@dataclass(frozen=True, slots=True)
class Job:
    """One game for a slot to play."""

    number: int
    round: int
    block: int
    table: tuple[int, ...]
    """Entrant index per seat."""
    seed: int
    """The game seed sent to the engines."""
    opening: tuple[str, ...] = ()
    """Opening moves (already in ``start``)."""
    start: str | None = None
    """Encoded start position, None for the initial one."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {
            "number": self.number,
            "round": self.round,
            "block": self.block,
            "table": list(self.table),
            "seed": self.seed,
            "opening": list(self.opening),
            "start": self.start,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Job:
        """The inverse of ``to_json``."""
        return cls(
            number=int(data["number"]),
            round=int(data["round"]),
            block=int(data["block"]),
            table=tuple(int(i) for i in data["table"]),
            seed=int(data["seed"]),
            opening=tuple(str(m) for m in data["opening"]),
            start=data["start"],
        )


def _sandbox_to_json(settings: SandboxSettings | None) -> dict[str, Any] | None:
    if settings is None:
        return None
    return {
        "max_processes": settings.max_processes,
        "max_scratch_mb": settings.max_scratch_mb,
        "hidden": list(settings.hidden),
    }


def _sandbox_from_json(data: Mapping[str, Any] | None) -> SandboxSettings | None:
    if data is None:
        return None
    return SandboxSettings(
        max_processes=int(data["max_processes"]),
        max_scratch_mb=int(data["max_scratch_mb"]),
        hidden=tuple(str(p) for p in data["hidden"]),
    )


def _tc_to_json(tc: TimeControl) -> dict[str, Any]:
    return {
        "base": tc.base,
        "increment": tc.increment,
        "movetime": tc.movetime,
        "margin": tc.margin,
        "moves": tc.moves,
        "hourglass": tc.hourglass,
    }


def _tc_from_json(tc: Mapping[str, Any]) -> TimeControl:
    return TimeControl(
        base=tc["base"],
        increment=tc["increment"],
        movetime=tc["movetime"],
        margin=tc["margin"],
        moves=tc.get("moves"),
        hourglass=bool(tc.get("hourglass", False)),
    )


@dataclass(frozen=True, slots=True)
class SlotSetup:
    """Everything a game slot needs, in any process."""

    game: str
    options: tuple[tuple[str, str], ...]
    players: int
    entrants: tuple[EngineSpec, ...]
    tc: TimeControl
    max_plies: int
    adjudication: ScoreRules | None
    """Score adjudication (``referee.score_rules``), or None."""
    start_timeout: float
    event: str
    out: str | None
    """Output directory for transcripts (``logs/``), or None for none."""
    transcripts: str
    """``all``, ``failures`` or ``none``."""
    live: bool = False
    """Publish each game in play for ``referee serve`` (``store.live_feed``)."""
    wait: float = 0.0
    """Seconds a slot waits between two of its games (``--wait``; cutechess's ``-wait``)."""
    tcs: tuple[TimeControl, ...] = ()
    """Each entrant's own time control (time odds), in entrant order; empty when every
    entrant plays ``tc``."""
    feed_moves: bool = True
    """With ``live``: the feed carries the moves (not only the ``game_started`` line)."""
    keep_feed: bool = False
    """With ``live``: a finished game's feed is left for the runner's event stream
    (``--events``: ``runner.events`` reads and removes it)."""
    transcript_file: str | None = None
    """The one file every slot appends its transcripts to instead of ``out``'s ``logs/``
    (``referee play``'s ``NAME.transcripts.log``), or None."""

    def seat_controls(self, table: tuple[int, ...]) -> tuple[TimeControl, ...]:
        """The time control of each seat of a game whose seats hold ``table``'s entrants."""
        return tuple(self.tcs[i] if self.tcs else self.tc for i in table)

    def make_game(self) -> AnyGame:
        """The rules object."""
        return make_game(self.game, dict(self.options))

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {
            "game": self.game,
            "options": [list(pair) for pair in self.options],
            "players": self.players,
            "entrants": [
                {
                    "name": e.name,
                    "argv": list(e.argv),
                    "cwd": e.cwd,
                    "env": dict(e.env) if e.env is not None else None,
                    "options": [list(pair) for pair in e.options],
                    "max_memory_mb": e.max_memory_mb,
                    "max_cpu_seconds": e.max_cpu_seconds,
                    "nodes": e.nodes,
                    "depth": e.depth,
                    "restart": e.restart,
                    "sandbox": _sandbox_to_json(e.sandbox),
                }
                for e in self.entrants
            ],
            "tc": _tc_to_json(self.tc),
            "tcs": [_tc_to_json(tc) for tc in self.tcs],
            "max_plies": self.max_plies,
            "adjudication": self.adjudication.tag_text() if self.adjudication else None,
            "start_timeout": self.start_timeout,
            "event": self.event,
            "out": self.out,
            "transcripts": self.transcripts,
            "live": self.live,
            "wait": self.wait,
            "feed_moves": self.feed_moves,
            "keep_feed": self.keep_feed,
            "transcript_file": self.transcript_file,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SlotSetup:
        """The inverse of ``to_json``."""
        return cls(
            game=data["game"],
            options=tuple((str(k), str(v)) for k, v in data["options"]),
            players=int(data["players"]),
            entrants=tuple(
                EngineSpec(
                    name=e["name"],
                    argv=tuple(e["argv"]),
                    cwd=e["cwd"],
                    env=e["env"],
                    options=tuple((str(k), str(v)) for k, v in e["options"]),
                    max_memory_mb=e.get("max_memory_mb"),
                    max_cpu_seconds=e.get("max_cpu_seconds"),
                    nodes=e.get("nodes"),
                    depth=e.get("depth"),
                    restart=bool(e.get("restart", False)),
                    sandbox=_sandbox_from_json(e.get("sandbox")),
                )
                for e in data["entrants"]
            ),
            tc=_tc_from_json(data["tc"]),
            max_plies=int(data["max_plies"]),
            adjudication=(
                ScoreRules.from_tag(data["adjudication"]) if data.get("adjudication") else None
            ),
            start_timeout=float(data["start_timeout"]),
            event=data["event"],
            out=data["out"],
            transcripts=data["transcripts"],
            live=bool(data.get("live", False)),
            wait=float(data.get("wait", 0.0)),
            tcs=tuple(_tc_from_json(tc) for tc in data.get("tcs", ())),
            feed_moves=bool(data.get("feed_moves", True)),
            keep_feed=bool(data.get("keep_feed", False)),
            transcript_file=data.get("transcript_file"),
        )
