"""Nested object schemas of CRDs: one class per identity, shared across kinds and versions, with
short names by the path rule (generator/nested.py, naming.nested_class_names)."""

from __future__ import annotations

import copy
import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest

from kgen.generator.naming import nested_class_names
from kgen.generator.nested import NestedClasses, identity
from tests.unit.helpers import crd, generate, imported, widget_document, write_yaml

Load = Callable[..., ModuleType]

#: A pod-template-like sub-schema two kinds embed, with a nested class of its own.
PROBE: dict[str, Any] = {
    "type": "object",
    "description": "Probe describes a health check.",
    "properties": {
        "periodSeconds": {"type": "integer", "description": "How often."},
        "httpGet": {
            "type": "object",
            "required": ["port"],
            "properties": {"path": {"type": "string"}, "port": {"type": "integer"}},
        },
    },
}


def _kind(probe: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"probe": probe, "replicas": {"type": "integer"}}}},
    }


def _other(probe: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "properties": {"containers": {"type": "array", "items": {
                    "type": "object", "properties": {"name": {"type": "string"}, "probe": probe},
                }}},
            },
        },
    }


def test_two_kinds_with_an_identical_sub_schema_share_one_class(load: Load) -> None:
    module = load(crds=[crd(_kind(PROBE)), crd(_other(copy.deepcopy(PROBE)), kind="Gadget", plural="gadgets")])
    widget_probe = msgspec.structs.fields(module.WidgetSpec)
    gadget_container = module.GadgetSpec.from_dict({"containers": [{"probe": {"periodSeconds": 3}}]}).containers[0]
    widget = module.WidgetSpec.from_dict({"probe": {"periodSeconds": 3, "httpGet": {"port": 80}}})
    assert type(gadget_container.probe) is type(widget.probe) is module.Probe
    assert type(widget.probe.http_get) is module.HttpGet
    assert {f.name for f in widget_probe} == {"probe", "replicas"}
    classes = [v for v in vars(module).values() if isinstance(v, type) and v.__module__ == module.__name__]
    assert sorted(c.__name__ for c in classes) == [
        "Containers", "Gadget", "GadgetList", "GadgetSpec", "HttpGet", "Probe", "Widget", "WidgetList", "WidgetSpec",
    ]


def test_a_sub_schema_that_differs_in_one_field_is_a_class_of_its_own(load: Load) -> None:
    other = copy.deepcopy(PROBE)
    other["properties"]["httpGet"]["properties"]["scheme"] = {"type": "string"}
    module = load(crds=[crd(_kind(PROBE)), crd(_other(other), kind="Gadget", plural="gadgets")])
    widget = module.WidgetSpec.from_dict({"probe": {"httpGet": {"port": 80}}})
    gadget = module.GadgetSpec.from_dict({"containers": [{"probe": {"httpGet": {"port": 80, "scheme": "HTTP"}}}]})
    # Both Probe classes and both HttpGet classes clash, so all four take their parent's name.
    assert type(widget.probe).__name__ == "SpecProbe" and type(gadget.containers[0].probe).__name__ == "ContainersProbe"
    assert type(widget.probe.http_get).__name__ == "SpecProbeHttpGet"
    assert type(gadget.containers[0].probe.http_get).__name__ == "ContainersProbeHttpGet"
    assert type(widget.probe) is not type(gadget.containers[0].probe)
    assert gadget.containers[0].probe.http_get.scheme == "HTTP"


def test_a_class_shared_by_two_versions_is_defined_once_and_offered_by_both(load: Load) -> None:
    v1 = load(crds=[crd(_kind(PROBE), versions=("v1", "v2"))])
    v2 = importlib.import_module(v1.__name__.rsplit(".", 1)[0] + ".v2")
    assert v2.Widget is not v1.Widget  # each version keeps its kind
    assert v2.WidgetSpec is v1.WidgetSpec and v2.Probe is v1.Probe and v2.HttpGet is v1.HttpGet
    assert v1.Probe.__module__ == v1.__name__
    assert v2.Widget.from_dict({"spec": {"probe": {"periodSeconds": 1}}}).spec.probe == v1.Probe(period_seconds=1)


def test_field_descriptions_are_part_of_the_identity_the_objects_own_and_validation_keywords_are_not() -> None:
    described = {**PROBE, "description": "another text"}  # what the holding field is for
    field_described = copy.deepcopy(PROBE)
    field_described["properties"]["periodSeconds"]["description"] = "How often, in seconds."
    validated = copy.deepcopy(PROBE)
    validated["properties"]["periodSeconds"]["minimum"] = 1
    validated["properties"]["httpGet"]["properties"]["path"]["pattern"] = "^/"
    field_level = {**PROBE, "nullable": True, "default": {}, "x-kubernetes-preserve-unknown-fields": True}
    assert identity(described) == identity(validated) == identity(field_level) == identity(PROBE)
    assert identity(field_described) != identity(PROBE)
    assert identity({**PROBE, "x-kubernetes-map-type": "atomic"}) != identity(PROBE)  # Model.atomic
    required = copy.deepcopy(PROBE)
    required["required"] = ["periodSeconds"]
    nullable_inside = copy.deepcopy(PROBE)
    nullable_inside["properties"]["periodSeconds"]["nullable"] = True
    assert len({identity(s) for s in (PROBE, required, nullable_inside)}) == 3


def test_a_shared_class_keeps_its_docstring_only_where_every_use_agrees(load: Load) -> None:
    same = load(crds=[crd(_kind(PROBE)), crd(_other(PROBE), kind="Gadget", plural="gadgets")])
    assert same.Probe.__doc__ == "Probe describes a health check."
    other = {**PROBE, "description": "The gadget's liveness probe."}
    module = load(crds=[crd(_kind(PROBE)), crd(_other(other), kind="Gadget", plural="gadgets")])
    assert module.Probe.__doc__ is None
    assert "Probe describes a health check." in _field_doc(module, "WidgetSpec", "probe")
    assert "The gadget's liveness probe." in _field_doc(module, "Containers", "probe")


def _field_doc(module: ModuleType, cls: str, name: str) -> str:
    """The docstring under a field in the generated source (what editors show on hover)."""
    source = inspect.getsource(module)
    body = source[source.index(f"class {cls}("):]
    after = body[body.index(f"    {name}: "):]
    return after.split('"""')[1]


# -- names -------------------------------------------------------------------------------------


def _names(paths: dict[str, tuple[str, ...]], taken: set[str], spaces: dict[str, list[str]] | None = None
           ) -> dict[str, str]:
    return nested_class_names(paths, spaces or {k: ["m"] for k in paths}, {"m": taken})


@pytest.mark.parametrize(
    ("paths", "taken", "expected"),
    [
        # The property name, CamelCase; a kind's direct child keeps the kind (Go's FooSpec).
        ({"a": ("Prometheus", "spec", "securityContext"), "b": ("Prometheus", "spec")}, set(),
         {"a": "SecurityContext", "b": "PrometheusSpec"}),
        # Two classes wanting one name both take their parent's name.
        ({"a": ("Prometheus", "spec", "securityContext"), "b": ("Prometheus", "spec", "containers", "securityContext")},
         set(), {"a": "SpecSecurityContext", "b": "ContainersSecurityContext"}),
        # A name the module already uses (a kind) or one it imports (Time) is extended too.
        ({"a": ("Rule", "spec", "alert"), "b": ("Rule", "spec", "groups", "time")}, {"Alert"},
         {"a": "SpecAlert", "b": "GroupsTime"}),
        # A path used up gets a number, in sorted order.
        ({"a": ("Widget", "spec"), "b": ("Widget_", "spec")}, set(), {"a": "WidgetSpec", "b": "WidgetSpec2"}),
        # Any text becomes an identifier.
        ({"a": ("Hostile", "spec", "x-forwarded/for"), "b": ("Hostile", "spec", "3d")}, set(),
         {"a": "XForwardedFor", "b": "N3d"}),
    ],
)
def test_nested_class_names(paths: dict[str, tuple[str, ...]], taken: set[str], expected: dict[str, str]) -> None:
    assert _names(paths, taken) == expected
    assert _names(dict(reversed(paths.items())), taken) == expected  # whatever order they come in


def test_a_name_is_unique_in_every_module_that_offers_the_class() -> None:
    paths = {"shared": ("Widget", "spec", "probe"), "own": ("Gadget", "status", "probe")}
    # Different modules: both may be Probe; the shared one also lives in module n, where "own" is.
    assert nested_class_names(paths, {"shared": ["m"], "own": ["n"]}, {}) == {"shared": "Probe", "own": "Probe"}
    assert nested_class_names(paths, {"shared": ["m", "n"], "own": ["n"]}, {}) == {
        "shared": "SpecProbe", "own": "StatusProbe",
    }


def test_identity_of_a_schema_with_a_yaml_int_property_name_keeps_it_apart_from_the_string() -> None:
    as_int = {"type": "object", "properties": {8090: {"type": "string"}, "name": {"type": "string"}}}
    as_str = {"type": "object", "properties": {"8090": {"type": "string"}, "name": {"type": "string"}}}
    assert identity(as_int) != identity(as_str)


def test_a_shared_class_is_named_by_the_property_most_of_its_uses_have() -> None:
    ref = {"type": "object", "properties": {"name": {"type": "string"}}}
    classes = NestedClasses()
    classes.walk(("g", "v1"), "Alpha", {"properties": {"status": {"type": "object", "properties": {"ancestorRef": ref}}}})
    for kind in ("Route", "Other"):
        classes.walk(("g", "v1"), kind, {"properties": {"spec": {"type": "object", "properties": {
            "parentRefs": {"type": "array", "items": ref}}}}})
        classes.walk(("g", "v1"), kind, {"properties": {"status": {"type": "object", "properties": {
            "parents": {"type": "array", "items": {"type": "object", "properties": {"parentRef": ref}}}}}}})
    classes.plan({})
    shared = classes.by_key[identity(ref)]
    # parentRefs and parentRef are used twice each; parentRefs is nearer the root.
    assert shared.path == ("Other", "spec", "parentRefs") and shared.name == "ParentRefs"


def test_groups_selecting_a_version_keeps_the_module_that_defines_its_shared_classes(tmp_path: Path) -> None:
    source = write_yaml(tmp_path / "crd.yaml", crd(_kind(PROBE), versions=("v1", "v2")))
    gen = generate(tmp_path / "out", "--crd", str(source), "--groups", "widgets.example.io/v2")
    assert (gen.folder / "models" / "widgets_example_io" / "v1.py").exists()
    assert "WidgetSpec = widgets_example_iov1.WidgetSpec" in gen.source("widgets_example_io", "v2")
    with imported(gen) as modules:
        v2 = modules.models("widgets_example_io", "v2")
        assert v2.Widget.from_dict({"spec": {"probe": {"periodSeconds": 2}}}).spec.probe == v2.Probe(period_seconds=2)


def test_each_kind_offers_its_spec_and_status_under_its_own_name_when_they_share_a_class(load: Load) -> None:
    """Issue 31: cert-manager's Issuer.spec is ClusterIssuer's class; ``IssuerSpec`` still imports."""
    schema = {
        "type": "object",
        "properties": {
            "spec": {"type": "object", "properties": {"probe": PROBE, "replicas": {"type": "integer"}}},
            "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}},
        },
    }
    module = load(crds=[crd(schema), crd(copy.deepcopy(schema), kind="ClusterWidget", plural="clusterwidgets")])
    applies = importlib.import_module(module.__name__.replace(".models.", ".applyconfigurations."))
    shared = type(module.Widget.from_dict({"spec": {}}).spec)
    assert shared.__name__ == "ClusterWidgetSpec"  # the class is named from one of its uses
    assert module.WidgetSpec is module.ClusterWidgetSpec is shared
    assert module.WidgetStatus is module.ClusterWidgetStatus
    assert module.WidgetList.KIND == "WidgetList" and module.ClusterWidgetList.KIND == "ClusterWidgetList"
    assert applies.WidgetSpecApplyConfiguration is applies.ClusterWidgetSpecApplyConfiguration
    assert applies.WidgetStatusApplyConfiguration is applies.ClusterWidgetStatusApplyConfiguration
    # The group's docstring says where a kind's types live.
    group = importlib.import_module(module.__name__.rsplit(".", 1)[0])
    assert "ClusterWidget, Widget" in (group.__doc__ or "") and "``from .v1 import ClusterWidgetSpec``" in (group.__doc__ or "")


def test_a_kinds_spec_defined_in_another_module_is_offered_by_the_kinds_module(load: Load) -> None:
    """A kind whose spec is a definition of another group-version (the same name there)."""
    other = "io.example.other.v1"
    document = widget_document(
        {"type": "object", "properties": {"spec": {"$ref": f"#/components/schemas/{other}.WidgetSpec"}}},
        **{f"{other}.WidgetSpec": {"type": "object", "properties": {"size": {"type": "integer"}}}},
    )
    module = load(document)
    spec = type(module.Widget.from_dict({"spec": {"size": 1}}).spec)
    assert spec.__module__ != module.__name__ and spec.__name__ == "WidgetSpec"
    assert module.WidgetSpec is spec
