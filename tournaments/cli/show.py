"""The ``referee show`` command (registered in ``cli.py``): one position of a record.

Replays game N of a record file to ply K under the game's own rules, then prints the
ASCII diagram (``Game.render``) with the last move, or writes an SVG picture
(``referee.pictures.position_svg``). Every user error is a ``ValueError`` with one
line, which the console script prints as ``referee: error: ...`` (exit status 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from referee.core import Game, State
from referee.errors import RulesError
from referee.pictures import LastMove, position_svg
from referee.record import GameRecord
from referee.record.stream import read_records
from referee.registry import make_game


@dataclass(frozen=True, slots=True)
class Shown:
    """A replayed position of one record."""

    game: Game[Any, Any]
    state: State[Any]
    last: LastMove | None
    """The move that led to ``state`` and the position before it; None at ply 0."""
    last_text: str | None
    ply: int
    """How many of the record's moves were replayed."""


def load_record(path: Path, number: int) -> GameRecord:
    """Record ``number`` (1-based) of the file at ``path``.

    :raises ValueError: the file cannot be read, is malformed, or has no such record.
    """
    try:
        records = read_records(path)
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or error}") from None
    if not 1 <= number <= len(records):
        raise ValueError(f"{path} holds {len(records)} game(s): no game {number}")
    return records[number - 1]


def replay(record: GameRecord, ply: int | None) -> Shown:
    """The position after the first ``ply`` moves of ``record`` (all moves when None).

    :raises ValueError: ``ply`` out of range, or a record that does not replay (unknown
        game or option, bad ``Start``, an unreadable or illegal move).
    """
    count = len(record.moves)
    if ply is None:
        ply = count
    if not 0 <= ply <= count:
        raise ValueError(f"--ply {ply} is outside 0..{count} (the game has {count} moves)")
    try:
        game = make_game(record.game, record.options)
        start = record.start
        state = game.initial_state(record.players) if start is None else game.decode(start)
    except RulesError as error:
        raise ValueError(f"the record cannot be set up: {error}") from None
    last: LastMove | None = None
    for number, text in enumerate(record.move_texts[:ply], 1):
        try:
            move = game.parse_move(state, text)
            last = LastMove(state, move)
            state = state.play(move)
        except RulesError as error:
            raise ValueError(f"move {number} {text!r} does not replay: {error}") from None
    return Shown(game, state, last, None if last is None else record.move_texts[ply - 1], ply)


def show_command(
    path: Annotated[Path, typer.Argument(metavar="FILE.tgn")],
    game_number: Annotated[int, typer.Option("--game", help="Which game of the file, from 1.")] = 1,
    ply: Annotated[
        int | None, typer.Option("--ply", help="Moves to replay (default: all of them).")
    ] = None,
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Write an SVG picture to this file instead.")
    ] = None,
) -> None:
    """Show one position of a record: the ASCII diagram, or an SVG picture with --svg."""
    shown = replay(load_record(path, game_number), ply)
    if svg is not None:
        picture = position_svg(shown.game, shown.state, last_move=shown.last)
        try:
            svg.write_text(picture, encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot write {svg}: {error.strerror or error}") from None
        typer.echo(f"wrote {svg}")
        return
    typer.echo(shown.game.render(shown.state))
    if shown.last_text is None:
        typer.echo("last move: none (start position)")
    else:
        typer.echo(f"last move: {shown.last_text} (move {shown.ply} of the record)")
