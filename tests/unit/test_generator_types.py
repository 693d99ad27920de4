"""Schema features, each through a small generated package: what type a schema becomes, and
that objects decode and re-encode losslessly (JSON types, unknown fields, null vs absent)."""

from __future__ import annotations

import datetime as dt
import json
import sys
import typing
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from types import ModuleType, NoneType
from typing import Any

import pytest

from kgen.generator import build, naming
from kgen.generator.generate import Options, load_sources
from kgen.runtime.apimachinery.model import ModelError
from kgen.runtime.apimachinery.types import compare_quantities, format_micro_time, format_time, parse_quantity, parse_time
from tests.unit.helpers import GROUP, PREFIX, crd, generate, gvk, imported, openapi_v3, swagger_v2, widget_document, write_json

Load = Callable[..., ModuleType]
META = "io.k8s.apimachinery.pkg.apis.meta.v1"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _widget(load: Load, props: dict[str, Any], **extra: Any) -> type:
    """The Widget class of a package whose Widget has ``props``."""
    return load(widget_document({"type": "object", "properties": props}, **extra)).Widget


def _hint(cls: type, field: str) -> set[Any]:
    """The members of an optional field's annotation, without the ``None`` (absent) it has."""
    members = set(typing.get_args(typing.get_type_hints(cls)[field]))
    assert NoneType in members
    return members - {NoneType}


def _round_trip_json(cls: type, raw: bytes) -> None:
    assert cls.from_json(raw).to_json() == raw
    assert cls.from_dict(json.loads(raw)).to_json() == raw


# -- int-or-string ---------------------------------------------------------------------------------

INT_OR_STRING = {
    "format": {"type": "string", "format": "int-or-string"},
    "extension": {"x-kubernetes-int-or-string": True},
    "extension-with-anyOf": {"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]},
    "anyOf": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
    "oneOf": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "ref": _ref("io.k8s.apimachinery.pkg.util.intstr.IntOrString"),
}


@pytest.mark.parametrize("spelling", sorted(INT_OR_STRING))
def test_int_or_string_keeps_the_json_type(load: Load, spelling: str) -> None:
    cls = _widget(load, {"port": INT_OR_STRING[spelling]})
    assert _hint(cls, "port") == {int, str}
    assert cls.from_dict({"port": 8080}).port == 8080
    assert cls.from_dict({"port": "http"}).port == "http"
    for raw in (b'{"port":8080}', b'{"port":"http"}', b'{"port":"8080"}'):
        _round_trip_json(cls, raw)
    assert cls.from_dict({"port": "8080"}).to_dict() == {"port": "8080"}


def test_int_or_string_in_a_crd(load: Load) -> None:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "maxSurge": {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": True},
    }}}}
    module = load(crds=[crd(schema)])
    for value in (1, "25%"):
        obj = {"apiVersion": f"{GROUP}/v1", "kind": "Widget", "spec": {"maxSurge": value}}
        assert module.Widget.from_dict(obj).spec.max_surge == value
        assert module.Widget.from_dict(obj).to_dict() == obj


# -- x-kubernetes-preserve-unknown-fields, embedded resources, additionalProperties -----------------


def test_preserve_unknown_fields_at_the_root(load: Load) -> None:
    module = load(crds=[crd({"type": "object", "x-kubernetes-preserve-unknown-fields": True})])
    obj = {
        "apiVersion": f"{GROUP}/v1",
        "kind": "Widget",
        "metadata": {"name": "w", "labels": {"a": "b"}},
        "spec": {"anything": [1, "two", {"three": None}], "nested": {"deep": {"deeper": True}}},
        "status": "free-form",
    }
    widget = module.Widget.from_dict(obj)
    assert widget.metadata.name == "w"
    assert widget.to_dict() == obj
    assert json.loads(module.Widget.from_json(json.dumps(obj)).to_json()) == obj


def test_preserve_unknown_fields_nested_is_a_free_form_object(load: Load) -> None:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}}
    module = load(crds=[crd(schema)])
    assert _hint(module.Widget, "spec") == {dict[str, Any]}
    obj = {"spec": {"a": {"b": [1, {"c": None}]}, "d": "e"}}
    assert module.Widget.from_dict(obj).spec == obj["spec"]
    assert module.Widget.from_dict(obj).to_dict() == obj


def test_preserve_unknown_fields_beside_properties_keeps_the_unknown_ones(load: Load) -> None:
    schema = {"type": "object", "properties": {"spec": {
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": True,
        "properties": {"size": {"type": "integer"}},
    }}}
    module = load(crds=[crd(schema)])
    assert _hint(module.Widget, "spec") == {module.WidgetSpec}
    obj = {"spec": {"size": 3, "color": "red", "extra": {"x": [1, 2]}}}
    widget = module.Widget.from_dict(obj)
    assert widget.spec.size == 3
    assert widget.to_dict() == obj
    assert json.loads(module.Widget.from_json(json.dumps(obj)).to_json()) == obj


def test_preserve_unknown_fields_is_recorded_as_a_fact(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}}
    source = write_json(tmp_path / "crd.json", crd(schema))
    package = build.build(load_sources(Options(crds=[source])), "p")
    (module,) = [m for m in package.modules if m.group == GROUP]
    (widget,) = [m for m in module.models if m.name == "Widget"]
    (spec,) = [f for f in widget.fields if f.wire_name == "spec"]
    assert spec.facts == {"x-kubernetes-preserve-unknown-fields": True}


def test_embedded_resource(load: Load) -> None:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "template": {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True},
        "typed": {
            "type": "object",
            "x-kubernetes-embedded-resource": True,
            "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"}},
        },
    }}}}
    module = load(crds=[crd(schema)])
    assert _hint(module.WidgetSpec, "template") == {dict[str, Any]}
    embedded = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"k": "v"}}
    obj = {"spec": {"template": embedded, "typed": embedded}}
    widget = module.Widget.from_dict(obj)
    assert widget.spec.template == embedded
    assert widget.spec.typed.kind == "ConfigMap" and widget.spec.typed.metadata == {"name": "c"}
    assert widget.to_dict() == obj


def test_additional_properties_true_false_and_schema(load: Load) -> None:
    cls = _widget(load, {
        "anything": {"type": "object", "additionalProperties": True},
        "nothing": {"type": "object", "additionalProperties": False},
        "strings": {"type": "object", "additionalProperties": {"type": "string"}},
        "gadgets": {"type": "object", "additionalProperties": _ref(f"{PREFIX}.Gadget")},
        "inline": {"type": "object", "additionalProperties": {"type": "object", "properties": {"z": {"type": "integer"}}}},
    }, **{f"{PREFIX}.Gadget": {"type": "object", "properties": {"b": {"type": "string"}}}})
    module = sys.modules[cls.__module__]
    assert _hint(cls, "anything") == {dict[str, Any]}
    assert _hint(cls, "nothing") == {dict[str, Any]}
    # Map values are plain (labels={"app": "web"} type-checks); only Time values may be null.
    assert _hint(cls, "strings") == {dict[str, str]}
    assert _hint(cls, "gadgets") == {dict[str, module.Gadget]}
    assert _hint(cls, "inline") == {dict[str, module.WidgetInline]}
    obj = {
        "anything": {"a": [1], "b": None},
        "nothing": {},
        "strings": {"a": "x", "b": "y"},
        "gadgets": {"g": {"b": "y", "unknown": 1}},
        "inline": {"i": {"z": 1}},
    }
    widget = cls.from_dict(obj)
    assert widget.gadgets["g"].b == "y" and widget.inline["i"].z == 1
    assert widget.to_dict() == obj
    with pytest.raises(ModelError):
        cls.from_dict({"strings": {"a": 1}})


# -- enums, nullable, defaults, allOf ---------------------------------------------------------------


def test_open_enum_accepts_unknown_values_and_names_the_known_ones(load: Load) -> None:
    cls = _widget(load, {"policy": {"type": "string", "enum": ["Always", "IfNotPresent", "Never"]}})
    (literal,) = [m for m in _hint(cls, "policy") if typing.get_origin(m) is typing.Literal]
    assert typing.get_args(literal) == ("Always", "IfNotPresent", "Never")
    assert _hint(cls, "policy") == {literal, str}
    for value in ("Always", "Sometimes"):
        assert cls.from_dict({"policy": value}).policy == value
        _round_trip_json(cls, json.dumps({"policy": value}, separators=(",", ":")).encode())


def test_enum_of_non_strings_is_the_plain_type(load: Load) -> None:
    cls = _widget(load, {"level": {"type": "integer", "enum": [1, 2, 3]}})
    assert _hint(cls, "level") == {int}
    assert cls.from_dict({"level": 7}).level == 7


def test_nullable_field_keeps_an_explicit_null(load: Load) -> None:
    cls = _widget(load, {
        "name": {"type": "string", "nullable": True},
        "spec": {"type": "object", "nullable": True, "properties": {"size": {"type": "integer", "nullable": True}}},
    })
    assert _hint(cls, "name") == {str}
    obj = {"name": None, "spec": {"size": None}}
    widget = cls.from_dict(obj)
    assert widget.name is None and widget.spec.size is None
    assert widget.to_dict() == obj
    _round_trip_json(cls, b'{"name":null,"spec":null}')


def test_default_is_recorded_and_never_injected(load: Load) -> None:
    cls = _widget(load, {
        "replicas": {"type": "integer", "default": 1},
        "maxSurge": {"x-kubernetes-int-or-string": True, "default": "25%"},
        "strategy": {"type": "object", "default": {"type": "RollingUpdate"}, "properties": {"type": {"type": "string"}}},
        "paused": {"type": "boolean"},
    })
    assert cls.DEFAULTS == {"replicas": 1, "max_surge": "25%", "strategy": {"type": "RollingUpdate"}}
    widget = cls.from_dict({})
    assert widget.replicas is None and widget.max_surge is None and widget.strategy is None
    assert widget.to_dict() == {} and widget.to_json() == b"{}"
    assert cls().to_dict() == {}
    assert cls.from_dict({"paused": True}).to_dict() == {"paused": True}
    assert cls.from_dict({"strategy": {}}).to_dict() == {"strategy": {}}


def test_default_appears_in_the_field_documentation(tmp_path: Path) -> None:
    source = write_json(tmp_path / "openapi.json", widget_document({"type": "object", "properties": {
        "replicas": {"type": "integer", "default": 1, "description": "How many."},
    }}))
    text = generate(tmp_path / "out", "--from", str(source)).source()
    assert '"""How many.\n\n    Default: 1 (applied by the server, not by this client)."""' in text


def test_all_of_with_one_ref_is_that_type_and_keeps_sibling_description_and_default(load: Load, tmp_path: Path) -> None:
    gadget = {f"{PREFIX}.Gadget": {"type": "object", "description": "A gadget.", "properties": {"b": {"type": "string"}}}}
    props = {"owner": {"allOf": [_ref(f"{PREFIX}.Gadget")], "description": "The owner.", "default": {"b": "x"}}}
    cls = _widget(load, props, **gadget)
    module = sys.modules[cls.__module__]
    assert _hint(cls, "owner") == {module.Gadget}
    assert cls.DEFAULTS == {"owner": {"b": "x"}}
    assert cls.from_dict({"owner": {"b": "y"}}).owner == module.Gadget(b="y")
    source = write_json(tmp_path / "openapi.json", widget_document({"type": "object", "properties": props}, **gadget))
    text = generate(tmp_path / "out", "--from", str(source)).source()
    assert 'owner: Gadget | None = None\n    """The owner.\n\n    Default: {"b": "x"}' in text


# -- recursion and unions -----------------------------------------------------------------------------


def test_recursive_schema_decodes_three_levels_deep(load: Load) -> None:
    props_ref = _ref(f"{PREFIX}.JSONSchemaProps")
    json_schema_props = {
        "type": "object",
        "properties": {
            "type": {"type": "string"},
            "description": {"type": "string"},
            "items": props_ref,
            "properties": {"type": "object", "additionalProperties": props_ref},
            "allOf": {"type": "array", "items": props_ref},
            "x-kubernetes-preserve-unknown-fields": {"type": "boolean"},
        },
    }
    module = load(widget_document(
        {"type": "object", "properties": {"schema": props_ref}},
        **{f"{PREFIX}.JSONSchemaProps": json_schema_props},
    ))
    obj = {"schema": {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "properties": {"ports": {"type": "array", "items": {"type": "integer", "x-kubernetes-preserve-unknown-fields": True}}},
                "allOf": [{"description": "deep", "properties": {"x": {"type": "string"}}}],
            },
        },
    }}
    widget = module.Widget.from_dict(obj)
    ports = widget.schema.properties["spec"].properties["ports"]
    assert isinstance(ports, module.JSONSchemaProps) and ports.items.type == "integer"
    assert ports.items.x_kubernetes_preserve_unknown_fields is True
    assert widget.schema.properties["spec"].all_of[0].properties["x"].type == "string"
    assert widget.to_dict() == obj
    assert json.loads(module.Widget.from_json(json.dumps(obj)).to_json()) == obj


def test_ref_cycle_without_properties_ends_in_any(load: Load) -> None:
    cls = _widget(load, {"nested": _ref(f"{PREFIX}.NestedList")}, **{
        f"{PREFIX}.NestedList": {"type": "array", "items": _ref(f"{PREFIX}.NestedList")},
    })
    assert _hint(cls, "nested") == {list[Any]}
    obj = {"nested": [[], [[1]]]}
    assert cls.from_dict(obj).to_dict() == obj


def test_one_of_distinct_scalars_is_a_union(load: Load) -> None:
    cls = _widget(load, {
        "countOrFlag": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
        "ratioOrText": {"oneOf": [{"type": "number"}, {"type": "string"}]},
    })
    assert _hint(cls, "count_or_flag") == {int, bool}
    assert _hint(cls, "ratio_or_text") == {float, str}
    for raw in (b'{"countOrFlag":3}', b'{"countOrFlag":true}', b'{"ratioOrText":0.5}', b'{"ratioOrText":"half"}'):
        _round_trip_json(cls, raw)
    assert cls.from_dict({"countOrFlag": True}).count_or_flag is True


def test_undecidable_one_of_is_any(load: Load) -> None:
    cls = _widget(load, {
        "sameType": {"oneOf": [{"type": "string"}, {"type": "string", "format": "date"}]},
        "objectOrString": {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "string"}]},
        "noTypes": {"oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
    })
    for field in ("same_type", "object_or_string", "no_types"):
        assert _hint(cls, field) == {Any}, field
    obj = {"sameType": "x", "objectOrString": {"a": "b", "c": [1]}, "noTypes": {"a": 1}}
    assert cls.from_dict(obj).to_dict() == obj
    assert cls.from_dict({"objectOrString": "s"}).object_or_string == "s"


# -- Time, MicroTime, Quantity ---------------------------------------------------------------------


def test_time_and_micro_time_round_trip_byte_exact(load: Load) -> None:
    cls = _widget(load, {
        "created": _ref(f"{META}.Time"),
        "renewed": _ref(f"{META}.MicroTime"),
        "seen": {"type": "string", "format": "date-time"},
        "size": _ref("io.k8s.apimachinery.pkg.api.resource.Quantity"),
    }, **{
        f"{META}.Time": {"type": "string", "format": "date-time"},
        f"{META}.MicroTime": {"type": "string", "format": "date-time"},
        "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": "string"},
    })
    raw = b'{"created":"2024-01-02T03:04:05Z","renewed":"2024-01-02T03:04:05.000001Z","seen":"2024-01-02T03:04:05Z","size":"1.5Gi"}'
    _round_trip_json(cls, raw)
    widget = cls.from_json(raw)
    assert parse_time(widget.created) == dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc)
    assert parse_time(widget.renewed) == dt.datetime(2024, 1, 2, 3, 4, 5, 1, tzinfo=dt.timezone.utc)
    assert format_micro_time(parse_time(widget.renewed)) == widget.renewed
    assert parse_quantity(widget.size) == 1610612736


@pytest.mark.parametrize(
    ("quantity", "value"),
    [
        ("1Gi", 2**30), ("1.5Gi", 1610612736), ("100m", Decimal("0.1")), ("2e3", 2000), ("1E3", 1000), ("1E", 10**18),
        ("1k", 1000), ("1M", 10**6), ("5n", Decimal("5e-9")), ("3u", Decimal("3e-6")), ("-1", -1), ("+.5", Decimal("0.5")),
        ("1.", 1), (" 2Ki ", 2048), (3, 3), (0.25, Decimal("0.25")),
    ],
)
def test_parse_quantity(quantity: str | int | float, value: Decimal | int) -> None:
    assert parse_quantity(quantity) == value


@pytest.mark.parametrize("bad", ["", "abc", "1Gb", "1e", "1.2.3", "Gi", "1 Gi"])
def test_parse_quantity_refuses_what_is_not_a_quantity(bad: str) -> None:
    with pytest.raises(ValueError, match="not a Kubernetes quantity"):
        parse_quantity(bad)


def test_compare_quantities_by_value() -> None:
    assert compare_quantities("1Gi", "1024Mi") == 0
    assert compare_quantities("500m", "1") == -1
    assert compare_quantities("2", "1500m") == 1
    assert compare_quantities("1k", "1Ki") == -1
    assert compare_quantities("1e3", 1000) == 0


def test_parse_and_format_time() -> None:
    utc = dt.timezone.utc
    assert parse_time("2024-01-02T03:04:05Z") == dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=utc)
    assert parse_time("2024-01-02T05:04:05+02:00") == dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=utc)
    assert parse_time("2024-01-02T05:04:05+02:00").tzinfo == utc
    assert parse_time("2024-01-02T03:04:05.000001Z").microsecond == 1
    when = dt.datetime(2024, 1, 2, 3, 4, 5, 123456, tzinfo=utc)
    assert format_time(when) == "2024-01-02T03:04:05Z"  # whole seconds, as metav1.Time marshals
    assert format_micro_time(when) == "2024-01-02T03:04:05.123456Z"
    assert format_micro_time(when.replace(microsecond=1)) == "2024-01-02T03:04:05.000001Z"
    assert format_time(dt.datetime(2024, 1, 2, 3, 4, 5)) == "2024-01-02T03:04:05Z"  # naive is UTC
    assert format_time(dt.datetime(2024, 1, 2, 5, 4, 5, tzinfo=dt.timezone(dt.timedelta(hours=2)))) == "2024-01-02T03:04:05Z"
    for text in ("2024-01-02T03:04:05Z", "1999-12-31T23:59:59Z"):
        assert format_time(parse_time(text)) == text
    assert format_micro_time(parse_time("2024-01-02T03:04:05.000001Z")) == "2024-01-02T03:04:05.000001Z"


# -- null vs absent, unknown fields -------------------------------------------------------------------


def _layered(load: Load) -> ModuleType:
    gadget = {"type": "object", "properties": {"name": {"type": "string"}, "inner": {"type": "object", "properties": {"x": {"type": "integer"}}}}}
    return load(widget_document({"type": "object", "properties": {
        "name": {"type": "string"},
        "spec": {"type": "object", "properties": {
            "gadget": _ref(f"{PREFIX}.Gadget"),
            "gadgets": {"type": "array", "items": _ref(f"{PREFIX}.Gadget")},
            "byName": {"type": "object", "additionalProperties": _ref(f"{PREFIX}.Gadget")},
            "tags": {"type": "array", "items": {"type": "string"}},
        }},
    }}, **{f"{PREFIX}.Gadget": gadget}))


def test_null_on_a_field_that_is_not_nullable_reads_as_absent(load: Load) -> None:
    """The apiserver's Go types drop such a null (``omitempty``); so does the model."""
    module = _layered(load)
    absent = module.Widget.from_dict({"spec": {}})
    null = module.Widget.from_dict({"name": None, "spec": {"gadget": None, "gadgets": None, "byName": {}, "tags": None}})
    assert absent.name is None and absent.spec.gadget is None
    assert null.name is None and null.spec.gadget is None and null.spec.gadgets is None and null.spec.by_name == {}
    assert absent.to_dict() == {"spec": {}}
    assert null.to_dict() == {"spec": {"byName": {}}}
    _round_trip_json(module.Widget, b'{"spec":{}}')
    assert module.Widget(name=None).to_json() == b"{}"
    assert module.Widget().to_json() == b"{}"


def test_unknown_fields_at_several_depths_are_preserved(load: Load) -> None:
    module = _layered(load)
    obj = {
        "name": "w",
        "rootUnknown": {"a": [1, None, {"b": "c"}]},
        "spec": {
            "specUnknown": None,
            "gadget": {"name": "g", "gadgetUnknown": 1, "inner": {"x": 1, "innerUnknown": [{}]}},
            "gadgets": [{"name": "a", "listUnknown": True}, {"inner": {"deepUnknown": {"d": {"e": "f"}}}}],
            "byName": {"k": {"mapUnknown": "v"}},
            "tags": ["t"],
        },
    }
    widget = module.Widget.from_dict(obj)
    assert widget.spec.gadget.inner.x == 1 and widget.spec.gadgets[0].name == "a"
    assert widget.to_dict() == obj
    from_json = module.Widget.from_json(json.dumps(obj).encode())
    assert json.loads(from_json.to_json()) == obj
    assert from_json == widget
    widget.spec.gadget.name = "changed"  # edits keep what the client did not understand
    assert widget.to_dict()["spec"]["gadget"] == {"name": "changed", "gadgetUnknown": 1, "inner": {"x": 1, "innerUnknown": [{}]}}


# -- naming ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wire", "python"),
    [
        ("podIPs", "pod_ips"), ("hostIPC", "host_ipc"), ("apiVersion", "api_version"), ("x-foo", "x_foo"),
        ("$ref", "ref"), ("$schema", "schema"), ("3d", "n_3d"), ("a.b", "a_b"), ("nat-outgoing", "nat_outgoing"),
        ("natOutgoing", "nat_outgoing"), ("URLPath", "url_path"), ("__init__", "init"), ("", "field"),
    ],
)
def test_snake_case(wire: str, python: str) -> None:
    assert naming.snake_case(wire) == python


def test_field_names_escape_only_keywords_and_the_models_own_names() -> None:
    wires = ["class", "from", "continue", "match", "type", "case", "id", "list", "str", "format", "object", "property",
             "to_dict", "from_json", "field", "builtins", "unknown_fields_", "metav1", "size"]
    names = naming.field_names(wires, reserved={"metav1"})
    assert names == {
        "class": "class_", "from": "from_", "continue": "continue_", "match": "match", "type": "type", "case": "case",
        "id": "id", "list": "list", "str": "str", "format": "format", "object": "object", "property": "property",
        "to_dict": "to_dict_", "from_json": "from_json_", "field": "field_", "builtins": "builtins_",
        "unknown_fields_": "unknown_fields", "metav1": "metav1_", "size": "size",
    }


def test_field_name_collisions_are_resolved_deterministically() -> None:
    wires = ["natOutgoing", "nat-outgoing", "foo", "Foo", "a_2", "a", "A"]
    expected = {"nat-outgoing": "nat_outgoing", "natOutgoing": "nat_outgoing_2", "Foo": "foo", "foo": "foo_2",
                "A": "a", "a": "a_2", "a_2": "a_2_2"}
    assert naming.field_names(wires) == expected
    assert naming.field_names(reversed(wires)) == expected
    assert naming.field_names(set(wires)) == expected


@pytest.mark.parametrize(
    ("raw", "cls"),
    [("Deployment", "Deployment"), ("Model", "Model_"), ("Any", "Any_"), ("UNSET", "UNSET"), ("None", "None_"),
     ("str", "Str"), ("3d", "N3d"), ("x-foo", "XFoo"), ("", "Object"), ("Exception", "Exception_")],
)
def test_class_names(raw: str, cls: str) -> None:
    assert naming.class_name(raw) == cls


def test_group_module_names() -> None:
    groups = ["", "apps", "networking.k8s.io", "internal.apiserver.k8s.io", "cert-manager.io", "acme.cert-manager.io",
              "3scale.net", "class.k8s.io"]
    expected = {
        "": "core", "apps": "apps", "networking.k8s.io": "networking", "internal.apiserver.k8s.io": "internal",
        "cert-manager.io": "cert_manager_io", "acme.cert-manager.io": "acme_cert_manager_io", "3scale.net": "g_3scale_net",
        "class.k8s.io": "class_",
    }
    assert naming.group_modules(groups) == expected
    assert naming.group_modules(reversed(groups)) == expected


def test_group_module_collisions_take_the_long_form_then_a_suffix() -> None:
    assert naming.group_modules(["networking.k8s.io", "networking.internal.k8s.io"]) == {
        "networking.internal.k8s.io": "networking_internal_k8s_io", "networking.k8s.io": "networking_k8s_io",
    }
    assert naming.group_modules(["", "core.k8s.io", "meta.k8s.io"]) == {"": "core", "core.k8s.io": "core_k8s_io", "meta.k8s.io": "meta_k8s_io"}
    assert naming.group_modules(["a.b.io", "a-b.io"]) == {"a-b.io": "a_b_io", "a.b.io": "a_b_io_2"}


def test_version_module_names() -> None:
    assert [naming.version_module(v) for v in ("v1", "v1beta1", "v2alpha3", "1", "class", "V1-Beta")] == [
        "v1", "v1beta1", "v2alpha3", "v_1", "class_", "v1_beta",
    ]


def test_group_modules_in_a_generated_package(tmp_path: Path) -> None:
    schemas = {
        "io.k8s.api.core.v1.TypedLocalObjectReference": {
            "type": "object", "properties": {"name": {"type": "string"}},
            "x-kubernetes-group-version-kind": [],
        },
        "io.k8s.api.core.v1.Pod": {
            "type": "object", "properties": {"name": {"type": "string"}},
            "x-kubernetes-group-version-kind": gvk("Pod", ""),
        },
        "io.k8s.api.networking.v1.Ingress": {
            "type": "object",
            "properties": {"backend": _ref("io.k8s.api.core.v1.TypedLocalObjectReference"), "meta": _ref(f"{META}.ListMeta")},
            "x-kubernetes-group-version-kind": gvk("Ingress", "networking.k8s.io"),
        },
        "io.cert-manager.v1.Certificate": {
            "type": "object", "properties": {"secretName": {"type": "string"}},
            "x-kubernetes-group-version-kind": gvk("Certificate", "cert-manager.io"),
        },
        f"{META}.ListMeta": {"type": "object", "properties": {"resourceVersion": {"type": "string"}}},
    }
    source = write_json(tmp_path / "openapi.json", openapi_v3(schemas))
    gen = generate(tmp_path / "out", "--from", str(source))
    modules = sorted(p.relative_to(gen.folder / "models").as_posix() for p in (gen.folder / "models").rglob("v1.py"))
    assert modules == ["cert_manager_io/v1.py", "core/v1.py", "meta/v1.py", "networking/v1.py"]
    with imported(gen) as loader:
        networking = loader.models("networking", "v1")
        ingress = networking.Ingress.from_dict({"backend": {"name": "b"}, "meta": {"resourceVersion": "1"}})
        assert type(ingress.backend).__module__ == f"{gen.name}.models.core.v1"
        assert type(ingress.meta).__module__ == f"{gen.name}.models.meta.v1"
        assert networking.Ingress.API_VERSION == "networking.k8s.io/v1" and loader.models("core", "v1").Pod.API_VERSION == "v1"
        assert loader.models("cert_manager_io", "v1").Certificate.API_VERSION == "cert-manager.io/v1"


# -- input formats, resources ---------------------------------------------------------------------------


def test_swagger_2_input(load: Load) -> None:
    definitions = {
        f"{PREFIX}.Widget": {
            "type": "object",
            "properties": {
                "spec": {"$ref": f"#/definitions/{PREFIX}.WidgetSpec"},
                "port": {"type": "string", "format": "int-or-string"},
            },
            "x-kubernetes-group-version-kind": gvk("Widget"),
        },
        f"{PREFIX}.WidgetSpec": {"type": "object", "properties": {"size": {"type": "integer"}}},
    }
    module = load(swagger_v2(definitions))
    obj = {"spec": {"size": 2}, "port": 80}
    assert module.Widget.from_dict(obj).spec == module.WidgetSpec(size=2)
    assert module.Widget.from_dict(obj).to_dict() == obj
    assert module.Widget.API_VERSION == f"{GROUP}/v1" and module.Widget.KIND == "Widget"


def test_yaml_openapi_v3_input(load: Load) -> None:
    document = widget_document({"type": "object", "properties": {
        "spec": _ref(f"{PREFIX}.WidgetSpec"),
        "mode": {"type": "string", "enum": ["on", "off", "="]},  # YAML 1.1 would read these as booleans / a tag
    }}, **{f"{PREFIX}.WidgetSpec": {"type": "object", "properties": {"size": {"type": "integer"}}}})
    for suffix in (".yaml", ".yml"):
        module = load(document, suffix=suffix)
        (literal,) = [m for m in _hint(module.Widget, "mode") if typing.get_origin(m) is typing.Literal]
        assert typing.get_args(literal) == ("on", "off", "=")
        obj = {"spec": {"size": 2}, "mode": "off"}
        assert module.Widget.from_dict(obj).to_dict() == obj


def _action(action: str, kind: str = "Widget", group: str = GROUP) -> dict[str, Any]:
    return {"x-kubernetes-action": action, "x-kubernetes-group-version-kind": {"group": group, "version": "v1", "kind": kind}}


def test_resources_come_from_x_kubernetes_action_when_discovery_is_missing(tmp_path: Path) -> None:
    base = f"/apis/{GROUP}/v1"
    paths = {
        f"{base}/namespaces/{{namespace}}/widgets/{{name}}/status": {
            "patch": _action("patch"), "get": _action("get"), "put": _action("put"),
        },
        f"{base}/namespaces/{{namespace}}/widgets": {
            "get": _action("list"), "post": _action("post"), "delete": _action("deletecollection"),
            "parameters": [{"name": "namespace", "in": "path"}],
        },
        f"{base}/namespaces/{{namespace}}/widgets/{{name}}": {
            "get": _action("get"), "put": _action("put"), "patch": _action("patch"), "delete": _action("delete"),
        },
        f"{base}/watch/namespaces/{{namespace}}/widgets": {"get": _action("watchlist")},
        f"{base}/widgets": {"get": _action("list")},
        f"{base}/namespaces/{{namespace}}/ingresses": {"get": _action("list", "Ingress")},
        "/api/v1/nodes": {"get": _action("list", "Node", ""), "post": _action("post", "Node", "")},
        "/api/v1/nodes/{name}/proxy": {"get": _action("connect", "Node", "")},
        "/apis/": {"get": {"operationId": "getAPIVersions"}},
    }
    schemas = {
        f"{PREFIX}.Widget": {"type": "object", "properties": {"a": {"type": "string"}}, "x-kubernetes-group-version-kind": gvk("Widget")},
        f"{PREFIX}.Ingress": {"type": "object", "properties": {"a": {"type": "string"}}, "x-kubernetes-group-version-kind": gvk("Ingress")},
        "io.k8s.api.core.v1.Node": {"type": "object", "properties": {"a": {"type": "string"}}, "x-kubernetes-group-version-kind": gvk("Node", "")},
    }
    source = write_json(tmp_path / "openapi.json", openapi_v3(schemas, paths))
    package = build.build(load_sources(Options(sources=[source])), "p")
    resources = {(m.group, r.plural): r for m in package.modules for r in m.resources}
    widgets = resources[(GROUP, "widgets")]
    assert (widgets.kind, widgets.singular, widgets.namespaced) == ("Widget", "widget", True)
    assert widgets.verbs == ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]
    assert widgets.subresources == {"status": ["get", "patch", "update"]}
    assert resources[(GROUP, "ingresses")].singular == "ingress"
    nodes = resources[("", "nodes")]
    assert (nodes.kind, nodes.singular, nodes.namespaced, nodes.verbs) == ("Node", "node", False, ["create", "list"])

    reordered = write_json(tmp_path / "reordered.json", openapi_v3(schemas, {p: dict(reversed(ops.items())) for p, ops in reversed(paths.items())}))
    again = build.build(load_sources(Options(sources=[reordered])), "p")
    assert [(m.key, m.resources) for m in again.modules] == [(m.key, m.resources) for m in package.modules]


def test_property_names_yaml_reads_as_numbers_or_booleans_are_their_json_strings(load: Load) -> None:
    """``8080:`` and ``true:`` as property names in a CRD's YAML: kubectl sends them to the
    apiserver as the strings sigs.k8s.io/yaml makes of them ("8080", "true"), so that is what
    the generated model reads and writes (it used to stop the generator with a TypeError)."""
    spec = {"type": "object", "properties": {8080: {"type": "string"}, True: {"type": "integer"}, 1.5: {"type": "string"},
                                             "name": {"type": "string"}}}
    models = load(crds=[crd({"type": "object", "properties": {"spec": spec}})])
    wire = {"spec": {"8080": "http", "true": 1, "1.5": "x", "name": "n"}}
    widget = models.Widget.from_dict(wire)
    assert widget.spec.n_8080 == "http" and widget.spec.true == 1 and widget.spec.name == "n"
    assert widget.to_dict() == wire
