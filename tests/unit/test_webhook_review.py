"""The review models of kgen.runtime.webhook against the Go types the apiserver encodes.

Oracle: the Go source (k8s.io/api admission/v1, k8s.io/apiextensions-apiserver apiextensions/v1,
k8s.io/apimachinery meta/v1, k8s.io/api authentication/v1 at the envtest version, fetched with
``go mod download``): every model has the Go struct's JSON fields, in its order, with a
required ``T`` exactly where Go writes the field always (no ``omitempty``/``omitzero``). Then
reviews shaped as Go encodes them decode and encode back unchanged.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import msgspec
import pytest

from kgen.runtime.apimachinery import Model
from kgen.runtime.webhook.admission import AdmissionRequest, AdmissionResponse, AdmissionReview
from kgen.runtime.webhook.conversion import ConversionRequest, ConversionResponse, ConversionReview
from kgen.runtime.webhook.review_meta import (
    GroupVersionKind,
    GroupVersionResource,
    ListMeta,
    ShardInfo,
    Status,
    StatusCause,
    StatusDetails,
    UserInfo,
)
from tests.support.webhook.go_structs import module_dir, struct_fields

API, APIEXT, MACHINERY = "k8s.io/api", "k8s.io/apiextensions-apiserver", "k8s.io/apimachinery"
CASES: list[tuple[type[Model], str, str, str]] = [
    (AdmissionReview, API, "admission/v1/types.go", "AdmissionReview"),
    (AdmissionRequest, API, "admission/v1/types.go", "AdmissionRequest"),
    (AdmissionResponse, API, "admission/v1/types.go", "AdmissionResponse"),
    (ConversionReview, APIEXT, "pkg/apis/apiextensions/v1/types.go", "ConversionReview"),
    (ConversionRequest, APIEXT, "pkg/apis/apiextensions/v1/types.go", "ConversionRequest"),
    (ConversionResponse, APIEXT, "pkg/apis/apiextensions/v1/types.go", "ConversionResponse"),
    (UserInfo, API, "authentication/v1/types.go", "UserInfo"),
    (GroupVersionKind, MACHINERY, "pkg/apis/meta/v1/group_version.go", "GroupVersionKind"),
    (GroupVersionResource, MACHINERY, "pkg/apis/meta/v1/group_version.go", "GroupVersionResource"),
    (Status, MACHINERY, "pkg/apis/meta/v1/types.go", "Status"),
    (StatusDetails, MACHINERY, "pkg/apis/meta/v1/types.go", "StatusDetails"),
    (StatusCause, MACHINERY, "pkg/apis/meta/v1/types.go", "StatusCause"),
    (ListMeta, MACHINERY, "pkg/apis/meta/v1/types.go", "ListMeta"),
    (ShardInfo, MACHINERY, "pkg/apis/meta/v1/types.go", "ShardInfo"),
]


def model_fields(model: type[Model]) -> list[tuple[str, bool]]:
    return [(f.encode_name, f.required) for f in msgspec.structs.fields(model)]


@pytest.mark.parametrize(("model", "module", "path", "go_name"), CASES, ids=[c[3] for c in CASES])
def test_review_model_fields_match_the_go_struct(model: type[Model], module: str, path: str, go_name: str) -> None:
    go = struct_fields(module_dir(module) / path, go_name)
    assert go, f"no JSON fields read from {go_name}"
    assert model_fields(model) == go


def test_the_go_struct_reader_sees_a_planted_difference() -> None:
    """Self-test: the comparison above fails for a model one optionality off."""

    class Wrong(Model, kw_only=True):
        uid: str
        allowed: bool | None = None  # Go writes it always

    go = struct_fields(module_dir(API) / "admission/v1/types.go", "AdmissionResponse")
    assert model_fields(Wrong) != go[:2]
    assert go[:2] == [("uid", True), ("allowed", True)]


# An AdmissionReview as the apiserver's Go encoder writes one for a ConfigMap CREATE: every
# required field present (empty group included), `oldObject` an empty RawExtension (null).
GO_ADMISSION_REQUEST = {
    "kind": "AdmissionReview",
    "apiVersion": "admission.k8s.io/v1",
    "request": {
        "uid": "4b1c52b4-6a4c-4c1b-9d0e-5c1c0a7e0f11",
        "kind": {"group": "", "version": "v1", "kind": "ConfigMap"},
        "resource": {"group": "", "version": "v1", "resource": "configmaps"},
        "requestKind": {"group": "", "version": "v1", "kind": "ConfigMap"},
        "requestResource": {"group": "", "version": "v1", "resource": "configmaps"},
        "name": "cm",
        "namespace": "ns",
        "operation": "CREATE",
        "userInfo": {"username": "admin", "groups": ["system:masters", "system:authenticated"],
                     "extra": {"scopes": ["a", "b"]}},
        "object": {"kind": "ConfigMap", "apiVersion": "v1",
                   "metadata": {"name": "cm", "namespace": "ns", "uid": "u-1",
                                "creationTimestamp": "2026-12-03T20:00:00Z",
                                "managedFields": [{"manager": "m", "operation": "Update", "apiVersion": "v1",
                                                   "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {}}}]},
                   "data": {"k": "v"}},
        "oldObject": None,
        "dryRun": False,
        "options": {"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1", "fieldManager": "m"},
    },
}


def test_admission_request_round_trips_as_go_writes_it() -> None:
    raw = json.dumps(GO_ADMISSION_REQUEST).encode()
    review = AdmissionReview.from_json(raw)
    assert review.request is not None
    assert review.request.kind == GroupVersionKind(group="", version="v1", kind="ConfigMap")
    assert review.request.user_info.groups == ["system:masters", "system:authenticated"]
    assert review.request.old_object is None and review.request.dry_run is False
    # Go's null for the empty RawExtension reads as absent, and is not written back (Go reads
    # an absent RawExtension as the same empty value); everything else comes back as it came.
    expected = json.loads(raw)
    del expected["request"]["oldObject"]
    assert review.to_dict() == expected
    assert list(review.to_dict()["request"]) == [k for k in GO_ADMISSION_REQUEST["request"] if k != "oldObject"]


def test_admission_response_encodes_as_go_does() -> None:
    patch = b'[{"op":"add","path":"/data/x","value":"y"}]'
    review = AdmissionReview(
        kind="AdmissionReview", api_version="admission.k8s.io/v1",
        response=AdmissionResponse(uid="u", allowed=False, status=Status(code=403, reason="Forbidden", message="no"),
                                   patch=patch, patch_type="JSONPatch", warnings=["w"]),
    )
    encoded = json.loads(review.to_json())
    # Go's []byte is base64 in JSON; `allowed: false` is written (no omitempty).
    assert encoded == {
        "kind": "AdmissionReview", "apiVersion": "admission.k8s.io/v1",
        "response": {"uid": "u", "allowed": False,
                     "status": {"message": "no", "reason": "Forbidden", "code": 403},
                     "patch": base64.b64encode(patch).decode(), "patchType": "JSONPatch", "warnings": ["w"]},
    }
    assert AdmissionReview.from_json(review.to_json()) == review


def test_conversion_review_round_trips_as_go_writes_it() -> None:
    go = {
        "kind": "ConversionReview", "apiVersion": "apiextensions.k8s.io/v1",
        "request": {"uid": "c-1", "desiredAPIVersion": "example.com/v2",
                    "objects": [{"apiVersion": "example.com/v1", "kind": "Widget",
                                 "metadata": {"name": "w", "namespace": "ns"}, "spec": {"size": 3}}]},
    }
    review = ConversionReview.from_json(json.dumps(go))
    assert review.request is not None and review.request.desired_api_version == "example.com/v2"
    assert review.to_dict() == go
    answer = ConversionReview(kind="ConversionReview", api_version="apiextensions.k8s.io/v1",
                              response=ConversionResponse(uid="c-1", converted_objects=[], result=Status(status="Success")))
    # convertedObjects and result have no omitempty: both are written even when empty.
    assert json.loads(answer.to_json())["response"] == {"uid": "c-1", "convertedObjects": [], "result": {"status": "Success"}}


def test_module_dir_is_the_envtest_version() -> None:
    assert Path(module_dir(API)).name.endswith("@v0.37.2")
