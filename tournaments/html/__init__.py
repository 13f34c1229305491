"""Self-contained HTML pages people open in a browser (no external resources).

``page`` is the shared frame and style; ``chart`` draws inline SVG charts; ``replay`` packs
positions for the move-by-move viewer; ``report`` builds ``referee report``'s page of an
event; ``adjudicate`` the page of ``referee adjudicate --html``. New pages go here.
"""
