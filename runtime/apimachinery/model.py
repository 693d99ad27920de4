"""The base of every generated model: typed, fast, and lossless.

Models are msgspec ``Struct``s (dataclass-like: keyword constructor, typed attributes, ``==``),
chosen because msgspec decodes JSON bytes straight into them in one native pass; see the
bench/ figures. The wire contract:

- A field in its schema's ``required`` list is typed ``T`` and must be given to the constructor
  (client-go's fields without ``omitempty``; lightkube and k8s-openapi do the same). Every other
  field is ``T | None = None``: ``None`` is the one absent state, omitted on the wire, and
  ``if obj.metadata is not None:`` narrows it for mypy and for the runtime alike.
- Reading never fails for want of a required field: as Go's decoder does, the field gets its
  zero value (``""``, ``0``, ``False``, ``[]``, ``{}``, a zero-filled nested model), and writing
  the object back omits it again while it still holds that value (``lenient.py``). Go would
  write the zero value instead; omitting it keeps the round trip lossless, and if the server's
  schema requires the field, its validation names it (422 ``spec.b: Required value``) rather
  than storing a zero value nobody chose.
- ``nullable: true`` fields (CRDs) keep an explicit ``null`` read from the server apart from
  absent: the field reads ``None`` and the null is written back. Other fields treat ``null`` as
  absent, as the apiserver's Go types do. (To send a null on a new object:
  ``obj.with_unknown_fields({"field": None})``.)
- Fields a model does not know (the server is newer than the generated code) are kept and
  written back, so an object read, changed and written back still carries what this client did
  not understand. They are readable as ``obj.unknown_fields_`` (an ``UnknownFields`` mapping,
  wire name to JSON value), and ``obj.with_unknown_fields({"newField": 1})`` adds some.

The fast path is msgspec's strict decode (unknown fields forbidden, required fields required).
When it refuses, or when a class with a nullable field somewhere below it meets a ``null``, the
slow path (``lenient.fit``) records what it had to change in one hidden field whose wire name
(``UNKNOWN_FIELDS_KEY``) no Kubernetes object uses, and encoding folds it back. Only the objects
that carry such bookkeeping have that field: they are of a subclass of their model made on first
need (``_with_bookkeeping``); every other object is of its model class, which has no hidden
field, so it costs neither memory nor encoding time.

A built-in model declares its fields in the Go struct's order (generator/field_order.py), so
``to_json`` writes the keys in the order the apiserver writes them, and a decoded response's
objects sit in memory in the order the encoder walks them; CRD models keep sorted keys, as the
apiserver writes custom resources.

Encoding is one msgspec pass, the same one lightkube's ``json_encode`` makes (both are msgspec
Structs with ``omit_defaults``, of the same fields), and nothing else. The hidden field holds an
``UnknownFields``,
a type msgspec does not encode by itself, so in the pass msgspec hands it to the encoder's hook;
the hook stops the pass, and only then is the tree encoded again with the bookkeeping as plain
JSON, folded back (``lenient.fold``) and encoded a last time. An object without bookkeeping,
anywhere in the tree, costs no check at all: no scan of the output, no walk of the tree.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Mapping
from typing import Any, ClassVar, NoReturn, TypeVar

import msgspec
from msgspec import field

from kgen.runtime.apimachinery.lenient import UNKNOWN_FIELDS_KEY, UnknownFields, attach, fit, fold, keeps_nulls

__all__ = ["Model", "field", "UNKNOWN_FIELDS_KEY", "ModelError", "UnknownFields"]

M = TypeVar("M", bound="Model")


class _HoldsBookkeeping(Exception):
    """Raised by the fast encoder's hook: some object in the tree carries bookkeeping."""


def _stop(value: Any) -> NoReturn:
    if isinstance(value, UnknownFields):
        raise _HoldsBookkeeping
    raise NotImplementedError(f"Encoding objects of type {type(value).__name__} is unsupported")


def _unwrap(value: Any) -> Any:
    if isinstance(value, UnknownFields):
        return value.to_dict()
    raise NotImplementedError(f"Encoding objects of type {type(value).__name__} is unsupported")


_encoder = msgspec.json.Encoder(enc_hook=_stop)
"""The fast pass: stops at the first ``UnknownFields`` (see the module docstring)."""
_bookkeeping_encoder = msgspec.json.Encoder(enc_hook=_unwrap)
"""The slow pass: writes the bookkeeping out as JSON under its wire name, for ``fold``."""


class ModelError(ValueError):
    """Data that does not fit the model: says where (a JSON path) and what was expected."""


class Model(
    msgspec.Struct,
    kw_only=True,
    omit_defaults=True,
    forbid_unknown_fields=True,
    repr_omit_defaults=True,
    gc=False,
):
    """A Kubernetes object or part of one. See the module docstring for the wire contract."""

    API_VERSION: ClassVar[str | None] = None
    """Set on top-level resources: their ``apiVersion`` and ``kind``."""
    KIND: ClassVar[str | None] = None
    DEFAULTS: ClassVar[dict[str, Any]] = {}
    """The schema's defaults (applied by the server, never by this client), by Python name."""
    REDACTED: ClassVar[tuple[str, ...]] = ()
    """Fields holding credentials (Secret data, tokens): repr shows that they are set, not what."""
    NULLABLE: ClassVar[tuple[str, ...]] = ()
    """Wire names of the optional ``nullable: true`` fields, whose explicit null is kept."""
    _BOOKKEEPING_OF: ClassVar[type[Model] | None] = None
    """Set on the subclass that carries bookkeeping (``_with_bookkeeping``): the class it extends."""

    @property
    def unknown_fields_(self) -> UnknownFields | None:
        """What the slow decode path recorded for this object (unknown fields, explicit nulls,
        absent required fields), folded back in when it is encoded; ``None`` almost always.
        Objects that carry some are of a subclass of their model with one more field, made on
        first need (``isinstance`` holds; ``==`` tells the two apart, as their JSON differs)."""
        return None

    def with_unknown_fields(self: M, fields: Mapping[str, Any] | None) -> M:
        """A shallow copy of this object that also writes ``fields`` (wire name → JSON value),
        e.g. a field this model does not know, or an explicit ``null``; ``None`` or ``{}``: a copy
        without any. Replaces what ``unknown_fields_`` held."""
        cls = type(self)
        base = cls._BOOKKEEPING_OF or cls
        values = {name: getattr(self, name) for name in cls.__struct_fields__ if name != "unknown_fields_"}
        if not fields:
            return base(**values)  # type: ignore[return-value]
        twin: M = _with_bookkeeping(base)(**values, unknown_fields_=UnknownFields(fields))
        return twin

    def __repr__(self) -> str:
        if not self.REDACTED:
            return super().__repr__()
        shown = []
        for name in self.__struct_fields__:
            value = getattr(self, name)
            if value is None:
                continue
            shown.append(f"{name}=<redacted>" if name in self.REDACTED and value else f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    @classmethod
    def from_json(cls: type[M], data: bytes | str) -> M:
        """The model from JSON, as Go's decoder reads it (see the module docstring); ``ModelError`` for
        JSON that is not valid."""
        if not keeps_nulls(cls) or not _has_null(data):
            try:
                decoded: M = _decoder(cls).decode(data)
                return decoded
            except msgspec.ValidationError:
                pass
            except msgspec.DecodeError as e:
                raise ModelError(f"{cls.__name__}: invalid JSON: {e}") from None
        try:
            raw = msgspec.json.decode(data)
        except msgspec.DecodeError as e:
            raise ModelError(f"{cls.__name__}: invalid JSON: {e}") from None
        return _convert(raw, cls)

    @classmethod
    def from_dict(cls: type[M], data: Any) -> M:
        """The model from decoded JSON (dicts and lists), read as ``from_json`` reads it."""
        if not keeps_nulls(cls):
            try:
                return msgspec.convert(data, cls)
            except msgspec.ValidationError:
                pass
        return _convert(data, cls)

    def to_json(self) -> bytes:
        """The object as JSON, absent fields left out."""
        try:
            return _encoder.encode(self)
        except _HoldsBookkeeping:
            return _encoder.encode(self._folded())

    def to_dict(self) -> dict[str, Any]:
        """The object as decoded JSON (dicts and lists), absent fields left out."""
        try:
            result: dict[str, Any] = msgspec.json.decode(_encoder.encode(self))
            return result
        except _HoldsBookkeeping:
            return self._folded()

    def _folded(self) -> dict[str, Any]:
        folded: dict[str, Any] = fold(msgspec.json.decode(_bookkeeping_encoder.encode(self)))
        return folded


def _convert(data: Any, cls: type[M]) -> M:
    """The slow path: ``data`` fitted to ``cls`` (lenient.py), converted strictly, and the
    bookkeeping the fit recorded put on the objects it belongs to."""
    try:
        fitted, books = fit(data, cls)
        obj = msgspec.convert(fitted, cls)
    except (msgspec.ValidationError, ValueError) as e:
        raise ModelError(f"{cls.__name__}: {e}") from None
    if not books:
        return obj
    result: M = attach(obj, books, _with_bookkeeping)
    return result


@functools.cache
def _with_bookkeeping(cls: type[M]) -> type[M]:
    """``cls`` with the hidden field ``unknown_fields_`` (wire name ``UNKNOWN_FIELDS_KEY``).

    Only objects that carry bookkeeping are of this class, so the others (nearly all) neither
    hold the slot nor cost the encoder a field to look at: the same shape as lightkube's models.
    """
    if cls._BOOKKEEPING_OF is not None:
        return cls

    def body(namespace: dict[str, Any]) -> None:
        namespace.update(
            __module__=cls.__module__,
            __qualname__=cls.__qualname__,
            __doc__=cls.__doc__,
            __annotations__={"unknown_fields_": UnknownFields | None},
            unknown_fields_=field(default=None, name=UNKNOWN_FIELDS_KEY),
            _BOOKKEEPING_OF=cls,
            __reduce__=_reduce_with_bookkeeping,
        )

    twin: type[M] = types.new_class(cls.__name__, (cls,), {"kw_only": True}, body)
    return twin


def _reduce_with_bookkeeping(obj: Model) -> tuple[Any, ...]:
    """Pickles by the model class (importable), not by the subclass made at run time."""
    return _rebuild_with_bookkeeping, (obj._BOOKKEEPING_OF, {n: getattr(obj, n) for n in obj.__struct_fields__})


def _rebuild_with_bookkeeping(cls: type[Model], values: dict[str, Any]) -> Model:
    rebuilt: Model = _with_bookkeeping(cls)(**values)
    return rebuilt


def _has_null(data: bytes | str) -> bool:
    return b"null" in data if isinstance(data, bytes) else "null" in data


@functools.cache
def _decoder(cls: type[M]) -> msgspec.json.Decoder[M]:
    return msgspec.json.Decoder(cls)
