"""The first page's script: the game list (pages, search) and the game view, from block
files loaded as scripts when needed.

It reads ``<script type="application/json" id="paged-data">``: ``games`` (count),
``columns`` (the list's columns, each ``{"title", "name", "search"}``: whether it is a
text column, and the prefix its value takes in a game's searched line, null for a column
not searched; the first is the game number, the game's link),
``folder`` (the block files' folder, relative to the page), ``list_block`` and
``game_block`` (games per file), ``page_size`` (rows per page). Block files call
``refereeReport.list(k, text)`` and ``refereeReport.games(k, text)``, ``text`` being
the block's JSON packed by ``tournaments.html.paged.blocks.jsonp``.

* The list shows one page of rows; ``|<``, ``<``, ``>``, ``>|`` and the page field move
  through it. Only the list files a page needs are loaded (at most two), and the last
  few are kept.
* Search: every word typed must occur in a game's line (its searched columns: in the
  report number, round, seats, result, termination), case ignored; ``#17`` is game 17
  exactly. The list files are read in turn and the matches shown as they come; typing
  again starts over.
* A game's link opens its view under the list (its game file loaded, then the board
  stepped by ``refereeReplay``), and ``#game-N`` in the address opens game N.
* A file that cannot be loaded (the folder not next to the page) shows one line saying so.
"""

from __future__ import annotations

from tournaments.html.replay import REPLAY_CORE

PAGED_SCRIPT = (
    REPLAY_CORE
    + r"""
(function () {
  "use strict";
  var meta = JSON.parse(document.getElementById("paged-data").textContent);
  var loaded = {list: new Map(), games: new Map()};
  var keep = {list: 40, games: 8};
  var pending = {};
  var packed = {};
  window.refereeReport = {
    list: function (k, text) { packed["list" + k] = text; },
    games: function (k, text) { packed["games" + k] = text; }
  };
  function unpack(text) {
    // A block's JSON, compressed (zlib format) and in base64 (blocks.jsonp).
    var bytes = Uint8Array.from(atob(text), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).text().then(JSON.parse);
  }
  function remember(kind, k, value) {
    var store = loaded[kind];
    store.delete(k);
    store.set(k, value);
    while (store.size > keep[kind]) { store.delete(store.keys().next().value); }
  }
  function fileName(kind, k) {
    var digits = String(k);
    while (digits.length < 6) { digits = "0" + digits; }
    return meta.folder + "/" + kind + "-" + digits + ".js";
  }
  function load(kind, k) {
    var store = loaded[kind];
    if (store.has(k)) {
      var value = store.get(k);
      remember(kind, k, value);
      return Promise.resolve(value);
    }
    var key = kind + k;
    if (!pending[key]) {
      pending[key] = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        var name = fileName(kind, k);
        script.src = name;
        script.onload = function () {
          script.remove();
          var text = packed[key];
          delete packed[key];
          if (text === undefined) {
            delete pending[key];
            reject(new Error(name + " holds no block " + k));
            return;
          }
          unpack(text).then(function (value) {
            delete pending[key];
            remember(kind, k, value);
            resolve(value);
          }, function (error) {
            delete pending[key];
            reject(new Error(name + " cannot be read: " + error));
          });
        };
        script.onerror = function () {
          script.remove();
          delete pending[key];
          var where = ": keep the folder " + meta.folder + " next to this page";
          reject(new Error("cannot load " + name + where));
        };
        document.head.appendChild(script);
      });
    }
    return pending[key];
  }

  var section = document.getElementById("games");
  var body = section.querySelector("table.games tbody");
  var pageField = section.querySelector("input.page");
  var pageCount = section.querySelector(".pages");
  var found = section.querySelector(".found");
  var problem = section.querySelector(".problem");
  var view = document.getElementById("game-view");
  var search = document.getElementById("game-search");
  var state = {page: 0, matches: null, scan: 0, done: true};

  function fail(error) { problem.textContent = String(error.message || error); }
  function total() { return state.matches ? state.matches.length : meta.games; }
  function pages() { return Math.max(1, Math.ceil(total() / meta.page_size)); }
  function cell(row, content, name) {
    var td = row.insertCell();
    if (name) { td.className = "name"; }
    if (typeof content === "object") { td.appendChild(content); } else { td.textContent = content; }
  }
  function rowOf(index, game) {
    var tr = document.createElement("tr");
    tr.dataset.index = String(index);
    var link = document.createElement("a");
    link.href = "#game-" + game[0];
    link.textContent = String(game[0]);
    link.addEventListener("click", function (event) {
      event.preventDefault();
      openIndex(index, game[0]);
    });
    game.forEach(function (value, i) {
      cell(tr, i === 0 ? link : value, meta.columns[i].name);
    });
    return tr;
  }
  function rowsOf(first, last) {
    // The rows first..last-1 of the whole list, from the list files that hold them.
    var wanted = [];
    for (var k = Math.floor(first / meta.list_block); k * meta.list_block < last; k++) {
      wanted.push(load("list", k));
    }
    return Promise.all(wanted).then(function (blocks) {
      var base = Math.floor(first / meta.list_block) * meta.list_block;
      var all = [].concat.apply([], blocks);
      var out = [];
      for (var i = first; i < last; i++) { out.push([i, all[i - base]]); }
      return out;
    });
  }
  function show(page) {
    state.page = Math.max(0, Math.min(pages() - 1, page));
    var first = state.page * meta.page_size;
    var last = Math.min(total(), first + meta.page_size);
    pageField.value = String(state.page + 1);
    pageField.max = String(pages());
    pageCount.textContent = "of " + pages().toLocaleString("en");
    var shown = state.page;
    var rows = state.matches
      ? Promise.resolve(state.matches.slice(first, last))
      : rowsOf(first, last);
    return rows.then(function (found) {
      if (shown !== state.page) { return; }
      var made = found.map(function (pair) { return rowOf(pair[0], pair[1]); });
      body.replaceChildren.apply(body, made);
    }, fail);
  }
  section.querySelectorAll("button[data-page]").forEach(function (button) {
    button.addEventListener("click", function () {
      var to = {first: 0, prev: state.page - 1, next: state.page + 1, last: pages() - 1};
      show(to[button.dataset.page]);
    });
  });
  pageField.addEventListener("change", function () {
    var page = parseInt(pageField.value, 10);
    if (!isNaN(page)) { show(page - 1); }  // an emptied field waits for a number
  });

  function matcher(text) {
    var words = text.toLowerCase().split(/\s+/).filter(Boolean);
    return function (game) {
      var line = [];
      meta.columns.forEach(function (column, i) {
        if (column.search !== null) { line.push(column.search + game[i]); }
      });
      line = line.join(" ").toLowerCase();
      return words.every(function (word) {
        return /^#\d+$/.test(word) ? word === "#" + game[0] : line.indexOf(word) >= 0;
      });
    };
  }
  function status() {
    var count = state.matches.length.toLocaleString("en");
    found.textContent = state.done
      ? count + " of " + meta.games.toLocaleString("en") + " games match"
      : "searching… " + count + " found so far";
  }
  function find(text) {
    var scan = ++state.scan;
    problem.textContent = "";
    if (!text.trim()) {
      state.matches = null;
      state.done = true;
      found.textContent = "";
      return show(0);
    }
    var test = matcher(text);
    state.matches = [];
    state.done = false;
    status();
    show(0);
    var blocks = Math.ceil(meta.games / meta.list_block);
    function next(k) {
      if (scan !== state.scan) { return Promise.resolve(); }
      if (k >= blocks) {
        state.done = true;
        status();
        return show(state.page);
      }
      return load("list", k).then(function (rows) {
        if (scan !== state.scan) { return; }
        var before = state.matches.length;
        rows.forEach(function (game, i) {
          if (test(game)) { state.matches.push([k * meta.list_block + i, game]); }
        });
        status();
        if (before < (state.page + 1) * meta.page_size && state.matches.length > before) {
          show(state.page);
        }
        return next(k + 1);
      }, fail);
    }
    return next(0);
  }
  var typing = null;
  search.addEventListener("input", function () {
    clearTimeout(typing);
    typing = setTimeout(function () { find(search.value); }, 200);
  });
  search.addEventListener("keydown", function (event) {
    if (event.key === "Enter") { clearTimeout(typing); find(search.value); }
  });

  var opened = null;
  function openIndex(index, number) {
    opened = number;
    problem.textContent = "";
    return load("games", Math.floor(index / meta.game_block)).then(function (block) {
      if (opened !== number) { return; }
      var entry = block.games[index % meta.game_block];
      view.innerHTML = entry.html;
      var el = view.querySelector("details.game");
      if (entry.frames) { refereeReplay.bind(el, entry.frames, block.parts); }
      el.open = true;
      if (location.hash !== "#game-" + number) {
        history.replaceState(null, "", "#game-" + number);
      }
      el.scrollIntoView();
    }, fail);
  }
  function openNumber(number) {
    // The list files in turn, from the one where game numbers in journal order put it.
    var blocks = Math.ceil(meta.games / meta.list_block);
    if (blocks === 0) { fail(new Error("no game " + number + " in this report")); return; }
    var guess = Math.min(blocks - 1, Math.max(0, Math.floor((number - 1) / meta.list_block)));
    var order = [guess];
    for (var k = 0; k < blocks; k++) { if (k !== guess) { order.push(k); } }
    function next(i) {
      if (i >= order.length) { fail(new Error("no game " + number + " in this report")); return; }
      var k = order[i];
      return load("list", k).then(function (rows) {
        for (var j = 0; j < rows.length; j++) {
          if (rows[j][0] === number) { return openIndex(k * meta.list_block + j, number); }
        }
        return next(i + 1);
      }, fail);
    }
    return next(0);
  }
  function fromAddress() {
    var match = /^#game-(\d+)$/.exec(location.hash);
    if (match && Number(match[1]) !== opened) { openNumber(Number(match[1])); }
  }
  window.addEventListener("hashchange", fromAddress);
  show(0).then(fromAddress);
})();
"""
)
"""See the module docstring."""
