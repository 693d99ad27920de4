"""Admission webhooks (kgen.runtime.webhook.admission) answering AdmissionReview bodies, with no
server in between: what controller-runtime's validator and defaulter webhooks answer.

- Every answer carries the request's uid and comes back in the request's review apiVersion.
- A validator that returns allows (code 200, its warnings); ``Denied`` refuses (403 Forbidden,
  message, warnings); an ``ApiError`` is sent as its Status; any other exception is a 500 that
  names the exception's type only, and the log holds no part of the object.
- A defaulter's change comes back as a base64 JSON patch (``patchType: JSONPatch``) that, applied
  to the request's object with the apiserver's JSON patch semantics, gives the changed object;
  an unchanged object, unknown fields included, gives no patch.
- Bodies that are not AdmissionReviews get plain-text 400s.
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Sequence
from typing import Any

import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap, Secret
from kgen.runtime.apimachinery import Invalid
from kgen.runtime.apimachinery.patch.jsonpatch import json_patch
from kgen.runtime.webhook.admission import (
    AdmissionRequest,
    AdmissionResponse,
    AdmissionReview,
    Denied,
    Webhook,
    allowed,
    current_request,
    with_defaulter,
    with_validator,
)
from kgen.runtime.webhook.endpoint import Reply

UID = "0f8e3b7a-uid"


def config_map(name: str = "cm", **data: str) -> dict[str, Any]:
    return {"kind": "ConfigMap", "apiVersion": "v1",
            "metadata": {"name": name, "namespace": "ns", "labels": {"app": "x"}}, "data": data}


def review_body(operation: str, obj: dict[str, Any] | None, old: dict[str, Any] | None = None,
                kind: str = "ConfigMap", api_version: str = "admission.k8s.io/v1") -> bytes:
    return json.dumps({
        "kind": "AdmissionReview", "apiVersion": api_version,
        "request": {
            "uid": UID, "kind": {"group": "", "version": "v1", "kind": kind},
            "resource": {"group": "", "version": "v1", "resource": kind.lower() + "s"},
            "name": "cm", "namespace": "ns", "operation": operation,
            "userInfo": {"username": "alice"}, "object": obj, "oldObject": old,
        },
    }).encode()


def answer(reply: Reply) -> dict[str, Any]:
    assert reply.status == 200, reply.body
    assert reply.content_type == "application/json"
    review = json.loads(reply.body)
    assert review["kind"] == "AdmissionReview"
    AdmissionReview.from_json(reply.body)  # a valid review
    response: dict[str, Any] = review["response"]
    assert response["uid"] == UID
    return response


class NoForbiddenKey:
    """Denies ConfigMaps holding a key named ``forbidden``; warns about empty ones."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []

    def validate_create(self, obj: ConfigMap) -> Sequence[str] | None:
        self.calls.append(("create", (obj.metadata.name if obj.metadata else None) or ""))
        return self._check(obj)

    def validate_update(self, old: ConfigMap, new: ConfigMap) -> Sequence[str] | None:
        self.calls.append(("update", (old.data or {}).get("k", ""), (new.data or {}).get("k", "")))
        return self._check(new)

    def validate_delete(self, obj: ConfigMap) -> Sequence[str] | None:
        self.calls.append(("delete", (obj.data or {}).get("k", "")))
        return None

    def _check(self, obj: ConfigMap) -> Sequence[str] | None:
        if "forbidden" in (obj.data or {}):
            raise Denied("data.forbidden is not allowed here", warnings=["see the docs"])
        return ["empty ConfigMap"] if not obj.data else None


def test_validator_allows_with_uid_code_200_and_warnings() -> None:
    validator = NoForbiddenKey()
    webhook = with_validator(ConfigMap, validator)
    response = answer(webhook.serve(review_body("CREATE", config_map(k="v")), "application/json"))
    assert response == {"uid": UID, "allowed": True, "status": {"code": 200}}
    response = answer(webhook.serve(review_body("CREATE", config_map()), "application/json"))
    assert response["allowed"] is True and response["warnings"] == ["empty ConfigMap"]
    assert validator.calls == [("create", "cm"), ("create", "cm")]


def test_validator_denial_is_403_forbidden_with_message_and_warnings() -> None:
    webhook = with_validator(ConfigMap, NoForbiddenKey())
    response = answer(webhook.serve(review_body("CREATE", config_map(forbidden="1")), "application/json"))
    assert response == {
        "uid": UID, "allowed": False, "warnings": ["see the docs"],
        "status": {"message": "data.forbidden is not allowed here", "reason": "Forbidden", "code": 403},
    }


def test_validator_gets_old_and_new_on_update_and_the_stored_object_on_delete() -> None:
    validator = NoForbiddenKey()
    webhook = with_validator(ConfigMap, validator)
    answer(webhook.serve(review_body("UPDATE", config_map(k="new"), config_map(k="old")), "application/json"))
    answer(webhook.serve(review_body("DELETE", None, config_map(k="stored")), "application/json"))
    assert validator.calls == [("update", "old", "new"), ("delete", "stored")]


def test_validator_connect_is_an_unknown_operation_400() -> None:
    response = answer(with_validator(ConfigMap, NoForbiddenKey()).serve(review_body("CONNECT", {}), "application/json"))
    assert response["allowed"] is False and response["status"]["code"] == 400
    assert "CONNECT" in response["status"]["message"]


def test_a_request_for_another_kind_is_refused_400_not_judged() -> None:
    secret = {"kind": "Secret", "apiVersion": "v1", "metadata": {"name": "s"}, "data": {"forbidden": "eA=="}}
    response = answer(with_validator(ConfigMap, NoForbiddenKey()).serve(review_body("CREATE", secret, kind="Secret"), "application/json"))
    assert response["allowed"] is False and response["status"]["code"] == 400
    assert response["status"]["message"] == "this webhook handles ConfigMap of v1, the request is for Secret of v1"


def test_an_object_that_is_not_the_model_is_400_naming_where() -> None:
    bad = config_map()
    bad["data"] = {"k": 1}
    response = answer(with_validator(ConfigMap, NoForbiddenKey()).serve(review_body("CREATE", bad), "application/json"))
    assert response["allowed"] is False and response["status"]["code"] == 400
    assert "not a ConfigMap" in response["status"]["message"] and "$.data[...]" in response["status"]["message"]


class Exploding:
    def __init__(self, error: Exception) -> None:
        self.error = error

    def validate_create(self, obj: Secret) -> None:
        raise self.error

    def validate_update(self, old: Secret, new: Secret) -> None:
        raise self.error

    def validate_delete(self, obj: Secret) -> None:
        raise self.error


def secret_body() -> bytes:
    secret = {"kind": "Secret", "apiVersion": "v1", "metadata": {"name": "s", "namespace": "ns"},
              "data": {"password": "aHVudGVyMg=="}, "stringData": {"token": "TOP-SECRET-TOKEN"}}
    return review_body("CREATE", secret, kind="Secret")


def test_a_failing_validator_is_500_naming_only_the_type_and_the_log_holds_no_secret(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    webhook = with_validator(Secret, Exploding(KeyError("missing")))
    response = answer(webhook.serve(secret_body(), "application/json"))
    assert response["allowed"] is False
    assert response["status"] == {"message": "admission webhook validate-Secret failed: KeyError", "code": 500}
    assert "KeyError" in caplog.text and "ns/cm" in caplog.text and UID in caplog.text
    assert "TOP-SECRET-TOKEN" not in caplog.text and "aHVudGVyMg==" not in caplog.text


def test_an_api_error_is_sent_as_its_status() -> None:
    status = {"kind": "Status", "code": 422, "reason": "Invalid", "message": "spec.x: Invalid value",
              "details": {"causes": [{"field": "spec.x", "reason": "FieldValueInvalid", "message": "bad"}]}}
    response = answer(with_validator(Secret, Exploding(Invalid(status, 422))).serve(secret_body(), "application/json"))
    assert response["allowed"] is False
    assert response["status"] == {
        "status": "Failure", "message": "spec.x: Invalid value", "reason": "Invalid", "code": 422,
        "details": {"causes": [{"reason": "FieldValueInvalid", "message": "bad", "field": "spec.x"}]},
    }


def test_the_answer_comes_in_the_review_version_asked() -> None:
    reply = with_validator(ConfigMap, NoForbiddenKey()).serve(
        review_body("CREATE", config_map(k="v"), api_version="admission.k8s.io/v1beta1"), "application/json")
    assert json.loads(reply.body)["apiVersion"] == "admission.k8s.io/v1beta1"


class AddTeamLabel:
    """Labels every ConfigMap with its team, and fills ``data.mode`` when missing."""

    def default(self, obj: ConfigMap) -> None:
        assert obj.metadata is not None
        obj.metadata.labels = {**(obj.metadata.labels or {}), "team": "a/b~c"}
        if obj.data is None or "mode" not in obj.data:
            obj.data = {**(obj.data or {}), "mode": "default"}


def applied_patch(response: dict[str, Any], original: dict[str, Any]) -> Any:
    assert response["patchType"] == "JSONPatch"
    operations = json.loads(base64.b64decode(response["patch"]))
    return json_patch(original, operations)


def test_defaulter_answers_with_a_json_patch_to_the_mutated_object() -> None:
    original = config_map(k="v")
    response = answer(with_defaulter(ConfigMap, AddTeamLabel()).serve(review_body("CREATE", original), "application/json"))
    assert response["allowed"] is True and response["status"] == {"code": 200}
    expected = config_map(k="v", mode="default")
    expected["metadata"]["labels"]["team"] = "a/b~c"
    assert applied_patch(response, original) == expected
    operations = json.loads(base64.b64decode(response["patch"]))
    assert {"op": "add", "path": "/metadata/labels/team", "value": "a/b~c"} in operations


def test_defaulter_keeps_fields_the_model_does_not_know() -> None:
    original = config_map(k="v", mode="set")
    original["metadata"]["labels"]["team"] = "a/b~c"
    original["fromTheFuture"] = {"x": [1, None]}
    original["metadata"]["alsoNew"] = True
    response = answer(with_defaulter(ConfigMap, AddTeamLabel()).serve(review_body("CREATE", original), "application/json"))
    # Nothing to change: no patch at all (not a patch removing the unknown fields).
    assert response == {"uid": UID, "allowed": True, "status": {"code": 200}}


def test_defaulter_may_return_a_replacement_and_sees_no_change_leak_into_the_request() -> None:
    class Replace:
        def default(self, obj: ConfigMap) -> ConfigMap:
            return ConfigMap(metadata=obj.metadata, data={"only": "this"})

    original = config_map(k="v")
    response = answer(with_defaulter(ConfigMap, Replace()).serve(review_body("UPDATE", original, config_map()), "application/json"))
    assert applied_patch(response, original) == {"metadata": original["metadata"], "data": {"only": "this"}}


def test_defaulter_skips_delete_and_can_deny() -> None:
    class Refuse:
        def default(self, obj: ConfigMap) -> None:
            raise Denied("no more ConfigMaps")

    webhook = with_defaulter(ConfigMap, Refuse())
    assert answer(webhook.serve(review_body("DELETE", None, config_map()), "application/json")) == {
        "uid": UID, "allowed": True, "status": {"code": 200}}
    response = answer(webhook.serve(review_body("CREATE", config_map()), "application/json"))
    assert response["allowed"] is False and response["status"]["message"] == "no more ConfigMaps"
    assert "patch" not in response


@pytest.mark.parametrize(("body", "content_type", "message"), [
    (b"", "application/json", "request body is empty"),
    (b"{}", "text/plain", "Content-Type 'text/plain': expected application/json"),
    (b"{not json", "application/json", "the body is not an AdmissionReview: AdmissionReview: invalid JSON"),
    (b'{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":5}}', "application/json",
     "the body is not an AdmissionReview: AdmissionReview: Expected `str`, got `int` - at `$.request.uid`"),
    (b'{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1"}', "application/json",
     "the body is kind ConversionReview of apiVersion apiextensions.k8s.io/v1: expected kind AdmissionReview"),
    (b'{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1"}', "application/json",
     "the AdmissionReview has no request"),
])
def test_bodies_that_are_not_reviews_are_plain_400s(body: bytes, content_type: str, message: str) -> None:
    reply = with_validator(ConfigMap, NoForbiddenKey()).serve(body, content_type)
    assert reply.status == 400 and reply.content_type.startswith("text/plain")
    assert reply.body.decode().startswith(message)


def test_content_type_parameters_are_accepted() -> None:
    reply = with_validator(ConfigMap, NoForbiddenKey()).serve(review_body("CREATE", config_map(k="v")), "application/json; charset=utf-8")
    assert answer(reply)["allowed"] is True


def test_one_warning_string_is_one_warning() -> None:
    class Warns:
        def validate_create(self, obj: ConfigMap) -> Sequence[str]:
            return "careful"

        def validate_update(self, old: ConfigMap, new: ConfigMap) -> None:
            return None

        def validate_delete(self, obj: ConfigMap) -> None:
            return None

    response = answer(with_validator(ConfigMap, Warns()).serve(review_body("CREATE", config_map()), "application/json"))
    assert response["warnings"] == ["careful"]


def test_a_response_object_a_handler_shares_is_not_changed() -> None:
    shared = allowed()

    class Constant:
        def handle(self, request: AdmissionRequest) -> AdmissionResponse:
            return shared

    response = answer(Webhook(Constant()).serve(review_body("CREATE", config_map()), "application/json"))
    assert response["uid"] == UID and shared.uid == ""


def test_a_typed_handler_reads_the_request_it_judges() -> None:
    seen: list[tuple[str, str | None, bool | None]] = []

    class WhoAsks:
        def default(self, obj: ConfigMap) -> None:
            request = current_request()
            seen.append((request.uid, request.user_info.username, request.dry_run))

    answer(with_defaulter(ConfigMap, WhoAsks()).serve(review_body("CREATE", config_map()), "application/json"))
    assert seen == [(UID, "alice", None)]
    with pytest.raises(LookupError, match="only available while an admission webhook handles a request"):
        current_request()
