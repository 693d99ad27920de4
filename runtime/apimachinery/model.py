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
  absent, as the apiserver's Go types do. (To send a null on a new object, set
  ``unknown_fields_={"field": None}``.)
- Fields a model does not know (the server is newer than the generated code) are kept and
  written back, so an object read, changed and written back still carries what this client did
  not understand.

The fast path is msgspec's strict decode (unknown fields forbidden, required fields required).
When it refuses, or when a class with a nullable field somewhere below it meets a ``null``, the
slow path (``lenient.fit``) records what it had to change in one hidden per-object field whose
wire name (``UNKNOWN_FIELDS_KEY``) no Kubernetes object uses, and encoding folds it back.

Encoding is one msgspec pass (what lightkube's ``json_encode`` does too: both are msgspec
Structs with ``omit_defaults``) plus the check that nothing needs folding. The hidden field is a
plain ``dict`` that a caller may set anywhere in a tree, so only the encoded bytes can tell, and
the check reads them once at memchr speed (``_holds_bookkeeping``); the fold itself (decode,
fold, encode again) runs only for objects that carry bookkeeping.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, TypeVar

import msgspec
from msgspec import field

from kgen.runtime.apimachinery.lenient import UNKNOWN_FIELDS_KEY, fit, fold, keeps_nulls

__all__ = ["Model", "field", "UNKNOWN_FIELDS_KEY", "ModelError"]

#: The bookkeeping key as encoded JSON holds it, quotes included: ``"$kgen:unknown-fields"``.
_UNKNOWN_JSON = msgspec.json.encode(UNKNOWN_FIELDS_KEY)
#: The byte the key starts with, as an ``int``: ``int in bytes`` is a bare memchr, while a
#: one-byte ``bytes`` needle goes through the substring search (3-4× slower on a 7 KB object).
_DOLLAR = ord("$")

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

    #: What the slow decode path recorded (unknown fields, explicit nulls, absent required
    #: fields), folded back into the object when it is encoded; ``None`` almost always.
    unknown_fields_: dict[str, Any] | None = field(default=None, name=UNKNOWN_FIELDS_KEY)

    #: Set on top-level resources: their ``apiVersion`` and ``kind``.
    API_VERSION: ClassVar[str | None] = None
    KIND: ClassVar[str | None] = None
    #: The schema's defaults (applied by the server, never by this client), by Python name.
    DEFAULTS: ClassVar[dict[str, Any]] = {}
    #: Fields holding credentials (Secret data, tokens): repr shows that they are set, not what.
    REDACTED: ClassVar[tuple[str, ...]] = ()
    #: Wire names of the optional ``nullable: true`` fields, whose explicit null is kept.
    NULLABLE: ClassVar[tuple[str, ...]] = ()

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
        if not keeps_nulls(cls):
            try:
                return msgspec.convert(data, cls)
            except msgspec.ValidationError:
                pass
        return _convert(data, cls)

    def to_json(self) -> bytes:
        data = _encoder.encode(self)
        if _holds_bookkeeping(data):
            return _encoder.encode(fold(msgspec.json.decode(data)))
        return data

    def to_dict(self) -> dict[str, Any]:
        data = _encoder.encode(self)
        result: dict[str, Any] = msgspec.json.decode(data)
        return fold(result) if _holds_bookkeeping(data) else result


def _convert(data: Any, cls: type[M]) -> M:
    """The slow path: ``data`` fitted to ``cls`` (lenient.py), then converted strictly."""
    try:
        return msgspec.convert(fit(data, cls), cls)
    except (msgspec.ValidationError, ValueError) as e:
        raise ModelError(f"{cls.__name__}: {e}") from None


def _holds_bookkeeping(data: bytes) -> bool:
    """Whether encoded ``data`` holds the key ``"$kgen:unknown-fields"`` somewhere.

    Nearly every payload holds no ``$`` at all, and one memchr says so: about 3 ms for a 34 MB
    PodList (3% of its encode), 0.3 µs for one 7 KB pod. When a value holds a ``$``
    (``$(POD_NAME)`` in a container's args), a substring search decides: 13 ms for 34 MB, 3 µs
    for 7 KB. (Checking each ``$`` in place instead costs about 0.7 µs of Python per ``$``: it
    wins only where they are sparse and loses badly where they cluster, so it is not done.)
    """
    return _DOLLAR in data and _UNKNOWN_JSON in data


def _has_null(data: bytes | str) -> bool:
    return b"null" in data if isinstance(data, bytes) else "null" in data


@functools.cache
def _decoder(cls: type[M]) -> msgspec.json.Decoder[M]:
    return msgspec.json.Decoder(cls)
