"""One OpenAPI document, v3 (``components.schemas``) or v2 (``definitions``), JSON or YAML."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import InputError, pointer
from ..ir import Resource
from . import RawDefinition, SourceSet, files


def read_document(path: Path) -> dict[str, Any]:
    numbered = files.documents(path)
    if not numbered:
        raise InputError(path, "", "an OpenAPI v3 or v2 document", problem="is empty")
    if len(numbered) > 1:
        raise InputError(
            path, "", "one OpenAPI document per file",
            problem=f"holds {len(numbered)} YAML documents",
        )
    doc = numbered[0][1]
    if not isinstance(doc, dict):
        raise InputError(path, "", "a mapping: an OpenAPI v3 or v2 document", problem=f"holds {files.describe(doc)}")
    return doc


def from_document(doc: dict[str, Any], source: str) -> SourceSet:
    out = SourceSet()
    base: tuple[str, ...]
    if "openapi" in doc:
        components = doc.get("components", {})
        if not isinstance(components, dict):
            raise InputError(source, "/components", "an object holding 'schemas'")
        container, base = components.get("schemas", {}), ("components", "schemas")
    elif "swagger" in doc:
        container, base = doc.get("definitions", {}), ("definitions",)
    else:
        kind = doc.get("kind")
        what = f"a {kind}" if isinstance(kind, str) and kind else "a mapping"
        hint = "; CRDs go to --crd" if kind == "CustomResourceDefinition" else ""
        raise InputError(
            source, "", f"a top-level field 'openapi' for v3 or 'swagger' for v2{hint}",
            problem=f"holds {what}, not an OpenAPI document",
        )
    if not isinstance(container, dict):
        raise InputError(source, pointer(*base), "an object mapping definition names to schemas")
    for name, schema in container.items():
        if not isinstance(schema, dict):
            raise InputError(source, pointer(*base, name), "a schema object")
        out.add_definition(RawDefinition(name, schema, source, pointer(*base, name)))
    paths = doc.get("paths")
    if isinstance(paths, dict):
        out.resources = resources_from_actions(paths, source)
    return out


def load_file(path: Path) -> SourceSet:
    document = read_document(path)
    out = from_document(document, str(path))
    out.kubernetes_version = document_kubernetes_version(document)
    return out


_GIT_VERSION = re.compile(r"^v?(\d+\.\d+\.\d+\S*)$")


def document_kubernetes_version(document: Any) -> str:
    """The apiserver's version an OpenAPI document names: v2's ``info.version`` is the server's
    gitVersion (``v1.37.2``); v3 documents say ``unversioned``, which gives ""."""
    info = document.get("info") if isinstance(document, dict) else None
    version = info.get("version") if isinstance(info, dict) else None
    match = _GIT_VERSION.match(version) if isinstance(version, str) else None
    return match.group(1) if match else ""


_RESOURCE_PATH = re.compile(
    r"^/(?:api|apis/(?P<group>[^/]+))/(?P<version>[^/]+)/(?:namespaces/\{namespace\}/)?"
    r"(?P<plural>[^/{}]+)(?:/\{name\}(?:/(?P<sub>[^/{}]+))?)?$"
)
_ACTION_VERBS = {
    "get": "get", "list": "list", "watch": "watch", "watchlist": "watch", "post": "create",
    "put": "update", "patch": "patch", "delete": "delete", "deletecollection": "deletecollection",
}


def resources_from_actions(paths: dict[str, Any], source: str = "") -> dict[tuple[str, str], list[Resource]]:
    """Resources from ``x-kubernetes-action`` on operations: the fallback when discovery is missing."""
    found: dict[tuple[str, str, str], Resource] = {}
    for path in sorted(paths):
        match = _RESOURCE_PATH.match(path.replace("/watch/", "/"))
        ops = paths[path]
        if not match or not isinstance(ops, dict):
            continue
        for method, op in ops.items():
            if not isinstance(op, dict) or "x-kubernetes-action" not in op:
                continue
            gvk = op.get("x-kubernetes-group-version-kind") or {}
            if not isinstance(op["x-kubernetes-action"], str):
                raise InputError(source, pointer("paths", path, method, "x-kubernetes-action"), "a string")
            if not isinstance(gvk, dict) or not all(isinstance(v, str) for v in gvk.values()):
                raise InputError(
                    source, pointer("paths", path, method, "x-kubernetes-group-version-kind"),
                    "an object with group, version and kind strings",
                )
            verb = _ACTION_VERBS.get(op["x-kubernetes-action"])
            if not verb or not gvk:
                continue
            # The path names the resource's group-version; a subresource's operation names its
            # own kind's (a Deployment's scale is autoscaling/v1 Scale).
            key = (match["group"] or "", match["version"], match["plural"])
            namespaced = "{namespace}" in path
            if match["sub"]:
                parent = found.get(key)
                if parent is not None:
                    parent.subresources.setdefault(match["sub"], [])
                    if verb not in parent.subresources[match["sub"]]:
                        parent.subresources[match["sub"]].append(verb)
                continue
            kind = gvk.get("kind", "")
            # The apiserver's default singular name is the lower-cased kind.
            res = found.setdefault(key, Resource(match["plural"], kind.lower() or match["plural"], kind, namespaced, []))
            res.namespaced = res.namespaced or namespaced
            if verb not in res.verbs:
                res.verbs.append(verb)
    out: dict[tuple[str, str], list[Resource]] = {}
    for (group, version, _), res in sorted(found.items()):
        res.verbs.sort()
        for verbs in res.subresources.values():
            verbs.sort()
        out.setdefault((group, version), []).append(res)
    return out
