"""Before the first game: engines whose spec needs a protocol feature must declare it.

An entrant with a node or depth limit (``referee play --nodes``, ``nodes = N`` in a
config) is started once and shakes hands; if it does not declare ``feature nodes``
(or ``feature depth``) the event is refused with one line, rather than playing games
that would all be void. Engines without limits are not started here.

A limit given to every engine at once (``--nodes``, ``--depth``, ``--each nodes=N``) is
softer: ``shared_limits`` starts each engine that lacks a limit of its own, gives it the
shared limit when it declares the feature, and otherwise lets it play without one and
says so (``Note``), so an engine with ``feature nodes`` can play beside one without.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from protocol.errors import EngineError, EngineSetupError
from protocol.session import EngineSession
from protocol.spec import EngineSpec


async def check_features(specs: Sequence[EngineSpec], *, start_timeout: float = 10.0) -> None:
    """Shake hands with every engine in ``specs`` that needs a feature, one at a time.

    :raises EngineSetupError: one line, e.g. ``engine 'random' does not declare 'feature nodes'
        in its handshake: it cannot play with a node limit``, or why it did not start.
    """
    for spec in specs:
        if not spec.required_features:
            continue
        try:
            async with EngineSession.open(spec, start_timeout=start_timeout):
                pass
        except EngineError as exc:
            raise EngineSetupError(str(exc)) from None


LIMIT_FEATURES = {"nodes": "node", "depth": "depth"}
"""The search limits an engine needs a handshake ``feature`` for, and how they are called."""


async def declared_features(spec: EngineSpec, *, start_timeout: float = 10.0) -> frozenset[str]:
    """The ``feature`` names ``spec``'s engine declares in its handshake (it is started
    without search limits, so nothing is refused here).

    :raises EngineSetupError: the engine did not start (one line).
    """
    try:
        plain = replace(spec, nodes=None, depth=None)
        async with EngineSession.open(plain, start_timeout=start_timeout) as session:
            return session.engine_features
    except EngineError as exc:
        raise EngineSetupError(str(exc)) from None


async def shared_limits(
    specs: Sequence[EngineSpec],
    limits: Mapping[str, int],
    *,
    start_timeout: float = 10.0,
) -> tuple[list[EngineSpec], list[str]]:
    """``specs`` with each of ``limits`` (``nodes``, ``depth``) given to every engine that
    has no such limit of its own and declares the feature; and one note per engine left
    without it, e.g. ``greedy does not declare 'feature nodes': it plays without a node
    limit``. Engines that need no shared limit are not started.

    :raises EngineSetupError: an engine that does not start (one line).
    """
    wanted = {key: value for key, value in limits.items() if value is not None}
    result: list[EngineSpec] = []
    notes: list[str] = []
    for spec in specs:
        missing = [key for key in wanted if getattr(spec, key) is None]
        if not missing:
            result.append(spec)
            continue
        features = await declared_features(spec, start_timeout=start_timeout)
        for key in missing:
            if key in features:
                spec = replace(spec, nodes=wanted[key]) if key == "nodes" else spec
                spec = replace(spec, depth=wanted[key]) if key == "depth" else spec
            else:
                notes.append(
                    f"{spec.name} does not declare 'feature {key}': it plays without a"
                    f" {LIMIT_FEATURES[key]} limit"
                )
        result.append(spec)
    return result, notes
