"""Resources from discovery: aggregated (apidiscovery.k8s.io/v2) or legacy /api, /apis/G/V.

The documents are parsed by the runtime's discovery module (the same parser clients use at
run time); this module only checks the input and converts to the IR.
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.discovery import APIResource, parse_aggregated, parse_legacy_resources

from ..errors import InputError
from ..ir import Resource


def _resource(r: APIResource) -> Resource:
    return Resource(
        plural=r.plural,
        singular=r.singular,
        kind=r.kind,
        namespaced=r.namespaced,
        verbs=list(r.verbs),
        subresources={name: list(verbs) for name, verbs in r.subresources},
        short_names=list(r.short_names),
        categories=list(r.categories),
    )


def from_aggregated(doc: dict[str, Any], source: str) -> dict[tuple[str, str], list[Resource]]:
    if doc.get("kind") != "APIGroupDiscoveryList":
        raise InputError(source, "/kind", "APIGroupDiscoveryList (aggregated discovery)")
    out: dict[tuple[str, str], list[Resource]] = {}
    for r in parse_aggregated(doc).resources:
        out.setdefault((r.group, r.version), []).append(_resource(r))
    return {gv: sorted(resources, key=lambda r: r.plural) for gv, resources in out.items()}


def from_legacy(doc: dict[str, Any], source: str) -> tuple[tuple[str, str], list[Resource]]:
    """One ``APIResourceList`` (``/api/v1`` or ``/apis/G/V``)."""
    gv = doc.get("groupVersion")
    if doc.get("kind") != "APIResourceList" or not isinstance(gv, str):
        raise InputError(source, "/kind", "an APIResourceList with a groupVersion")
    group, _, version = gv.rpartition("/")
    return (group, version), sorted((_resource(r) for r in parse_legacy_resources(doc)), key=lambda r: r.plural)
