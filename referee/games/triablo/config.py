"""``Config``: the seats and rule options of one Triablo game, shared by every state of it;
``Position``: what the checks and the explainer read of a state."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Protocol

from referee.games.triablo.movegen import Back
from referee.games.triablo.pieces import BACK


@dataclass(frozen=True, slots=True)
class Config:
    """The seats and rule options of a game."""

    players: int
    free_setup: bool
    captive_tips: bool
    draw_limit: int
    """Plies without capture that draw the game; 0 = never."""
    back: Back = field(compare=False, repr=False)
    """``pieces.BACK[captive_tips]``."""


@cache
def make_config(players: int, free_setup: bool, captive_tips: bool, draw_limit: int) -> Config:
    """The (shared) ``Config`` of these settings."""
    return Config(players, free_setup, captive_tips, draw_limit, BACK[captive_tips])


class Position(Protocol):
    """What ``validate`` and ``explain`` read of a ``rules.TriabloState`` (a protocol, so
    that those modules, which ``rules`` imports, do not import ``rules`` back)."""

    @property
    def config(self) -> Config: ...
    @property
    def board(self) -> bytes: ...
    @property
    def seat(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def quiet(self) -> int: ...
    @property
    def out(self) -> tuple[tuple[int, str], ...]: ...
    @property
    def in_setup(self) -> bool: ...
    @property
    def alive(self) -> tuple[int, ...]: ...
