"""The live page: empty sections that the event stream (``/events``) fills in.

The server renders every fragment (escaped with ``html.page.esc``); the script only
places them: ``standings`` replaces the tables, ``board`` adds or replaces a game in play,
``gone`` removes one, ``finished`` adds a line linking to ``/game/N``, ``status`` the line
at the top. ``EventSource`` reconnects by itself when the server goes away and comes back.
"""

from __future__ import annotations

from tournaments.html.page import page

LIVE_STYLE = """<style>
#boards { display: flex; flex-wrap: wrap; gap: 1em; }
#boards .live { border: 1px solid #ccc; border-radius: 6px; padding: 0.5em; width: 300px; }
#boards .live h3 { margin: 0 0 0.3em 0; font-size: 1em; }
#boards .live svg { width: 280px; height: auto; }
#boards .moves, #boards .eval, #boards .seats { font-size: 0.85em; margin: 0.2em 0; }
#finished { font-size: 0.9em; }
#status.over { color: #060; font-weight: bold; }
</style>"""

LIVE_SCRIPT = r"""
(function () {
  "use strict";
  function byId(id) { return document.getElementById(id); }
  var boards = byId("boards"), finished = byId("finished");
  var source = new EventSource("events");
  function on(name, handle) {
    source.addEventListener(name, function (e) { handle(JSON.parse(e.data)); });
  }
  on("status", function (d) {
    var s = byId("status");
    s.textContent = d.text;
    s.className = d.complete ? "over" : "";
    document.body.dataset.complete = d.complete ? "yes" : "no";
  });
  on("standings", function (d) {
    byId("standings").innerHTML = d.html;
    byId("done").textContent = d.done;
  });
  on("board", function (d) {
    var el = byId("live-" + d.number);
    if (!el) {
      el = document.createElement("div");
      el.id = "live-" + d.number;
      el.className = "live";
      boards.appendChild(el);
    }
    el.dataset.ply = d.ply;
    el.innerHTML = d.html;
    byId("playing").textContent = boards.children.length;
  });
  on("gone", function (d) {
    var el = byId("live-" + d.number);
    if (el) { el.remove(); }
    byId("playing").textContent = boards.children.length;
  });
  on("finished", function (d) {
    if (byId("done-" + d.number)) { return; }  // sent again after a reconnection
    var li = document.createElement("li");
    li.id = "done-" + d.number;
    var a = document.createElement("a");
    a.href = "game/" + d.number;
    a.innerHTML = d.html;
    li.appendChild(a);
    finished.insertBefore(li, finished.firstChild);
  });
})();
"""


def live_page() -> str:
    """The whole page (self-contained: no external resources)."""
    body = (
        LIVE_STYLE
        + '<h1>Live event</h1><p id="status">connecting…</p>'
        + '<h2>Standings (<span id="done">0</span> games)</h2><div id="standings"></div>'
        + '<h2>In play (<span id="playing">0</span>)</h2><div id="boards"></div>'
        + '<h2>Finished games</h2><ol id="finished" reversed></ol>'
    )
    return page("referee live", body, script=LIVE_SCRIPT, connect_self=True)
