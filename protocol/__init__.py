"""The referee game protocol (RGP): messages, codec, line framing and engine sessions.

This package knows nothing about games: a move is an opaque whitespace-free token.
Only ``protocol.session`` does I/O.
"""
