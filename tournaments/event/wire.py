"""The one JSON codec of the values that travel between processes: ``to_json`` / ``from_json``.

A game slot's setup and jobs go to worker processes and Dask tasks as JSON. No value
type writes its own JSON: ``to_json`` turns any frozen dataclass into a dict of *all*
its fields, recursively, and ``from_json(Kind, data)`` rebuilds a ``Kind`` from such a
dict, led by ``Kind``'s type hints. A field added to ``EngineSpec``, ``TimeControl``,
``SandboxSettings``, ``Job`` or ``SlotSetup`` therefore travels with no change here.

What it knows, by type: dataclasses (a field's key is its name), ``None``, ``bool``,
``int``, ``float``, ``str``, enums (by value), ``tuple[X, ...]`` and ``tuple[X, Y]``
(JSON lists), ``Mapping[str, X]`` / ``dict[str, X]`` (JSON objects), ``X | None`` and
other unions (the first member that reads), ``Literal`` and ``Any``. A JSON array may
come as a list or a tuple (as msgpack gives it back). A field whose hint is
``Annotated[X, form]``, ``form`` a ``JsonForm``, is written and read by ``form``
instead (a form of its own, for speed or size: ``GameReport``'s timings travel as
whole microseconds, which JSON writes five times faster than floats).

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
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

_Decoder = Callable[[Any], Any]
"""Reads one JSON value (raises ``_Misread``)."""

_SCALARS = (str, int, float, bool, type(None))
_ARRAYS = (list, tuple)
"""What a JSON array is read from: a list, or a tuple (Dask's msgpack hands its
arrays back as tuples)."""
_EXACT = (str, int, bool)
"""The JSON types read back as they are (a float may come back as an int)."""
_AS_THEY_ARE = (str, int, bool, float)
"""The item types of a list taken as it is when it holds nothing else."""


class JsonForm(Protocol):
    """A value's own JSON form, named in a field's hint (``Annotated[X, form]``)."""

    def write(self, value: Any) -> Any:
        """``value`` as JSON-able data."""

    def read(self, data: Any) -> Any:
        """The value ``write`` wrote as ``data``.

        :raises ValueError, TypeError: ``data`` is not of this form (the codec's
            ``WireError`` then names the field and the form: its ``name`` if it has
            one, else its class's).
        """


def _form(hint: Any) -> JsonForm | None:
    """The ``JsonForm`` that an ``Annotated`` hint names, if any."""
    for meta in getattr(hint, "__metadata__", ()):
        if callable(getattr(meta, "write", None)) and callable(getattr(meta, "read", None)):
            form: JsonForm = meta
            return form
    return None


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
    if isinstance(value, enum.Enum):  # before the dataclass test: slow on an enum
        return _any_to_json(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encoder(type(value))(value)
    if isinstance(value, Mapping):
        if not all(type(key) is str for key in value):
            raise TypeError(f"only str keys travel as JSON: {value!r}")
        return {key: _any_to_json(item) for key, item in value.items()}
    raise TypeError(f"no JSON form for a {type(value).__name__}: {value!r}")


_Encoder = Callable[[Any], Any]
_WRITERS: dict[type, _Encoder] = {}
"""The writer of each dataclass met so far (``_encoder``), for ``to_json``'s first look."""


def writer_without(cls: type[T], left_out: Collection[str]) -> Callable[[T], dict[str, Any]]:
    """``to_json`` of a ``cls`` but for the fields ``left_out`` (which ``from_json`` then
    reads as their defaults), built once here: for a store that keeps less than what
    travels, with no field written only to be dropped.

    :raises TypeError: ``cls`` is not a dataclass, or a field left out is not one of
        its fields or has no default.
    """
    kind: Any = cls  # a dataclass type, hashable
    defaults = {
        f.name
        for f in dataclasses.fields(kind)
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
    }
    refused = sorted(set(left_out) - defaults)
    if refused:
        raise TypeError(f"{cls.__name__}.{refused[0]}: no such field with a default to leave out")
    names = tuple(name for name in _field_names(kind) if name not in left_out)
    return _build_encoder(cls, names)


def _encoder(cls: type) -> _Encoder:
    """The writer of one dataclass, built once: each field by its hint."""
    known = _WRITERS.get(cls)
    if known is not None:
        return known
    return _build_encoder(cls, _field_names(cls), cache=True)


def _build_encoder(cls: type, names: tuple[str, ...], *, cache: bool = False) -> _Encoder:
    """A writer of ``names`` of ``cls``, compiled as a dataclass's own ``__init__`` is:
    one dict display, each field as it is or through its type's writer (as fast as a
    hand-written ``to_dict``)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    converted = [name for name in names if not _plain(hints[name])]
    items = (f"{n!r}: _{n}(value.{n})" if n in converted else f"{n!r}: value.{n}" for n in names)
    namespace: dict[str, Any] = {}
    source = f"def write(value):\n    return {{{', '.join(items)}}}\n"
    exec(_code(source, names), namespace)
    write: _Encoder = namespace["write"]
    if cache:
        _WRITERS[cls] = write  # first: a dataclass may hold itself
    for name in converted:  # looked up when ``write`` runs, so filled in now
        namespace[f"_{name}"] = _writer(hints[name]) or _as_it_is
    return write


def _code(source: str, names: Sequence[str]) -> str:
    """``source``, a function built from a dataclass's field ``names`` and nothing else
    (never from data), once they are checked to be identifiers, as ``dataclasses``
    builds ``__init__``.

    :raises TypeError: a name that is not an identifier.
    """
    odd = [name for name in names if not name.isidentifier()]
    if odd:
        raise TypeError(f"not a field name: {odd[0]!r}")
    return source


def _plain(hint: Any) -> bool:
    """Whether JSON takes a value of type ``hint`` as it is (``_writer`` gives None)."""
    if hint in _SCALARS or hint is None:
        return True
    args = typing.get_args(hint)
    union = typing.get_origin(hint) in (typing.Union, types.UnionType)
    return union and all(arg in _SCALARS for arg in args)


def _as_it_is(value: Any) -> Any:
    return value


def _writer(hint: Any) -> _Encoder | None:
    """How a value of type ``hint`` is written; None when JSON takes it as it is."""
    if hint in _SCALARS or hint is None:
        return None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _encoder(hint)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        if all(type(member.value) in _SCALARS for member in hint):
            return _VALUE
        return _any_to_json
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Annotated:
        form = _form(hint)
        return form.write if form is not None else _writer(args[0])
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        (inner,) = (arg for arg in args if arg is not type(None))
        some = _writer(inner)
        if some is None:
            return None
        return lambda value: None if value is None else some(value)
    if origin is tuple and all(arg in _SCALARS or arg is Ellipsis for arg in args):
        return list
    return _any_to_json  # by what the value is


_VALUE = operator.attrgetter("value")
"""The writer of an enum whose values JSON takes as they are."""


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
    if origin is typing.Annotated:
        form = _form(hint)
        return _formed(form) if form is not None else _decoder(args[0])
    if origin in (typing.Union, types.UnionType):
        return _union(args)
    if origin is typing.Literal:
        return _literal(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple_of(_decoder(args[0]), args[0] if args[0] in _AS_THEY_ARE else None)
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


def _formed(form: JsonForm) -> _Decoder:
    def read(data: Any) -> Any:
        try:
            return form.read(data)
        except (ValueError, TypeError):
            raise _fail(str(getattr(form, "name", type(form).__name__)), data) from None

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


def _tuple_of(item: _Decoder, exact: type | None) -> _Decoder:
    """Reads a list of ``item``s; of ``exact`` values (a type in ``_AS_THEY_ARE``) when
    given, whose list is looked at in C and taken as it is when it holds nothing else."""
    only = {exact}

    def read(data: Any) -> tuple[Any, ...]:
        if type(data) is not list and type(data) is not tuple:
            raise _fail("a list", data)
        if {*map(type, data)} <= only:
            return tuple(data)
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
        if type(data) not in _ARRAYS or len(data) != len(items):
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
    # the field readers are built on first use: a dataclass may hold itself
    readers: dict[str, _Decoder] = {}
    order: list[tuple[str, type, _Decoder]] = []
    """Each field in order: its name, the type its JSON value already has when it needs
    no reading (``_Reread`` for none), and its reader."""
    compiled: list[_Decoder] = []
    """The reader of a dict of no unknown field (``_compiled``), built with ``readers``."""

    def read(data: Any) -> Any:
        if type(data) is not dict:
            raise _fail(f"a {cls.__name__} object", data)
        if not readers:
            hints = typing.get_type_hints(cls, include_extras=True)
            readers.update((f.name, _decoder(hints[f.name])) for f in fields)
            order.extend(
                (f.name, hints[f.name] if hints[f.name] in _SCALARS else _Reread, readers[f.name])
                for f in fields
            )
            compiled.append(_compiled(cls, fields, order))
        if data.keys() <= names:
            try:
                return compiled[0](data)
            except (_Misread, KeyError):
                pass  # read again below, field by field, to say where
        unknown = data.keys() - names
        if unknown:
            raise _Misread(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
        missing = required - data.keys()
        if missing:
            raise _Misread(f"missing field {sorted(missing)[0]!r}")
        values = {}
        for name, kind, reader in order:  # the fields given; the others take their defaults
            if name not in data:
                continue
            value = data[name]
            if type(value) is not kind:
                try:
                    value = reader(value)
                except _Misread as exc:
                    raise _at(f".{name}", exc) from None
            values[name] = value
        return cls(**values)

    return read


def _compiled(
    cls: type, fields: list[dataclasses.Field[Any]], order: list[tuple[str, type, _Decoder]]
) -> _Decoder:
    """The reader of a dict of ``cls``'s fields, compiled as a dataclass's own
    ``__init__`` is: a value of its field's JSON type is taken as it is, any other goes
    through its reader, a field left out takes its default; a missing field raises
    ``KeyError`` and a value that does not read ``_Misread``, neither saying where."""
    namespace: dict[str, Any] = {"cls": cls, "_left_out": _LEFT_OUT}
    lines = ["def read(data):"]
    for index, (field, (name, kind, reader)) in enumerate(zip(fields, order, strict=True)):
        namespace[f"_r{index}"], namespace[f"_k{index}"] = reader, kind
        value = f"v{index}"
        read = f"{value} = _r{index}({value})"
        if kind is not _Reread:
            read = f"if type({value}) is not _k{index}: {read}"
        if field.default is not dataclasses.MISSING:
            namespace[f"_d{index}"] = field.default
            default = f"_d{index}"
        elif field.default_factory is not dataclasses.MISSING:
            namespace[f"_d{index}"] = field.default_factory
            default = f"_d{index}()"
        else:
            lines += [f"    {value} = data[{name!r}]", f"    {read}"]
            continue
        lines += [
            f"    {value} = data.get({name!r}, _left_out)",
            f"    if {value} is _left_out: {value} = {default}",
            f"    else:\n        {read}",
        ]
    args = [f"v{i}" for i, f in enumerate(fields) if not f.kw_only]
    args += [f"{f.name}=v{i}" for i, f in enumerate(fields) if f.kw_only]  # after, as __init__'s
    lines.append(f"    return cls({', '.join(args)})")
    exec(_code("\n".join(lines) + "\n", [f.name for f in fields]), namespace)
    compiled: _Decoder = namespace["read"]
    return compiled


_LEFT_OUT = object()
"""A field not in the dict being read (``_compiled``)."""
