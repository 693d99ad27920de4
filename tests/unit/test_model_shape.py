"""The shape of generated models: required fields required, one absent state (``None``), explicit
null kept only where the apiserver keeps it (``nullable: true``), and reading never fails for want
of a required field (Go's zero value, written back absent)."""

from __future__ import annotations

import importlib
import json
import pkgutil
import typing
from collections.abc import Callable, Iterator
from types import ModuleType, NoneType
from typing import Any

import msgspec
import pytest

import kgen.kubernetes.models
from bench.pods import make_pod
from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList, Container, Pod, PodList, PodSpec
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta
from kgen.runtime.apimachinery import Model, ModelError
from kgen.runtime.apimachinery import model as model_module
from kgen.runtime.apimachinery.lenient import keeps_nulls
from tests.unit.helpers import crd

Load = Callable[..., ModuleType]


def _stock_classes() -> Iterator[type[Model]]:
    for info in pkgutil.walk_packages(kgen.kubernetes.models.__path__, "kgen.kubernetes.models."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Model) and value.__module__ == module.__name__:
                yield value


# -- 1. required fields are required ---------------------------------------------------------------


def test_schema_required_fields_are_typed_without_none_and_must_be_given() -> None:
    hints = typing.get_type_hints(Container)
    assert hints["name"] is str and hints["image"] == str | None
    assert typing.get_type_hints(ConfigMapList)["items"] == list[ConfigMap]
    with pytest.raises(TypeError, match="Missing required argument 'name'"):
        Container(image="nginx")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="Missing required argument 'items'"):
        ConfigMapList()  # type: ignore[call-arg]
    assert Container(name="web").to_dict() == {"name": "web"}


def test_every_stock_field_is_required_t_or_optional_t_or_none_and_none_is_the_default() -> None:
    classes = list(_stock_classes())
    required = optional = 0
    for cls in classes:
        hints = typing.get_type_hints(cls)
        for f in msgspec.structs.fields(cls):
            members = set(typing.get_args(hints[f.name])) or {hints[f.name]}
            assert msgspec.UnsetType not in members, (cls, f.name)
            assert f.name != "unknown_fields_", cls  # only on the subclass that carries bookkeeping
            if f.required:
                required += 1
                assert NoneType not in members, (cls, f.name)  # the stock schemas have no nullable field
            else:
                optional += 1
                assert f.default is None and NoneType in members, (cls, f.name)
    assert len(classes) > 500 and required > 300 and optional > 2000, (len(classes), required, optional)


def test_type_meta_and_metadata_stay_optional_on_every_stock_resource() -> None:
    """Even where a schema lists them (core/v1 Event's metadata): list items carry no TypeMeta."""
    resources = [cls for cls in _stock_classes() if cls.KIND]
    assert len(resources) > 100
    for cls in resources:
        fields = {f.name: f for f in msgspec.structs.fields(cls)}
        for name in ("api_version", "kind", "metadata"):
            if name in fields:
                assert not fields[name].required, (cls, name)


def test_crd_required_fields_are_required_in_every_version(load: Load) -> None:
    schema = {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "required": ["size", "parts"],
                "properties": {
                    "size": {"type": "integer"},
                    "parts": {"type": "array", "items": {"type": "object", "required": ["id"],
                                                         "properties": {"id": {"type": "string"}, "note": {"type": "string"}}}},
                    "colour": {"type": "string"},
                },
            },
        },
        "required": ["spec", "metadata", "apiVersion"],  # TypeMeta and metadata stay optional anyway
    }
    for version in ("v1", "v2"):
        module = load(crds=[crd(schema, versions=("v1", "v2"))], module=("widgets_example_io", version))
        spec = {f.name: f.required for f in msgspec.structs.fields(module.WidgetSpec)}
        assert spec == {"colour": False, "parts": True, "size": True}, version
        parts = {f.name: f.required for f in msgspec.structs.fields(module.Parts)}
        assert parts == {"id": True, "note": False}, version
        widget = {f.name: f.required for f in msgspec.structs.fields(module.Widget)}
        assert widget["spec"] and not widget["metadata"] and not widget["api_version"] and not widget["kind"]


# -- 2. one absent state ---------------------------------------------------------------------------


def test_absent_optional_fields_read_none_and_stay_off_the_wire() -> None:
    d = Deployment.from_dict({"spec": {"selector": {}, "template": {}}})
    assert d.metadata is None and d.status is None and d.spec.replicas is None
    assert d.to_json() == b'{"spec":{"selector":{},"template":{}}}'
    d.spec.replicas = 3
    assert d.to_dict() == {"spec": {"replicas": 3, "selector": {}, "template": {}}}
    d.spec.replicas = None
    assert d.to_dict() == {"spec": {"selector": {}, "template": {}}}


def test_unset_is_not_part_of_the_runtime_api() -> None:
    import kgen.runtime.apimachinery as apimachinery

    assert "UNSET" not in apimachinery.__all__ and "UnsetType" not in apimachinery.__all__
    assert not hasattr(model_module, "UNSET") and not hasattr(model_module, "UnsetType")
    assert set(model_module.__all__) == {"Model", "ModelError", "UNKNOWN_FIELDS_KEY", "UnknownFields", "field"}


# -- 4. reading never fails: Go's zero value for a missing required field -----------------------------

PARTIAL_DEPLOYMENT: dict[str, Any] = {
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "web", "ownerReferences": [{"apiVersion": "v1", "kind": "Node"}]},  # no name, uid
    "spec": {  # no selector
        "template": {"spec": {"containers": [{"image": "nginx"}, {"name": "sidecar", "ports": [{"name": "http"}]}]}},
    },
}


@pytest.mark.parametrize("path", ["from_dict", "from_json"])
def test_missing_required_fields_read_as_zero_values_at_every_depth_and_round_trip(path: str) -> None:
    raw = json.loads(json.dumps(PARTIAL_DEPLOYMENT))
    d = Deployment.from_dict(raw) if path == "from_dict" else Deployment.from_json(json.dumps(raw))
    assert d.spec.selector == LabelSelector()  # a zero-filled nested model
    containers = d.spec.template.spec.containers if d.spec.template.spec else []
    assert [c.name for c in containers] == ["", "sidecar"]  # list items, one level down
    assert containers[1].ports and containers[1].ports[0].container_port == 0  # two levels down
    assert d.metadata and d.metadata.owner_references
    assert (d.metadata.owner_references[0].name, d.metadata.owner_references[0].uid) == ("", "")
    assert d.to_dict() == raw  # nothing added, nothing lost
    assert json.loads(d.to_json()) == raw


def test_a_filled_required_field_is_written_once_the_caller_sets_it() -> None:
    d = Deployment.from_dict(json.loads(json.dumps(PARTIAL_DEPLOYMENT)))
    assert d.spec.template.spec
    d.spec.template.spec.containers[0].name = "app"
    d.spec.selector = LabelSelector(match_labels={"app": "web"})
    out = d.to_dict()
    assert out["spec"]["selector"] == {"matchLabels": {"app": "web"}}
    assert out["spec"]["template"]["spec"]["containers"][0] == {"image": "nginx", "name": "app"}
    # Still at its zero value: still absent (documented; Go would write "containerPort": 0).
    assert out["spec"]["template"]["spec"]["containers"][1]["ports"] == [{"name": "http"}]


def test_zero_values_by_type(load: Load) -> None:
    schema = {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "required": ["s", "i", "f", "b", "l", "m", "o", "a", "ios", "e"],
                "properties": {
                    "s": {"type": "string"}, "i": {"type": "integer"}, "f": {"type": "number"},
                    "b": {"type": "boolean"}, "l": {"type": "array", "items": {"type": "string"}},
                    "m": {"type": "object", "additionalProperties": {"type": "string"}},
                    "o": {"type": "object", "required": ["x"], "properties": {"x": {"type": "integer"}}},
                    "a": {"x-kubernetes-preserve-unknown-fields": True},
                    "ios": {"x-kubernetes-int-or-string": True},
                    "e": {"type": "string", "enum": ["A", "B"]},
                },
            },
        },
    }
    module = load(crds=[crd(schema)])
    w = module.Widget.from_dict({"spec": {}})
    s = w.spec
    assert (s.s, s.i, s.f, s.b, s.l, s.m, s.a, s.ios, s.e) == ("", 0, 0.0, False, [], {}, None, 0, "")
    assert s.o == module.O.from_dict({}) and s.o.x == 0
    assert w.to_dict() == {"spec": {}}
    assert module.Widget.from_json(b'{"spec":{}}').to_json() == b'{"spec":{}}'


def test_explicit_null_on_a_required_field_reads_as_the_zero_value_and_is_written_back_as_null() -> None:
    """Go marshals a nil slice without omitempty as null (``"items": null``)."""
    raw = {"kind": "PodList", "items": None, "metadata": {}}
    pods = PodList.from_json(json.dumps(raw))
    assert pods.items == []
    assert pods.to_dict() == raw
    pods.items = [Pod(spec=PodSpec(containers=[Container(name="a")]))]
    assert pods.to_dict()["items"] == [{"spec": {"containers": [{"name": "a"}]}}]


def test_a_null_on_an_optional_field_that_is_not_nullable_reads_as_absent() -> None:
    """As the apiserver's Go types read it: ``lastProbeTime: null`` is a zero metav1.Time."""
    pod = Pod.from_dict({"status": {"conditions": [{"type": "Ready", "status": "True", "lastProbeTime": None}]}})
    assert pod.status and pod.status.conditions and pod.status.conditions[0].last_probe_time is None
    assert pod.to_dict() == {"status": {"conditions": [{"type": "Ready", "status": "True"}]}}


def test_the_fast_path_decodes_a_complete_object_without_the_slow_path(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    raw = json.dumps(make_pod(random.Random(1), 0)).encode()

    def refuse(*_: Any) -> Any:
        raise AssertionError("the slow path ran")

    monkeypatch.setattr(model_module, "fit", refuse)
    assert Pod.from_json(raw).to_dict() == _without_nulls(json.loads(raw))  # lastProbeTime: null is absent
    assert not keeps_nulls(Pod) and not keeps_nulls(PodList) and not keeps_nulls(Deployment)
    with pytest.raises(AssertionError, match="the slow path ran"):
        Pod.from_json(b'{"spec":{"containers":[{}]}}')  # a required name is missing: slow path


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


# -- 3. explicit null kept where the apiserver keeps it --------------------------------------------

NULLABLE_SCHEMA = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "required": ["owner"],
            "properties": {
                "note": {"type": "string", "nullable": True},
                "owner": {"type": "string", "nullable": True},
                "limits": {"type": "object", "nullable": True, "properties": {"max": {"type": "integer", "nullable": True}}},
                "items": {"type": "array", "items": {"type": "object", "properties": {"tag": {"type": "string", "nullable": True}}}},
                "plain": {"type": "string"},
            },
        },
    },
}


@pytest.mark.parametrize("path", ["from_dict", "from_json"])
def test_nullable_fields_keep_an_explicit_null_apart_from_absent(load: Load, path: str) -> None:
    module = load(crds=[crd(NULLABLE_SCHEMA)])
    assert module.WidgetSpec.NULLABLE == ("limits", "note")  # optional ones only: a required field is always written
    assert module.Limits.NULLABLE == ("max",) and module.Items.NULLABLE == ("tag",)
    assert typing.get_type_hints(module.WidgetSpec)["owner"] == str | None  # required and nullable
    raw = {"spec": {"note": None, "owner": None, "limits": {"max": None}, "items": [{"tag": None}, {}], "plain": "p"}}

    def read(obj: Any) -> Any:
        return module.Widget.from_dict(obj) if path == "from_dict" else module.Widget.from_json(json.dumps(obj))

    w = read(raw)
    assert w.spec.note is None and w.spec.owner is None and w.spec.limits.max is None and w.spec.items[0].tag is None
    assert w.to_dict() == raw
    absent = read({"spec": {"owner": "o", "limits": {}, "items": [{}]}})
    assert absent.to_dict() == {"spec": {"owner": "o", "limits": {}, "items": [{}]}}
    w.spec.note = "set"  # a value given replaces the null
    w.spec.limits.max = 3
    assert w.to_dict()["spec"]["note"] == "set" and w.to_dict()["spec"]["limits"] == {"max": 3}
    assert module.Widget(spec=module.WidgetSpec(owner=None)).to_dict() == {"spec": {"owner": None}}
    assert module.Widget(spec=module.WidgetSpec(owner="o", note=None)).to_dict() == {"spec": {"owner": "o"}}


def test_only_classes_with_a_nullable_field_below_them_leave_the_fast_path_on_null(load: Load) -> None:
    module = load(crds=[crd(NULLABLE_SCHEMA)])
    assert keeps_nulls(module.Widget) and keeps_nulls(module.WidgetSpec) and keeps_nulls(module.WidgetList)
    assert keeps_nulls(module.Items)
    assert not keeps_nulls(ConfigMap) and not keeps_nulls(ObjectMeta)


# -- 6. what kubectl accepts from YAML ---------------------------------------------------------------


def test_non_string_map_keys_become_strings_as_yaml_to_json_makes_them() -> None:
    cm = ConfigMap.from_dict({"data": {8090: "port", True: "yes", 1.5: "float", "s": "str"}})
    assert cm.data == {"8090": "port", "true": "yes", "1.5": "float", "s": "str"}
    pod = Pod.from_dict({
        "metadata": {"labels": {1: "one"}},
        "spec": {"containers": [{"name": "a"}], "nodeSelector": {False: "no"}},
        "futureField": {"nested": {2: [{3: "deep"}]}},  # unknown: kept, its keys converted too
    })
    assert pod.metadata and pod.metadata.labels == {"1": "one"}
    assert pod.spec and pod.spec.node_selector == {"false": "no"}
    assert pod.to_dict()["futureField"] == {"nested": {"2": [{"3": "deep"}]}}


def test_a_non_string_value_for_a_string_field_stays_an_error_naming_the_path() -> None:
    with pytest.raises(ModelError, match=r"^ConfigMap: Expected `str`, got `int` - at `\$\.data\[\.\.\.\]`$"):
        ConfigMap.from_dict({"data": {"a": 1}})
    with pytest.raises(ModelError, match=r"at `\$\.spec\.containers\[0\]\.name`"):
        Pod.from_dict({"spec": {"containers": [{"name": 5}]}})
    with pytest.raises(ModelError, match=r"^ConfigMap: \$\.data: expected map keys to be strings, numbers or booleans, got NoneType None$"):
        ConfigMap.from_dict({"data": {None: "x"}})


# -- 5. names as users expect -------------------------------------------------------------------------


def test_fields_named_like_builtins_keep_their_names() -> None:
    from kgen.kubernetes.models.core.v1 import PodCondition
    from kgen.kubernetes.models.meta.v1 import WatchEvent

    assert PodCondition(type="Ready", status="True").type == "Ready"
    event = WatchEvent.from_dict({"type": "ADDED", "object": {"a": 1}})
    assert (event.type, event.object) == ("ADDED", {"a": 1})
    names = {f.name for cls in _stock_classes() for f in msgspec.structs.fields(cls)}
    assert {"type", "id", "format", "object"} <= names
    assert not {"type_", "id_", "format_", "object_"} & names


def test_a_field_named_like_a_builtin_type_does_not_shadow_it(load: Load) -> None:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "list": {"type": "array", "items": {"type": "string"}},
        "str": {"type": "string"},
        "names": {"type": "array", "items": {"type": "string"}},
        "dict": {"type": "object", "additionalProperties": {"type": "integer"}},
    }}}}
    module = load(crds=[crd(schema)])
    spec = module.WidgetSpec.from_dict({"list": ["a"], "str": "s", "names": ["n"], "dict": {"k": 1}})
    assert (spec.list, spec.str, spec.names, spec.dict) == (["a"], "s", ["n"], {"k": 1})
    hints = typing.get_type_hints(module.WidgetSpec)
    assert hints["names"] == list[str] | None and hints["dict"] == dict[str, int] | None
