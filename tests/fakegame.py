"""A tiny N-player game for testing the referee loop independently of real rules.

``count``: seats in turn add 1 or 2 to a shared total; each seat's score is the
sum of what it added; the game ends when the total reaches ``target``; higher
score ranks better. Moves are ``+1`` and ``+2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from referee.core import Game, OptionSpec, Outcome, State, Termination, ranks_from_scores
from referee.errors import InvalidMoveError, InvalidPositionError


@dataclass(frozen=True, slots=True)
class CountState(State[int]):
    scores: tuple[int, ...]
    target: int
    moves_played: int = 0

    @property
    def num_players(self) -> int:
        return len(self.scores)

    @property
    def ply(self) -> int:
        return self.moves_played

    @property
    def total(self) -> int:
        return sum(self.scores)

    @property
    def to_move(self) -> int | None:
        return None if self.total >= self.target else self.moves_played % self.num_players

    def _generate(self) -> tuple[int, ...]:
        return () if self.to_move is None else (1, 2)

    def outcome(self) -> Outcome | None:
        if self.to_move is not None:
            return None
        return Outcome(
            Termination.RULES,
            ranks_from_scores(self.scores),
            tuple(float(s) for s in self.scores),
            reason="target reached",
        )

    def _apply(self, move: int) -> CountState:
        seat = self.moves_played % self.num_players
        scores = list(self.scores)
        scores[seat] += move
        return CountState(tuple(scores), self.target, self.moves_played + 1)


class CountGame(Game[CountState, int]):
    name: ClassVar[str] = "count"
    version: ClassVar[str] = "1"
    player_counts: ClassVar[tuple[int, ...]] = (2, 3)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("target", "10", minimum=1, maximum=1000),
    )

    def initial_state(self, num_players: int) -> CountState:
        self.check_players(num_players)
        return CountState((0,) * num_players, int(self.options["target"]))

    def parse_move(self, state: CountState, text: str) -> int:
        if text not in ("+1", "+2"):
            raise InvalidMoveError(f"bad move {text!r}")
        return int(text[1])

    def format_move(self, state: CountState, move: int) -> str:
        return f"+{move}"

    def encode(self, state: CountState) -> str:
        return f"{state.target}/{state.moves_played}/" + ",".join(map(str, state.scores))

    def decode(self, text: str) -> CountState:
        try:
            target, played, scores = text.split("/")
            return CountState(tuple(int(s) for s in scores.split(",")), int(target), int(played))
        except ValueError:
            raise InvalidPositionError(f"bad position {text!r}") from None

    def score_unfinished(self, state: CountState) -> tuple[tuple[int, ...], tuple[float, ...]]:
        return ranks_from_scores(state.scores), tuple(float(s) for s in state.scores)
