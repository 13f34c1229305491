"""The ``referee show`` command (registered in ``cli.py``): one position of a record.

Replays game N of a record file to ply K under the game's own rules, then prints the
ASCII diagram (``Game.render``) with the last move, or writes an SVG picture
(``referee.pictures.position_svg``). Every user error is a ``UserError`` with one
line, which the console script prints as ``referee: error: ...`` (exit status 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.errors import RulesError, UserError

if TYPE_CHECKING:  # imported where used: the command line reads this module for --help
    from referee.core import Game, State
    from referee.pictures import LastMove
    from referee.record import GameRecord


@dataclass(frozen=True, slots=True)
class Shown:
    """A replayed position of one record."""

    game: Game[Any, Any]
    state: State[Any]
    last: LastMove | None
    """The move that led to ``state`` and the position before it; None at ply 0."""
    last_text: str | None
    ply: int
    """The ply shown, counted from the game's initial position (an opening's plies
    included): ``state.ply``."""
    index: int
    """How many of the record's moves were replayed (0: its start position, or a
    position of its opening)."""


def load_record(path: Path, number: int) -> GameRecord:
    """Record ``number`` (1-based) of the file at ``path``, read no further than it (one
    batch in memory at a time: game 1 of a 1 GB file shows at once, and what follows
    it is not judged).

    :raises UserError: the file cannot be read or is not text, a game up to ``number``
        (or text between them) is malformed, or the file has no such record.
    """
    from referee.record.model import RecordSyntaxError
    from referee.record.stream import iter_entries

    held = 0
    if number >= 1:
        for entry in iter_entries(path):  # a PathError names the path
            if isinstance(entry, RecordSyntaxError):
                raise entry
            held += 1
            if held == number:
                return entry
    else:
        held = sum(1 for _ in iter_entries(path))
    if not held:
        raise UserError(f"{path}: no game records in the file")
    raise UserError(f"{path} holds {held} game(s): no game {number}")


def replay(record: GameRecord, ply: int | None) -> Shown:
    """The position after ply ``ply`` of ``record``'s game (its last when None).

    Plies count from the game's initial position, as forfeit reasons and ``referee
    adjudicate`` count them: a record with a ``Start`` tag begins at the Start's ply, and
    the plies before it replay from the ``Opening`` tag (the moves that lead to Start).

    :raises UserError: ``ply`` out of range, or a record that does not replay (unknown
        game or option, bad ``Start``, an unreadable or illegal move, an ``Opening`` that
        does not lead to ``Start``).
    """
    from referee.registry import make_game

    try:
        game = make_game(record.game, record.options)
        start = record.start
        state = game.initial_state(record.players) if start is None else game.decode(start)
    except RulesError as error:
        raise UserError(f"the record cannot be set up: {error}") from None
    first, count = state.ply, len(record.moves)
    opening = record.tag("Opening")
    low = 0 if start is None or opening is not None else first
    if ply is None:
        ply = first + count
    if not low <= ply <= first + count:
        raise UserError(
            f"--ply {ply} is outside {low}..{first + count} (the record's {count} moves "
            f"follow ply {first})"
        )
    if ply < first:
        texts = (opening or "").split()
        initial = game.initial_state(record.players)
        if _replay_texts(game, initial, texts, len(texts)).state != state:
            raise UserError("the record's Opening tag does not lead to its Start position")
        return _replay_texts(game, initial, texts, ply)
    shown = _replay_texts(game, state, record.move_texts, ply - first)
    return Shown(game, shown.state, shown.last, shown.last_text, shown.state.ply, ply - first)


def _replay_texts(
    game: Game[Any, Any], state: State[Any], texts: Sequence[str], count: int
) -> Shown:
    """The position after the first ``count`` of ``texts`` from ``state``.

    :raises UserError: a move that does not replay, or fewer than ``count`` texts.
    """
    from referee.pictures import LastMove

    if count > len(texts):
        raise UserError(f"the record's Opening tag holds only {len(texts)} moves")
    last: LastMove | None = None
    for number, text in enumerate(texts[:count], 1):
        try:
            move = game.parse_move(state, text)
            last = LastMove(state, move)
            state = state.play(move)
        except RulesError as error:
            raise UserError(f"move {number} {text!r} does not replay: {error}") from None
    last_text = None if last is None else texts[count - 1]
    return Shown(game, state, last, last_text, state.ply, 0)


def show_command(
    path: Annotated[Path, typer.Argument(metavar="FILE.tgn", help="A record file.")],
    game_number: Annotated[int, typer.Option("--game", help="Which game of the file, from 1.")] = 1,
    ply: Annotated[
        int | None,
        typer.Option(
            "--ply",
            help="Ply to show, counted from the game's start, opening included "
            "(default: the last).",
        ),
    ] = None,
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Write an SVG picture to this file instead.")
    ] = None,
) -> None:
    """Show one position of a record: the ASCII diagram, or an SVG picture with --svg."""
    shown = replay(load_record(path, game_number), ply)
    if svg is not None:
        from referee.pictures import position_svg

        picture = position_svg(shown.game, shown.state, last_move=shown.last)
        try:
            svg.write_text(picture, encoding="utf-8")
        except OSError as error:
            raise UserError(f"cannot write {svg}: {error.strerror or error}") from None
        typer.echo(f"wrote {svg}")
        return
    typer.echo(shown.game.render(shown.state))
    if shown.last_text is None:
        typer.echo("last move: none (start position)")
    else:
        where = f"move {shown.index} of the record" if shown.index else "of the opening"
        typer.echo(f"last move: {shown.last_text} (ply {shown.ply}, {where})")
