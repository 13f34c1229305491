"""The engine side's game position, kept across ``position`` lines in time linear in the game.

A ``position`` line carries the whole game from its start, so a game of ``n`` plies
sends ``n`` lines of up to ``n`` moves: parsing and replaying each one whole costs
``O(n²)`` over the game (a 20,000-ply Trichess game spent 5 ms per move at its end).
``PositionTracker`` keeps the last line and the state it led to: a line that extends
the last one (the same text followed by more moves, the usual case) costs one prefix
comparison at C speed plus the new moves; any other line (a new game, a take-back, a
restarted referee) is parsed and replayed from its start.

Rules errors in the history are not raised at once: the protocol has no reply to
``position``. They are kept in ``problem`` for the next ``go`` to answer ``error``.
"""

from __future__ import annotations

from typing import Any

from protocol.codec import parse_command
from protocol.errors import ProtocolViolation
from protocol.messages import Position
from protocol.words import is_token
from referee.core import AnyGame, State
from referee.errors import RulesError

AnyState = State[Any]


class PositionTracker:
    """The state after the last ``position`` of one game (see the module docstring)."""

    def __init__(self, game: AnyGame, players: int) -> None:
        self.game = game
        self.players = players
        self.start: str | None = None
        """The encoded start position of the last line (None: the initial position)."""
        self.moves: list[str] = []
        """The move tokens of the last line, in order."""
        self.state: AnyState = game.initial_state(players)
        self.problem: str | None = None
        """Why the last position cannot be played (a bad start or move), else None."""
        self._line: str | None = None
        """The last line, while ``state`` is the state after it (None: replay the next)."""
        self._has_moves = False

    def update_line(self, line: str) -> None:
        """Take a ``position`` line (as read, without its terminator).

        :raises ProtocolViolation: the line is not a well-formed ``position`` command
            (nothing changes).
        """
        last = self._line
        if (
            last is not None
            and line.startswith(last)
            and (len(line) == len(last) or line[len(last)] in " \t")
        ):
            words = line[len(last) :].split()
            if words and not self._has_moves:
                if words[0] != "moves" or len(words) < 2:
                    raise ProtocolViolation(
                        "malformed position: expected 'moves <m1> ...' after the start"
                    )
                words = words[1:]
            bad = next((word for word in words if not is_token(word)), None)
            if bad is not None:
                raise ProtocolViolation(
                    f"bad move {bad!r}: expected printable ASCII without spaces"
                )
            self._line = line
            self._has_moves = self._has_moves or bool(words)
            self._extend(words)
            return
        command = parse_command(line)
        if not isinstance(command, Position):
            raise ProtocolViolation("expected a position command")
        self.update(command)
        if self.problem is None:
            self._line = line.rstrip()
            self._has_moves = bool(command.moves)

    def update(self, position: Position) -> None:
        """Take a parsed ``Position``: extend the state if it continues the last one
        (same start, the last moves as a prefix), else replay it from its start."""
        moves = position.moves
        self._line = None
        if (
            self.problem is None
            and position.state == self.start
            and len(self.moves) <= len(moves)
            and tuple(self.moves) == moves[: len(self.moves)]
        ):
            self._extend(moves[len(self.moves) :])
            return
        self.start, self.moves, self.problem = position.state, [], None
        try:
            if position.state is None:
                self.state = self.game.initial_state(self.players)
            else:
                self.state = self.game.decode(position.state)
        except RulesError as exc:
            self.problem = f"bad start position: {exc}"
            return
        self._extend(moves)

    def _extend(self, moves: Any) -> None:
        """Apply ``moves`` (tokens) to the current state, noting the first that fails."""
        game, state, played = self.game, self.state, self.moves
        for text in moves:
            if self.problem is not None:
                played.append(text)
                continue
            try:
                state = state.play(game.parse_move(state, text))
            except RulesError as exc:
                self.problem = f"move {len(played) + 1} {text!r}: {exc}"
                self._line = None
            played.append(text)
        self.state = state
