"""Admission and conversion webhooks of kgen.runtime.webhook, called by the real kube-apiserver.

The webhook server runs in the test process at https://127.0.0.1:<port> with a serving
certificate from the harness's CA; webhook configurations (admissionregistration.k8s.io/v1,
created with the typed clients of kgen.kubernetes) point at it with that CA as ``caBundle``, and
select only this module's objects (a namespace label and an object label), so no other test
meets them. Then, through the apiserver:
- a validating webhook denies a bad ConfigMap (create, update, delete) and the client gets the
  webhook's message; a good one is stored; its warnings reach the client as Warning headers;
- a mutating webhook's change (a label and a data key, from a typed ``Defaulter``) is stored,
  and an object needing no change is stored as sent;
- a two-version CRD (``conversion.strategy: Webhook``) converts through the conversion webhook
  in both directions: created as v2 and stored as v1, read back as v2 and as v1;
- every review the apiserver sent decodes into the typed models and encodes back to the same
  JSON (the wire is the oracle for the review models).
"""

from __future__ import annotations

import base64
import json
import threading
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import httpx
import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.admissionregistration.v1 import (
    MutatingWebhook,
    MutatingWebhookConfiguration,
    RuleWithOperations,
    ValidatingWebhook,
    ValidatingWebhookConfiguration,
    WebhookClientConfig,
)
from kgen.kubernetes.models.core.v1 import ConfigMap, Namespace
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta
from kgen.runtime.apimachinery import Forbidden, Model, NotFound
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.webhook import Endpoint, Reply, WebhookServer
from kgen.runtime.webhook.admission import AdmissionReview, Denied, with_defaulter, with_validator
from kgen.runtime.webhook.conversion import ConversionReview, ConversionWebhook
from tests.support.apiserver import CRDS, install_crd, unthrottled_config, wait_for
from tests.support.webhook.certs import write_pair

RUN = uuid.uuid4().hex[:8]
SELECT = {"kgen-webhook-test": RUN}  # on the namespace and on the objects the webhooks judge
GROUP = "webhook.kgen.test"
VALIDATING = f"validate-{RUN}.kgen.test"
MUTATING = f"default-{RUN}.kgen.test"
#: A label key with a "/": the patch must escape it (~1) for the apiserver to apply it.
TEAM = "kgen.test/team"


class Recording:
    """An endpoint that keeps every body the apiserver sent it and every answer (to check the
    review models against the wire)."""

    def __init__(self, inner: Endpoint) -> None:
        self.inner = inner
        self.bodies: list[bytes] = []
        self.replies: list[Reply] = []
        self._lock = threading.Lock()

    def serve(self, body: bytes, content_type: str) -> Reply:
        reply = self.inner.serve(body, content_type)
        with self._lock:
            self.bodies.append(body)
            self.replies.append(reply)
        return reply

    def answer_for(self, name: str) -> dict[str, Any]:
        """The (last) admission response sent about the object called ``name``."""
        with self._lock:
            pairs = list(zip(self.bodies, self.replies))
        for body, reply in reversed(pairs):
            if json.loads(body)["request"].get("name") == name:
                response: dict[str, Any] = json.loads(reply.body)["response"]
                return response
        raise AssertionError(f"no admission request about {name}")


class ConfigMapRules:
    """Denies a ``forbidden`` data key (create, update) and deleting a ``protected`` ConfigMap;
    warns about a ConfigMap without data."""

    def validate_create(self, obj: ConfigMap) -> Sequence[str] | None:
        return self._check(obj)

    def validate_update(self, old: ConfigMap, new: ConfigMap) -> Sequence[str] | None:
        return self._check(new)

    def validate_delete(self, obj: ConfigMap) -> Sequence[str] | None:
        if obj.metadata is not None and (obj.metadata.labels or {}).get("protected") == "true":
            raise Denied(f"ConfigMap {obj.metadata.name} is protected")
        return None

    def _check(self, obj: ConfigMap) -> Sequence[str] | None:
        if "forbidden" in (obj.data or {}):
            raise Denied("data.forbidden is not allowed in this namespace")
        return None if obj.data else ["this ConfigMap holds no data"]


class TeamDefaults:
    """Labels every ConfigMap with a team (``kgen.test/team``) and fills ``data.mode``, unless already set."""

    def default(self, obj: ConfigMap) -> None:
        assert obj.metadata is not None
        labels = obj.metadata.labels or {}
        if TEAM not in labels:
            obj.metadata.labels = {**labels, TEAM: "platform-core"}
        if "mode" not in (obj.data or {}):
            obj.data = {**(obj.data or {}), "mode": "default"}


# -- the CRD's two versions, as typed models ------------------------------------------------------


class WidgetSpecV1(Model, kw_only=True):
    size: int


class WidgetV1(Model, kw_only=True):
    API_VERSION = f"{GROUP}/v1"
    KIND = "Widget"
    metadata: ObjectMeta | None = None
    spec: WidgetSpecV1 | None = None


class WidgetSpecV2(Model, kw_only=True):
    replicas: int
    unit: str


class WidgetV2(Model, kw_only=True):
    API_VERSION = f"{GROUP}/v2"
    KIND = "Widget"
    metadata: ObjectMeta | None = None
    spec: WidgetSpecV2 | None = None


def v1_to_v2(src: WidgetV1) -> WidgetV2:
    return WidgetV2(metadata=src.metadata, spec=WidgetSpecV2(replicas=src.spec.size, unit="pods") if src.spec else None)


def v2_to_v1(src: WidgetV2) -> WidgetV1:
    return WidgetV1(metadata=src.metadata, spec=WidgetSpecV1(size=src.spec.replicas) if src.spec else None)


# -- fixtures ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def endpoints() -> dict[str, Recording]:
    conversion = ConversionWebhook()
    conversion.register(WidgetV1, WidgetV2, v1_to_v2)
    conversion.register(WidgetV2, WidgetV1, v2_to_v1)
    return {
        "/validate-v1-configmap": Recording(with_validator(ConfigMap, ConfigMapRules())),
        "/mutate-v1-configmap": Recording(with_defaulter(ConfigMap, TeamDefaults())),
        "/convert": Recording(conversion),
    }


@pytest.fixture(scope="module")
def webhook_server(kube_apiserver: KubeAPIServer, tmp_path_factory: pytest.TempPathFactory,
                   endpoints: dict[str, Recording]) -> Iterator[WebhookServer]:
    cert, key = write_pair(kube_apiserver.issue_serving_cert(["127.0.0.1"]), tmp_path_factory.mktemp("webhook-certs"))
    server = WebhookServer(cert, key, host="127.0.0.1", port=0)
    for path, endpoint in endpoints.items():
        server.register(path, endpoint)
    with server:
        yield server


@pytest.fixture(scope="module")
def clientset(kube_apiserver: KubeAPIServer) -> Iterator[Clientset]:
    with Clientset(unthrottled_config(kube_apiserver)) as cs:
        yield cs


@pytest.fixture(scope="module")
def selected_namespace(clientset: Clientset) -> Iterator[str]:
    name = f"webhooks-{RUN}"
    clientset.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=name, labels=SELECT)))
    yield name
    clientset.core_v1.namespaces().delete(name)


def client_config(kube_apiserver: KubeAPIServer, server: WebhookServer, path: str) -> WebhookClientConfig:
    return WebhookClientConfig(url=f"https://127.0.0.1:{server.port}{path}",
                               ca_bundle=base64.b64encode(kube_apiserver.ca_pem).decode())


def configmap_rules(*operations: str) -> list[RuleWithOperations]:
    return [RuleWithOperations(operations=list(operations), api_groups=[""], api_versions=["v1"], resources=["configmaps"])]


@pytest.fixture(scope="module")
def admission_webhooks(kube_apiserver: KubeAPIServer, clientset: Clientset, webhook_server: WebhookServer,
                       selected_namespace: str) -> Iterator[str]:
    """Both webhook configurations, registered and in effect; yields the namespace they judge."""
    admission = clientset.admissionregistration_v1
    admission.validating_webhook_configurations().create(ValidatingWebhookConfiguration(
        metadata=ObjectMeta(name=VALIDATING),
        webhooks=[ValidatingWebhook(
            name=VALIDATING, client_config=client_config(kube_apiserver, webhook_server, "/validate-v1-configmap"),
            rules=configmap_rules("CREATE", "UPDATE", "DELETE"), admission_review_versions=["v1"], side_effects="None", failure_policy="Fail",
            namespace_selector=LabelSelector(match_labels=SELECT), object_selector=LabelSelector(match_labels=SELECT),
            timeout_seconds=10,
        )],
    ))
    admission.mutating_webhook_configurations().create(MutatingWebhookConfiguration(
        metadata=ObjectMeta(name=MUTATING),
        webhooks=[MutatingWebhook(
            name=MUTATING, client_config=client_config(kube_apiserver, webhook_server, "/mutate-v1-configmap"),
            rules=configmap_rules("CREATE"), admission_review_versions=["v1"], side_effects="None", failure_policy="Fail",
            namespace_selector=LabelSelector(match_labels=SELECT), object_selector=LabelSelector(match_labels=SELECT),
            timeout_seconds=10, reinvocation_policy="Never",
        )],
    ))
    configmaps = clientset.core_v1.config_maps(selected_namespace)

    def in_effect() -> bool:
        # The apiserver picks new configurations up from its informers, a moment after the
        # create: dry runs tell when both webhooks are called (sideEffects None allows them).
        try:
            defaulted = configmaps.create(ConfigMap(metadata=ObjectMeta(name="probe", labels=SELECT)), dry_run=True)
        except Forbidden:
            return False
        if defaulted.metadata is None or TEAM not in (defaulted.metadata.labels or {}):
            return False
        try:
            configmaps.create(ConfigMap(metadata=ObjectMeta(name="probe", labels=SELECT), data={"forbidden": "x"}), dry_run=True)
        except Forbidden as e:
            return VALIDATING in e.message
        return False

    wait_for(in_effect, timeout=60)
    yield selected_namespace
    admission.validating_webhook_configurations().delete(VALIDATING)
    admission.mutating_webhook_configurations().delete(MUTATING)


# -- admission -----------------------------------------------------------------------------------


def test_the_validating_webhook_denies_with_its_message(clientset: Clientset, admission_webhooks: str) -> None:
    configmaps = clientset.core_v1.config_maps(admission_webhooks)
    with pytest.raises(Forbidden) as denied:
        configmaps.create(ConfigMap(metadata=ObjectMeta(name="bad", labels=SELECT), data={"forbidden": "yes"}))
    assert denied.value.code == 403
    assert denied.value.message == (
        f'admission webhook "{VALIDATING}" denied the request: data.forbidden is not allowed in this namespace')
    with pytest.raises(NotFound):
        configmaps.get("bad")


def test_the_validating_webhook_judges_updates_and_deletes(clientset: Clientset, admission_webhooks: str) -> None:
    configmaps = clientset.core_v1.config_maps(admission_webhooks)
    stored = configmaps.create(ConfigMap(metadata=ObjectMeta(name="kept", labels={**SELECT, "protected": "true"}),
                                         data={"k": "v"}))
    assert stored.data == {"k": "v", "mode": "default"}
    stored.data["forbidden"] = "now"
    with pytest.raises(Forbidden, match="data.forbidden is not allowed"):
        configmaps.update(stored)
    with pytest.raises(Forbidden) as denied:
        configmaps.delete("kept")
    assert denied.value.message == f'admission webhook "{VALIDATING}" denied the request: ConfigMap kept is protected'
    assert configmaps.get("kept").data == {"k": "v", "mode": "default"}


def test_the_webhooks_warnings_reach_the_client(admin: httpx.Client, admission_webhooks: str) -> None:
    created = admin.post(f"/api/v1/namespaces/{admission_webhooks}/configmaps", json={
        "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "warned", "labels": SELECT}})
    assert created.status_code == 201, created.text
    # The mutating webhook runs first and adds data.mode, so the validator sees data: no warning.
    assert "holds no data" not in created.headers.get("warning", "")
    # The defaulter is called on CREATE only: an update emptying data is warned about.
    dry = admin.put(f"/api/v1/namespaces/{admission_webhooks}/configmaps/warned?dryRun=All", json={
        **created.json(), "data": {}})
    assert dry.status_code == 200, dry.text
    assert "this ConfigMap holds no data" in dry.headers.get("warning", "")


def test_the_mutating_webhooks_change_is_stored(clientset: Clientset, admission_webhooks: str) -> None:
    configmaps = clientset.core_v1.config_maps(admission_webhooks)
    created = configmaps.create(ConfigMap(metadata=ObjectMeta(name="defaulted", labels=SELECT), data={"k": "v"}))
    assert created.metadata is not None and created.metadata.labels == {**SELECT, TEAM: "platform-core"}
    assert created.data == {"k": "v", "mode": "default"}
    stored = configmaps.get("defaulted")
    assert stored.metadata is not None and stored.metadata.labels == {**SELECT, TEAM: "platform-core"}
    assert stored.data == {"k": "v", "mode": "default"}


def test_an_object_needing_no_default_is_stored_as_sent(clientset: Clientset, admission_webhooks: str,
                                                         endpoints: dict[str, Recording]) -> None:
    configmaps = clientset.core_v1.config_maps(admission_webhooks)
    labels = {**SELECT, TEAM: "mine"}
    created = configmaps.create(ConfigMap(metadata=ObjectMeta(name="as-sent", labels=labels), data={"mode": "custom"}))
    assert created.metadata is not None and created.metadata.labels == labels and created.data == {"mode": "custom"}
    # The defaulter changed nothing, and the answer said so with no patch at all.
    answer = endpoints["/mutate-v1-configmap"].answer_for("as-sent")
    assert answer["allowed"] is True and "patch" not in answer and "patchType" not in answer
    changed = endpoints["/mutate-v1-configmap"].answer_for("defaulted")
    assert changed["patchType"] == "JSONPatch"
    operations = json.loads(base64.b64decode(changed["patch"]))
    assert {"op": "add", "path": "/metadata/labels/kgen.test~1team", "value": "platform-core"} in operations


def test_objects_outside_the_selectors_are_not_sent_to_the_webhooks(clientset: Clientset, admission_webhooks: str) -> None:
    created = clientset.core_v1.config_maps(admission_webhooks).create(
        ConfigMap(metadata=ObjectMeta(name="unselected"), data={"forbidden": "fine here"}))
    assert created.metadata is not None and created.metadata.labels is None


def test_every_admission_review_the_apiserver_sent_round_trips(admission_webhooks: str, endpoints: dict[str, Recording]) -> None:
    bodies = endpoints["/validate-v1-configmap"].bodies + endpoints["/mutate-v1-configmap"].bodies
    assert len(bodies) >= 5
    operations = set()
    for body in bodies:
        review = AdmissionReview.from_json(body)
        assert review.request is not None and review.request.user_info.username
        operations.add(review.request.operation)
        assert review.to_dict() == without_nulls_of_raw_extensions(json.loads(body))
    assert operations == {"CREATE", "UPDATE", "DELETE"}


def without_nulls_of_raw_extensions(review: dict[str, Any]) -> dict[str, Any]:
    """Go writes an empty RawExtension (``oldObject`` on CREATE) as ``null``; the model reads it
    as absent and leaves it out (the review models' only difference from the wire)."""
    request = dict(review["request"])
    for name in ("object", "oldObject", "options"):
        if name in request and request[name] is None:
            del request[name]
    return {**review, "request": request}


# -- conversion ----------------------------------------------------------------------------------


def widget_crd(kube_apiserver: KubeAPIServer, server: WebhookServer) -> dict[str, Any]:
    def version(name: str, storage: bool, spec: dict[str, Any]) -> dict[str, Any]:
        return {"name": name, "served": True, "storage": storage, "schema": {"openAPIV3Schema": {
            "type": "object", "properties": {"spec": {"type": "object", "properties": spec}}}}}

    return {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": f"widgets.{GROUP}"},
        "spec": {
            "group": GROUP, "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [
                version("v1", True, {"size": {"type": "integer"}}),
                version("v2", False, {"replicas": {"type": "integer"}, "unit": {"type": "string"}}),
            ],
            "conversion": {"strategy": "Webhook", "webhook": {
                "conversionReviewVersions": ["v1"],
                "clientConfig": client_config(kube_apiserver, server, "/convert").to_dict()}},
        },
    }


@pytest.fixture(scope="module")
def widgets(admin: httpx.Client, kube_apiserver: KubeAPIServer, webhook_server: WebhookServer) -> Iterator[str]:
    """The two-version Widget CRD, converting through the webhook; yields its namespace."""
    name = f"widgets.{GROUP}"
    if admin.get(f"{CRDS}/{name}").status_code == 200:  # a previous run's, pointing at a dead port
        admin.delete(f"{CRDS}/{name}")
        wait_for(lambda: admin.get(f"{CRDS}/{name}").status_code == 404)
    install_crd(admin, widget_crd(kube_apiserver, webhook_server))
    namespace = f"widgets-{RUN}"
    admin.post("/api/v1/namespaces", json={"metadata": {"name": namespace}}).raise_for_status()
    # Established is not yet served: wait until a list at v2 answers.
    wait_for(lambda: admin.get(f"/apis/{GROUP}/v2/namespaces/{namespace}/widgets").status_code == 200)
    yield namespace
    admin.delete(f"/api/v1/namespaces/{namespace}")
    admin.delete(f"{CRDS}/{name}")


def test_a_two_version_crd_converts_through_the_webhook_both_ways(admin: httpx.Client, widgets: str,
                                                                  endpoints: dict[str, Recording]) -> None:
    base = f"/apis/{GROUP}/{{}}/namespaces/{widgets}/widgets"
    before = len(endpoints["/convert"].bodies)
    created = admin.post(base.format("v2"), json={
        "apiVersion": f"{GROUP}/v2", "kind": "Widget", "metadata": {"name": "w", "labels": {"a": "b"}},
        "spec": {"replicas": 3, "unit": "pods"}})
    assert created.status_code == 201, created.text
    as_v1 = admin.get(base.format("v1") + "/w").json()  # stored as v1: converted v2 → v1
    assert as_v1["apiVersion"] == f"{GROUP}/v1" and as_v1["spec"] == {"size": 3}
    assert as_v1["metadata"]["labels"] == {"a": "b"}
    as_v2 = admin.get(base.format("v2") + "/w").json()  # read as v2: converted v1 → v2
    assert as_v2["apiVersion"] == f"{GROUP}/v2" and as_v2["spec"] == {"replicas": 3, "unit": "pods"}
    created_v1 = admin.post(base.format("v1"), json={
        "apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": {"name": "w1"}, "spec": {"size": 7}})
    assert created_v1.status_code == 201, created_v1.text
    listed = admin.get(base.format("v2")).json()
    assert {i["metadata"]["name"]: i["spec"] for i in listed["items"]} == {
        "w": {"replicas": 3, "unit": "pods"}, "w1": {"replicas": 7, "unit": "pods"}}
    reviews = [ConversionReview.from_json(b) for b in endpoints["/convert"].bodies[before:]]
    desired = {r.request.desired_api_version for r in reviews if r.request is not None}
    assert desired == {f"{GROUP}/v1", f"{GROUP}/v2"}  # the webhook was asked both ways
    for body in endpoints["/convert"].bodies[before:]:
        assert ConversionReview.from_json(body).to_dict() == json.loads(body)
