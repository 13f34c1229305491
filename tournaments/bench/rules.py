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
import statistics
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


def chess_random_games(plies: int, seed: int = 1) -> list[list[str]] | None:
    """Seeded random chess games as UCI texts (not timed), or None without python-chess."""
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
    return games


def chess_replay(games: list[list[str]]) -> float:
    """Seconds for python-chess to replay ``games`` the same way (parse, validate, push, end)."""
    import chess

    started = time.perf_counter()
    for texts in games:
        board = chess.Board()
        for text in texts:
            board.push(board.parse_uci(text))
            board.is_game_over()
    return time.perf_counter() - started


def chess_plies_per_second(plies: int, seed: int = 1) -> float | None:
    """python-chess doing the same on chess, or None when it is not installed."""
    games = chess_random_games(plies, seed)
    if games is None:
        return None
    return sum(len(texts) for texts in games) / chess_replay(games)


def run_rules_benchmark(plies: int, seed: int = 1, rounds: int = 5) -> Iterator[str]:
    """Yield one report line per case, then python-chess's line.

    The games are generated once; then ``rounds`` rounds each replay python-chess's
    games and every case's, one after the other. A case's ratio is the median over
    rounds of its rate divided by python-chess's rate *in the same round*, so a slow
    spell of the machine (another process, a frequency change) touches both sides of a
    ratio alike instead of whichever happened to run during it.
    """
    chess_games = chess_random_games(plies, seed)
    chess_plies = sum(len(texts) for texts in chess_games) if chess_games else 0
    cases = []
    for case in RULES_CASES:
        game = make_game(case.game, dict(case.options))
        games = random_games(game, case.players, plies, seed)
        cases.append((case, game, games, sum(len(texts) for texts in games)))
    rates: dict[str, list[float]] = {case.label: [] for case, *_ in cases}
    ratios: dict[str, list[float]] = {case.label: [] for case, *_ in cases}
    chess_rates: list[float] = []
    for _ in range(max(1, rounds)):
        chess_rate = chess_plies / chess_replay(chess_games) if chess_games else None
        if chess_rate is not None:
            chess_rates.append(chess_rate)
        for case, game, games, done in cases:
            rate = done / referee_replay(game, case.players, games)
            rates[case.label].append(rate)
            if chess_rate is not None:
                ratios[case.label].append(rate / chess_rate)
    for case, *_ in cases:
        line = f"rules  {case.label}: {statistics.median(rates[case.label]):,.0f} plies/s"
        if ratios[case.label]:
            spread = ratios[case.label]
            line += (
                f", {statistics.median(spread):.2f}x python-chess"
                f" (rounds {min(spread):.2f}-{max(spread):.2f})"
            )
        yield line
    if not chess_rates:
        yield "rules  python-chess not installed (pip install -e '.[bench]'): no comparison"
    else:
        yield (
            f"rules  python-chess on chess: {statistics.median(chess_rates):,.0f} plies/s"
            f" (median of {len(chess_rates)} rounds)"
        )
