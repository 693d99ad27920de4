"""The base of every generated model: typed, fast, and lossless.

Models are msgspec ``Struct``s (dataclass-like: keyword constructor, typed attributes, ``==``),
chosen because msgspec decodes JSON bytes straight into them in one native pass; see the
bench/ figures. Two facts keep them lossless:

- Every field defaults to ``UNSET``, so a field that was absent stays absent and an explicit
  ``null`` stays ``None``; encoding omits ``UNSET`` and writes ``None`` as ``null``.
- Fields a model does not know (the server is newer than the generated code) are kept. The
  fast decode forbids unknown fields; when it refuses, a slower path moves each unknown field
  into a hidden per-object field whose wire name (``UNKNOWN_FIELDS_KEY``) no Kubernetes object
  uses, and encoding folds them back into their object. So an object read, changed and written
  back still carries what this client did not understand.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, TypeVar

import msgspec
from msgspec import UNSET, UnsetType, field
from msgspec import inspect as _inspect

__all__ = ["Model", "UNSET", "UnsetType", "field", "UNKNOWN_FIELDS_KEY", "ModelError"]

#: The wire name of the hidden field holding a model's unknown fields.
UNKNOWN_FIELDS_KEY = "$kgen:unknown-fields"
_UNKNOWN_JSON = msgspec.json.encode(UNKNOWN_FIELDS_KEY)

M = TypeVar("M", bound="Model")

_encoder = msgspec.json.Encoder()


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

    unknown_fields_: dict[str, Any] | UnsetType = field(default=UNSET, name=UNKNOWN_FIELDS_KEY)

    #: Set on top-level resources: their ``apiVersion`` and ``kind``.
    API_VERSION: ClassVar[str | None] = None
    KIND: ClassVar[str | None] = None
    #: Fields holding credentials (Secret data, tokens): repr shows that they are set, not what.
    REDACTED: ClassVar[tuple[str, ...]] = ()

    def __repr__(self) -> str:
        if not self.REDACTED:
            return super().__repr__()
        shown = []
        for name in self.__struct_fields__:
            value = getattr(self, name)
            if value is UNSET:
                continue
            shown.append(f"{name}=<redacted>" if name in self.REDACTED and value else f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    @classmethod
    def from_json(cls: type[M], data: bytes | str) -> M:
        try:
            decoded: M = _decoder(cls).decode(data)
            return decoded
        except msgspec.ValidationError:
            try:
                raw = msgspec.json.decode(data)
            except msgspec.DecodeError as e:
                raise ModelError(f"{cls.__name__}: invalid JSON: {e}") from None
            return cls.from_dict(raw)
        except msgspec.DecodeError as e:
            raise ModelError(f"{cls.__name__}: invalid JSON: {e}") from None

    @classmethod
    def from_dict(cls: type[M], data: Any) -> M:
        try:
            return msgspec.convert(data, cls)
        except msgspec.ValidationError:
            pass
        try:
            return msgspec.convert(_stash_unknown(data, _type_info(cls)), cls)
        except msgspec.ValidationError as e:
            raise ModelError(f"{cls.__name__}: {e}") from None

    def to_json(self) -> bytes:
        data = _encoder.encode(self)
        # A one-byte scan first: most payloads hold no "$" at all, and memchr beats a
        # substring search over tens of megabytes.
        if b"$" in data and _UNKNOWN_JSON in data:
            data = _encoder.encode(_fold_unknown(msgspec.json.decode(data)))
        return data

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = msgspec.json.decode(self.to_json())
        return result


@functools.cache
def _decoder(cls: type[M]) -> msgspec.json.Decoder[M]:
    return msgspec.json.Decoder(cls)


@functools.cache
def _type_info(cls: type) -> _inspect.Type:
    return _inspect.type_info(cls)


def _stash_unknown(value: Any, tp: _inspect.Type) -> Any:
    """Moves every field ``tp`` does not know into its object's hidden unknown-fields field."""
    if isinstance(tp, _inspect.UnionType):
        for member in tp.types:
            if _fits(value, member):
                return _stash_unknown(value, member)
        return value
    if isinstance(tp, _inspect.StructType) and isinstance(value, dict):
        known = _known_fields(tp.cls)
        out: dict[str, Any] = {}
        unknown: dict[str, Any] = {}
        for key, item in value.items():
            sub = known.get(key)
            if sub is None:
                unknown[key] = item
            else:
                out[key] = _stash_unknown(item, sub)
        if unknown:
            out[UNKNOWN_FIELDS_KEY] = unknown
        return out
    if isinstance(tp, (_inspect.ListType, _inspect.VarTupleType)) and isinstance(value, list):
        return [_stash_unknown(item, tp.item_type) for item in value]
    if isinstance(tp, _inspect.DictType) and isinstance(value, dict):
        return {key: _stash_unknown(item, tp.value_type) for key, item in value.items()}
    return value


def _fits(value: Any, tp: _inspect.Type) -> bool:
    if isinstance(tp, _inspect.StructType):
        return isinstance(value, dict)
    if isinstance(tp, (_inspect.ListType, _inspect.VarTupleType)):
        return isinstance(value, list)
    if isinstance(tp, _inspect.DictType):
        return isinstance(value, dict)
    return False


@functools.cache
def _known_fields(cls: type) -> dict[str, _inspect.Type]:
    info = _type_info(cls)
    assert isinstance(info, _inspect.StructType)
    return {f.encode_name: f.type for f in info.fields if f.encode_name != UNKNOWN_FIELDS_KEY}


def _fold_unknown(value: Any) -> Any:
    if isinstance(value, dict):
        unknown = value.pop(UNKNOWN_FIELDS_KEY, None)
        for key, item in value.items():
            value[key] = _fold_unknown(item)
        if unknown:
            value.update(unknown)
        return value
    if isinstance(value, list):
        return [_fold_unknown(item) for item in value]
    return value
