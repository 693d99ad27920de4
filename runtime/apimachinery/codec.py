"""The codec generated typed clients use: bytes <-> generated models (``kgen.runtime.apimachinery.model``)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec

from kgen.runtime.apimachinery.model import Model

T = TypeVar("T", bound=Model)
"""The kind's model."""
L = TypeVar("L", bound=Model)
"""The kind's list model."""


class ModelCodec(Generic[T, L]):
    """The codec of a generated kind: its model and list model, to and from JSON."""

    def __init__(self, cls: type[T], list_cls: type[L]) -> None:
        self.cls = cls
        self.list_cls = list_cls

    def decode(self, data: bytes) -> T:
        """The object from JSON."""
        return self.cls.from_json(data)

    def decode_list(self, data: bytes) -> L:
        """The list from JSON."""
        return self.list_cls.from_json(data)

    def encode(self, obj: T) -> bytes:
        # client-go sets TypeMeta from the scheme; do the same when the caller left it out.
        """The object as JSON; apiVersion and kind set from the model when left out, as client-go's
        scheme does."""
        obj_any: Any = obj
        if obj_any.api_version is None or obj_any.kind is None:
            obj_any = msgspec.structs.replace(obj_any, api_version=self.cls.API_VERSION, kind=self.cls.KIND)
        return bytes(obj_any.to_json())

    def name(self, obj: T) -> str:
        """The object's metadata.name ("" without one)."""
        metadata: Any = getattr(obj, "metadata", None)
        return str(metadata.name) if metadata and metadata.name else ""

    def list_items(self, lst: L) -> list[T]:
        """The list's items."""
        items: Any = getattr(lst, "items", None)
        return list(items) if items else []

    def list_continue(self, lst: L) -> str | None:
        """The list's continue token, None on its last page."""
        metadata: Any = getattr(lst, "metadata", None)
        token = metadata.continue_ if metadata else None
        return str(token) if token else None

    def list_with_items(self, lst: L, items: list[T]) -> L:
        """The list with ``items`` instead of its own and no continue token."""
        metadata: Any = getattr(lst, "metadata", None)
        if metadata:
            metadata = msgspec.structs.replace(metadata, continue_=None)
        return msgspec.structs.replace(lst, items=items, metadata=metadata)
