"""The text of the paged report's block files (pure: text in, text out).

A list block holds rows ``[number, round, seats, result, termination, plies]``; a game
block ``{"parts": {part: text}, "games": [{"html": view, "frames": [runs]}]}`` (no
``frames`` for a game not drawn), each game's ``html`` being ``game_view``'s and
``frames[k]`` position ``k`` as runs over ``parts`` (``tournaments.html.replay``).

A ``BlockBuilder`` lives as long as its process: its ``FramePool`` is shared by all the
blocks it builds, so the board's parts are cut and numbered once, and each block carries
only the parts its frames use (numbered as in the shared pool, hence an object, not an
array). It also keeps the last games it drew (``CACHE_POSITIONS``) by their moves: a game played
again move for move (deterministic engines at fixed nodes do that) is not drawn again.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from referee.record import GameRecord
from tournaments.html.game_view import GameViews, game_view, parse_game
from tournaments.html.replay import (
    FramePool,
    PicturePieces,
    Replay,
    replay_frames,
    svg_pieces,
)
from tournaments.results.game import GameReport

LIST_BLOCK = 1000
"""Games per list file: about 40 kB, a tenth of a second to load from the list."""
GAME_BLOCK = 100
"""Games per game file: a few hundred kB (views and frames), loaded when one is opened."""
LEVEL = 6
"""zlib's compression level: 9 packs a block 6% smaller in four times the time."""
CACHE_POSITIONS = 25_000
"""Positions of the drawn games a builder keeps by their moves (the last thousand games
of a usual event; about 10 MB)."""
POOL_LIMIT = 32 << 20
"""Characters of shared parts after which a builder starts a new pool (and cache)."""


def pairwise(runs: list[int]) -> Iterator[tuple[int, int]]:
    """``(start, length)`` of each run of ``runs``."""
    return zip(runs[::2], runs[1::2], strict=True)


def block_name(kind: str, index: int) -> str:
    """The file name of block ``index`` of ``kind`` (``list`` or ``games``)."""
    return f"{kind}-{index:06d}.js"


def jsonp(call: str, index: int, data: Any) -> str:
    """The script ``refereeReport.<call>(<index>, "<packed data>");``: ``data`` as JSON,
    compressed (zlib's format, what a browser's ``DecompressionStream("deflate")``
    reads) and in base64. A block of games is mostly repeated markup and numbers: it
    packs to a tenth of its size or less, and loads and unpacks in milliseconds."""
    return packed_call(call, index, _json(data))


def _json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def packed_call(call: str, index: int, text: str) -> str:
    """``jsonp`` of data already written as the JSON ``text``."""
    packed = base64.b64encode(zlib.compress(text.encode("utf-8"), LEVEL)).decode("ascii")
    return f'refereeReport.{call}({index},"{packed}");\n'


def unpack(script: str) -> tuple[str, int, Any]:
    """The call, index and data of a block file's text (the inverse of ``jsonp``).

    :raises ValueError: not a block file's text.
    """
    head, _, rest = script.partition("(")
    index, _, packed = rest.partition(",")
    if not head.startswith("refereeReport.") or not script.endswith('");\n'):
        raise ValueError("not a block file")
    data = zlib.decompress(base64.b64decode(packed[1:-4]))
    return head.removeprefix("refereeReport."), int(index), json.loads(data)


def list_row(report: GameReport, result: str) -> list[object]:
    """The list's row of a game: number, round, seats, result, termination, plies."""
    return [
        report.number,
        report.round,
        " vs ".join(report.seats),
        result,
        report.outcome.termination.value,
        report.plies,
    ]


def list_block(index: int, rows: Sequence[Sequence[object]]) -> str:
    """The text of list block ``index``."""
    return jsonp("list", index, list(rows))


@dataclass(frozen=True, slots=True)
class BlockStats:
    """What a game block holds."""

    games: int
    drawn_games: int
    positions: int
    """Positions drawn (a game played again counts again)."""


@dataclass(frozen=True, slots=True)
class GameKey:
    """What a game's frames depend on: its setup and its moves."""

    game: str | None
    options: str | None
    start: str | None
    players: str | None
    moves: tuple[str, ...]

    @classmethod
    def of(cls, record: GameRecord) -> GameKey:
        """The key of ``record``."""
        return cls(
            record.tag("Game"),
            record.tag("Options"),
            record.tag("Start"),
            record.tag("Players"),
            tuple(move.text for move in record.moves),
        )


@dataclass(frozen=True, slots=True)
class _Drawing:
    """A drawn game: its frames as JSON, how many, and the parts they use."""

    text: str
    count: int
    used: frozenset[int]


class BlockBuilder:
    """Builds game blocks (see the module docstring)."""

    def __init__(self, picture: PicturePieces = svg_pieces) -> None:
        self.picture = picture
        self.pool = FramePool()
        self._drawn: OrderedDict[GameKey, _Drawing] = OrderedDict()
        self._positions = 0
        """Positions of the games in ``_drawn``."""

    def _draw(self, record: GameRecord, replayed: Replay) -> _Drawing:
        key = GameKey.of(record)
        drawing = self._drawn.get(key)
        if drawing is not None:
            self._drawn.move_to_end(key)
            return drawing
        frames = replay_frames(replayed, self.pool, self.picture)
        starts = [start for runs in frames for start in runs[::2]]
        stops = [start + length for runs in frames for start, length in pairwise(runs)]
        used = frozenset(chain.from_iterable(map(range, starts, stops)))
        drawing = _Drawing(_json(frames), len(frames), used)
        if drawing.count <= CACHE_POSITIONS // 8:  # a giant game is not worth keeping
            self._drawn[key] = drawing
            self._positions += drawing.count
            while self._positions > CACHE_POSITIONS:
                _, dropped = self._drawn.popitem(last=False)
                self._positions -= dropped.count
        return drawing

    def build(
        self, index: int, reports: Sequence[GameReport], budget: int
    ) -> tuple[str, BlockStats]:
        """The text of game block ``index`` holding ``reports`` (journal order), drawing
        games whole while ``budget`` positions last."""
        if self.pool.size > POOL_LIMIT:
            self.pool = FramePool()
            self._drawn.clear()
            self._positions = 0
        views = GameViews(self.pool, self.picture, max(0, budget), [], draw=self._draw)
        html = [game_view(r, parse_game(r), k, views) for k, r in enumerate(reports)]
        games: list[str] = []
        used: set[int] = set()
        positions = 0
        for view, replayed in zip(html, views.replays, strict=True):
            if replayed is None:
                games.append(f'{{"html":{_json(view)}}}')
                continue
            drawing: _Drawing = replayed["frames"]
            positions += drawing.count
            used |= drawing.used
            games.append(f'{{"html":{_json(view)},"frames":{drawing.text}}}')
        parts = _json({k: self.pool.parts[k] for k in sorted(used)})
        stats = BlockStats(len(reports), views.drawn_games, positions)
        text = f'{{"parts":{parts},"games":[{",".join(games)}]}}'
        return packed_call("games", index, text), stats
