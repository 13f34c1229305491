"""One finished game on its own page, in the report's replay view (``referee serve``'s
``/game/N``): the same board, controls, moves, evaluation chart and tags as a game of
``referee report``, opened."""

from __future__ import annotations

from tournaments.html.game_view import GameViews, game_view, parse_game
from tournaments.html.page import json_block, page
from tournaments.html.replay import REPLAY_SCRIPT, FramePool, svg_pieces
from tournaments.results.game import GameReport

MAX_POSITIONS = 20_000
"""Positions drawn at most (a longer game shows its moves and tags without the board)."""


def game_page(report: GameReport) -> str:
    """The self-contained page of ``report``'s game."""
    games = GameViews(FramePool(), svg_pieces, MAX_POSITIONS, [])
    view = game_view(report, parse_game(report), 0, games).replace(
        '<details class="game"', '<details open class="game"', 1
    )
    body = view + json_block("replay-data", {"parts": games.pool.parts, "games": games.replays})
    return page(f"Game {report.number}: {' vs '.join(report.seats)}", body, script=REPLAY_SCRIPT)
