"""``referee rules`` (a game's rules page) and ``referee moves`` (the legal moves of a
position, the list an engine author diffs a move generator against).

The pages are ``docs/rules/<game id>.md`` of the repository. An installed wheel carries a
copy of that folder as ``tournaments/cli/rules_pages`` (``force-include`` in
pyproject.toml), which is read first; a clone (or an editable install) reads the
repository's own folder. Every user error is a ``UserError`` with one line, which the
console script prints as ``referee: error: ...`` (exit status 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.errors import UserError

if TYPE_CHECKING:  # imported where used: the command line reads this module for --help
    from referee.listing import Listing, MoveEntry

PACKAGED_PAGES = Path(__file__).resolve().parent / "rules_pages"
"""Where a wheel puts the pages (pyproject.toml maps ``docs/rules`` here)."""
CLONE_PAGES = Path(__file__).resolve().parents[2] / "docs" / "rules"
"""The pages in a clone of the repository."""
PER_LINE = 8
"""Quiet moves printed on one line by ``referee moves``."""


def pages_dir() -> Path:
    """The folder of the rules pages: the wheel's copy when installed, else the clone's.

    :raises UserError: neither exists (an install that lost its data).
    """
    for folder in (PACKAGED_PAGES, CLONE_PAGES):
        if (folder / "README.md").is_file():
            return folder
    raise UserError(f"the rules pages are missing: neither {PACKAGED_PAGES} nor {CLONE_PAGES}")


def parse_rule_options(pairs: list[str] | None) -> dict[str, str]:
    """``--option k=v`` values as a mapping (the last of a repeated name wins).

    :raises UserError: a value that is not ``key=value`` (``engine_args.key_values``).
    """
    from tournaments.event.engine_args import key_values

    return key_values(pairs, "--option")


def rules_command(
    game_name: Annotated[
        str | None, typer.Argument(metavar="[GAME]", help="A game id or alias.")
    ] = None,
    path: Annotated[bool, typer.Option("--path", help="Print the page's file name only.")] = False,
) -> None:
    """Print the rules page of GAME (Markdown), or the index of every page without GAME."""
    from referee.registry import find_game_class

    folder = pages_dir()
    name = "README" if game_name is None else find_game_class(game_name).name
    page = folder / f"{name}.md"
    if not page.is_file():
        raise UserError(f"no rules page for {name}: {page} is missing")
    if path:
        typer.echo(str(page))
        return
    typer.echo(page.read_text(encoding="utf-8"), nl=False)


def moves_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="Game id or alias.")],
    start: Annotated[
        str | None, typer.Option("--start", help="Position token to start from.")
    ] = None,
    moves: Annotated[
        list[str] | None,
        typer.Option("--moves", help="Moves to play first, in canonical notation."),
    ] = None,
    extra: Annotated[
        list[str] | None,
        typer.Argument(metavar="MOVE", help="More moves to play first (after --moves)."),
    ] = None,
    players: Annotated[int | None, typer.Option("--players", help="Number of seats.")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help="Rule option k=v.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """The legal moves of a position, in canonical notation and order, with the position
    token, the seat to move and what each move captures.

    Moves are given one by one (--moves e3 --moves swap) or as a list
    (--moves e3 swap): every word after GAME that is not an option is a move.
    """
    from referee.listing import list_moves
    from referee.registry import make_game

    game = make_game(game_name, parse_rule_options(option))
    played = [*(moves or []), *(extra or [])]
    listing = list_moves(game, players=players, start=start, moves=played)
    if as_json:
        typer.echo(json.dumps(listing_json(listing), ensure_ascii=False))
        return
    for line in listing_lines(listing):
        typer.echo(line)


def listing_json(listing: Listing) -> dict[str, Any]:
    """``listing`` as the JSON object ``referee moves --json`` prints."""
    state, outcome = listing.state, listing.outcome
    return {
        "game": listing.game.name,
        "options": dict(listing.game.options),
        "players": state.num_players,
        "position": listing.position,
        "ply": state.ply,
        "to_move": None if state.to_move is None else state.to_move + 1,
        "outcome": None
        if outcome is None
        else {
            "ranks": list(outcome.ranks),
            "scores": list(outcome.scores),
            "reason": outcome.reason,
        },
        "moves": [
            {
                "move": entry.text,
                "captures": [{"cell": c.cell, "piece": c.piece} for c in entry.captures],
            }
            for entry in listing.moves
        ],
    }


def listing_lines(listing: Listing) -> list[str]:
    """``listing`` as the lines ``referee moves`` prints: the game, the position token,
    the ply and the seat to move (or the result), then the moves in canonical order,
    quiet ones up to ``PER_LINE`` to a line, each capture on a line of its own with what
    it takes."""
    game, state, outcome = listing.game, listing.state, listing.outcome
    options = game.options_text()
    lines = [
        f"game {game.name}{' ' + options if options else ''}, {state.num_players} players",
        f"position {listing.position}",
    ]
    if outcome is None:
        lines.append(f"ply {state.ply}, seat {(state.to_move or 0) + 1} to move")
    else:
        ranks = ",".join(str(rank) for rank in outcome.ranks)
        scores = (
            ""
            if not outcome.scores
            else " scores " + ",".join(f"{score:g}" for score in outcome.scores)
        )
        lines.append(f"ply {state.ply}, game over: ranks {ranks}{scores}: {outcome.reason}")
    count = len(listing.moves)
    lines.append(f"{count} legal move{'' if count == 1 else 's'}")
    lines.extend(_move_lines(listing.moves))
    return lines


def _move_lines(entries: tuple[MoveEntry, ...]) -> list[str]:
    lines: list[str] = []
    quiet: list[str] = []
    for entry in entries:
        if not entry.captures:
            quiet.append(entry.text)
            if len(quiet) == PER_LINE:
                lines.append("  " + " ".join(quiet))
                quiet = []
            continue
        if quiet:
            lines.append("  " + " ".join(quiet))
            quiet = []
        taken = ", ".join(f"{c.cell} ({c.piece})" for c in entry.captures)
        lines.append(f"  {entry.text} captures {taken}")
    if quiet:
        lines.append("  " + " ".join(quiet))
    return lines
