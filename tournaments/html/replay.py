"""Board pictures of recorded games, for the HTML pages.

A record is replayed under its own ``Game``/``Options``/``Start`` tags exactly as the
adjudicator does; each position becomes an SVG of ``referee.pictures.position_svg``
(``text_picture``, the game's ``render`` text in a ``<pre>``, is the alternative a
caller may pass).

Page size: pictures of one game differ in a few elements (the pieces that moved, the
last-move mark, the status line) and share the rest (the board). ``FramePool``
takes each picture as pieces (``referee.pictures.position_parts``: the board, each
piece on its cell, each line of the frame; a picture given whole is cut after each
``><``), stores every distinct piece once, and writes a picture as runs of
consecutive piece indexes ``[start, length, ...]``; the page's script joins the pieces
back, which gives the exact original text. A Triablo game of 300 plies, about 6 MB of
SVG, takes about 0.3 MB this way. Taking the drawing's own pieces, which are the same
cached string objects from one picture to the next, costs a few microseconds per
picture where cutting its text costs fifty.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core import AnyGame
from referee.errors import RulesError
from referee.pictures import LastMove, position_parts, position_svg
from referee.record import GameRecord
from referee.registry import make_game
from tournaments.html.page import esc

Picture = Callable[[AnyGame, Any, Any], str]
"""``picture(game, state, last_move)`` -> an HTML fragment; ``last_move`` is None, a
move value, or a ``referee.pictures.LastMove``."""

PicturePieces = Callable[[AnyGame, Any, Any], str | Sequence[str]]
"""A ``Picture``, or one that gives its fragment as the pieces whose concatenation it
is (what ``FramePool`` stores)."""

SEPARATOR = "><"
"""Where a picture given whole is cut into pieces (between two tags)."""


def svg_picture(game: AnyGame, state: Any, last_move: Any = None) -> str:
    """The SVG of ``referee.pictures.position_svg`` (the default picture)."""
    return position_svg(game, state, last_move=last_move)


def svg_pieces(game: AnyGame, state: Any, last_move: Any = None) -> list[str]:
    """``svg_picture`` as the drawing's pieces (``referee.pictures.position_parts``)."""
    return position_parts(game, state, last_move=last_move)


def text_picture(game: AnyGame, state: Any, last_move: Any = None) -> str:
    """The game's ASCII diagram in a ``<pre>``."""
    del last_move  # a text diagram cannot mark a move
    return f"<pre>{esc(game.render(state))}</pre>"


class FramePool:
    """Pictures stored as runs of shared parts (see the module docstring)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self._index: dict[str, int] = {}
        self.pictures = 0
        """Pictures added."""
        self.size = 0
        """Characters in all parts."""

    def add(self, picture: str | Sequence[str]) -> list[int]:
        """``picture`` (whole, or as pieces) as runs ``[start, length, ...]`` of piece
        indexes."""
        self.pictures += 1
        if isinstance(picture, str):
            cut = picture.split(SEPARATOR)
            pieces: Sequence[str] = [piece + SEPARATOR for piece in cut[:-1]] + cut[-1:]
        else:
            pieces = picture or ("",)
        found = list(map(self._index.get, pieces))  # the common case, known pieces, in C
        ids: list[int] = (
            [self._intern(p) if i is None else i for p, i in zip(pieces, found, strict=True)]
            if None in found
            else found  # type: ignore[assignment]  # no None in it
        )
        runs: list[int] = []
        start = last = ids[0]
        for index in ids[1:]:
            if index == last + 1:
                last = index
            else:
                runs += (start, last - start + 1)
                start = last = index
        runs += (start, last - start + 1)
        return runs

    def _intern(self, part: str) -> int:
        index = self._index.get(part)  # it may have come earlier in the same picture
        if index is None:
            index = self._index[part] = len(self.parts)
            self.parts.append(part)
            self.size += len(part)
        return index

    def decode(self, runs: Sequence[int]) -> str:
        """The picture of ``runs`` (what the page's script computes)."""
        parts = [
            self.parts[k]
            for start, length in zip(runs[::2], runs[1::2], strict=True)
            for k in range(start, start + length)
        ]
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class Replay:
    """The positions of a record that could be set up and replayed."""

    game: AnyGame
    states: tuple[Any, ...]
    """The start position, then the position after each replayable move."""
    moves: tuple[Any, ...]
    """The parsed moves; ``moves[i]`` leads from ``states[i]`` to ``states[i + 1]``."""
    problem: str | None
    """Why the replay stopped before the end of the movetext (None if it did not)."""


def replay(record: GameRecord, upto: int | None = None) -> Replay:
    """Replay the first ``upto`` moves of ``record`` (all by default).

    :raises RulesError: the record cannot be set up (unknown game, bad options or Start).
    """
    game = make_game(record.game, record.options)
    state = (
        game.initial_state(record.players) if record.start is None else game.decode(record.start)
    )
    states: list[Any] = [state]
    moves: list[Any] = []
    texts = record.move_texts if upto is None else record.move_texts[:upto]
    for ply, text in enumerate(texts, start=1):
        try:
            move = game.parse_move(state, text)
            state = state.play(move)
        except RulesError as exc:
            return Replay(game, tuple(states), tuple(moves), f"move {ply} {text!r}: {exc}")
        states.append(state)
        moves.append(move)
    return Replay(game, tuple(states), tuple(moves), None)


def replay_frames(replayed: Replay, pool: FramePool, picture: PicturePieces) -> list[list[int]]:
    """The encoded picture of every position of ``replayed``, in order; each position
    after the start is drawn with the move that led to it (and the position before it,
    so captures show)."""
    game, states = replayed.game, replayed.states
    frames = [pool.add(picture(game, states[0], None))]
    for before, state, move in zip(states[:-1], states[1:], replayed.moves, strict=True):
        frames.append(pool.add(picture(game, state, LastMove(before, move))))
    return frames


REPLAY_CORE = r"""
var refereeReplay = (function () {
  "use strict";
  var active = null;
  function picture(parts, runs) {
    var out = [];
    for (var i = 0; i < runs.length; i += 2) {
      for (var k = runs[i]; k < runs[i] + runs[i + 1]; k++) { out.push(parts[k]); }
    }
    return out.join("");
  }
  function show(el, ply) {
    var game = el.refereeReplay;
    var last = game.frames.length - 1;
    ply = Math.max(0, Math.min(last, ply));
    el.dataset.ply = String(ply);
    el.querySelector(".board").innerHTML = picture(game.parts, game.frames[ply]);
    el.querySelector(".ply").textContent = "move " + ply + "/" + last;
    el.querySelectorAll(".moves span[data-ply]").forEach(function (span) {
      span.classList.toggle("current", Number(span.dataset.ply) === ply);
    });
  }
  function step(el, how) {
    var ply = Number(el.dataset.ply || "0");
    var to = {first: 0, prev: ply - 1, next: ply + 1, last: el.refereeReplay.frames.length - 1};
    show(el, to[how]);
  }
  function bind(el, frames, parts) {
    el.refereeReplay = {frames: frames, parts: parts};
    el.addEventListener("toggle", function () {
      if (!el.open) { return; }
      active = el;
      if (el.dataset.ply === undefined) { show(el, 0); }
    });
    el.addEventListener("click", function () { active = el; });
    el.querySelectorAll("button[data-step]").forEach(function (button) {
      button.addEventListener("click", function () { step(el, button.dataset.step); });
    });
    el.querySelectorAll(".moves span[data-ply]").forEach(function (span) {
      span.addEventListener("click", function () { show(el, Number(span.dataset.ply)); });
    });
  }
  var keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
  document.addEventListener("keydown", function (event) {
    var how = keys[event.key];
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName || "");
    if (!how || typing || !active || !active.open || !active.isConnected ||
        event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    event.preventDefault();
    step(active, how);
  });
  return {bind: bind, show: show};
})();
"""
"""The stepping of a replayable game, shared by the single page and the paged report:
``refereeReplay.bind(el, frames, parts)`` drives ``<details class="game">`` ``el`` with
``.board``, ``.ply``, step buttons and ``.moves`` spans; ``frames[k]`` is the runs of
position ``k`` over ``parts`` (``FramePool.parts``: an array, or an object keyed by part
number). The arrow keys, Home and End step the game last used (not while typing in a
field)."""

REPLAY_SCRIPT = (
    REPLAY_CORE
    + r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  document.querySelectorAll("details.game[data-game]").forEach(function (el) {
    var game = data.games[Number(el.dataset.game)];
    if (game) { refereeReplay.bind(el, game.frames, data.parts); }
  });
  // A link to #game-N opens that game: at once when clicked, and from the address.
  function openGame(id) {
    var el = document.getElementById(id);
    if (el && el.tagName === "DETAILS") { el.open = true; }
  }
  document.querySelectorAll('a[href^="#game-"]').forEach(function (link) {
    link.addEventListener("click", function () { openGame(link.getAttribute("href").slice(1)); });
  });
  window.addEventListener("hashchange", function () { openGame(location.hash.slice(1)); });
  if (location.hash) { openGame(location.hash.slice(1)); }
})();
"""
)
"""The single page's script: ``data.parts`` (``FramePool.parts``) and ``data.games[k]``
(``{"frames": [runs of each position]}``, or null for a game not drawn) of the
``replay-data`` block drive ``<details class="game" data-game="k">``
(``REPLAY_CORE``); a link to ``#game-N`` opens that game."""
