"""`kgen manifests`: each marker and each Python type becomes the schema controller-gen writes.

The expected values are controller-gen's output for the equivalent Go markers
(sigs.k8s.io/controller-tools pkg/crd/markers/validation.go, its testdata CRDs): key names,
value shapes, required lists sorted, ``type`` on every node except int-or-string and
preserve-unknown-fields ones.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

import pytest

from kgen.generator.manifests.crd import Options, Root, build_crds
from kgen.generator.manifests.crd_schema import API_VERSION_DESCRIPTION, KIND_DESCRIPTION, QUANTITY_PATTERN
from kgen.kubernetes.models.core.v1 import ContainerPort
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.kubernetes.models.batch.v1 import JobTemplateSpec
from kgen.runtime.apimachinery import Model, Quantity, Time, field
from kgen.runtime.apimachinery import markers as m
from tests.support.manifests import widgets


def _root_schema(cls: type[Model]) -> dict[str, Any]:
    facts = getattr(cls, m.RESOURCE_ATTRIBUTE)
    crds = build_crds([Root(cls, facts)], "test", Options(allow_dangerous_types=True))
    (crd,) = crds.values()
    (version,) = crd["spec"]["versions"]
    schema: dict[str, Any] = version["schema"]["openAPIV3Schema"]
    return schema


WIDGET = _root_schema(widgets.Widget)
SPEC = WIDGET["properties"]["spec"]["properties"]


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@m.constraints(m.MapType("atomic"), m.MinProperties(1))
class Selector(Model, kw_only=True):
    """A selector, replaced whole."""

    app: str | None = None


@m.resource(group="odds.manifests.kgen.test", version="v1alpha1", plural="oddities", scope="Cluster")
class Oddity(Model, kw_only=True):
    level: Literal[1, 2, 3] | None = None
    color: Color | None = None
    share: Annotated[float, m.Minimum(0, exclusive=True), m.Maximum(1, exclusive=True), m.MultipleOf(0.25)] | None = None
    annotations: Annotated[dict[str, str], m.MinProperties(1), m.MaxProperties(4), m.MapType("granular")] | None = None
    maybe: Annotated[str | None, m.Nullable()] = None
    embedded: Annotated[dict[str, Any], m.EmbeddedResource()] | None = None
    described: Annotated[str, m.Description("Said by a marker.")] | None = None
    """Said by the docstring, overridden."""
    memory: Quantity | None = None
    unique: Annotated[list[int], m.UniqueItems(), m.ListType("atomic")] | None = None
    rule: Annotated[int, m.XValidation(rule="self >= oldSelf", message_expression="'was ' + string(oldSelf)",
                                       reason="FieldValueForbidden", field_path=".x", optional_old_self=True)] | None = None
    selector: Selector | None = None
    chosen: Annotated[list[str], m.Default(["a", "b"])] | None = None
    template_meta: ObjectMeta | None = field(default=None, name="templateMeta")
    nested_list: list[list[Annotated[str, m.MaxLength(3)]]] | None = field(default=None, name="nestedList")
    created: Annotated[str, m.Format("date-time")] | None = None
    port: ContainerPort | None = None
    limits: dict[str, Quantity] | None = None
    seen: list[Time] | None = None
    job_template: JobTemplateSpec | None = field(default=None, name="jobTemplate")


ODD = _root_schema(Oddity)["properties"]


@pytest.mark.parametrize(
    ("field_name", "expected"),
    [
        ("replicas", {"default": 1, "description": "How many copies run.", "format": "int32", "maximum": 10,
                      "minimum": 0, "type": "integer"}),
        ("size", {"description": "A size such as 10Gi.", "pattern": "^[0-9]+(Ki|Mi|Gi)$", "type": "string"}),
        ("ownerEmail", {"maxLength": 254, "minLength": 3, "type": "string"}),
        ("mode", {"enum": ["Fast", "Safe"], "type": "string"}),
        ("tags", {"items": {"type": "string"}, "maxItems": 5, "minItems": 1, "type": "array",
                  "x-kubernetes-list-type": "set"}),
        ("labels", {"additionalProperties": {"type": "string"}, "type": "object"}),
        ("limits", {"additionalProperties": {"format": "int64", "type": "integer"}, "type": "object"}),
        ("target", {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": True}),
        ("config", {"type": "object", "x-kubernetes-preserve-unknown-fields": True}),
        ("extra", {"x-kubernetes-preserve-unknown-fields": True}),
        ("paused", {"default": False, "type": "boolean"}),
        ("ratio", {"type": "number"}),
        ("startTime", {"format": "date-time", "type": "string"}),
        ("tier", {"default": "gold", "type": "string"}),
        ("window", {"properties": {"max": {"format": "int64", "type": "integer"}, "min": {"format": "int64", "type": "integer"}}, "required": ["max", "min"],
                    "type": "object",
                    "x-kubernetes-validations": [{"message": "min must not exceed max", "rule": "self.min <= self.max"}]}),
    ],
)
def test_widget_field_schema_is_controller_gens(field_name: str, expected: dict[str, Any]) -> None:
    assert SPEC[field_name] == expected


def test_list_map_of_models_carries_keys_and_item_schema() -> None:
    assert WIDGET["properties"]["spec"]["properties"]["ports"] == {
        "items": {
            "description": "A named port.",
            "properties": {
                "name": {"description": "The port's name, unique in the list.", "maxLength": 15, "type": "string"},
                "port": {"format": "int64", "maximum": 65535, "minimum": 1, "type": "integer"},
                "protocol": {"default": "TCP", "enum": ["TCP", "UDP"], "type": "string"},
            },
            "required": ["name", "port"],
            "type": "object",
        },
        "type": "array",
        "x-kubernetes-list-map-keys": ["name"],
        "x-kubernetes-list-type": "map",
    }


def test_required_is_fields_without_default_and_not_optional_sorted() -> None:
    assert WIDGET["properties"]["spec"]["required"] == ["size"]
    assert WIDGET["required"] == ["spec"]
    assert "required" not in WIDGET["properties"]["status"]


def test_root_has_typemeta_metadata_object_and_resource_cel_rules() -> None:
    props = WIDGET["properties"]
    assert props["apiVersion"] == {"description": API_VERSION_DESCRIPTION, "type": "string"}
    assert props["kind"] == {"description": KIND_DESCRIPTION, "type": "string"}
    assert props["metadata"] == {"type": "object"}
    assert WIDGET["description"] == "Widget is the Schema for the widgets API."
    assert WIDGET["type"] == "object"
    assert WIDGET["x-kubernetes-validations"] == [{"message": "name too long", "rule": "self.metadata.name.size() <= 40"}]
    # A CEL rule on the field's annotation lands on the nested object's schema.
    assert props["spec"]["x-kubernetes-validations"] == [
        {"message": "ownerEmail must contain @", "rule": "!has(self.ownerEmail) || self.ownerEmail.contains('@')"}
    ]


def test_condition_is_controller_gens_metav1_condition() -> None:
    conditions = WIDGET["properties"]["status"]["properties"]["conditions"]
    item = conditions["items"]
    assert item["required"] == ["lastTransitionTime", "message", "reason", "status", "type"]
    assert item["properties"]["status"]["enum"] == ["True", "False", "Unknown"]
    assert item["properties"]["reason"]["pattern"] == "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"
    assert item["properties"]["observedGeneration"] == {
        "description": item["properties"]["observedGeneration"]["description"],
        "format": "int64", "minimum": 0, "type": "integer",
    }
    assert conditions["x-kubernetes-list-map-keys"] == ["type"]
    assert WIDGET["properties"]["status"]["properties"]["lastSeen"] == {"format": "date-time", "type": "string"}


@pytest.mark.parametrize(
    ("field_name", "expected"),
    [
        ("level", {"enum": [1, 2, 3], "type": "integer"}),
        ("color", {"enum": ["red", "blue"], "type": "string"}),
        ("share", {"exclusiveMaximum": True, "exclusiveMinimum": True, "maximum": 1, "minimum": 0,
                   "multipleOf": 0.25, "type": "number"}),
        ("annotations", {"additionalProperties": {"type": "string"}, "maxProperties": 4, "minProperties": 1,
                         "type": "object", "x-kubernetes-map-type": "granular"}),
        ("maybe", {"nullable": True, "type": "string"}),
        ("embedded", {"type": "object", "x-kubernetes-embedded-resource": True,
                      "x-kubernetes-preserve-unknown-fields": True}),
        ("described", {"description": "Said by a marker.", "type": "string"}),
        ("memory", {"anyOf": [{"type": "integer"}, {"type": "string"}], "pattern": QUANTITY_PATTERN,
                    "x-kubernetes-int-or-string": True}),
        ("unique", {"items": {"format": "int64", "type": "integer"}, "type": "array", "uniqueItems": True,
                    "x-kubernetes-list-type": "atomic"}),
        ("rule", {"format": "int64", "type": "integer", "x-kubernetes-validations": [
            {"fieldPath": ".x", "messageExpression": "'was ' + string(oldSelf)", "optionalOldSelf": True,
             "reason": "FieldValueForbidden", "rule": "self >= oldSelf"}]}),
        ("selector", {"description": "A selector, replaced whole.", "minProperties": 1,
                      "properties": {"app": {"type": "string"}}, "type": "object", "x-kubernetes-map-type": "atomic"}),
        ("chosen", {"default": ["a", "b"], "items": {"type": "string"}, "type": "array"}),
        ("templateMeta", {"type": "object"}),
        ("nestedList", {"items": {"items": {"maxLength": 3, "type": "string"}, "type": "array"}, "type": "array"}),
        ("created", {"format": "date-time", "type": "string"}),
        ("limits", {"additionalProperties": {"anyOf": [{"type": "integer"}, {"type": "string"}],
                                             "pattern": QUANTITY_PATTERN, "x-kubernetes-int-or-string": True},
                    "type": "object"}),
        ("seen", {"items": {"format": "date-time", "type": "string"}, "type": "array"}),
    ],
)
def test_marker_schema(field_name: str, expected: dict[str, Any]) -> None:
    assert ODD[field_name] == expected


def test_markers_are_hashable_inside_optional_annotations() -> None:
    # ``Annotated[...] | None`` hashes the markers: a list in a marker must not break the class.
    assert hash(m.ListType("map", keys=["name"])) == hash(m.ListType("map", keys=("name",)))
    assert m.ListType("map", keys=["name"]).keys == ("name",)
    hash(m.Default({"a": [1]}))


def test_resource_sets_api_version_and_kind_like_a_generated_model() -> None:
    assert widgets.Widget.API_VERSION == "widgets.manifests.kgen.test/v1"
    assert widgets.Widget.KIND == "Widget"
    assert Oddity.KIND == "Oddity"


def test_generated_model_keeps_its_schema_defaults_but_not_go_zero_values() -> None:
    port = ODD["port"]
    assert port["properties"]["protocol"]["default"] == "TCP"
    assert "default" not in port["properties"]["containerPort"]
    # k8s.io/api's enums are open (a newer cluster adds values): controller-gen writes none, nor kgen.
    assert "enum" not in port["properties"]["protocol"]
    assert port["properties"]["containerPort"]["format"] == "int32"  # Go's int32, which the model's int forgets
    assert port["required"] == ["containerPort"]
    # The generator's "Required." / "Default: ..." paragraphs are not repeated in descriptions.
    assert not any("Required." in p.get("description", "") or "applied by the server" in p.get("description", "")
                   for p in port["properties"].values())


def test_an_embedded_kubernetes_job_template_is_written_as_controller_gen_writes_it() -> None:
    """kubebuilder's CronJob embeds batch/v1 JobTemplateSpec: the whole pod template is written,
    metadata as ``type: object``, quantities as int-or-string, times as date-time."""
    template = ODD["jobTemplate"]
    assert template["properties"]["metadata"] == {
        "description": template["properties"]["metadata"]["description"], "type": "object"}
    pod = template["properties"]["spec"]["properties"]["template"]["properties"]["spec"]
    container = pod["properties"]["containers"]["items"]
    assert "name" in container["required"]
    limits = container["properties"]["resources"]["properties"]["limits"]
    assert limits["additionalProperties"]["x-kubernetes-int-or-string"] is True
    assert "enum" not in pod["properties"]["restartPolicy"]
    assert container["properties"]["ports"]["x-kubernetes-list-map-keys"] == ["containerPort", "protocol"]
