"""Resources from discovery: aggregated (apidiscovery.k8s.io/v2) or legacy /api, /apis/G/V."""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..ir import Resource


def from_aggregated(doc: dict[str, Any], source: str) -> dict[tuple[str, str], list[Resource]]:
    if doc.get("kind") != "APIGroupDiscoveryList":
        raise InputError(source, "/kind", "APIGroupDiscoveryList (aggregated discovery)")
    out: dict[tuple[str, str], list[Resource]] = {}
    for group in doc.get("items") or []:
        name = (group.get("metadata") or {}).get("name", "")
        for version in group.get("versions") or []:
            resources = []
            for r in version.get("resources") or []:
                subresources = {s["subresource"]: sorted(s.get("verbs") or []) for s in r.get("subresources") or []}
                resources.append(
                    Resource(
                        plural=r["resource"],
                        singular=r.get("singularResource", ""),
                        kind=(r.get("responseKind") or {}).get("kind", ""),
                        namespaced=r.get("scope") == "Namespaced",
                        verbs=sorted(r.get("verbs") or []),
                        subresources=subresources,
                        short_names=list(r.get("shortNames") or []),
                        categories=list(r.get("categories") or []),
                    )
                )
            out[(name, version["version"])] = sorted(resources, key=lambda r: r.plural)
    return out


def from_legacy(doc: dict[str, Any], source: str) -> tuple[tuple[str, str], list[Resource]]:
    """One ``APIResourceList`` (``/api/v1`` or ``/apis/G/V``)."""
    gv = doc.get("groupVersion")
    if doc.get("kind") != "APIResourceList" or not isinstance(gv, str):
        raise InputError(source, "/kind", "an APIResourceList with a groupVersion")
    group, _, version = gv.rpartition("/")
    parents: dict[str, Resource] = {}
    for r in doc.get("resources") or []:
        plural, _, sub = r["name"].partition("/")
        if sub:
            continue
        parents[plural] = Resource(
            plural=plural,
            singular=r.get("singularName", ""),
            kind=r.get("kind", ""),
            namespaced=bool(r.get("namespaced")),
            verbs=sorted(r.get("verbs") or []),
            short_names=list(r.get("shortNames") or []),
            categories=list(r.get("categories") or []),
        )
    for r in doc.get("resources") or []:
        plural, _, sub = r["name"].partition("/")
        if sub and plural in parents:
            parents[plural].subresources[sub] = sorted(r.get("verbs") or [])
    return (group, version), sorted(parents.values(), key=lambda r: r.plural)
