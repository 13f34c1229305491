"""The rules benchmark: referee-style plies per second for each game, beside python-chess.

"Referee-style" is what the match loop does with every move it receives: parse
the move text, check that it is legal, apply it, and test for the end. Games are
first generated with seeded random play (not timed), then replayed from their
move texts (timed). python-chess does the same on chess in the same run
(``Board.parse_uci`` validates, ``push``, ``is_game_over``); it is an optional,
benchmark-only dependency (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from referee.core import Game
from referee.registry import make_game


@dataclass(frozen=True, slots=True)
class RulesCase:
    """One line of the benchmark: a game, its options and its number of seats."""

    game: str
    players: int
    options: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.game}/{self.players}p" + (f" ({extra})" if extra else "")


RULES_CASES: tuple[RulesCase, ...] = (
    RulesCase("trike", 2),
    RulesCase("tricouleur", 2),
    RulesCase("whistling-captures", 2),
    RulesCase("trichess", 3),
    RulesCase("tricolor", 2),
    RulesCase("triablo", 2),
    RulesCase("triablo", 3),
)
"""What ``referee bench`` measures; each game adds its cases here."""


def random_games(
    game: Game[Any, Any], players: int, plies: int, seed: int, max_plies: int = 2000
) -> list[list[str]]:
    """Seeded random games as move texts, ``plies`` plies in all (the last game is whole)."""
    rng = random.Random(seed)
    games: list[list[str]] = []
    total = 0
    while total < plies:
        state = game.initial_state(players)
        texts: list[str] = []
        while len(texts) < max_plies:
            moves = state.legal_moves()
            if not moves:
                break
            move = moves[rng.randrange(len(moves))]
            texts.append(game.format_move(state, move))
            state = state._apply(move)
        games.append(texts)
        total += len(texts)
    return games


def referee_replay(game: Game[Any, Any], players: int, games: list[list[str]]) -> float:
    """Seconds to replay ``games`` referee-style (parse, validate, apply, test the end)."""
    started = time.perf_counter()
    for texts in games:
        state = game.initial_state(players)
        for text in texts:
            state = state.play(game.parse_move(state, text))
            state.outcome()
    return time.perf_counter() - started


def chess_plies_per_second(plies: int, seed: int = 1) -> float | None:
    """python-chess doing the same on chess, or None when it is not installed."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(seed)
    games: list[list[str]] = []
    total = 0
    while total < plies:
        board = chess.Board()
        texts: list[str] = []
        while not board.is_game_over() and len(texts) < 400:
            move = rng.choice(list(board.legal_moves))
            texts.append(move.uci())
            board.push(move)
        games.append(texts)
        total += len(texts)
    started = time.perf_counter()
    for texts in games:
        board = chess.Board()
        for text in texts:
            board.push(board.parse_uci(text))
            board.is_game_over()
    return total / (time.perf_counter() - started)


def run_rules_benchmark(plies: int, seed: int = 1) -> Iterator[str]:
    """Yield one report line per case, then python-chess's line and the ratios."""
    chess_rate = chess_plies_per_second(plies, seed)
    for case in RULES_CASES:
        game = make_game(case.game, dict(case.options))
        games = random_games(game, case.players, plies, seed)
        done = sum(len(texts) for texts in games)
        rate = done / referee_replay(game, case.players, games)
        ratio = f", {rate / chess_rate:.2f}x python-chess" if chess_rate else ""
        yield f"rules  {case.label}: {rate:,.0f} plies/s{ratio}"
    if chess_rate is None:
        yield "rules  python-chess not installed (pip install -e '.[bench]'): no comparison"
    else:
        yield f"rules  python-chess on chess: {chess_rate:,.0f} plies/s"
