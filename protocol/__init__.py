"""The referee game protocol (RGP): messages, codec, line framing and engine sessions.

This package knows nothing about games: a move is an opaque whitespace-free token.
Only ``protocol.process`` (the engine's process group) and ``protocol.session`` (the
conversation with it) import trio and talk to engines.
"""
