"""The referee game protocol (RGP): messages, codec, line framing and engine sessions.

This package knows nothing about games: a move is an opaque whitespace-free token.
Only ``protocol.process`` (the engine's process group), ``protocol.channel`` (the lines on
its pipes) and ``protocol.session`` (the conversation: handshake, options, moves, pings)
import trio and talk to engines.
"""
