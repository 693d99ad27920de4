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
    try:
        found = parse_aggregated(doc).resources
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        raise _malformed(source, "an APIGroupDiscoveryList as the apiserver serves it", e) from None
    for r in found:
        if not (isinstance(r.plural, str) and r.plural and isinstance(r.kind, str)):
            raise InputError(source, "", "resources with a name and a kind",
                             problem=f"a malformed resource in {r.group or 'core'}/{r.version}")
        out.setdefault((r.group, r.version), []).append(_resource(r))
    return {gv: sorted(resources, key=lambda r: r.plural) for gv, resources in out.items()}


def from_legacy(doc: dict[str, Any], source: str) -> tuple[tuple[str, str], list[Resource]]:
    """One ``APIResourceList`` (``/api/v1`` or ``/apis/G/V``)."""
    gv = doc.get("groupVersion")
    if doc.get("kind") != "APIResourceList" or not isinstance(gv, str):
        raise InputError(source, "/kind", "an APIResourceList with a groupVersion")
    group, _, version = gv.rpartition("/")
    try:
        found = parse_legacy_resources(doc)
    except (AttributeError, KeyError, TypeError, ValueError) as e:
        raise _malformed(source, "an APIResourceList as the apiserver serves it", e) from None
    if not all(isinstance(r.plural, str) and r.plural and isinstance(r.kind, str) for r in found):
        raise InputError(source, "/resources", "resources with a name and a kind", problem="a malformed resource")
    return (group, version), sorted((_resource(r) for r in found), key=lambda r: r.plural)


def _malformed(source: str, expected: str, e: Exception) -> InputError:
    return InputError(source, "", expected, problem=f"holds a malformed discovery document: {e}")
