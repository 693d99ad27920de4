"""CustomResourceDefinitions from files: YAML (multi-document) or JSON, ``List``s, folders.

Every served version of a CRD becomes a definition named as the apiserver publishes it
(``io.k8s.networking.gateway.v1.HTTPRoute``), with ``metadata`` typed as ObjectMeta, plus its
``<Kind>List``; discovery facts (plural, scope, subresources) come from the CRD itself.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kgen.runtime.apimachinery.validation.subresources import SUBRESOURCES_KEY
from kgen.runtime.apimachinery.validation.versions import STORAGE_KEY

from ..errors import InputError, pointer
from ..ir import Resource
from . import RawDefinition, SourceSet, files

META = "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1."
_VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]
_SUFFIXES = (".yaml", ".yml", ".json")


def definition_prefix(group: str, version: str) -> str:
    return ".".join(reversed(group.split("."))) + "." + version


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        found = sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES and p.is_file())
        if not found:
            raise InputError(path, "", "CRD files in it", problem="is a folder with no .yaml, .yml or .json file")
        return found
    if not path.exists():
        raise InputError(f"--crd {path}", "", "a CRD file or a folder of them", problem="no such file or folder")
    return [path]


def _documents(path: Path) -> list[tuple[str, Any]]:
    """(label, document): labels name the document in a multi-document file and a List's item."""
    numbered = files.documents(path)
    out: list[tuple[str, Any]] = []
    for number, doc in numbered:
        label = f"{path}" if numbered == [(1, doc)] else f"{path} (document {number})"
        if isinstance(doc, dict) and doc.get("kind") == "List" or (
            isinstance(doc, dict) and str(doc.get("kind", "")).endswith("List") and isinstance(doc.get("items"), list)
        ):
            out += [(f"{label} items[{j}]", item) for j, item in enumerate(doc["items"])]
        else:
            out.append((label, doc))
    return out


def load(paths: list[Path], *, on_no_crd: Callable[[InputError], None] | None = None) -> SourceSet:
    """The CRDs of every file (and folder) in ``paths``. Documents of other kinds are skipped, so
    a bundle of manifests works, and so are CRDs that serve no version (the apiserver serves
    nothing for them); but each path must give at least one served CRD version. A path holding
    documents but no CRD at all (a kustomization.yaml a glob matched) is an error, unless
    ``on_no_crd`` is given: then it is handed that error and the path is skipped."""
    out = SourceSet()
    for path in paths:
        found, unserved, others = 0, [], []
        for label, doc in [d for f in _files(path) for d in _documents(f)]:
            if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
                others.append(files.describe(doc) + _where(label, path))
            elif doc.get("apiVersion") != "apiextensions.k8s.io/v1":
                raise InputError(
                    label, "/apiVersion", "apiextensions.k8s.io/v1; v1beta1 CRDs were removed in Kubernetes 1.22",
                    problem=f"is {doc.get('apiVersion')!r}",
                )
            elif add_crd(out, doc, label):
                found += 1
            else:
                unserved.append(label)
        if found:
            continue
        if unserved and not others:
            raise InputError(unserved[0], "/spec/versions", "at least one version with served: true", problem="no version is served")
        nothing = _nothing_found(path, others + [f"a CustomResourceDefinition that serves no version ({u})" for u in unserved])
        if on_no_crd is None or unserved:
            raise nothing
        on_no_crd(nothing)
    return out


def _where(label: str, path: Path) -> str:
    """Where a document is, said from ``path`` (the --crd argument): ' (document 2)', ' in f.yaml'."""
    if label == str(path):
        return ""
    inner = label.removeprefix(f"{path} ")
    if inner != label:
        return f" ({inner.replace('(', '').replace(')', '')})"  # "(document 2) items[0]"
    return f" in {label}"


def _nothing_found(path: Path, others: list[str]) -> InputError:
    expected = "apiextensions.k8s.io/v1 CustomResourceDefinitions"
    if any(o.startswith("an OpenAPI document") for o in others):
        expected += "; an OpenAPI document goes to --from"
    if not others:
        return InputError(path, "", expected, problem="is empty")
    listed = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
    return InputError(path, "", expected, problem=f"holds no CustomResourceDefinition, only {listed}")


_NOUNS: dict[type, str] = {
    str: "a string", list: "a list", dict: "a mapping", int: "an integer", float: "a number", bool: "a boolean",
    type(None): "null",
}


def _noun(value: Any) -> str:
    return _NOUNS.get(type(value), f"a {type(value).__name__}")


def _require(doc: dict[str, Any], label: str, *path: str | int, kind: type = str) -> Any:
    """The value at ``path``: present, of type ``kind`` (a string: not empty)."""
    value: Any = doc
    for i, part in enumerate(path):
        container: type = dict if isinstance(part, str) else list
        if not isinstance(value, container):
            raise InputError(label, pointer(*path[:i]), _NOUNS[container], problem=f"is {_noun(value)}")
        holder: Any = value
        try:
            value = holder[part]
        except (KeyError, IndexError):
            wanted = _NOUNS[kind] if i == len(path) - 1 else _NOUNS[dict if isinstance(path[i + 1], str) else list]
            raise InputError(label, pointer(*path[: i + 1]), wanted, problem="missing") from None
    if not isinstance(value, kind):
        raise InputError(label, pointer(*path), _NOUNS[kind], problem=f"is {_noun(value)}")
    if kind is str and not value:
        raise InputError(label, pointer(*path), "a non-empty string", problem="is empty")
    return value


def add_crd(out: SourceSet, doc: dict[str, Any], label: str) -> int:
    """Adds the CRD's served versions (definitions and resources); returns how many there were."""
    group = _require(doc, label, "spec", "group")
    kind = _require(doc, label, "spec", "names", "kind")
    plural = _require(doc, label, "spec", "names", "plural")
    names = doc["spec"]["names"]
    if not isinstance(names.get("listKind", ""), str):
        raise InputError(label, "/spec/names/listKind", "a string", problem=f"is {_noun(names['listKind'])}")
    for key in ("shortNames", "categories"):
        value = names.get(key)
        if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise InputError(label, pointer("spec", "names", key), "a list of strings", problem=f"is {_noun(value)}")
    scope = _require(doc, label, "spec", "scope")
    if scope not in ("Namespaced", "Cluster"):
        raise InputError(label, "/spec/scope", "Namespaced or Cluster", problem=f"is {scope!r}")
    versions = _require(doc, label, "spec", "versions", kind=list)
    served = 0
    for i, version in enumerate(versions):
        name = _require(doc, label, "spec", "versions", i, "name")
        if not version.get("served", True):
            continue
        served += 1
        schema = _require(doc, label, "spec", "versions", i, "schema", "openAPIV3Schema", kind=dict)
        prefix = definition_prefix(group, name)
        ptr = pointer("spec", "versions", i, "schema", "openAPIV3Schema")
        _check_patterns(schema, label, (doc.get("metadata") or {}).get("name"), ("spec", "versions", i, "schema", "openAPIV3Schema"))
        root = copy.deepcopy(schema)
        props = root.setdefault("properties", {})
        if not isinstance(props, dict):
            raise InputError(label, ptr + "/properties", "a mapping of property names to schemas", problem=f"is {_noun(props)}")
        props.setdefault("apiVersion", {"type": "string"})
        props.setdefault("kind", {"type": "string"})
        meta = props.get("metadata") or {}
        if not isinstance(meta, dict):
            raise InputError(label, ptr + "/properties/metadata", "a schema, a mapping", problem=f"is {_noun(meta)}")
        props["metadata"] = {"$ref": META + "ObjectMeta", "description": meta.get("description", "")}
        root["x-kubernetes-group-version-kind"] = [{"group": group, "version": name, "kind": kind}]
        subresources = version.get("subresources")
        if isinstance(subresources, dict) and subresources:  # what validation needs of them (status dropped, scale's rules)
            root[SUBRESOURCES_KEY] = copy.deepcopy(subresources)
        storage = next((v.get("name") for v in versions if isinstance(v, dict) and v.get("storage") and v.get("served", True)), None)
        if isinstance(storage, str) and storage != name:  # an update's stored object is read in it (validation/versions.py)
            root[STORAGE_KEY] = f"{definition_prefix(group, storage)}.{kind}"
        out.add_definition(RawDefinition(f"{prefix}.{kind}", root, label, ptr))
        list_kind = names.get("listKind") or f"{kind}List"
        out.add_definition(
            RawDefinition(
                f"{prefix}.{list_kind}",
                {
                    "description": f"{list_kind} is a list of {kind}.",
                    "type": "object",
                    "required": ["items"],
                    "properties": {
                        "apiVersion": {"type": "string"},
                        "kind": {"type": "string"},
                        "metadata": {"$ref": META + "ListMeta"},
                        "items": {"type": "array", "items": {"$ref": f"#/components/schemas/{prefix}.{kind}"}},
                    },
                    "x-kubernetes-group-version-kind": [{"group": group, "version": name, "kind": list_kind}],
                },
                label,
                ptr,
            )
        )
        subresources = version.get("subresources") or {}
        resource = Resource(
            plural=plural,
            singular=names.get("singular") or kind.lower(),
            kind=kind,
            namespaced=scope == "Namespaced",
            verbs=list(_VERBS),
            subresources={s: ["get", "patch", "update"] for s in sorted(subresources) if s in ("status", "scale")},
            short_names=list(names.get("shortNames") or []),
            categories=list(names.get("categories") or []),
        )
        existing = out.resources.setdefault((group, name), [])
        existing[:] = sorted([r for r in existing if r.plural != plural] + [resource], key=lambda r: r.plural)
        out.crd_group_versions.add((group, name))
    return served


_NOT_SCHEMAS = frozenset({"default", "enum", "example", "x-kubernetes-validations"})
"""Keys of a schema node whose values are data, not schemas: a ``pattern`` key there is a value."""


def _check_patterns(schema: Any, label: str, crd_name: Any, at: tuple[str | int, ...]) -> None:
    """Every ``pattern`` of the schema must compile as Go's regexp compiles it (RE2 syntax), as
    the apiserver requires of a CRD; one that does not is an InputError naming the CRD and the
    pattern's JSON pointer, never a ``re.error`` later."""
    from kgen.runtime.apimachinery.golang.regexp import PatternError, compile_pattern

    if isinstance(schema, list):
        for i, item in enumerate(schema):
            _check_patterns(item, label, crd_name, (*at, i))
        return
    if not isinstance(schema, dict):
        return
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            compile_pattern(pattern)
        except PatternError as e:
            raise InputError(label, pointer(*at, "pattern"), "a Go (RE2) regular expression",
                             problem=f"CRD {crd_name}: pattern {pattern!r} does not compile: {e.reason}") from None
    for key, value in schema.items():
        if key not in _NOT_SCHEMAS and key != "pattern":
            _check_patterns(value, label, crd_name, (*at, key))
