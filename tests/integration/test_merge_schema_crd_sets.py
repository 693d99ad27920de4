"""Real CRDs (the eight projects of tests/support/corpus.py): the merge schema a generated
package carries agrees with the structural schemas, every property of every served version.

The CRD files are the oracle: each schema is walked in lock-step with the data read through
``kgen.runtime.apimachinery.mergeschema``; list types and map keys, map types (of fields, of
element levels, and of atomic structs), preserve-unknown-fields, embedded resources and
int-or-string must be what the file says, and no CRD field may carry strategic merge metadata
(the apiserver refuses strategic merge patch on custom resources; ``is_crd`` says so).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from kgen.generator.yamlfile import load_all
from kgen.runtime.apimachinery.mergeschema import FieldType, MergeSchema, TypeSchema
from tests.support.corpus import CRD_SOURCES, crd_files
from tests.support.packages import crd_package, import_all

_LEVEL = {
    "x-kubernetes-list-type": "list_type",
    "x-kubernetes-map-type": "map_type",
    "x-kubernetes-preserve-unknown-fields": "preserve_unknown_fields",
    "x-kubernetes-embedded-resource": "embedded_resource",
}


def _expected(schema: dict[str, Any], ext: str) -> Any:
    value = schema.get(ext)
    if ext in ("x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource"):
        return value is True
    return value


def _inner(schema: dict[str, Any]) -> dict[str, Any] | None:
    if schema.get("type") == "array":
        return schema.get("items")
    if not schema.get("properties") and isinstance(schema.get("additionalProperties"), dict):
        return schema["additionalProperties"]
    return None


def _walk(
    schema: dict[str, Any], t: TypeSchema, where: str, counts: Counter[str], root: bool = False, stock: bool = False,
) -> None:
    """``stock``: ``t`` is a stock Kubernetes type the CRD embeds, whose data is kgen.kubernetes'
    (generator/stock.py): it carries the built-ins' patch strategies (never used: ``is_crd``) and
    their list and map types, which may say what the CRD does not (or not say what it does:
    ``kgen manifests`` writes none for an embedded type) but never the opposite, and a Quantity is a
    scalar leaf where the CRD says int-or-string (a leaf too: both merge as one value)."""
    if stock:  # the stock class says only what the built-ins' OpenAPI says; never the opposite
        assert not t.atomic or schema.get("x-kubernetes-map-type") in (None, "atomic"), where
    else:
        assert t.atomic == (schema.get("x-kubernetes-map-type") == "atomic"), where
    counts["x-kubernetes-map-type (struct)"] += "x-kubernetes-map-type" in schema
    for wire, prop in (schema.get("properties") or {}).items():
        if root and wire == "metadata":
            continue  # ObjectMeta, as the apiserver publishes it
        at = f"{where}.{wire}"
        f = t.fields[wire]
        counts["fields"] += 1
        assert stock or (f.patch_strategy is None and f.patch_merge_key is None), at
        for ext, attr in _LEVEL.items():
            if stock and ext in ("x-kubernetes-list-type", "x-kubernetes-map-type"):
                # one side may say what the other does not (generator/stock.py), never the opposite
                assert None in (getattr(f, attr), prop.get(ext)) or getattr(f, attr) == prop.get(ext), f"{at}: {ext}"
                continue
            assert getattr(f, attr) == _expected(prop, ext), f"{at}: {ext}"
            counts[ext] += ext in prop
        keys = tuple(prop.get("x-kubernetes-list-map-keys") or ())
        assert f.list_map_keys == keys or (stock and () in (f.list_map_keys, keys)), at
        counts["x-kubernetes-list-map-keys"] += "x-kubernetes-list-map-keys" in prop
        if prop.get("x-kubernetes-int-or-string") is True:  # a stock Quantity is a scalar: both leaves
            assert f.type.kind == "int-or-string" or (stock and f.type.kind == "scalar"), at
            counts["x-kubernetes-int-or-string"] += 1
        level, element = prop, f.type
        while (inner := _inner(level)) is not None:
            assert element.element is not None, f"{at}: the data has no element level"
            level, element = inner, element.element
            at += "[]"
            _check_element(level, element, at, counts, stock)
        if level.get("properties"):
            child = t.resolve(f.type)
            assert child is not None, f"{at}: no class in the data"
            ref = element.ref or ""
            counts["stock types"] += ref.startswith("kgen.kubernetes:")
            _walk(level, child, at, counts, stock=stock or ref.startswith("kgen.kubernetes:"))


def _check_element(schema: dict[str, Any], element: FieldType, at: str, counts: Counter[str], stock: bool) -> None:
    for ext, attr in _LEVEL.items():
        if ext == "x-kubernetes-map-type" and schema.get("properties"):
            continue  # an atomic struct: the class says it (TypeSchema.atomic)
        assert getattr(element, attr) == _expected(schema, ext), f"{at}: {ext}"
        counts[ext + " (element)"] += ext in schema
    assert element.list_map_keys == tuple(schema.get("x-kubernetes-list-map-keys") or ()), at
    if schema.get("x-kubernetes-int-or-string") is True:
        assert element.kind == "int-or-string" or (stock and element.kind == "scalar"), at


@pytest.mark.parametrize("project", sorted(CRD_SOURCES))
def test_crd_set_merge_schema_agrees_with_the_structural_schemas(project: str, capsys) -> None:
    files = crd_files(project)
    root, package = crd_package(project)  # generated once, shared with test_crd_packages.py
    list(import_all(root, package))  # puts the package on sys.path
    schemas = MergeSchema(package)
    counts: Counter[str] = Counter()
    versions = 0
    for path in files:
        for doc in load_all(path.read_text()):
            if not (isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition"):
                continue
            spec = doc["spec"]
            for version in spec["versions"]:
                if not version.get("served", True):
                    continue
                api_version = f"{spec['group']}/{version['name']}"
                t = schemas.schema_for(api_version, spec["names"]["kind"])
                assert t is not None, (api_version, spec["names"]["kind"])
                assert schemas.is_crd(api_version)
                root = version["schema"]["openAPIV3Schema"]
                assert t.preserve_unknown_fields == (root.get("x-kubernetes-preserve-unknown-fields") is True)
                _walk(version["schema"]["openAPIV3Schema"], t, f"{path.name} {version['name']}", counts, root=True)
                versions += 1
    assert not schemas.is_crd("v1")
    with capsys.disabled():
        print(f"\n{project}: {versions} served CRD versions, {dict(sorted(counts.items()))}")
    assert versions and counts["fields"] > 100
    # Flux's source-controller marks no list type at all; the others do, and they were all seen.
    if any("x-kubernetes-list-type" in path.read_text() for path in files):
        assert counts["x-kubernetes-list-type"] > 0
