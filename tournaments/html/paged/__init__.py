"""The paged report: ``referee report`` of an event too big for one page.

Layout, for ``--out DIR/report.html`` (the default):

``report.html``
    The first page: the title, the tables and the charts (``tournaments.html.report``'s
    ``event_sections``), ``results.json``'s numbers, and the game list's frame (search
    box, pager, table) with its script. Its size does not depend on the number of games.
``report-games/list-NNNNNN.js``
    The list, ``LIST_BLOCK`` games per file in journal order: one row per game (number,
    round, seats, result, termination, plies).
``report-games/games-NNNNNN.js``
    Each game's view (``tournaments.html.game_view``, the single page's own) and its
    replay frames, ``GAME_BLOCK`` games per file, loaded when one of them is opened.

Every block file is a script calling ``refereeReport.list(k, "…")`` or
``refereeReport.games(k, "…")`` with the block's JSON compressed and in base64 (JSONP):
a page opened from the file system may load scripts from its folder, where browsers
refuse ``fetch`` of ``file:`` URLs. The page unpacks a block with the browser's own
``DecompressionStream`` (any browser since 2023).

``blocks`` makes the files' text, ``script`` is the first page's script, ``page`` the
first page, and ``writer`` streams an event directory into all of it (worker processes
draw the games).
"""
