"""Sources: everything the generator reads, normalised into one ``SourceSet``.

One module per kind of source: an OpenAPI document (v3 or v2), a snapshot folder, a live
cluster, CRD files. Bad input stops here with an ``InputError``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..ir import Resource, StockClass


@dataclass
class RawDefinition:
    name: str
    schema: dict[str, Any]
    source: str
    ptr: str


@dataclass
class SourceSet:
    definitions: dict[str, RawDefinition] = field(default_factory=dict)
    # (group, version) -> resources, from discovery (or x-kubernetes-action when it is missing)
    resources: dict[tuple[str, str], list[Resource]] = field(default_factory=dict)
    # (group, version) -> definition names of CRD-declared kinds in it
    crd_group_versions: set[tuple[str, str]] = field(default_factory=set)
    #: Definitions the package imports from the stock package, for the stock types its CRDs
    #: embed (generator/stock.py); the CRD schemas name them by ``$ref``.
    stock_classes: dict[str, StockClass] = field(default_factory=dict)
    #: Definition name -> its schema as the source states it, for the definitions a later stage
    #: rewrites (the stock types stage turns CRD subschemas into ``$ref``s): what the apiserver
    #: validates against (generator/validation.py).
    validation_schemas: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The Kubernetes version the sources were captured from (``1.37.2``: a snapshot's
    #: /version, an OpenAPI v2 document's ``info.version``), "" when they do not say. The
    #: generated package records it, for the runtime's version-skew error and warning.
    kubernetes_version: str = ""

    def add_definition(self, d: RawDefinition) -> None:
        # The same definition appears in every group-version document that uses it; shared
        # ones (meta/v1 WatchEvent, DeleteOptions) name a different group in each document.
        seen = self.definitions.setdefault(d.name, d)
        if seen is not d:
            gvks = seen.schema.get("x-kubernetes-group-version-kind") or []
            more = d.schema.get("x-kubernetes-group-version-kind") or []
            extra = [g for g in more if g not in gvks] if isinstance(gvks, list) and isinstance(more, list) else []
            if extra:
                seen.schema = {**seen.schema, "x-kubernetes-group-version-kind": [*gvks, *extra]}

    def merge(self, other: "SourceSet") -> None:
        for d in other.definitions.values():
            self.add_definition(d)
        for gv, resources in other.resources.items():
            self.resources.setdefault(gv, resources)
        self.crd_group_versions |= other.crd_group_versions
        self.kubernetes_version = self.kubernetes_version or other.kubernetes_version
