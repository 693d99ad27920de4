"""Patches the apiserver refuses, answered as it answers them: the code, the reason, the message
and the details of each ``Status`` (k8s.io/apiserver v0.37.2 handlers/patch.go: a JSON patch or
merge patch the library cannot apply is a 422 whose message is the generic one and whose details
are empty, since ``NewGenericServerResponse`` keeps no server message; a body that does not decode
is a 400; more than 10000 JSON patch operations is a 413)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from kgen.kubernetes import Clientset
from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.gentype import PatchType

from .builders import config_map

REJECTED = "the server rejected our request due to an error in our request"


def _refused(cs: Clientset, ns: str, body: Any, patch_type: PatchType, **options: Any) -> dict[str, Any]:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a", data={"a": "1", "n": "1"}))
    with pytest.raises(ApiError) as refused:
        cms.patch("a", body, patch_type, **options)
    status = dict(refused.value.status)
    status.pop("metadata", None)
    assert cms.get("a").data == {"a": "1", "n": "1"}  # nothing written
    return status


def _status(code: int, reason: str, message: str, **details: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": message,
                            "reason": reason, "code": code}
    if details:
        body["details"] = details["details"]
    return body


@pytest.mark.parametrize("operations", [
    [{"op": "test", "path": "/data/a", "value": "2"}],  # a failed test
    [{"op": "remove", "path": "/data/missing"}],
    [{"op": "add", "path": "/data/a/b/c", "value": "x"}],  # a missing parent
    [{"op": "frob", "path": "/data/a"}],  # an unknown operation
    [{"op": "test", "path": "/data/n", "value": 1}],  # "1" is not 1
], ids=["test", "remove-missing", "missing-parent", "unknown-op", "test-type"])
def test_a_json_patch_the_library_refuses_is_a_generic_422(cs: Clientset, ns: str, operations: list[Any]) -> None:
    assert _refused(cs, ns, operations, PatchType.JSON) == _status(422, "Invalid", REJECTED, details={})


def test_a_json_patch_that_is_not_a_list_is_a_400(cs: Clientset, ns: str) -> None:
    message = "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"
    assert _refused(cs, ns, {"op": "add"}, PatchType.JSON) == _status(400, "BadRequest", message)


def test_more_than_10000_json_patch_operations_is_a_413(cs: Clientset, ns: str) -> None:
    operations = [{"op": "test", "path": "/data/a", "value": "1"}] * 10001
    message = "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"
    assert _refused(cs, ns, operations, PatchType.JSON) == _status(413, "RequestEntityTooLarge", message)


def test_a_merge_patch_that_is_not_an_object_is_refused(cs: Clientset, ns: str) -> None:
    status = _refused(cs, ns, ["not", "an", "object"], PatchType.MERGE)
    message = "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"
    assert status == _status(400, "BadRequest", message)


def test_a_json_patch_on_which_the_library_panics_gets_no_answer(cs: Clientset, ns: str) -> None:
    """``test`` of the root without a value: json-patch v4 dereferences nil; the apiserver's
    handler panics and the connection is dropped without a response."""
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("a", data={"a": "1"}))
    with pytest.raises(httpx.RemoteProtocolError, match="^Server disconnected without sending a response.$"):
        cms.patch("a", [{"op": "test", "path": ""}], PatchType.JSON)
    assert cms.get("a").data == {"a": "1"}


STRICT = re.compile(r'^ "" is invalid: patch: Invalid value: (".*"): strict decoding error: (.*)$', re.S)


@pytest.mark.parametrize(("body", "patch_type", "reasons", "quoted"), [
    ({"bogus": 1, "zz": {"q": "<&>"}, "data": {"x": "y"}}, PatchType.MERGE,
     'unknown field "bogus", unknown field "zz"', {"bogus": 1, "zz": {"q": "<&>"}, "data": {"a": "1", "n": "1", "x": "y"}}),
    ([{"op": "add", "path": "/bogus", "value": 1, "extra": 2}], PatchType.JSON,
     'json patch unknown field "[0].extra", unknown field "bogus"', {"bogus": 1, "data": {"a": "1", "n": "1"}}),
    ([{"op": "add", "path": "/data/x", "value": "1", "extra": 2}], PatchType.JSON,
     'json patch unknown field "[0].extra"', {"data": {"a": "1", "n": "1", "x": "1"}}),
], ids=["merge", "json-both", "json-own-member"])
def test_a_strict_patch_with_unknown_fields_is_a_422_quoting_the_patched_object(
    cs: Clientset, ns: str, body: Any, patch_type: PatchType, reasons: str, quoted: dict[str, Any]
) -> None:
    """handlers/patch.go under fieldValidation=Strict: the JSON patch's own unknown members first,
    then the patched object's unknown fields, sorted; the patched object quoted as JSON (the key
    order is not compared: the server keeps Go's struct order where the patch did not touch)."""
    status = _refused(cs, ns, body, patch_type, field_validation="Strict")
    match = STRICT.match(status["message"])
    assert match, status["message"]
    assert match.group(2) == reasons
    assert r"\\u003c\\u0026\\u003e" in match.group(1) or "<" not in json.dumps(quoted)  # Go escapes HTML characters
    patched = json.loads(json.loads(match.group(1)))
    assert {k: v for k, v in patched.items() if k != "metadata"} == {"apiVersion": "v1", "kind": "ConfigMap", **quoted}
    assert patched["metadata"]["name"] == "a" and patched["metadata"]["namespace"] == ns
    assert [e["operation"] for e in patched["metadata"]["managedFields"]] == ["Update"]
    cause = status["details"]["causes"]
    assert cause == [{"reason": "FieldValueInvalid", "message": status["message"][len(' "" is invalid: patch: '):],
                      "field": "patch"}]
    assert status["code"] == 422 and status["reason"] == "Invalid"
