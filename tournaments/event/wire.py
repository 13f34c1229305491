"""The one JSON codec of the values that travel between processes: ``to_json`` / ``from_json``.

A game slot's setup and jobs go to worker processes and Dask tasks as JSON. No value
type writes its own JSON: ``to_json`` turns any frozen dataclass into a dict of *all*
its fields, recursively, and ``from_json(Kind, data)`` rebuilds a ``Kind`` from such a
dict, led by ``Kind``'s type hints. A field added to ``EngineSpec``, ``TimeControl``,
``SandboxSettings``, ``Job`` or ``SlotSetup`` therefore travels with no change here.

What it knows, by type: dataclasses (a field's key is its name), ``None``, ``bool``,
``int``, ``float``, ``str``, enums (by value), ``tuple[X, ...]`` and ``tuple[X, Y]``
(JSON lists), ``Mapping[str, X]`` / ``dict[str, X]`` (JSON objects), ``X | None`` and
other unions (the first member that reads), ``Literal`` and ``Any``.

Decoding checks what it reads: a missing field without a default, a field the type
does not have, or a value of the wrong JSON type raises ``WireError`` naming the path
(``SlotSetup.entrants[1].tc.base``); the dataclass's own ``__post_init__`` then checks
the value as it would anywhere else. A field left out takes its default, so a newer
field's default serves a message written before it existed.

Kept free of pydantic (a worker process imports little) and of anything of this
project's: the codec knows the types only through their hints.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import operator
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

_Decoder = Callable[[Any], Any]
"""Reads one JSON value (raises ``_Misread``)."""

_SCALARS = (str, int, float, bool, type(None))
_EXACT = (str, int, bool)
"""The JSON types read back as they are (a float may come back as an int)."""


class _Reread:
    """No JSON value has this type: a field typed so is always read by its reader."""


class WireError(Exception):
    """A JSON value that does not read as the type asked for (the message names where).

    Not a ``ValueError``: the values travel between the referee's own processes, so a
    message that does not read is a bug (or two versions of the referee), not bad input."""


def to_json(value: Any) -> Any:
    """``value`` as JSON-able data: a dataclass as a dict of every field, a tuple or
    list as a list, a mapping as a dict, an enum as its value.

    A dataclass's fields are written as their type hints say (a writer built once per
    class, as the readers are; a value that is not of its field's type is a type error
    that mypy sees, not checked here); any other value by what it is.

    :raises TypeError: a value the codec does not know (a set, a path, a non-str key).
    """
    write = _WRITERS.get(type(value))
    if write is not None:
        return write(value)
    return _any_to_json(value)


def _any_to_json(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, (tuple, list)):
        return [_any_to_json(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encoder(type(value))(value)
    if isinstance(value, enum.Enum):
        return _any_to_json(value.value)
    if isinstance(value, Mapping):
        if not all(type(key) is str for key in value):
            raise TypeError(f"only str keys travel as JSON: {value!r}")
        return {key: _any_to_json(item) for key, item in value.items()}
    raise TypeError(f"no JSON form for a {type(value).__name__}: {value!r}")


_Encoder = Callable[[Any], Any]
_WRITERS: dict[type, _Encoder] = {}
"""The writer of each dataclass met so far (``_encoder``), for ``to_json``'s first look."""


def _encoder(cls: type) -> _Encoder:
    """The writer of one dataclass, built once: each field by its hint."""
    known = _WRITERS.get(cls)
    if known is not None:
        return known
    names = _field_names(cls)
    get = operator.attrgetter(*names) if len(names) > 1 else (lambda v: (getattr(v, names[0]),))
    converted: list[tuple[str, _Encoder]] = []
    """The fields JSON does not take as they are, with their writers."""

    def write(value: Any) -> dict[str, Any]:
        # every field as it is (in C), then the few that JSON does not take as they are
        data = dict(zip(names, get(value), strict=False))  # as long by construction
        for name, writer in converted:
            data[name] = writer(data[name])
        return data

    _WRITERS[cls] = write  # first: a dataclass may hold itself
    hints = typing.get_type_hints(cls)
    converted.extend((n, w) for n in names if (w := _writer(hints[n])) is not None)
    return write


def _writer(hint: Any) -> _Encoder | None:
    """How a value of type ``hint`` is written; None when JSON takes it as it is."""
    if hint in _SCALARS or hint is None:
        return None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _encoder(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        (inner,) = (arg for arg in args if arg is not type(None))
        some = _writer(inner)
        if some is None:
            return None
        return lambda value: None if value is None else some(value)
    if origin is tuple and all(arg in _SCALARS or arg is Ellipsis for arg in args):
        return list
    return _any_to_json  # by what the value is


def from_json(kind: type[T], data: Any) -> T:
    """The ``kind`` that ``to_json`` wrote as ``data``.

    :raises WireError: ``data`` does not read as ``kind`` (one line naming where).
    :raises ValueError: the rebuilt value breaks its own checks (its ``__post_init__``).
    """
    try:
        hint: Any = kind  # a type, hashable: the readers are cached per type
        result: T = _decoder(hint)(data)
    except _Misread as exc:
        where = "".join(reversed(exc.where))
        raise WireError(f"{kind.__name__}{where}: {exc.args[0]}") from None
    return result


class _Misread(Exception):
    """Raised inside: the containers on the way out add where (the path is only built
    for a message, never for a value that reads)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.where: list[str] = []


def _at(where: str, exc: _Misread) -> _Misread:
    exc.where.append(where)
    return exc


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.init)


@functools.cache
def _decoder(hint: Any) -> _Decoder:
    """The reader of one type hint, built once per hint."""
    if hint is Any:
        return lambda data: data
    if hint in (type(None), None):
        return _none
    if hint in _EXACT:
        return _exact(hint)
    if hint is float:
        return _float
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(hint)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _enum(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _union(args)
    if origin is typing.Literal:
        return _literal(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple_of(_decoder(args[0]))
        return _fixed_tuple(tuple(_decoder(arg) for arg in args))
    if origin in (dict, Mapping) and args and args[0] is str:
        return _mapping(_decoder(args[1]))
    raise TypeError(f"the wire codec cannot read a {hint!r}")


def _fail(expected: str, data: Any) -> _Misread:
    shown = repr(data)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return _Misread(f"expected {expected}, not {shown}")


def _none(data: Any) -> None:
    if data is not None:
        raise _fail("null", data)


def _exact(kind: type) -> _Decoder:
    # exact types: a JSON true is no int, and 1 is no bool
    def read(data: Any) -> Any:
        if type(data) is not kind:
            raise _fail(kind.__name__, data)
        return data

    return read


def _float(data: Any) -> float:
    # JSON has one number type: a whole float may come back as an int
    if type(data) is float:
        return data
    if type(data) is int:
        return float(data)
    raise _fail("float", data)


def _enum(kind: type[enum.Enum]) -> _Decoder:
    def read(data: Any) -> Any:
        try:
            return kind(data)
        except ValueError:
            raise _fail(kind.__name__, data) from None

    return read


def _literal(choices: tuple[Any, ...]) -> _Decoder:
    def read(data: Any) -> Any:
        if not any(type(data) is type(c) and data == c for c in choices):
            raise _fail(" or ".join(map(repr, choices)), data)
        return data

    return read


def _union(members: tuple[Any, ...]) -> _Decoder:
    optional = type(None) in members
    readers = [_decoder(m) for m in members if m is not type(None)]
    if len(readers) == 1:
        (only,) = readers

        def read_optional(data: Any) -> Any:
            return None if data is None else only(data)

        return read_optional

    def read(data: Any) -> Any:
        if data is None and optional:
            return None
        for reader in readers:
            try:
                return reader(data)
            except _Misread:
                continue
        raise _fail(" | ".join(map(_name, members)), data)

    return read


def _name(hint: Any) -> str:
    return hint.__name__ if isinstance(hint, type) else str(hint)


def _tuple_of(item: _Decoder) -> _Decoder:
    def read(data: Any) -> tuple[Any, ...]:
        if type(data) is not list:
            raise _fail("a list", data)
        try:
            return tuple(map(item, data))
        except _Misread as exc:
            index = next(i for i, value in enumerate(data) if not _reads(item, value))
            raise _at(f"[{index}]", exc) from None

    return read


def _reads(reader: _Decoder, value: Any) -> bool:
    try:
        reader(value)
    except _Misread:
        return False
    return True


def _fixed_tuple(items: tuple[_Decoder, ...]) -> _Decoder:
    def read(data: Any) -> tuple[Any, ...]:
        if type(data) is not list or len(data) != len(items):
            raise _fail(f"a list of {len(items)}", data)
        values = []
        for index, (item, value) in enumerate(zip(items, data, strict=True)):
            try:
                values.append(item(value))
            except _Misread as exc:
                raise _at(f"[{index}]", exc) from None
        return tuple(values)

    return read


def _mapping(item: _Decoder) -> _Decoder:
    def read(data: Any) -> dict[str, Any]:
        if type(data) is not dict:
            raise _fail("an object", data)
        result = {}
        for key, value in data.items():
            if type(key) is not str:
                raise _fail("a str key", key)
            try:
                result[key] = item(value)
            except _Misread as exc:
                raise _at(f"[{key!r}]", exc) from None
        return result

    return read


def _dataclass(cls: type) -> _Decoder:
    fields = [f for f in dataclasses.fields(cls) if f.init]
    required = frozenset(
        f.name
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    names = frozenset(f.name for f in fields)
    ordered = [f.name for f in fields]
    positional = not any(f.kw_only for f in fields)
    # the field readers are built on first use: a dataclass may hold itself
    readers: dict[str, _Decoder] = {}
    order: list[tuple[str, type, _Decoder]] = []
    """Each field in order: its name, the type its JSON value already has when it needs
    no reading (``_Reread`` for none), and its reader."""

    def read(data: Any) -> Any:
        if type(data) is not dict:
            raise _fail(f"a {cls.__name__} object", data)
        if not readers:
            hints = typing.get_type_hints(cls)
            readers.update((f.name, _decoder(hints[f.name])) for f in fields)
            order.extend(
                (f.name, hints[f.name] if hints[f.name] in _SCALARS else _Reread, readers[f.name])
                for f in fields
            )
        if data.keys() == names:  # every field given: in order, positionally
            args = []
            for name, kind, reader in order:
                value = data[name]
                if type(value) is not kind:
                    try:
                        value = reader(value)
                    except _Misread as exc:
                        raise _at(f".{name}", exc) from None
                args.append(value)
            return cls(*args) if positional else cls(**dict(zip(ordered, args, strict=False)))
        unknown = data.keys() - names
        if unknown:
            raise _Misread(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
        missing = required - data.keys()
        if missing:
            raise _Misread(f"missing field {sorted(missing)[0]!r}")
        values = {}
        for key, value in data.items():
            try:
                values[key] = readers[key](value)
            except _Misread as exc:
                raise _at(f".{key}", exc) from None
        return cls(**values)

    return read
