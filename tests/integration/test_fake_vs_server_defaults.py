"""The fake's defaulting of built-in kinds against the real apiserver: each object of a table,
sent without any default, is created through the fake and through the real server (as one
scripted step to both, tests/support/fake_vs_server.py) and the stored objects are compared
whole, managedFields included: the defaults the server fills in (a Deployment's strategy,
revisionHistoryLimit and progressDeadlineSeconds, a container's imagePullPolicy and
terminationMessagePath, a pod's dnsPolicy and schedulerName, a Service's sessionAffinity and
targetPort, a Job's completions, ...) must be the fake's too. Then the same object is read,
an update removing defaulted fields and a merge patch are compared (the apiserver defaults every
write's object again, and a status write's).

Creates are real (not dry-run), in the test's namespace: what is compared is what is stored.
What the server adds that is no defaulting (``NOT_DEFAULTING``: a Service's allocated cluster IPs,
the Priority and DefaultTolerationSeconds admission plugins' fields, a new pod's phase and QoS
class, a Job's generated selector, a DaemonSet's template generation; before 1.37 an HPA's
generation: ``OLDER_NOT_DEFAULTING``) is taken out of both sides' answers: the fake models no admission plugin, and those
registry strategies are not modelled yet. The fake serves the table's resources as a generated package of the server's release
(``generated_from``), so it applies that release's defaults: the compatibility suite runs this
on 1.34 too. The Jobs but one set their own selector
(``manualSelector``), and the PVC carries the protection finalizer, so the undefaulted update
is one the server accepts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kgen.kubernetes.fake import FakeClientset
from kgen.runtime.gentype.resource import ResourceInfo
from kgen.runtime.testing import KubeAPIServer
from tests.conftest import Figure
from tests.support.fake_vs_server import Answers, Step, run

Obj = dict[str, Any]
LABELS = {"app": "web"}
#: A Job's own selector: the job strategy generates none (it would be immutable, and differ per side)
MANUAL = {"manualSelector": True, "selector": {"matchLabels": LABELS}}


def _template(**spec: Any) -> Obj:
    return {"metadata": {"labels": LABELS}, "spec": {"containers": [{"name": "c", "image": "nginx"}], **spec}}


def _pod_spec(**extra: Any) -> Obj:
    return {"containers": [{"name": "c", "image": "registry.invalid/app:1"}], **extra}


#: (plural path under the namespace, object without defaults)
TABLE: list[tuple[str, Obj]] = [
    ("api/v1/pods", {"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "plain"}, "spec": _pod_spec()}),
    ("api/v1/pods", {"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "rich"}, "spec": {
        "containers": [{
            "name": "c", "image": "nginx", "ports": [{"containerPort": 80}],
            "resources": {"limits": {"cpu": "500m", "memory": "64Mi"}},
            "livenessProbe": {"httpGet": {"port": 80}}, "readinessProbe": {"tcpSocket": {"port": 80}},
            "env": [{"name": "N", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
            "lifecycle": {"preStop": {"httpGet": {"port": 80}}},
        }],
        "initContainers": [{"name": "i", "image": "busybox:latest"}],
        "volumes": [{"name": "a"}, {"name": "b", "configMap": {"name": "cm"}}, {"name": "s", "secret": {"secretName": "s"}},
                    {"name": "p", "projected": {"sources": [{"serviceAccountToken": {"path": "t"}}]}},
                    {"name": "h", "hostPath": {"path": "/x"}}],
        "serviceAccountName": "default", "terminationGracePeriodSeconds": -5,
    }}),
    ("api/v1/pods", {"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "host"}, "spec": _pod_spec(
        hostNetwork=True, containers=[{"name": "c", "image": "nginx:1.27", "ports": [{"containerPort": 8080}]}],
    )}),
    ("apis/apps/v1/deployments", {"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "plain"},
                                  "spec": {"selector": {"matchLabels": LABELS}, "template": _template()}}),
    ("apis/apps/v1/deployments", {"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "recreate"}, "spec": {
        "selector": {"matchLabels": LABELS}, "template": _template(), "strategy": {"type": "Recreate"}}}),
    ("apis/apps/v1/deployments", {"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "partial"}, "spec": {
        "selector": {"matchLabels": LABELS}, "template": _template(), "strategy": {"rollingUpdate": {"maxSurge": 2}}, "replicas": 0}}),
    ("apis/apps/v1/statefulsets", {"kind": "StatefulSet", "apiVersion": "apps/v1", "metadata": {"name": "plain"}, "spec": {
        "selector": {"matchLabels": LABELS}, "template": _template(), "serviceName": "svc"}}),
    ("apis/apps/v1/statefulsets", {"kind": "StatefulSet", "apiVersion": "apps/v1", "metadata": {"name": "claims"}, "spec": {
        "selector": {"matchLabels": LABELS}, "template": _template(), "serviceName": "svc",
        "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 1}},
        "volumeClaimTemplates": [{"metadata": {"name": "data"},
                                  "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}]}}),
    ("apis/apps/v1/daemonsets", {"kind": "DaemonSet", "apiVersion": "apps/v1", "metadata": {"name": "plain"},
                                 "spec": {"selector": {"matchLabels": LABELS}, "template": _template()}}),
    ("apis/apps/v1/daemonsets", {"kind": "DaemonSet", "apiVersion": "apps/v1", "metadata": {"name": "ondelete"}, "spec": {
        "selector": {"matchLabels": LABELS}, "template": _template(), "updateStrategy": {"type": "OnDelete"}}}),
    ("apis/apps/v1/replicasets", {"kind": "ReplicaSet", "apiVersion": "apps/v1", "metadata": {"name": "plain"},
                                  "spec": {"selector": {"matchLabels": LABELS}, "template": _template()}}),
    ("apis/batch/v1/jobs", {"kind": "Job", "apiVersion": "batch/v1", "metadata": {"name": "plain"},
                            "spec": {"template": _template(restartPolicy="Never"), **MANUAL}}),
    ("apis/batch/v1/jobs", {"kind": "Job", "apiVersion": "batch/v1", "metadata": {"name": "indexed", "labels": {"own": "1"}}, "spec": {
        "template": _template(restartPolicy="Never"), **MANUAL, "completions": 3, "completionMode": "Indexed", "backoffLimitPerIndex": 1}}),
    ("apis/batch/v1/jobs", {"kind": "Job", "apiVersion": "batch/v1", "metadata": {"name": "failure-policy"}, "spec": {
        "template": _template(restartPolicy="Never"), **MANUAL, "parallelism": 2,
        "podFailurePolicy": {"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]}}}),
    ("apis/batch/v1/cronjobs", {"kind": "CronJob", "apiVersion": "batch/v1", "metadata": {"name": "plain"}, "spec": {
        "schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": _template(restartPolicy="OnFailure")}}}}),
    ("apis/batch/v1/jobs", {"kind": "Job", "apiVersion": "batch/v1", "metadata": {"name": "generated-selector"},
                            "spec": {"template": _template(restartPolicy="Never")}}),
    ("api/v1/services", {"kind": "Service", "apiVersion": "v1", "metadata": {"name": "plain"},
                         "spec": {"selector": LABELS, "ports": [{"port": 80}]}}),
    ("api/v1/services", {"kind": "Service", "apiVersion": "v1", "metadata": {"name": "named"}, "spec": {
        "selector": LABELS, "ports": [{"port": 80, "targetPort": "http", "name": "web"}, {"port": 53, "protocol": "UDP", "name": "dns"}],
        "sessionAffinity": "ClientIP"}}),
    ("api/v1/services", {"kind": "Service", "apiVersion": "v1", "metadata": {"name": "external"},
                         "spec": {"type": "ExternalName", "externalName": "example.com"}}),
    ("api/v1/configmaps", {"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "plain"}, "data": {"a": "1"}}),
    ("api/v1/secrets", {"kind": "Secret", "apiVersion": "v1", "metadata": {"name": "plain"}, "stringData": {"a": "b"}}),
    ("api/v1/persistentvolumeclaims", {"kind": "PersistentVolumeClaim", "apiVersion": "v1", "metadata": {
        "name": "plain", "finalizers": ["kubernetes.io/pvc-protection"]},  # what StorageObjectInUseProtection adds
                                       "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
    ("api/v1/serviceaccounts", {"kind": "ServiceAccount", "apiVersion": "v1", "metadata": {"name": "plain"}}),
    ("api/v1/replicationcontrollers", {"kind": "ReplicationController", "apiVersion": "v1", "metadata": {"name": "plain"},
                                       "spec": {"template": _template()}}),
    ("apis/networking.k8s.io/v1/ingresses", {"kind": "Ingress", "apiVersion": "networking.k8s.io/v1", "metadata": {"name": "plain"},
                                             "spec": {"rules": [{"host": "a.example.com", "http": {"paths": [
            {"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "s", "port": {"number": 80}}}}]}}]}}),
    ("apis/networking.k8s.io/v1/networkpolicies", {"kind": "NetworkPolicy", "apiVersion": "networking.k8s.io/v1",
                                                   "metadata": {"name": "plain"}, "spec": {"podSelector": {},
                                                   "ingress": [{"ports": [{"port": 80}]}], "egress": [{}]}}),
    ("apis/autoscaling/v2/horizontalpodautoscalers", {"kind": "HorizontalPodAutoscaler", "apiVersion": "autoscaling/v2",
                                                      "metadata": {"name": "plain"}, "spec": {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}, "maxReplicas": 5,
        "behavior": {"scaleUp": {"stabilizationWindowSeconds": 30}}}}),
    ("apis/policy/v1/poddisruptionbudgets", {"kind": "PodDisruptionBudget", "apiVersion": "policy/v1", "metadata": {"name": "plain"},
                                             "spec": {"minAvailable": 1, "selector": {"matchLabels": LABELS}}}),
    ("apis/rbac.authorization.k8s.io/v1/rolebindings", {
        "kind": "RoleBinding", "apiVersion": "rbac.authorization.k8s.io/v1", "metadata": {"name": "plain"},
        "roleRef": {"kind": "Role", "name": "r", "apiGroup": "rbac.authorization.k8s.io"},
        "subjects": [{"kind": "User", "name": "u"}, {"kind": "ServiceAccount", "name": "d", "namespace": "x"}]}),
]


def _ids() -> list[str]:
    return [f"{obj['kind']}-{obj['metadata']['name']}" for _, obj in TABLE]


#: Kinds the generated fake serves without a status subresource.
NO_STATUS = {"ConfigMap", "Secret", "ServiceAccount", "RoleBinding"}


@pytest.fixture
def sides(admin: httpx.Client, kube_apiserver: KubeAPIServer) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    """(server, fake); the fake serves the table's resources as a generated package of the
    server's release would (``generated_from``): it applies that release's defaults (a
    StatefulSet's ``maxUnavailable`` is a 1.37 default, say)."""
    tracker = FakeClientset().tracker
    for path, obj in TABLE:
        prefix, plural = path.rsplit("/", 1)
        parts = prefix.split("/")
        group, version = ("", parts[1]) if parts[0] == "api" else (parts[1], parts[2])
        info = ResourceInfo(group, version, plural, True, obj["kind"], generated_from=kube_apiserver.version)
        tracker.register(info, status=obj["kind"] not in NO_STATUS)
    with httpx.Client(base_url="https://fake.kgen.invalid", transport=tracker.transport()) as fake:
        yield admin, fake


#: What the server adds that is no defaulting (admission plugins, registry strategies), taken out of
#: its answers: (kind, path, who adds it). The fake does none of it (runtime/fake/__init__.py).
NOT_DEFAULTING: list[tuple[str, tuple[str, ...], str]] = [
    ("Service", ("spec", "clusterIP"), "the Service REST storage's IP allocator"),
    ("Service", ("spec", "clusterIPs"), "the Service REST storage's IP allocator"),
    ("Service", ("spec", "ipFamilies"), "the Service REST storage's IP allocator"),
    ("Service", ("spec", "ipFamilyPolicy"), "the Service REST storage's IP allocator"),
    ("Pod", ("spec", "priority"), "the Priority admission plugin"),
    ("Pod", ("spec", "preemptionPolicy"), "the Priority admission plugin"),
    ("Pod", ("spec", "tolerations"), "the DefaultTolerationSeconds admission plugin"),
    ("Pod", ("status", "phase"), "the pod strategy's PrepareForCreate"),
    ("Pod", ("status", "qosClass"), "the pod strategy's PrepareForCreate"),
    ("DaemonSet", ("metadata", "annotations", "deprecated.daemonset.template.generation"), "the daemonset strategy (templateGeneration)"),
    # the Job without manualSelector: its generated selector and labels (the others' selectors are their own)
    ("Job", ("spec", "selector"), "the job strategy's generated selector"),
    *[("Job", (*where, "labels", label), "the job strategy's generated selector")
      for where in (("metadata",), ("spec", "template", "metadata"))
      for label in ("controller-uid", "job-name", "batch.kubernetes.io/controller-uid", "batch.kubernetes.io/job-name")],
]


#: Like NOT_DEFAULTING, on a server up to a release only: (kind, path, last minor, why).
OLDER_NOT_DEFAULTING: list[tuple[str, tuple[str, ...], tuple[int, int], str]] = [
    ("HorizontalPodAutoscaler", ("metadata", "generation"), (1, 36),
     "an HPA has a metadata.generation from 1.37 only (its strategy), the fake's on every release: bookkeeping"),
]


def _not_defaulting(server_version: str) -> list[tuple[str, tuple[str, ...]]]:
    minor = tuple(int(part) for part in server_version.removeprefix("v").split(".")[:2])
    return [(kind, path) for kind, path, _ in NOT_DEFAULTING] + [
        (kind, path) for kind, path, last, _ in OLDER_NOT_DEFAULTING if minor <= last]


def _strip(body: Any, paths: list[tuple[str, tuple[str, ...]]]) -> bool:
    """Takes ``paths`` out of an answer (and empty maps they leave); whether it changed."""
    changed = False
    for kind, path in paths:
        if not isinstance(body, dict) or body.get("kind") != kind:
            continue
        parents = [body]
        for key in path[:-1]:
            child = parents[-1].get(key)
            if not isinstance(child, dict):
                break
            parents.append(child)
        else:
            if parents[-1].pop(path[-1], None) is not None:
                changed = True
                for parent, key in zip(reversed(parents[:-1]), reversed(path[:-1]), strict=True):
                    if parent[key] == {} and key in ("labels", "annotations"):
                        del parent[key]
    return changed


class _Stripping:
    """A side's client, its answers without NOT_DEFAULTING's paths (on both sides: the fake's
    DaemonSet annotation is the decoding's ``"0"``, the server's strategy makes it ``"1"``).
    ``run`` only calls ``request``."""

    def __init__(self, client: httpx.Client, paths: list[tuple[str, tuple[str, ...]]]) -> None:
        self.client = client
        self.paths = paths

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        response = self.client.request(method, url, **kwargs)
        body = response.json() if response.content else None
        if not _strip(body, self.paths):
            return response
        headers = {k: v for k, v in response.headers.items() if k.lower() not in ("content-length", "content-encoding")}
        return httpx.Response(response.status_code, headers=headers, content=json.dumps(body).encode())


def _resend(obj: Obj) -> Any:
    """An update body: ``obj`` as first sent (without defaults), at the resourceVersion last read."""

    def body(answers: Answers) -> Obj:
        return {**obj, "metadata": {**obj["metadata"], "resourceVersion": answers["get"]["metadata"]["resourceVersion"]}}

    return body


def _steps(path: str, obj: Obj, ns: str) -> list[Step]:
    base = f"/{path.rsplit('/', 1)[0]}/namespaces/{ns}/{path.rsplit('/', 1)[1]}"
    name = obj["metadata"]["name"]
    # an update sending the object without its defaults again: the server re-defaults it (not
    # for a Job whose generated selector it would drop: immutable; nor for a PVC: the server
    # writes a new resourceVersion for an unchanged PVC, a no-op on the fake, no defaulting matter)
    resend = [] if (obj["kind"] == "Job" and "selector" not in obj["spec"]) or obj["kind"] == "PersistentVolumeClaim" else [
        Step("update-undefaulted", "PUT", f"{base}/{name}", _resend(obj))]
    return [
        Step("create", "POST", base, obj),
        Step("get", "GET", f"{base}/{name}"),
        *resend,
        Step("merge-patch", "PATCH", f"{base}/{name}", {"metadata": {"labels": {"patched": "1"}}},
             content_type="application/merge-patch+json"),
    ]


@pytest.mark.parametrize("index", range(len(TABLE)), ids=_ids())
def test_created_object_matches_the_servers(index: int, sides: tuple[httpx.Client, httpx.Client], namespace: str,
                                            kube_apiserver: KubeAPIServer, figure: Figure) -> None:
    server, fake = sides
    path, obj = TABLE[index]
    steps = _steps(path, obj, namespace)
    paths = _not_defaulting(kube_apiserver.version)
    outcome = run(_Stripping(server, paths), _Stripping(fake, paths), steps, managed_fields=True)  # type: ignore[arg-type]
    figure(f"{obj['kind']} {obj['metadata']['name']}: {outcome.compared} operations, {len(outcome.divergences)} divergences")
    assert outcome.server.by_label["create"].get("kind") == obj["kind"], outcome.server.by_label["create"]
    assert not outcome.divergences, "\n".join(map(str, outcome.divergences))
