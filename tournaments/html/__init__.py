"""HTML pages people open in a browser (no network resource, ever).

``page`` is the shared frame and style; ``chart`` draws inline SVG charts; ``replay`` packs
positions for the move-by-move viewer; ``game_view`` lays out one game; ``evaluation``
charts the engines' scores of a game; ``report`` builds ``referee report``'s single page of
an event and ``paged`` its paged form for big events (a first page and block files, and
the writer that streams an event directory into either); ``game_page`` one finished game
on its own page (``referee serve``); ``adjudicate`` the page of ``referee adjudicate
--html``. New pages go here.
"""
