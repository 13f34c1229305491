"""Before the first game: engines whose spec needs a protocol feature must declare it.

An entrant with a node or depth limit (``referee play --nodes``, ``nodes = N`` in a
config) is started once and shakes hands; if it does not declare ``feature nodes``
(or ``feature depth``) the event is refused with one line, rather than playing games
that would all be void. Engines without limits are not started here.
"""

from __future__ import annotations

from collections.abc import Sequence

import trio

from protocol.errors import EngineError
from protocol.session import EngineSession
from protocol.spec import EngineSpec


async def check_features(specs: Sequence[EngineSpec], *, start_timeout: float = 10.0) -> None:
    """Shake hands with every engine in ``specs`` that needs a feature, one at a time.

    :raises ValueError: one line, e.g. ``engine 'random' does not declare 'feature nodes'
        in its handshake: it cannot play with a node limit``, or why it did not start.
    """
    for spec in specs:
        if not spec.required_features:
            continue
        try:
            async with EngineSession.open(spec, start_timeout=start_timeout):
                pass
        except EngineError as exc:
            raise ValueError(str(exc)) from None


def check_features_now(specs: Sequence[EngineSpec], *, start_timeout: float = 10.0) -> None:
    """``check_features`` from synchronous code (the command line); as that."""
    if any(spec.required_features for spec in specs):
        trio.run(lambda: check_features(specs, start_timeout=start_timeout))
