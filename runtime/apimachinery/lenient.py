"""The slow decode path: what msgspec's strict decode refuses, fitted to a model losslessly.

The strict decode (``msgspec.json.Decoder(cls)``) is the fast path and handles nearly every
object a server sends. It refuses three things the apiserver itself accepts or produces, and
for each this module follows what Go's ``encoding/json`` and the apiserver do, while recording
in the object's one hidden field (``UNKNOWN_FIELDS_KEY``, an ``UnknownFields``) what is needed to write the object back
exactly as it was read:

- **Unknown fields** (the server is newer than the generated code): kept under their wire name
  and written back (the known field wins if both exist), so a read-modify-write loses nothing.
- **Explicit null on a ``nullable: true`` field** (CRDs: the apiserver stores and returns it):
  the field reads ``None`` like an absent one, and the null is written back unless the field
  was given a value. Kept as the entry ``name: None``, which is how an unknown null is kept too.
- **A required field that is absent or null** (partial metadata, field selection, older servers,
  controllers that never set a required status field): as Go decodes into a struct, the field
  gets its zero value (``""``, ``0``, ``False``, ``[]``, ``{}``, a zero-filled nested model;
  ``None`` for an untyped ``Any``), and the zero value is recorded under ``ABSENT_KEY`` (or
  ``NULL_KEY``). Writing the object back omits the field (or writes ``null``) as long as it
  still holds that zero value; a field the caller set is written as set.

Map keys that are not strings (YAML's ``8090:``, ``true:``, ``1.5:``) become strings as
sigs.k8s.io/yaml's ``YAMLToJSON`` makes them, which is what kubectl sends for that YAML:
``strconv.Itoa`` for integers, ``"true"``/``"false"``, ``FormatFloat(f, 'g', -1, 32)`` for floats.
A value of the wrong type (``8080`` for a string field) stays an error, as the apiserver rejects
it too.
"""

from __future__ import annotations

import functools
import math
import struct
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

from msgspec import inspect as _inspect

UNKNOWN_FIELDS_KEY = "$kgen:unknown-fields"
"""The wire name of every model's hidden bookkeeping field."""
ABSENT_KEY = "$kgen:absent"
"""Inside the bookkeeping: required fields that were absent, with the zero value they got."""
NULL_KEY = "$kgen:null"
"""Inside the bookkeeping: required fields that were null, with the zero value they got."""


class UnknownFields(MutableMapping[str, Any]):
    """What one object holds beyond its model's fields: wire name → JSON value, written back.

    It reads like the ``dict`` it wraps (``==`` with a dict compares the entries) but is not a
    ``dict``, so that msgspec hands it to the model encoder's hook instead of writing it: that
    is how encoding learns, at no cost to the objects without one, that a fold is needed
    (``model.py``). The entries under ``ABSENT_KEY`` and ``NULL_KEY`` are the decoder's own.
    """

    __slots__ = ("_fields",)

    def __init__(self, fields: Mapping[str, Any] | None = None, /) -> None:
        self._fields: dict[str, Any] = dict(fields) if fields else {}

    def __getitem__(self, key: str) -> Any:
        return self._fields[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._fields[key] = value

    def __delitem__(self, key: str) -> None:
        del self._fields[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __repr__(self) -> str:
        return f"UnknownFields({self._fields!r})"

    def to_dict(self) -> dict[str, Any]:
        """The entries as a plain dict (the same one: changes to it show here)."""
        return self._fields


@functools.cache
def type_info(cls: type) -> _inspect.Type:
    """msgspec's type information of model ``cls`` (cached)."""
    return _inspect.type_info(cls)


@functools.cache
def _fields(cls: type) -> dict[str, _inspect.Field]:
    info = type_info(cls)
    assert isinstance(info, _inspect.StructType)
    return {f.encode_name: f for f in info.fields if f.encode_name != UNKNOWN_FIELDS_KEY}


@functools.cache
def _required(cls: type) -> tuple[_inspect.Field, ...]:
    return tuple(f for f in _fields(cls).values() if f.required)


@functools.cache
def _nullable(cls: type) -> frozenset[str]:
    return frozenset(getattr(cls, "NULLABLE", ()))


@functools.cache
def keeps_nulls(cls: type) -> bool:
    """Whether some class reachable from ``cls`` has a ``nullable`` field: then an explicit null
    must be seen, and the strict decode (which reads it as absent) cannot be used on it."""
    seen: set[type] = set()

    def walk(tp: _inspect.Type) -> bool:
        if isinstance(tp, _inspect.StructType):
            if tp.cls in seen:
                return False
            seen.add(tp.cls)
            # tp.fields, not _fields(tp.cls): one type_info call translates the whole graph once
            return bool(_nullable(tp.cls)) or any(walk(f.type) for f in tp.fields if f.encode_name != UNKNOWN_FIELDS_KEY)
        if isinstance(tp, _inspect.UnionType):
            return any(walk(t) for t in tp.types)
        if isinstance(tp, (_inspect.ListType, _inspect.VarTupleType)):
            return walk(tp.item_type)
        if isinstance(tp, _inspect.DictType):
            return walk(tp.value_type)
        return False

    return walk(type_info(cls))


Books = dict[Any, Any]
"""Where the bookkeeping of a fitted value goes, as a tree that holds only the paths leading to
some: object field wire names, list indexes and map keys lead down, and ``UNKNOWN_FIELDS_KEY``
holds the ``UnknownFields`` of the object at that place."""


def fit(value: Any, cls: type) -> tuple[Any, Books]:
    """``value`` (decoded JSON or YAML) reshaped so that ``msgspec.convert(value, cls)`` accepts
    it as this module's docstring describes, and the bookkeeping that reshaping recorded, for
    ``attach`` to put on the converted objects. A value of a wrong type is left for convert to
    report with its path. Raises ``ValueError`` for a map key YAML-to-JSON refuses too."""
    books: Books = {}
    return _fit(value, type_info(cls), None, books), books


def attach(obj: Any, books: Books, with_bookkeeping: Any) -> Any:
    """``obj`` (converted from what ``fit`` returned) with ``books`` put on its objects: each
    object that has some is replaced by a copy of class ``with_bookkeeping(type(obj))``.
    Lists and maps are changed in place; the new top-level object is returned."""
    for key, below in books.items():
        if key == UNKNOWN_FIELDS_KEY:
            continue
        if isinstance(obj, (list, dict)):
            child = obj[key]
            new = attach(child, below, with_bookkeeping)
            if new is not child:
                obj[key] = new
        else:
            cls: type = type(obj)
            name = _python_names(cls)[key]
            child = getattr(obj, name)
            new = attach(child, below, with_bookkeeping)
            if new is not child:
                setattr(obj, name, new)
    book = books.get(UNKNOWN_FIELDS_KEY)
    if book is not None and not isinstance(obj, (list, dict)):
        cls = with_bookkeeping(type(obj))
        return cls(**{name: getattr(obj, name) for name in type(obj).__struct_fields__}, unknown_fields_=book)
    return obj


@functools.cache
def _python_names(cls: type) -> dict[str, str]:
    return dict(zip(cls.__struct_encode_fields__, cls.__struct_fields__))  # type: ignore[attr-defined]


def _record(books: Books, path: _Path, book: UnknownFields) -> None:
    keys: list[Any] = []
    while path is not None:
        if len(path) == 2:
            path, key = path
        else:
            path, key, _ = path
        keys.append(key)
    node = books
    for key in reversed(keys):
        node = node.setdefault(key, {})
    node[UNKNOWN_FIELDS_KEY] = book


_Path = tuple[Any, ...] | None
"""Where a value sits, built only as tuples on the way down: (parent, object field name) or
(parent, list index or map key, None); rendered as a JSON path only for an error message."""


def _render(path: _Path) -> str:
    parts: list[str] = []
    while path is not None:
        if len(path) == 2:
            path, name = path
            parts.append(f".{name}")
        else:
            path, key, _ = path
            parts.append(f".{key}" if isinstance(key, str) and key.isidentifier() else f"[{key!r}]")
    return "$" + "".join(reversed(parts))


def _fit(value: Any, tp: _inspect.Type, path: _Path, books: Books) -> Any:
    if isinstance(tp, _inspect.UnionType):
        if value is None:
            return None
        for member in tp.types:
            if _fits(value, member):
                return _fit(value, member, path, books)
        return value
    if isinstance(value, dict):
        if isinstance(tp, _inspect.StructType):
            return _fit_object(value, tp.cls, path, books)
        if isinstance(tp, _inspect.DictType):
            out = {}
            for k, v in value.items():
                key = _json_key(k, path)
                out[key] = _fit(v, tp.value_type, (path, key, None), books)
            return out
        if isinstance(tp, _inspect.AnyType):
            return _jsonable(value, path)
        return value
    if isinstance(value, list):
        if isinstance(tp, (_inspect.ListType, _inspect.VarTupleType)):
            return [_fit(item, tp.item_type, (path, i, None), books) for i, item in enumerate(value)]
        if isinstance(tp, _inspect.AnyType):
            return _jsonable(value, path)
    return value


def _fit_object(value: dict[Any, Any], cls: type, path: _Path, books: Books) -> dict[str, Any]:
    known = _fields(cls)
    nullable = _nullable(cls)
    out: dict[str, Any] = {}
    book: dict[str, Any] = {}
    for raw_key, item in value.items():
        key = _json_key(raw_key, path)
        f = known.get(key)
        if f is None:
            if key == UNKNOWN_FIELDS_KEY and isinstance(item, (dict, UnknownFields)):
                book.update(item)  # already fitted (a model's own dict form)
            else:
                book[key] = _jsonable(item, (path, key))
        elif item is None and key in nullable:
            book[key] = None
        elif item is None and f.required and not _allows_none(f.type):
            zero, wire = _zero(f.type, (path, key), frozenset(), books)
            out[key] = zero
            book.setdefault(NULL_KEY, {})[key] = wire
        else:
            out[key] = _fit(item, f.type, (path, key), books)
    for f in _required(cls):
        if f.encode_name not in out and f.encode_name not in book.get(NULL_KEY, ()):
            zero, wire = _zero(f.type, (path, f.encode_name), frozenset(), books)
            out[f.encode_name] = zero
            book.setdefault(ABSENT_KEY, {})[f.encode_name] = wire
    if book:
        _record(books, path, UnknownFields(book))
    return out


def _allows_none(tp: _inspect.Type) -> bool:
    if isinstance(tp, _inspect.UnionType):
        return any(isinstance(t, _inspect.NoneType) for t in tp.types)
    return isinstance(tp, (_inspect.NoneType, _inspect.AnyType))


def _fits(value: Any, tp: _inspect.Type) -> bool:
    if isinstance(tp, (_inspect.StructType, _inspect.DictType)):
        return isinstance(value, dict)
    if isinstance(tp, (_inspect.ListType, _inspect.VarTupleType)):
        return isinstance(value, list)
    return False


def _zero(tp: _inspect.Type, path: _Path, filling: frozenset[type], books: Books) -> tuple[Any, Any]:
    """Go's zero value of a field's type: (what the model holds, what it encodes to)."""
    if isinstance(tp, _inspect.UnionType):
        if _allows_none(tp):
            return None, None
        return _zero(tp.types[0], path, filling, books)
    if isinstance(tp, _inspect.StructType):
        if tp.cls in filling:  # a required field of its own type: no finite zero value
            raise ValueError(f"{_render(path)}: a required {tp.cls.__name__} inside itself has no zero value")
        return _fill(tp.cls, path, filling | {tp.cls}, books), {}
    if isinstance(tp, (_inspect.ListType, _inspect.VarTupleType)):
        return [], []
    if isinstance(tp, _inspect.DictType):
        return {}, {}
    if isinstance(tp, (_inspect.StrType, _inspect.LiteralType)):
        return "", ""
    if isinstance(tp, _inspect.IntType):
        return 0, 0
    if isinstance(tp, _inspect.FloatType):
        return 0.0, 0.0
    if isinstance(tp, _inspect.BoolType):
        return False, False
    return None, None


def _fill(cls: type, path: _Path, filling: frozenset[type], books: Books) -> dict[str, Any]:
    out: dict[str, Any] = {}
    absent: dict[str, Any] = {}
    for f in _required(cls):
        out[f.encode_name], absent[f.encode_name] = _zero(f.type, (path, f.encode_name), filling, books)
    if absent:
        _record(books, path, UnknownFields({ABSENT_KEY: absent}))
    return out


def yaml_to_json(value: Any) -> Any:
    """Decoded YAML as sigs.k8s.io/yaml's ``YAMLToJSON`` leaves it: every map key a string
    (``8090`` → ``"8090"``, ``true`` → ``"true"``). Raises ``ValueError`` (with the JSON path)
    for a key it refuses too, such as a list or null."""
    return _jsonable(value, None)


def _jsonable(value: Any, path: _Path) -> Any:
    """An untyped value with every map key a string, as YAML-to-JSON leaves it."""
    if isinstance(value, dict):
        return {_json_key(k, path): _jsonable(v, (path, k, None)) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(item, (path, i, None)) for i, item in enumerate(value)]
    return value


def _json_key(key: Any, path: _Path) -> str:
    """sigs.k8s.io/yaml's key conversion (convertToJSONableObject)."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int):
        return str(key)
    if isinstance(key, float):
        return format_float32_g(key)
    raise ValueError(f"{_render(path)}: expected map keys to be strings, numbers or booleans, got {type(key).__name__} {key!r}")


def format_float32_g(value: float) -> str:
    """Go's ``strconv.FormatFloat(value, 'g', -1, 32)``, with YAML's spellings of inf and nan."""
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    f32 = struct.unpack("f", struct.pack("f", value))[0]
    if f32 == 0:
        return "-0" if math.copysign(1.0, f32) < 0 else "0"
    for precision in range(1, 10):  # the shortest digits that read back as the same float32
        text = f"{f32:.{precision - 1}e}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == f32:
            break
    mantissa, exponent_text = text.split("e")
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "").rstrip("0") or "0"
    exponent = int(exponent_text)
    if exponent < -4 or exponent >= 6:  # shortest 'g' switches to %e at exponent 6, as Go does
        head = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{head}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    point = exponent + 1  # digits before the decimal point
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    return f"{sign}{digits[:point]}.{digits[point:]}"


def fold(value: Any) -> Any:
    """Decoded JSON of an encoded model, with every object's bookkeeping folded back in."""
    if isinstance(value, dict):
        # A map (annotations) may hold the key's text as data: bookkeeping is always an object.
        book = value.pop(UNKNOWN_FIELDS_KEY) if isinstance(value.get(UNKNOWN_FIELDS_KEY), dict) else None
        for key, item in value.items():
            value[key] = fold(item)
        if book:
            absent = book.pop(ABSENT_KEY, None)
            nulls = book.pop(NULL_KEY, None)
            for key, item in book.items():
                if key not in value:
                    value[key] = item
            if absent:
                for key, zero in absent.items():
                    if key in value and _same(value[key], zero):
                        del value[key]
            if nulls:
                for key, zero in nulls.items():
                    if key in value and _same(value[key], zero):
                        value[key] = None
        return value
    if isinstance(value, list):
        return [fold(item) for item in value]
    return value


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and bool(a == b)
