"""The pictures of the rules pages (docs/rules/img/): one row of ``PICTURES`` per file.

A row names the game, its options and seat count, the start (the game's own, or a position
token) and the moves played from it; the picture shows the position reached, with the last
move marked (and what it captured) when there are moves. ``tests/docs/test_rule_pictures.py``
checks every file against what ``referee.pictures`` draws now, and redraws them all with
``UPDATE_GOLDEN=1``. To add a picture, add a row and run that.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.listing import list_moves
from referee.pictures import LastMove, position_svg
from referee.registry import make_game

IMG = Path(__file__).resolve().parents[2] / "docs" / "rules" / "img"


@dataclass(frozen=True)
class Picture:
    """One picture of a rules page."""

    file: str
    """Its file name under docs/rules/img/."""
    game: str
    """The game id."""
    options: str = ""
    """Rule options ``k=v,k=v`` (the defaults when empty)."""
    players: int | None = None
    """The seat count (the game's first when None; the token's with ``start``)."""
    start: str | None = None
    """A position token to start from (the game's start position when None)."""
    moves: str = ""
    """Moves played from the start, canonical text separated by spaces."""
    coordinates: bool = True
    """Whether the cell names are written."""


PICTURES: tuple[Picture, ...] = (
    Picture("trike-board.svg", "trike", "size=7", moves="d2 swap c2 e4 e2"),
    Picture("tricouleur-start.svg", "tricouleur"),
    Picture("tricouleur-whistle.svg", "tricouleur", moves="c8-b7 c5-c10"),
    Picture("whistling-captures-start.svg", "whistling-captures"),
    Picture("whistling-captures-chain.svg", "whistling-captures", moves="H16-D20 w19-G19-o1"),
    Picture("trichess-start.svg", "trichess"),
    Picture(
        "trichess-liberation.svg",
        "trichess",
        start="wRwK6/8/8/8/4rK3/3rP4/8/8/1bN3bK2/2wP5/8/8:W:-:-:QNP,-,-:-:3:60",
    ),
    Picture(
        "trichess-shield.svg",
        "trichess",
        start="2wK5/8/4rN3/5bB2/2rB1rK3/8/8/4wR3/7bK/6bPbP/8/8:R:-:-:-,-,-:-:0:41",
    ),
    Picture("tricolor-board.svg", "tricolor"),
    Picture("tricolor-crown.svg", "tricolor", "n=2", moves="O(-1,0) G(-1,1) Y(0,0)"),
    Picture("triablo-start.svg", "triablo"),
    Picture(
        "triablo-captures.svg",
        "triablo",
        start="2:figure:yes:100:2R<W>r/4R>/6/3R>3/2W<WK2/5/2R<RK:1:24:5:-",
    ),
    Picture(
        "triablo-three.svg",
        "triablo",
        start="3:figure:yes:100:W<3/5/6/2WKRK1R>wR</6/3B<B</W<B>1BK:1:45:2:-",
    ),
)


def draw(picture: Picture) -> str:
    """The SVG text of ``picture``."""
    options = dict(pair.split("=", 1) for pair in picture.options.split(",") if pair)
    game = make_game(picture.game, options)
    moves = picture.moves.split()
    listing = list_moves(game, players=picture.players, start=picture.start, moves=moves[:-1])
    state, last = listing.state, None
    if moves:
        before = state
        state = before.play(game.parse_move(before, moves[-1]))
        last = LastMove(before, moves[-1])
    return position_svg(game, state, last_move=last, coordinates=picture.coordinates)
