"""The merge schema a package carries agrees with the schemas it was generated from.

The oracle is the input itself: the embedded OpenAPI v3 snapshot (every ``x-kubernetes-*``
extension on every property of every definition, walked from each kind in lock-step with the
generated data) and CRDs built here. Spot checks pin the cases the strategic-merge bugs of issue
12 are about (ports' merge key, volumes' retainKeys, atomic tolerations and selectors).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from kgen.runtime.apimachinery.mergeschema import FieldSchema, MergeSchema, TypeSchema, schema_for
from tests.support.oracle import oracle_binary
from tests.unit.helpers import GROUP, PREFIX, crd, generate, gvk, imported, openapi_v3, swagger_v2, write_json, write_yaml

ROOT = Path(__file__).resolve().parents[2]
V3 = ROOT / "openapi" / "kubernetes-1.37.2" / "openapi" / "v3"
STOCK = "kgen.kubernetes"
META = "io.k8s.apimachinery.pkg.apis.meta.v1."
#: The extensions that describe merging, as the data names them.
_FACTS = {
    "x-kubernetes-patch-strategy": "patch_strategy",
    "x-kubernetes-patch-merge-key": "patch_merge_key",
    "x-kubernetes-list-type": "list_type",
    "x-kubernetes-list-map-keys": "list_map_keys",
    "x-kubernetes-map-type": "map_type",
    "x-kubernetes-preserve-unknown-fields": "preserve_unknown_fields",
    "x-kubernetes-embedded-resource": "embedded_resource",
}
#: Extensions that are not merge facts: which kinds a definition is, and discriminated unions
#: (apply's union normalisation is not part of this data).
_NOT_MERGE = {"x-kubernetes-group-version-kind", "x-kubernetes-unions"}


def _field(api_version: str, kind: str, *path: str) -> FieldSchema:
    t = schema_for(api_version, kind, package=STOCK)
    assert t is not None
    for name in path[:-1]:
        child = t.child(name)
        assert child is not None, name
        t = child
    f = t.field(path[-1])
    assert f is not None, path
    return f


# -- known cases -----------------------------------------------------------------------------------


def test_pod_containers_merge_on_name() -> None:
    f = _field("v1", "Pod", "spec", "containers")
    assert (f.patch_strategy, f.patch_merge_key, f.list_type, f.list_map_keys) == ("merge", "name", "map", ("name",))
    assert f.type.kind == "list" and f.type.element is not None and f.type.element.ref == "core.v1.Container"
    assert f.required


def test_container_ports_merge_on_container_port_and_map_on_port_and_protocol() -> None:
    f = _field("v1", "Pod", "spec", "containers", "ports")
    assert (f.patch_strategy, f.patch_merge_key) == ("merge", "containerPort")
    assert (f.list_type, f.list_map_keys) == ("map", ("containerPort", "protocol"))


def test_pod_volumes_merge_and_retain_keys() -> None:
    f = _field("v1", "Pod", "spec", "volumes")
    assert f.patch_strategy == "merge,retainKeys" and f.patch_strategies == {"merge", "retainKeys"}
    assert f.patch_merge_key == "name"


def test_tolerations_are_an_atomic_list() -> None:
    f = _field("v1", "Pod", "spec", "tolerations")
    assert (f.list_type, f.patch_strategy, f.patch_merge_key) == ("atomic", None, None)


def test_deployment_selector_is_an_atomic_struct() -> None:
    spec = schema_for("apps/v1", "Deployment", package=STOCK)
    assert spec is not None
    deployment_spec = spec.child("spec")
    assert deployment_spec is not None
    selector = deployment_spec.child("selector")
    assert selector is not None and selector.ref == "meta.v1.LabelSelector" and selector.atomic
    assert not deployment_spec.atomic


def test_finalizers_are_a_merged_set_and_labels_a_granular_map() -> None:
    finalizers = _field("v1", "ConfigMap", "metadata", "finalizers")
    assert (finalizers.list_type, finalizers.patch_strategy) == ("set", "merge")
    labels = _field("v1", "ConfigMap", "metadata", "labels")
    assert labels.type.kind == "map" and labels.map_type is None and labels.list_type is None


def test_node_selector_is_an_atomic_map_and_int_or_string_is_typed() -> None:
    assert _field("v1", "Pod", "spec", "nodeSelector").map_type == "atomic"
    assert _field("apps/v1", "Deployment", "spec", "strategy", "rollingUpdate", "maxSurge").type.kind == "int-or-string"


def test_unknown_kinds_and_fields_are_none_and_built_ins_are_not_crds() -> None:
    schemas = MergeSchema(STOCK)
    assert schemas.schema_for("v1", "NoSuchKind") is None
    assert schemas.schema_for("nosuch/v1", "Pod") is None
    pod = schemas.schema_for("v1", "Pod")
    assert pod is not None and pod.field("noSuchField") is None and not pod.preserve_unknown_fields
    assert not schemas.is_crd("v1") and not schemas.is_crd("apps/v1")


# -- every extension of the snapshot ---------------------------------------------------------------


@functools.cache
def _definitions() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(V3.rglob("*.json")):
        found.update(json.loads(path.read_text()).get("components", {}).get("schemas", {}))
    return found


def _unwrap(schema: dict[str, Any]) -> dict[str, Any]:
    all_of = schema.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1:
        return {**all_of[0], **{k: v for k, v in schema.items() if k != "allOf"}}
    return schema


def _ref(schema: dict[str, Any]) -> str | None:
    """The definition a property's value (through arrays and maps) is, if any."""
    schema = _unwrap(schema)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            return _ref(schema[key])
    ref = schema.get("$ref")
    return ref.removeprefix("#/components/schemas/") if isinstance(ref, str) else None


def test_every_extension_of_the_snapshot_is_in_the_data() -> None:
    checked = _cross_check(MergeSchema(STOCK))
    assert checked["x-kubernetes-list-type"] > 300 and checked["x-kubernetes-patch-strategy"] > 60


class _Planted(MergeSchema):
    """The stock data with one fact changed: the cross-check must see it."""

    def __init__(self, ref: str, wire: str, **change: Any) -> None:
        super().__init__(STOCK)
        self.planted = (ref, wire, change)

    def type(self, ref: str) -> TypeSchema | None:
        found = super().type(ref)
        if found is not None and ref == self.planted[0]:
            wire, change = self.planted[1], self.planted[2]
            found = dataclasses.replace(found, fields={**found.fields, wire: dataclasses.replace(found.fields[wire], **change)})
        return found


@pytest.mark.parametrize(
    ("ref", "wire", "change"),
    [
        ("core.v1.Container", "ports", {"patch_merge_key": "name"}),
        ("core.v1.PodSpec", "volumes", {"patch_strategy": "merge"}),
        ("core.v1.PodSpec", "tolerations", {"list_type": None}),
        ("meta.v1.ObjectMeta", "finalizers", {"list_map_keys": ("x",)}),
        ("core.v1.PodSpec", "nodeSelector", {"map_type": None}),
    ],
)
def test_the_cross_check_sees_a_planted_difference(ref: str, wire: str, change: dict[str, Any]) -> None:
    with pytest.raises(AssertionError, match=wire):
        _cross_check(_Planted(ref, wire, **change))


def _cross_check(schemas: MergeSchema) -> Counter[str]:
    """Walks every kind of the v3 snapshot and its data in lock-step: each property's merge
    extensions equal its field's, each definition's map-type its class's ``atomic``, and each
    $ref resolves to the class the data names. Then every definition that carries a merge
    extension must have been visited: nothing is left unchecked. Returns the counts."""
    definitions = _definitions()
    visited: dict[str, TypeSchema] = {}
    checked: Counter[str] = Counter()

    def visit(name: str, t: TypeSchema) -> None:
        if name in visited:
            assert visited[name].ref == t.ref, f"{name}: two classes {visited[name].ref} and {t.ref}"
            return
        visited[name] = t
        schema = definitions[name]
        assert t.atomic == (schema.get("x-kubernetes-map-type") == "atomic"), name
        assert t.preserve_unknown_fields == (schema.get("x-kubernetes-preserve-unknown-fields") is True), name
        checked["x-kubernetes-map-type (type)"] += "x-kubernetes-map-type" in schema
        assert set(t.fields) == set(schema.get("properties", {})), name
        for wire, prop in schema.get("properties", {}).items():
            prop = _unwrap(prop)
            f = t.fields[wire]
            for ext, attr in _FACTS.items():
                want = prop.get(ext)
                got = getattr(f, attr)
                if ext == "x-kubernetes-list-map-keys":
                    want = tuple(want or ())
                elif ext in ("x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource"):
                    want = want is True
                assert got == want, f"{name}.{wire}: {ext} is {want!r} in the snapshot, {got!r} in the data"
                checked[ext] += ext in prop
            level, element = prop, f.type
            while element.element is not None and isinstance(level.get("items", level.get("additionalProperties")), dict):
                level, element = _unwrap(level.get("items", level.get("additionalProperties"))), element.element
                for ext in ("x-kubernetes-list-type", "x-kubernetes-map-type"):
                    assert getattr(element, _FACTS[ext]) == level.get(ext), f"{name}.{wire} element: {ext}"
                    checked[ext + " (element)"] += ext in level
            unknown = {k for k in prop if k.startswith("x-kubernetes-")} - set(_FACTS) - {"x-kubernetes-int-or-string"}
            assert not unknown, f"{name}.{wire}: extensions the data does not carry: {unknown}"
            assert f.required == (wire in schema.get("required", [])) or wire in ("apiVersion", "kind", "metadata")
            target = _ref(prop)
            if target is not None and target in definitions and "properties" in definitions[target]:
                child = t.resolve(f.type)
                assert child is not None, f"{name}.{wire}: the data has no class for {target}"
                visit(target, child)

    roots = 0
    for name, schema in sorted(definitions.items()):
        gvks = schema.get("x-kubernetes-group-version-kind") or []
        if len(gvks) == 1 and "properties" in schema:
            g = gvks[0]
            t = schemas.schema_for(f"{g['group']}/{g['version']}" if g["group"] else g["version"], g["kind"])
            if t is not None:
                roots += 1
                visit(name, t)
    def facts(name: str) -> Counter[str]:
        schema = definitions[name]
        found = Counter(k for p in (schema.get("properties") or {}).values() for k in _unwrap(p) if k in _FACTS)
        found["x-kubernetes-map-type (type)"] += "x-kubernetes-map-type" in schema
        return +found

    print(f"roots {roots}, definitions visited {len(visited)}, extensions checked {dict(checked)}")
    unreached = {name for name in set(definitions) - set(visited) if facts(name)}
    # Discovery documents (meta/v1 APIGroup, APIVersions...) are not modelled: no class, no data.
    discovery = {META + "APIGroup", META + "APIGroupList", META + "APIVersions"}
    assert unreached == discovery, sorted(unreached)
    models = importlib.import_module(STOCK + ".models.meta.v1")
    assert not any(hasattr(models, name.rsplit(".", 1)[-1]) for name in discovery)
    expected = sum((facts(name) for name in set(definitions) - discovery), Counter())
    assert +checked == expected  # every merge extension of the snapshot, each counted once
    assert roots > 100
    return checked


# -- strategicpatch's own metadata (Go oracle) -----------------------------------------------------


def test_patch_strategy_and_merge_key_agree_with_the_go_struct_tags() -> None:
    """apimachinery's strategicpatch reads a built-in type's patch metadata from its Go struct
    tags (``PatchMetaFromStruct``), not from OpenAPI: hack/oracle/patchmeta walks every kind of
    the snapshot in client-go's scheme and reports each field's tags; the data must agree."""
    schemas = MergeSchema(STOCK)
    snapshot_kinds = sorted(
        {(f"{g['group']}/{g['version']}" if g["group"] else g["version"], g["kind"])
         for schema in _definitions().values()
         for g in schema.get("x-kubernetes-group-version-kind") or []
         if len(schema["x-kubernetes-group-version-kind"]) == 1}
    )
    kinds = [k for k in snapshot_kinds if schemas.schema_for(*k) is not None]
    assert set(snapshot_kinds) - set(kinds) == {("v1", "APIGroup"), ("v1", "APIGroupList"), ("v1", "APIVersions")}
    done = subprocess.run(
        [str(oracle_binary("patchmeta"))], input=json.dumps(kinds), capture_output=True, text=True, timeout=120, check=True,
    )
    answer = json.loads(done.stdout)
    counts: Counter[str] = Counter()
    differences = []
    for e in answer["fields"]:
        t = schemas.schema_for(e["apiVersion"], e["kind"])
        assert t is not None, (e["apiVersion"], e["kind"])
        for name in e["path"][:-1]:
            child = t.child(name)
            assert child is not None, e
            t = child
        f = t.field(e["path"][-1])
        if f is None:
            counts["fields the Go type has and the snapshot does not"] += 1
            continue
        counts["fields compared"] += 1
        counts["with a patch strategy"] += bool(e["strategy"])
        if ((f.patch_strategy or ""), (f.patch_merge_key or "")) != (e["strategy"], e["mergeKey"]):
            differences.append((e, f.patch_strategy, f.patch_merge_key))
    print(f"kinds {len(kinds)}, not in client-go's scheme {len(answer['unknown'])}, {dict(counts)}")
    assert differences == []
    # Only kinds client-go does not compile in (apiextensions, apiregistration) are unknown to it.
    assert {k[0].split("/")[0] for k in answer["unknown"]} <= {"apiextensions.k8s.io", "apiregistration.k8s.io"}
    assert counts["fields compared"] > 2000 and counts["with a patch strategy"] > 60
    assert counts["fields the Go type has and the snapshot does not"] == 0


# -- loaded only when used -------------------------------------------------------------------------


def test_importing_the_package_loads_no_merge_schema() -> None:
    script = (
        "import sys\n"
        "import kgen.kubernetes, kgen.kubernetes.models.core.v1, kgen.kubernetes.models.apps.v1\n"
        "import kgen.kubernetes.typed.apps.v1, kgen.kubernetes.fake, kgen.runtime.apimachinery.patch\n"
        "from kgen.kubernetes.models.core.v1 import Pod\n"
        "Pod.from_dict({'spec': {'containers': [{'name': 'a'}]}})\n"
        "before = sorted(m for m in sys.modules if m.startswith('kgen.kubernetes.mergeschema'))\n"
        "from kgen.runtime.apimachinery.mergeschema import schema_for\n"
        "schema_for('apps/v1', 'Deployment').child('spec')\n"
        "after = sorted(m for m in sys.modules if m.startswith('kgen.kubernetes.mergeschema'))\n"
        "print(before, after)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == (
        "[] ['kgen.kubernetes.mergeschema', 'kgen.kubernetes.mergeschema.apps', 'kgen.kubernetes.mergeschema.apps.v1']"
    )


# -- CRDs ------------------------------------------------------------------------------------------

_CRD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "x-kubernetes-preserve-unknown-fields": True,
    "properties": {
        "spec": {
            "type": "object",
            "required": ["ports"],
            "properties": {
                "ports": {
                    "type": "array",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["port", "protocol"],
                    "items": {"type": "object", "properties": {"port": {"type": "integer"}, "protocol": {"type": "string"}}},
                },
                "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                "selector": {
                    "type": "object",
                    "x-kubernetes-map-type": "atomic",
                    "properties": {"app": {"type": "string"}},
                },
                "labels": {"type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": {"type": "string"}},
                "size": {"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                "raw": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
                "note": {"type": "string", "nullable": True},
                "matrix": {
                    "type": "array",
                    "x-kubernetes-list-type": "atomic",
                    "items": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                },
                "objects": {"type": "array", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}},
                "groups": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": {"type": "string"},
                    },
                },
            },
        },
    },
}


def test_crd_structural_schema_facts_and_the_crd_mark(tmp_path: Path) -> None:
    gen = generate(tmp_path / "out", "--crd", str(write_yaml(tmp_path / "crd.yaml", crd(_CRD_SCHEMA, group="hostile.example.io"))))
    with imported(gen):
        schemas = MergeSchema(gen.name)
        widget = schemas.schema_for("hostile.example.io/v1", "Widget")
        assert widget is not None and schemas.is_crd("hostile.example.io/v1") and not schemas.is_crd("v1")
        spec = widget.child("spec")
        assert spec is not None
        assert widget.preserve_unknown_fields and not spec.preserve_unknown_fields  # the root's own fact
        ports = spec.fields["ports"]
        assert (ports.list_type, ports.list_map_keys, ports.required) == ("map", ("port", "protocol"), True)
        assert ports.patch_strategy is None and ports.patch_merge_key is None  # no strategic merge for CRDs
        assert spec.fields["tags"].list_type == "set"
        selector = spec.child("selector")
        assert selector is not None and selector.atomic
        assert spec.fields["labels"].map_type == "atomic" and spec.fields["labels"].type.kind == "map"
        assert spec.fields["size"].type.kind == "int-or-string"
        assert spec.fields["raw"].preserve_unknown_fields
        assert spec.fields["note"].nullable and not spec.fields["note"].required
        # Element levels carry their own facts: a list of sets, a map of atomic maps.
        matrix = spec.fields["matrix"]
        assert matrix.list_type == "atomic" and matrix.type.element is not None
        assert (matrix.type.element.kind, matrix.type.element.list_type) == ("list", "set")
        objects = spec.fields["objects"].type.element
        assert objects is not None and objects.preserve_unknown_fields and not spec.fields["objects"].preserve_unknown_fields
        groups = spec.fields["groups"]
        assert groups.map_type is None and groups.type.element is not None
        assert (groups.type.element.kind, groups.type.element.map_type) == ("map", "atomic")
        meta = widget.child("metadata")
        assert meta is not None and meta.fields["finalizers"].list_type == "set"


# -- OpenAPI v3 and the v2 fallback read alike --------------------------------------------------


def _widget_schemas(ref: str) -> dict[str, Any]:
    return {
        f"{PREFIX}.Widget": {
            "type": "object",
            "x-kubernetes-group-version-kind": gvk("Widget"),
            "properties": {
                "items": {
                    "type": "array",
                    "items": {"$ref": ref + f"{PREFIX}.Item"},
                    "x-kubernetes-patch-strategy": "merge,retainKeys",
                    "x-kubernetes-patch-merge-key": "port",
                    "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["port", "protocol"],
                },
                "selector": {"$ref": ref + f"{PREFIX}.Selector"},
                "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
            },
        },
        f"{PREFIX}.Item": {
            "type": "object",
            "required": ["port"],
            "properties": {"port": {"type": "integer"}, "protocol": {"type": "string"}},
        },
        f"{PREFIX}.Selector": {
            "type": "object",
            "x-kubernetes-map-type": "atomic",
            "properties": {"match": {"type": "object", "additionalProperties": {"type": "string"}}},
        },
    }


@pytest.mark.parametrize("version", ["v3", "v2"])
def test_openapi_v3_and_v2_documents_give_the_same_facts(version: str, tmp_path: Path) -> None:
    doc = (
        openapi_v3(_widget_schemas("#/components/schemas/")) if version == "v3"
        else swagger_v2(_widget_schemas("#/definitions/"))
    )
    gen = generate(tmp_path / "out", "--from", str(write_json(tmp_path / "openapi.json", doc)))
    with imported(gen):
        schemas = MergeSchema(gen.name)
        widget = schemas.schema_for(f"{GROUP}/v1", "Widget")
        assert widget is not None and not schemas.is_crd(f"{GROUP}/v1")
        items = widget.fields["items"]
        assert (items.patch_strategies, items.patch_merge_key) == ({"merge", "retainKeys"}, "port")
        assert (items.list_type, items.list_map_keys) == ("map", ("port", "protocol"))
        item = widget.child("items")
        assert item is not None and item.fields["port"].required and not item.fields["protocol"].required
        selector = widget.child("selector")
        assert selector is not None and selector.atomic and selector.fields["match"].type.kind == "map"
        assert widget.fields["tags"].list_type == "set"


# -- inert whatever a schema says ------------------------------------------------------------------

PAYLOAD = '__import__("os").system("touch PWNED")'
_HOSTILE = ["a'b", 'c"d', "e\\f", "g\nh", "''')" + PAYLOAD + "#", '"""' + PAYLOAD, "{{ x }}", "\x00\u2028"]


def _hostile_crd() -> dict[str, Any]:
    props = {
        name: {
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": [name],
            "items": {"type": "object", "properties": {name: {"type": "string"}}},
        }
        for name in _HOSTILE
    }
    props["m"] = {"type": "object", "x-kubernetes-map-type": _HOSTILE[4], "additionalProperties": {"type": "string"}}
    return crd({"type": "object", "properties": {"spec": {"type": "object", "properties": props}}}, group="hostile.example.io")


def test_hostile_crd_strings_stay_data_in_the_merge_schema(tmp_path: Path) -> None:
    gen = generate(tmp_path / "out", "--crd", str(write_yaml(tmp_path / "crd.yaml", _hostile_crd())))
    files = sorted((gen.folder / "mergeschema").rglob("*.py"))
    assert len(files) >= 5
    for path in files:
        tree = ast.parse(path.read_text())
        body = tree.body
        assert isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant), path
        for stmt in body[1:]:
            # Only NAME = <literal>: literal_eval refuses any call, name or attribute.
            assert isinstance(stmt, ast.Assign) and len(stmt.targets) == 1, ast.dump(stmt)[:200]
            assert isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in {"GROUP_VERSION", "CRD", "TYPES", "INDEX", "CRDS"}
            ast.literal_eval(stmt.value)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    script = (
        f"import sys; sys.path.insert(0, {str(gen.out)!r})\n"
        "from kgen.runtime.apimachinery.mergeschema import MergeSchema\n"
        f"spec = MergeSchema({gen.name!r}).schema_for('hostile.example.io/v1', 'Widget').child('spec')\n"
        "import json; print(json.dumps({n: [f.list_map_keys, f.map_type] for n, f in spec.fields.items()}))\n"
    )
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run([sys.executable, "-W", "error", "-c", script], cwd=cwd, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert got == {**{n: [[n], None] for n in _HOSTILE}, "m": [[], _HOSTILE[4]]}
    assert list(cwd.iterdir()) == [] and not list(tmp_path.rglob("PWNED"))
