"""apimachinery's PartialObjectMetadata and PartialObjectMetadataList, which no OpenAPI publishes.

The apiserver answers any GET, LIST or WATCH whose Accept header asks for
``as=PartialObjectMetadata(List);g=meta.k8s.io;v=v1`` with these kinds (client-go's ``metadata``
client and ``metadatainformer`` read nothing else), yet no route declares them, so neither the
OpenAPI v3 nor the v2 document has their schemas. They are added here, as apimachinery defines
them (``k8s.io/apimachinery/pkg/apis/meta/v1/types.go``: TypeMeta inline, ``metadata`` an
ObjectMeta or a ListMeta, ``items`` the list's objects, registered as meta.k8s.io/v1), so that
the meta/v1 models module gains two classes built like every other kind, and the runtime's
metadata client (``kgen.runtime.metadata``) is typed in them. A source that does define them
(a future snapshot) wins: these are added only when missing, and only next to ObjectMeta.
"""

from __future__ import annotations

from typing import Any

from . import RawDefinition, SourceSet

_META = "io.k8s.apimachinery.pkg.apis.meta.v1."
_SOURCE = "kgen (apimachinery's meta/v1 types.go: not in any OpenAPI document)"
_API_VERSION = {
    "description": "APIVersion defines the versioned schema of this representation of an object. Servers should "
    "convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
    "type": "string",
}
_KIND = {
    "description": "Kind is a string value representing the REST resource this object represents. Servers may "
    "infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
    "type": "string",
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{_META}{name}"}


def _schemas() -> dict[str, dict[str, Any]]:
    return {
        "PartialObjectMetadata": {
            "description": "PartialObjectMetadata is a generic representation of any object with ObjectMeta. It "
            "allows clients to get access to a particular ObjectMeta schema without knowing the details of the version.",
            "type": "object",
            "properties": {
                "apiVersion": _API_VERSION,
                "kind": _KIND,
                "metadata": {
                    "allOf": [_ref("ObjectMeta")],
                    "default": {},
                    "description": "Standard object's metadata. More info: "
                    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
                },
            },
            "x-kubernetes-group-version-kind": [{"group": "meta.k8s.io", "kind": "PartialObjectMetadata", "version": "v1"}],
        },
        "PartialObjectMetadataList": {
            "description": "PartialObjectMetadataList contains a list of objects containing only their metadata",
            "type": "object",
            "properties": {
                "apiVersion": _API_VERSION,
                "items": {
                    "description": "items contains each of the included items.",
                    "type": "array",
                    "items": _ref("PartialObjectMetadata"),
                },
                "kind": _KIND,
                "metadata": {
                    "allOf": [_ref("ListMeta")],
                    "default": {},
                    "description": "Standard list metadata. More info: "
                    "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
                },
            },
            "required": ["items"],
            "x-kubernetes-group-version-kind": [
                {"group": "meta.k8s.io", "kind": "PartialObjectMetadataList", "version": "v1"}
            ],
        },
    }


def add_partial_object_metadata(sources: SourceSet) -> None:
    """Adds both kinds to ``sources`` when it defines ObjectMeta and ListMeta but not them."""
    if not {_META + "ObjectMeta", _META + "ListMeta"} <= sources.definitions.keys():
        return
    for name, schema in _schemas().items():
        if _META + name not in sources.definitions:
            sources.add_definition(RawDefinition(_META + name, schema, _SOURCE, f"/components/schemas/{_META}{name}"))
