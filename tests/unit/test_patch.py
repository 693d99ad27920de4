"""The patch formats on plain JSON values (RFC 6902 and 7386 examples, strategic merge rules)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kgen.runtime.apimachinery.patch import PatchError, json_patch, merge_patch, strategic_merge_patch
from kgen.runtime.apimachinery.util.strategicpatch.patch import SMPBadRequest


@pytest.mark.parametrize(
    ("doc", "ops", "expected"),
    [
        ({"foo": "bar"}, [{"op": "add", "path": "/baz", "value": "qux"}], {"foo": "bar", "baz": "qux"}),
        ({"foo": ["bar", "baz"]}, [{"op": "add", "path": "/foo/1", "value": "qux"}], {"foo": ["bar", "qux", "baz"]}),
        ({"foo": ["bar"]}, [{"op": "add", "path": "/foo/-", "value": "x"}], {"foo": ["bar", "x"]}),
        ({"foo": ["bar", "qux", "baz"]}, [{"op": "remove", "path": "/foo/1"}], {"foo": ["bar", "baz"]}),
        ({"a": {"b": 1}}, [{"op": "move", "from": "/a/b", "path": "/c"}], {"a": {}, "c": 1}),
        ({"a": [1, 2]}, [{"op": "copy", "from": "/a/0", "path": "/a/-"}], {"a": [1, 2, 1]}),
        ({"a/b": 1, "m~n": 2}, [{"op": "replace", "path": "/a~1b", "value": 3}, {"op": "remove", "path": "/m~0n"}], {"a/b": 3}),
        ({"a": 1}, [{"op": "replace", "path": "", "value": [1]}], [1]),
        # Not RFC 6902, but what the apiserver's json-patch v4 does (hack/oracle/jsonpatch agrees;
        # tests/unit/test_jsonpatch_oracle.py compares the two on thousands of random patches):
        ({"a": 1}, [{"op": "replace", "path": "/missing", "value": 1}], {"a": 1, "missing": 1}),
        ({"a": 1}, [{"op": "copy", "from": "/missing", "path": "/b"}], {"a": 1, "b": None}),
        ({"a": [1, 2]}, [{"op": "remove", "path": "/a/-1"}], {"a": [1]}),
    ],
)
def test_json_patch(doc: Any, ops: list[dict[str, Any]], expected: Any) -> None:
    assert json_patch(doc, ops) == expected


@pytest.mark.parametrize(
    "ops",
    [
        [{"op": "test", "path": "/a", "value": 2}],
        [{"op": "remove", "path": "/missing"}],
        [{"op": "test", "path": "/a", "value": 1.0}],  # scalars compare by JSON text (oracle: json-patch v4)
        [{"op": "test", "path": "/a", "value": True}],
        [{"op": "add", "path": "/x/y", "value": 1}],
        [{"op": "add", "path": "/l/5", "value": 1}],
        [{"op": "move", "from": "/o", "path": "/o/inner"}],
        [{"op": "frobnicate", "path": "/a"}],
        {"op": "add"},
    ],
)
def test_json_patch_errors(ops: Any) -> None:
    doc = {"a": 1, "l": [], "o": {}}
    with pytest.raises(PatchError):
        json_patch(doc, ops)
    assert doc == {"a": 1, "l": [], "o": {}}  # never modified


def test_merge_patch_rfc7386() -> None:
    doc = {"title": "Goodbye!", "author": {"givenName": "John", "familyName": "Doe"}, "tags": ["example", "sample"]}
    patch = {"title": "Hello!", "phoneNumber": "+01-123-456-7890", "author": {"familyName": None}, "tags": ["example"]}
    assert merge_patch(doc, patch) == {
        "title": "Hello!", "author": {"givenName": "John"}, "tags": ["example"], "phoneNumber": "+01-123-456-7890"
    }
    # an array patch: a 400 under the apiserver's default fieldValidation (Warn), the document
    # under Ignore (hack/oracle/jsonpatch agrees; a real apiserver answers the 400 too)
    with pytest.raises(PatchError, match="cannot unmarshal array"):
        merge_patch({"a": 1}, ["x"])
    assert merge_patch({"a": 1}, ["x"], field_validation="Ignore") == ["x"]
    assert merge_patch("scalar", {"a": {"b": None}}) == {"a": {}}
    # As the apiserver's json-patch v4 MergePatch does (hack/oracle/jsonpatch agrees): nulls inside
    # new array items are dropped, null items stay; 1 -> true is a change, not Python's 1 == True.
    assert merge_patch({}, {"l": [{"x": None, "y": 1}, None]}) == {"l": [{"y": 1}, None]}
    patched = merge_patch({"a": 1}, {"a": True})
    assert patched == {"a": True} and patched["a"] is True


def test_strategic_merge_patch_reads_the_kinds_merge_schema() -> None:
    """The public strategic_merge_patch finds the merge schema from apiVersion/kind (or a typed
    model's class): ports merge on containerPort, finalizers as a set, tolerations atomic, as
    apimachinery does (tests/unit/test_strategicpatch_oracle.py compares the engine at large)."""
    from kgen.kubernetes.models.core.v1 import Pod

    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "finalizers": ["a"]}, "spec": {
        "containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 80}, {"containerPort": 81}]}],
        "tolerations": [{"key": "k", "operator": "Exists"}]}}
    patch = {"metadata": {"finalizers": ["b"]}, "spec": {
        "containers": [{"name": "c", "ports": [{"containerPort": 81, "name": "x"}]}], "tolerations": [{"key": "t"}]}}
    before = json.dumps([pod, patch])
    out = strategic_merge_patch(pod, patch)
    assert json.dumps([pod, patch]) == before  # neither argument changed
    assert out["metadata"]["finalizers"] == ["b", "a"]
    assert out["spec"]["containers"][0]["ports"] == [{"containerPort": 80}, {"containerPort": 81, "name": "x"}]
    assert out["spec"]["tolerations"] == [{"key": "t"}]
    assert strategic_merge_patch(Pod.from_dict(pod), patch) == out
    with pytest.raises(ValueError, match="name no apiVersion and kind"):
        strategic_merge_patch({"spec": {}}, {"spec": {"x": 1}})
    with pytest.raises(SMPBadRequest, match="^invalid patch format of retainKeys$"):  # hack/oracle/strategicpatch's words
        strategic_merge_patch(pod, {"$retainKeys": ["spec"], "metadata": {}})
