"""Decoding the metadata client's answers: PartialObjectMetadata(List), checked as client-go does.

client-go's ``metadata.go`` decodes every answer with the ``meta.k8s.io`` scheme alone, so:

- the kind asked for (``PartialObjectMetadata``, or ``PartialObjectMetadataList`` for a list)
  is the answer;
- any other kind that scheme knows (a ``Table``, a ``Status``, the other partial kind: the
  server understood the request and answered something else) is an error, "unexpected object,
  expected PartialObjectMetadata but got ..." (``UnexpectedObjectError``);
- a kind it does not know (a full ``Pod``: a server that ignored ``as=PartialObjectMetadata``,
  Kubernetes 1.14 and older or an aggregated apiserver) falls back to reading the object's
  metadata alone, TypeMeta cleared; a single object must then look like ObjectMeta (a uid, a
  creationTimestamp, a name or a generateName), else it is an error too. Nothing else of the
  object is kept, so the cache stays metadata-sized either way;
- in a watch there is no fallback: client-go's watch decoder fails on an unregistered kind and
  ends the watch with an error, and ``decode_event`` raises likewise.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.apimachinery.model import Model

T = TypeVar("T", bound=Model)
"""The partial object model."""
L = TypeVar("L", bound=Model)
"""The partial object list model."""

OBJECT_KIND = "PartialObjectMetadata"
"""The kind the server answers a metadata get with."""
LIST_KIND = "PartialObjectMetadataList"
"""The kind the server answers a metadata list with."""

_SCHEME_KINDS = frozenset({
    OBJECT_KIND, LIST_KIND, "Table", "Status", "WatchEvent", "ListOptions", "GetOptions", "DeleteOptions",
    "CreateOptions", "UpdateOptions", "PatchOptions", "TableOptions", "APIVersions", "APIGroupList", "APIGroup",
    "APIResourceList",
})
"""Kinds the meta.k8s.io scheme of client-go's metadata client decodes (metav1's
AddToGroupVersion, the unversioned discovery kinds, Table): an answer of one of these where a
partial object was asked for is the wrong answer, never an old server's full object."""


class UnexpectedObjectError(ValueError):
    """The server answered a metadata request with an object of another kind."""


def _unexpected(expected: str, kind: object, api_version: object) -> UnexpectedObjectError:
    got = f"{api_version}, Kind={kind}" if api_version else f"Kind={kind}"
    return UnexpectedObjectError(f"unexpected object, expected {expected} but got {got}")


def _looks_like_object_meta(meta: Any) -> bool:
    """client-go's isLikelyObjectMetadata."""
    return meta is not None and bool(meta.uid or meta.creation_timestamp or meta.name or meta.generate_name)


class MetadataCodec(ModelCodec[T, L]):
    """A ``Codec`` (``kgen.runtime.gentype``) of a package's PartialObjectMetadata models: the
    typed codec's, with the answers checked and an old server's full objects cut to metadata."""

    def decode(self, data: bytes) -> T:
        """An object answer (get, patch): the partial object, or an old server's full object's metadata."""
        obj: Any = self.cls.from_json(data)
        if obj.kind == OBJECT_KIND:
            return obj  # type: ignore[no-any-return]
        if obj.kind in _SCHEME_KINDS or obj.kind is None:
            raise _unexpected(OBJECT_KIND, obj.kind, obj.api_version)
        if not _looks_like_object_meta(obj.metadata):
            raise UnexpectedObjectError(
                f"object does not appear to match the ObjectMeta schema: a {obj.kind} with no name, "
                "generateName, uid or creationTimestamp"
            )
        return self.cls(metadata=obj.metadata)

    def decode_event(self, data: bytes) -> T:
        """A watch event's object: a partial object, or an error (no fallback in a watch)."""
        obj: Any = self.cls.from_json(data)
        if obj.kind != OBJECT_KIND:
            raise _unexpected(OBJECT_KIND, obj.kind, obj.api_version)
        return obj  # type: ignore[no-any-return]

    def decode_list(self, data: bytes) -> L:
        """A ``PartialObjectMetadataList``; a full list (an old server's) is cut down to its items'
        metadata, and a list of another meta.k8s.io kind is an error."""
        lst: Any = self.list_cls.from_json(data)
        if lst.kind == LIST_KIND:
            return lst  # type: ignore[no-any-return]
        if lst.kind in _SCHEME_KINDS or lst.kind is None:
            raise _unexpected(LIST_KIND, lst.kind, lst.api_version)
        items = [self.cls(metadata=item.metadata) for item in lst.items]
        return self.list_cls(metadata=lst.metadata, items=items)

    def encode(self, obj: T) -> bytes:
        """The partial object as JSON."""
        return msgspec.json.encode(obj.to_dict())
