"""The CRD conversion webhook (kgen.runtime.webhook.conversion) answering ConversionReview bodies:
typed functions chosen by (from apiVersion, to apiVersion, kind), composed through a hub version
when there is no direct one; a failure fails the whole review with a message for the client;
bodies that are not reviews are plain 400s.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import Model
from kgen.runtime.webhook.conversion import ConversionError, ConversionReview, ConversionWebhook

GROUP = "convert.kgen.test"


class SpecV1(Model, kw_only=True):
    size: int


class WidgetV1(Model, kw_only=True):
    API_VERSION = f"{GROUP}/v1"
    KIND = "Widget"
    metadata: ObjectMeta | None = None
    spec: SpecV1 | None = None


class SpecV2(Model, kw_only=True):
    replicas: int
    unit: str | None = None


class WidgetV2(Model, kw_only=True):
    API_VERSION = f"{GROUP}/v2"
    KIND = "Widget"
    metadata: ObjectMeta | None = None
    spec: SpecV2 | None = None


class WidgetV3(Model, kw_only=True):
    API_VERSION = f"{GROUP}/v3"
    KIND = "Widget"
    metadata: ObjectMeta | None = None
    spec: dict[str, Any] | None = None


def v1_to_v2(src: WidgetV1) -> WidgetV2:
    if src.spec is not None and src.spec.size < 0:
        raise ConversionError("spec.size must not be negative")
    return WidgetV2(metadata=src.metadata, spec=SpecV2(replicas=src.spec.size, unit="pods") if src.spec else None)


def v2_to_v1(src: WidgetV2) -> WidgetV1:
    return WidgetV1(metadata=src.metadata, spec=SpecV1(size=src.spec.replicas) if src.spec else None)


def v2_to_v3(src: WidgetV2) -> WidgetV3:
    return WidgetV3(metadata=src.metadata, spec={"count": src.spec.replicas} if src.spec else None)


def v3_to_v2(src: WidgetV3) -> WidgetV2:
    return WidgetV2(metadata=src.metadata, spec=SpecV2(replicas=(src.spec or {})["count"]))


def webhook() -> ConversionWebhook:
    hook = ConversionWebhook()
    hook.register(WidgetV1, WidgetV2, v1_to_v2)
    hook.register(WidgetV2, WidgetV1, v2_to_v1)
    hook.register(WidgetV2, WidgetV3, v2_to_v3)
    hook.register(WidgetV3, WidgetV2, v3_to_v2)
    return hook


def widget(version: str, name: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/{version}", "kind": "Widget",
            "metadata": {"name": name, "namespace": "ns", "uid": f"uid-{name}", "labels": {"a": "b"}}, "spec": spec}


def review(desired: str, *objects: dict[str, Any], api_version: str = "apiextensions.k8s.io/v1") -> bytes:
    return json.dumps({"kind": "ConversionReview", "apiVersion": api_version,
                       "request": {"uid": "conv-1", "desiredAPIVersion": f"{GROUP}/{desired}", "objects": list(objects)}}).encode()


def response_of(body: bytes, hook: ConversionWebhook | None = None) -> dict[str, Any]:
    reply = (hook or webhook()).serve(body, "application/json")
    assert reply.status == 200, reply.body
    answer = json.loads(reply.body)
    ConversionReview.from_json(reply.body)
    assert answer["kind"] == "ConversionReview"
    response: dict[str, Any] = answer["response"]
    assert response["uid"] == "conv-1"
    return response


def test_converts_both_directions_keeping_metadata_and_order() -> None:
    up = response_of(review("v2", widget("v1", "a", {"size": 3}), widget("v1", "b", {"size": 0})))
    assert up["result"] == {"status": "Success"}
    assert up["convertedObjects"] == [
        {"metadata": widget("v1", "a", {})["metadata"], "spec": {"replicas": 3, "unit": "pods"},
         "apiVersion": f"{GROUP}/v2", "kind": "Widget"},
        {"metadata": widget("v1", "b", {})["metadata"], "spec": {"replicas": 0, "unit": "pods"},
         "apiVersion": f"{GROUP}/v2", "kind": "Widget"},
    ]
    down = response_of(review("v1", *up["convertedObjects"]))
    assert [o["spec"] for o in down["convertedObjects"]] == [{"size": 3}, {"size": 0}]
    assert all(o["apiVersion"] == f"{GROUP}/v1" for o in down["convertedObjects"])


def test_converts_through_a_hub_when_there_is_no_direct_function() -> None:
    response = response_of(review("v3", widget("v1", "a", {"size": 5})))
    assert response["convertedObjects"][0]["spec"] == {"count": 5}
    back = response_of(review("v1", response["convertedObjects"][0]))
    assert back["convertedObjects"][0]["spec"] == {"size": 5}


def test_objects_already_in_the_desired_version_pass_unchanged() -> None:
    already = widget("v2", "a", {"replicas": 1, "extra": True})
    response = response_of(review("v2", already, widget("v1", "b", {"size": 2})))
    assert response["convertedObjects"][0] == already
    assert response["convertedObjects"][1]["spec"] == {"replicas": 2, "unit": "pods"}


def test_a_conversion_error_fails_the_whole_review_with_its_message() -> None:
    response = response_of(review("v2", widget("v1", "a", {"size": 1}), widget("v1", "b", {"size": -1})))
    assert response["convertedObjects"] == []
    assert response["result"] == {
        "status": "Failure", "message": f"converting ns/b from {GROUP}/v1 to {GROUP}/v2: spec.size must not be negative"}


def test_an_unregistered_pair_and_an_undecodable_object_fail_with_a_reason() -> None:
    hook = ConversionWebhook()
    hook.register(WidgetV1, WidgetV2, v1_to_v2)
    response = response_of(review("v1", widget("v2", "a", {"replicas": 1})), hook)
    assert response["result"]["message"] == f"no conversion of Widget from {GROUP}/v2 to {GROUP}/v1 is registered"
    response = response_of(review("v2", widget("v1", "a", {"size": "three"})), hook)
    assert response["result"]["status"] == "Failure"
    assert response["result"]["message"].startswith(f"ns/a is not a Widget of {GROUP}/v1: ")


def test_a_failing_function_is_reported_by_type_and_logged_without_the_object(caplog: pytest.LogCaptureFixture) -> None:
    def broken(src: WidgetV1) -> WidgetV2:
        raise RuntimeError("secret-ish detail")

    hook = ConversionWebhook()
    hook.register(WidgetV1, WidgetV2, broken)
    caplog.set_level(logging.DEBUG)
    obj = widget("v1", "a", {"size": 1})
    obj["metadata"]["annotations"] = {"password": "P4SSW0RD"}
    response = response_of(review("v2", obj), hook)
    assert response["result"]["message"] == f"converting ns/a from {GROUP}/v1 to {GROUP}/v2 failed: RuntimeError"
    assert "RuntimeError" in caplog.text and "P4SSW0RD" not in caplog.text


def test_registration_refuses_what_can_never_be_asked() -> None:
    hook = ConversionWebhook()

    class NoType(Model, kw_only=True):
        spec: dict[str, Any] | None = None

    class Gadget(Model, kw_only=True):
        API_VERSION = f"{GROUP}/v2"
        KIND = "Gadget"

    with pytest.raises(ValueError, match="has no API_VERSION and KIND"):
        hook.register(NoType, WidgetV2, lambda s: WidgetV2())
    with pytest.raises(ValueError, match="changes the version, not the kind"):
        hook.register(WidgetV1, Gadget, lambda s: Gadget())
    with pytest.raises(ValueError, match="to itself"):
        hook.register(WidgetV1, WidgetV1, lambda s: s)


def test_the_answer_comes_in_the_review_version_asked() -> None:
    reply = webhook().serve(review("v2", widget("v1", "a", {"size": 1}), api_version="apiextensions.k8s.io/v1beta1"), "application/json")
    assert json.loads(reply.body)["apiVersion"] == "apiextensions.k8s.io/v1beta1"


@pytest.mark.parametrize(("body", "content_type", "message"), [
    (b"", "application/json", "request body is empty"),
    (b"{}", "application/yaml", "Content-Type 'application/yaml': expected application/json"),
    (b"[1]", "application/json", "the body is not a ConversionReview: ConversionReview: Expected `object`, got `array`"),
    (b'{"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1"}', "application/json",
     "the ConversionReview has no request"),
    (b'{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1"}', "application/json",
     "the body is kind AdmissionReview of apiVersion admission.k8s.io/v1: expected kind ConversionReview"),
])
def test_bodies_that_are_not_reviews_are_plain_400s(body: bytes, content_type: str, message: str) -> None:
    reply = webhook().serve(body, content_type)
    assert reply.status == 400 and reply.content_type.startswith("text/plain")
    assert reply.body.decode().startswith(message)
