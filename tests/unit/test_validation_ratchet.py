"""Updates (``validate(new, old=...)``): the pairing of new and old values and the equality that
decides ratcheting, case by case as apiserver's ``CorrelatedObject`` reads (k8s.io/apiserver
pkg/cel/common/equality.go), and what an update drops and keeps. The oracle over thousands of
updates is tests/integration/test_validation_updates_vs_apiserver.py."""

from __future__ import annotations

from typing import Any

import pytest

from kgen.runtime.apimachinery.validation.ratcheting import MISSING, Partners, same, unchanged
from kgen.runtime.apimachinery.validation import validate_against


def _node(s: dict[str, Any]) -> dict[str, Any]:
    return s


MAP_LIST = {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
            "items": {"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer"}}}}


@pytest.mark.parametrize(("a", "b", "equal"), [
    (1, 1.0, False), (True, 1, False), ("a", "a", True), ({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}, True),
    ([1, 2], [2, 1], False), ({"a": 1}, {"a": 1, "b": 2}, False),
])
def test_same_is_go_deep_equal_of_decoded_json(a: Any, b: Any, equal: bool) -> None:
    assert same(a, b) is equal


def test_list_map_items_pair_by_key_and_the_first_duplicate_wins() -> None:
    partners = Partners(MAP_LIST, [{"k": "a", "v": 1}, {"k": "b", "v": 2}, {"k": "a", "v": 3}, {"v": 4}])
    assert partners.get({"k": "a"}) == {"k": "a", "v": 1}
    assert partners.get({"k": "c"}) is MISSING and partners.get({"v": 4}) is MISSING
    assert Partners({"type": "array", "x-kubernetes-list-type": "set", "items": {}}, ["a"]).get("a") is MISSING


def test_composite_keys_print_floats_as_go_does() -> None:
    """Several keys are joined with Go's ``%f``: floats equal to six decimals are one key."""
    s = {**MAP_LIST, "x-kubernetes-list-map-keys": ["k", "f"]}
    partners = Partners(s, [{"k": "a", "f": 1.0000001}])
    assert partners.get({"k": "a", "f": 1.0000004}) == {"k": "a", "f": 1.0000001}
    assert partners.get({"k": "a", "f": 1}) is MISSING  # an int64 key is another key


@pytest.mark.parametrize(("schema", "new", "old", "equal"), [
    (MAP_LIST, [{"k": "b", "v": 2}, {"k": "a", "v": 1}], [{"k": "a", "v": 1}, {"k": "b", "v": 2}], True),
    (MAP_LIST, [{"k": "a", "v": 1}], [{"k": "a", "v": 2}], False),
    ({"type": "array", "items": {"type": "integer"}}, [2, 1], [1, 2], False),
    ({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer"}}, [2, 1], [1, 2], False),
    # a key the schema does not declare is a change, even when both hold it
    ({"type": "object", "x-kubernetes-preserve-unknown-fields": True}, {"a": 1}, {"a": 1}, False),
    ({"type": "object", "additionalProperties": {"type": "string"}}, {"a": "x"}, {"a": "x"}, True),
    ({"type": "object", "properties": {"a": {"type": "string"}}}, {}, {}, True),
])
def test_unchanged_is_correlated_object_cached_deep_equal(schema: dict[str, Any], new: Any, old: Any, equal: bool) -> None:
    assert unchanged(new, old, schema, _node) is equal


SCHEMA: dict[str, Any] = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
    "a": {"type": "object", "required": ["must"], "properties": {
        "must": {"type": "string"}, "name": {"type": "string", "maxLength": 2}}},
    "b": {"type": "string", "maxLength": 2},
    "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
    "pinned": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "pinned"},
                                                              {"rule": "self != 'xyz'", "message": "not xyz"}]},
}}}}


def _fields(new: dict[str, Any], old: dict[str, Any] | None = None) -> list[str]:
    return [f"{e.field}: {e.message}" for e in validate_against(SCHEMA, {"spec": new}, old=None if old is None else {"spec": old})]


def test_an_update_drops_the_errors_of_what_it_leaves_unchanged() -> None:
    old = {"a": {"name": "long"}, "b": "long", "pinned": "xyz"}
    not_checked = ("<nil>: Invalid value: null: some validation rules were not checked because the object was "
                   "invalid; correct the existing errors to complete validation")
    assert _fields(old) == [not_checked, "spec.a.must: Required value",
                            "spec.a.name: Too long: may not be more than 2 bytes",
                            "spec.b: Too long: may not be more than 2 bytes"]
    # nothing changed where the errors are: all dropped, and with them "rules were not checked"
    # and the failure of the plain rule on the unchanged pinned
    assert _fields({**old, "set": ["x"]}, old) == []
    # a change under spec.a: the required error raised there stays, spec.b's is still dropped
    assert _fields({**old, "a": {"name": "lo"}}, old) == [not_checked, "spec.a.must: Required value"]


def test_transition_rules_run_against_the_paired_old_value_and_never_ratchet() -> None:
    assert _fields({"pinned": "b"}) == []  # a create: no old value, the transition rule does not run
    assert _fields({"pinned": "b"}, {"pinned": "a"}) == ['spec.pinned: Invalid value: "b": pinned']
    assert _fields({"pinned": "b"}, {}) == []  # no old value at that node
    # a plain rule's failure is dropped where the value is unchanged, kept where it changed
    assert _fields({"pinned": "xyz"}, {"pinned": "xyz"}) == []
    assert _fields({"pinned": "xyz"}, {"pinned": "abc"}) == ['spec.pinned: Invalid value: "xyz": not xyz',
                                                             'spec.pinned: Invalid value: "xyz": pinned']


def test_duplicates_are_checked_only_when_the_old_object_has_none() -> None:
    dup = {"set": ["x", "x"]}
    assert _fields(dup, {}) == ['spec.set[1]: Duplicate value: "x"']
    assert _fields({**dup, "b": "ok"}, {**dup, "b": "no"}) == []


def test_rules_below_a_map_value_name_it_by_key() -> None:
    """kube-openapi writes a map value's path ``m.key``, the CEL validator ``m[key]`` (field.Path's
    Key), for the value and everything below it; found out of sample by the update oracle."""
    schema = {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {
        "type": "object", "properties": {"v": {"type": "string", "maxLength": 1,
                                               "x-kubernetes-validations": [{"rule": "self != 'x'"}]}}}}}}
    assert [str(e) for e in validate_against(schema, {"m": {"c": {"v": "yy"}}})] == [
        "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; "
        "correct the existing errors to complete validation", "m.c.v: Too long: may not be more than 1 bytes"]
    assert [str(e) for e in validate_against(schema, {"m": {"a.b": {"v": "x"}}})] == [
        "m[a.b].v: Invalid value: \"x\": failed rule: self != 'x'"]
