"""Running a match: N games between the same entrants, seats rotated, engines reused.

All I/O of a match lives here: engines are opened once per entrant (and
restarted by ``EnginePlayer`` after a failure), each finished game is appended
and flushed to the record file before the next begins, the engines' transcripts of
the games the plan keeps (``transcripts``: failures by default, as a tournament's) are
appended to ``transcript_path`` in the tournament's block format, and a callback
reports progress. Void games are written (marked ``void``) but not scored.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.spec import EngineSpec
from protocol.transcript import Transcript
from referee.clock import TimeControl
from referee.clock_audit import clock_tags
from referee.core import Game
from referee.match import DEFAULT_MAX_PLIES, GameResult, play_game
from referee.players import EnginePlayer, Player, warm_up
from referee.record import GameRecord, MoveEntry, append_record, build_record, timing_comment
from referee.score_rules import TAG as ADJUDICATION_TAG
from referee.score_rules import ScoreRules
from tournaments.play import transcripts


@dataclass(frozen=True, slots=True)
class MatchPlan:
    """Everything needed to play a match."""

    game: Game[Any, Any]
    entrants: tuple[EngineSpec, ...]
    tc: TimeControl
    games: int = 2
    seed: int = 1
    out: Path | None = None
    event: str = "referee match"
    max_plies: int = DEFAULT_MAX_PLIES
    start_timeout: float = 10.0
    adjudication: ScoreRules | None = None
    """Score adjudication (``--resign``/``--draw``), or None."""
    transcripts: str = "failures"
    """Which games keep their transcripts (``transcripts.MODES``)."""
    transcript_path: Path | None = None
    """The file the kept transcripts are appended to (None: none kept)."""


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One game of the match as the caller sees it."""

    index: int
    """0-based number of the game in the match."""
    seat_names: tuple[str, ...]
    """Entrant names in seat order."""
    result: GameResult
    record: GameRecord
    transcript: Path | None = None
    """The file that holds this game's transcript block, or None when none was kept."""


def seat_order(entrants: int, index: int) -> tuple[int, ...]:
    """Entrant indexes in seat order for game ``index``: rotate by one seat per game."""
    return tuple((index + seat) % entrants for seat in range(entrants))


def make_record(
    plan: MatchPlan, index: int, names: Sequence[str], result: GameResult
) -> GameRecord:
    """The ``.tgn`` record of one finished game."""
    tags = [
        ("Event", plan.event),
        ("Round", str(index + 1)),
        ("Date", dt.datetime.now(dt.UTC).strftime("%Y.%m.%d")),
        *clock_tags(plan.tc),
        ("Seed", str(plan.seed + index)),
    ]
    if plan.adjudication:
        tags.append((ADJUDICATION_TAG, plan.adjudication.tag_text()))
    moves = [
        MoveEntry(m.text, timing_comment(m.elapsed, m.remaining, m.search)) for m in result.moves
    ]
    return build_record(plan.game, list(names), moves, result.outcome, tags, start=result.start)


async def play_match(
    plan: MatchPlan,
    on_game: Callable[[FinishedGame], None] | None = None,
    players: Sequence[Player] | None = None,
) -> list[FinishedGame]:
    """Play ``plan.games`` games; return them in order.

    ``players`` replaces the engine processes (tests use in-process players).

    :raises OSError: a record or transcript cannot be written.
    """
    finished: list[FinishedGame] = []
    ended: list[list[Transcript]] = [[] for _ in plan.entrants]
    """Per entrant: the transcripts of its processes that ended during the current game."""
    async with contextlib.AsyncExitStack() as stack:
        if players is None:
            players = [
                await stack.enter_async_context(
                    EnginePlayer.open(
                        spec, start_timeout=plan.start_timeout, on_transcript=ended[i].append
                    )
                )
                for i, spec in enumerate(plan.entrants)
            ]
        names = [spec.name for spec in plan.entrants]
        for index in range(plan.games):
            order = seat_order(len(players), index)
            table = [players[i] for i in order]
            seat_names = tuple(names[i] for i in order)
            # Engines with no process (the first game; every game in the sandbox, where a
            # process plays one game) start together rather than one after the other.
            await warm_up(table)
            before = []
            for i in order:
                ended[i].clear()
                current = _transcript_of(players[i])
                before.append((current, current.mark if current is not None else 0))
            result = await play_game(
                plan.game,
                table,
                plan.tc,
                seed=plan.seed + index,
                max_plies=plan.max_plies,
                adjudication=plan.adjudication,
            )
            record = make_record(plan, index, seat_names, result)
            if plan.out is not None:
                append_record(plan.out, record)
            kept: Path | None = None
            path = plan.transcript_path
            if path is not None and transcripts.wanted(
                plan.transcripts, result.outcome.termination
            ):
                texts = [
                    transcripts.seat_lines(ended[i], _transcript_of(players[i]), old, mark)
                    for i, (old, mark) in zip(order, before, strict=True)
                ]
                block = transcripts.game_block(
                    index + 1, index + 1, seat_names, result.outcome, texts
                )
                transcripts.append_file(path, block)
                kept = path
            game = FinishedGame(index, seat_names, result, record, kept)
            finished.append(game)
            if on_game is not None:
                on_game(game)
    return finished


def _transcript_of(player: Player) -> Transcript | None:
    transcript = getattr(player, "transcript", None)
    return transcript if isinstance(transcript, Transcript) else None
