"""The live view: ``referee serve DIR`` and ``referee tournament --live``.

``watch`` turns an event directory into view updates (standings as ``referee standings``
computes them, the boards of the games in play from ``store.live_feed``, the finished
games from the journal); ``server`` pushes them to browsers as Server-Sent Events from a
read-only HTTP server of the standard library, in its own process; ``page`` is the page.
The server only reads the event directory, so it can neither slow nor endanger the event.
"""
