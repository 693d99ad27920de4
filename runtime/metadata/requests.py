"""The metadata client's requests: the typed clients' requests, asking for PartialObjectMetadata.

client-go's ``metadata.go`` sets the Accept header of each call itself: a list asks for
``PartialObjectMetadataList``; get, patch and watch (whose events carry single objects) ask for
``PartialObjectMetadata``. client-go offers protobuf first, then JSON, then plain JSON; kgen
speaks JSON only, so it sends the JSON parts in client-go's order. The trailing plain
``application/json`` is what lets a server that cannot convert (Kubernetes 1.14 and older, some
aggregated apiservers) answer with the full object, which ``MetadataCodec`` then reduces to its
metadata. Delete and delete-collection keep the default Accept: client-go reads no object from them.
Everything else (paths, query parameters, the watch's idle timeout, patch bodies) is the typed
clients' ``_Requests``, built once for both flavours.
"""

from __future__ import annotations

from typing import Any, TypeVar

from kgen.runtime.gentype.resource import PatchType, _Requests
from kgen.runtime.rest.client import Request

T = TypeVar("T")
"""The partial object model."""
L = TypeVar("L")
"""The partial object list model."""

_PARAMETERS = ";g=meta.k8s.io;v=v1"
ACCEPT_OBJECT = f"application/json;as=PartialObjectMetadata{_PARAMETERS},application/json"
"""Accept of get, patch and watch (client-go's, without its protobuf part)."""
ACCEPT_LIST = f"application/json;as=PartialObjectMetadataList{_PARAMETERS},application/json"
"""Accept of list (client-go's, without its protobuf part)."""


def _accepting(req: Request, accept: str) -> Request:
    req.accept = accept
    return req


class MetadataRequests(_Requests[T, L]):
    """``_Requests`` whose reads ask for partial objects."""

    def get(self, name: str, resource_version: str | None = None, subresource: str | None = None) -> Request:
        """A get asking for a partial object."""
        return _accepting(super().get(name, resource_version, subresource), ACCEPT_OBJECT)

    def list(self, **options: Any) -> Request:
        """A list asking for a partial object list."""
        return _accepting(super().list(**options), ACCEPT_LIST)

    def watch(self, idle_timeout: float, **options: Any) -> Request:
        """A watch asking for partial objects."""
        return _accepting(super().watch(idle_timeout, **options), ACCEPT_OBJECT)

    def patch(self, name: str, patch: Any, patch_type: PatchType, subresource: str | None, **options: Any) -> Request:
        """A patch asking for a partial object back."""
        return _accepting(super().patch(name, patch, patch_type, subresource, **options), ACCEPT_OBJECT)
