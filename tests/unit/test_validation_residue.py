"""Unit tests of issue 35's validation residue (items 13, 14, 16, 18, 19, 20); the same behaviours
are compared with the real apiserver in tests/integration/test_validation_residue.py, where the
messages below were measured.

- the scale subresource's checks (``subresources.scale_errors``): unstructured's accessors, their
  Go types and ``%v`` values, the CRD's paths with their leading dot;
- the status subresource (``subresources.prepared``): a create's status dropped, an update's the
  stored one, a ``/status`` write as it is;
- pruning of what no schema describes (``structural.emptied``), a list on a string with a format;
- defaults inside a default, before CEL;
- CEL values holding timestamps and durations below the top (``cel.literal``).
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from kgen.runtime.apimachinery.validation import validate_against
from kgen.runtime.apimachinery.validation.cel.literal import bound, cel_literal, has_time_values
from kgen.runtime.apimachinery.validation.cel.validation import check_rules
from kgen.runtime.apimachinery.validation.structural import emptied
from kgen.runtime.apimachinery.validation.subresources import SUBRESOURCES_KEY, prepared, scale_errors

SCALE = {SUBRESOURCES_KEY: {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                                                    "statusReplicasPath": ".status.replicas",
                                                    "labelSelectorPath": ".status.selector"}}}


@pytest.mark.parametrize(("replicas", "message"), [
    (-1, "Invalid value: -1: should be a non-negative integer"),
    (3_000_000_000, "Invalid value: 3000000000: should be less than or equal to 2147483647"),
    (1.5, "Invalid value: 0: .spec.replicas accessor error: 1.5 is of the type float64, expected int64"),
    (1.0, "Invalid value: 0: .spec.replicas accessor error: 1 is of the type float64, expected int64"),
    (10**20, "Invalid value: 0: .spec.replicas accessor error: 1e+20 is of the type float64, expected int64"),
    ("3", "Invalid value: 0: .spec.replicas accessor error: 3 is of the type string, expected int64"),
])
def test_spec_replicas_are_checked_as_apiextensions_does(replicas: Any, message: str) -> None:
    errors = scale_errors(SCALE, {"spec": {"replicas": replicas}}, None)
    assert [(e.type, e.field, e.message) for e in errors] == [("FieldValueInvalid", ".spec.replicas", message)]


def test_absent_and_valid_replicas_are_no_error() -> None:
    assert scale_errors(SCALE, {"spec": {}}, None) == []
    assert scale_errors(SCALE, {"spec": {"replicas": 0}, "status": {"replicas": 2147483647, "selector": "a=b"}}, None) == []
    assert scale_errors({}, {"spec": {"replicas": -1}}, None) == []  # no scale subresource


def test_a_status_write_checks_the_status_paths_only() -> None:
    obj = {"spec": {"replicas": -1}, "status": {"replicas": -2, "selector": 5}}
    main = {(e.field, e.message) for e in scale_errors(SCALE, obj, None)}
    status = {(e.field, e.message) for e in scale_errors(SCALE, obj, "status")}
    assert status == {(".status.replicas", "Invalid value: -2: should be a non-negative integer"),
                      (".status.selector",
                       'Invalid value: "": .status.selector accessor error: 5 is of the type int64, expected string')}
    assert main == status | {(".spec.replicas", "Invalid value: -1: should be a non-negative integer")}


def test_a_non_object_on_the_path_is_an_accessor_error() -> None:
    errors = scale_errors(SCALE, {"spec": ["x"]}, None)
    assert [e.message for e in errors] == [
        "Invalid value: 0: .spec.replicas accessor error: [x] is of the type []interface {}, expected map[string]interface{}"]


def test_the_status_subresource_decides_what_status_is_validated() -> None:
    created = {"spec": {"a": 1}, "status": {"phase": "bad"}}
    assert prepared(SCALE, created, None, None) == {"spec": {"a": 1}}
    stored = {"spec": {"a": 0}, "status": {"phase": "ok"}}
    assert prepared(SCALE, created, stored, None) == {"spec": {"a": 1}, "status": {"phase": "ok"}}
    assert prepared(SCALE, created, {"spec": {}}, None) == {"spec": {"a": 1}}
    assert prepared(SCALE, created, stored, "status") is created
    assert prepared({}, created, None, None) is created  # no status subresource: status is validated


def test_validate_against_drops_a_create_status_and_keeps_an_update_status() -> None:
    schema = {"type": "object", **SCALE, "properties": {
        "spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
        "status": {"type": "object", "properties": {"phase": {"type": "string", "enum": ["A"]},
                                                     "replicas": {"type": "integer"}}}}}
    bad = {"apiVersion": "x/v1", "kind": "X", "metadata": {"name": "a"}, "spec": {"replicas": 1},
           "status": {"phase": "B", "replicas": -1}}
    assert validate_against(schema, bad) == []
    stored = {**bad, "status": {"phase": "A"}}
    assert validate_against(schema, bad, old=stored) == []
    written = validate_against(schema, bad, old=stored, subresource="status")
    assert sorted(e.field for e in written) == [".status.replicas", "status.phase"]


def test_what_no_schema_describes_is_emptied_and_recorded() -> None:
    unknown: list[str] = []
    assert emptied([1, {"a": 1, "b": [{"c": 2}]}, [{"d": 3}]], "spec.d", unknown) == [1, {}, [{}]]
    assert unknown == ["spec.d[1].a", "spec.d[1].b", "spec.d[2][0].d"]


def test_a_list_on_a_formatted_string_passes_and_an_int_or_string_object_is_pruned() -> None:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "d": {"type": "string", "format": "date-time"}, "s": {"type": "string"},
        "q": {"x-kubernetes-int-or-string": True}}}}}
    obj = {"apiVersion": "x/v1", "kind": "X", "metadata": {"name": "a"}}
    assert validate_against(schema, {**obj, "spec": {"d": ["x"]}}) == []
    assert [e.field for e in validate_against(schema, {**obj, "spec": {"s": ["x"]}})] == ["spec.s"]  # no format
    strict = validate_against(schema, {**obj, "spec": {"d": [{"a": 1}], "q": {"b": 1}}}, field_validation="Strict")
    assert [(e.type, e.field) for e in strict] == [("BadRequest", "spec.d[0].a"), ("BadRequest", "spec.q.b")]


def test_defaults_inside_a_default_are_applied_before_cel() -> None:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": {"preemption": {
        "type": "object",
        "x-kubernetes-validations": [{"rule": "self.borrow.policy == 'Never' && self.borrow.limits.max == 3"}],
        "properties": {"borrow": {"type": "object", "default": {}, "properties": {
            "policy": {"type": "string", "default": "Never"},
            "limits": {"type": "object", "default": {}, "properties": {"max": {"type": "integer", "default": 3}}},
        }}}}}}}}
    obj = {"apiVersion": "x/v1", "kind": "X", "metadata": {"name": "a"}, "spec": {"preemption": {}}}
    assert validate_against(schema, obj) == []
    obj["spec"]["preemption"] = {"borrow": {"policy": "Always"}}
    assert [e.field for e in validate_against(schema, obj)] == ["spec.preemption"]


TAINTS = {"type": "array", "items": {"type": "object", "properties": {
    "key": {"type": "string"}, "timeAdded": {"type": "string", "format": "date-time"},
    "ttl": {"type": "string", "format": "duration"}}}}


def test_timestamps_and_durations_below_a_rule_are_cel_values() -> None:
    node = {**TAINTS, "x-kubernetes-validations": [
        {"rule": "self.all(t, t.key != '')"},
        {"rule": "self.all(t, t.timeAdded > timestamp('2000-01-01T00:00:00Z'))", "message": "old"},
        {"rule": "self.all(t, t.ttl < duration('24h'))",
         "messageExpression": "'ttl ' + string(self[0].ttl) + ' at ' + string(self[0].timeAdded)"},
    ]}
    fine = [{"key": "spot", "timeAdded": "2024-01-02T03:04:05Z", "ttl": "1h"}]
    assert check_rules(fine, node, "spec.taints") == []
    late = [{"key": "spot", "timeAdded": "1990-01-02T03:04:05Z", "ttl": "90m30s"}, {"key": "", "ttl": "30h"}]
    node_late = {**node, "x-kubernetes-validations": node["x-kubernetes-validations"][:2]}
    assert sorted(v.message for v in check_rules(late, node_late, "spec.taints")) == [
        "Invalid value: failed rule: self.all(t, t.key != '')", "Invalid value: old"]
    long = [{"key": "a", "timeAdded": "2024-01-02T03:04:05Z", "ttl": "25h"}]
    assert [v.message for v in check_rules(long, node, "spec.taints")] == [
        "Invalid value: ttl 90000s at 2024-01-02T03:04:05Z"]


def test_a_cel_literal_keeps_each_value_and_its_type() -> None:
    stamp = datetime.datetime(2024, 1, 2, 3, 4, 5, 600000, tzinfo=datetime.timezone.utc)
    value = {"s": 'a"\\\n\u00e9', "i": -5, "f": 1e20, "b": True, "n": None, "raw": b"\x00A",
             "t": [stamp], "d": {"x": datetime.timedelta(hours=1, microseconds=7)}}
    assert cel_literal(value) == (
        'dyn({"s": "a\\"\\\\\\n\u00e9", "i": -5, "f": 1e+20, "b": true, "n": null, "raw": b"\\x00\\x41", '
        '"t": dyn([timestamp("2024-01-02T03:04:05.600000+00:00")]), "d": dyn({"x": duration("3600000007us")})})')
    assert has_time_values(value) and not has_time_values(stamp) and not has_time_values({"a": [1]})
    assert bound("self.x", {"self": {"x": 1}}) == 'cel.bind(self, dyn({"x": 1}), self.x)'
    with pytest.raises(TypeError, match="no CEL literal for a set"):
        cel_literal({1})
