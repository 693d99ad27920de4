"""A seeded random corpus of built-in objects for the defaulting tests: every field that a
default, or a condition of one, reads is present or absent at random, with values that take each
branch (an image with and without a tag, each Service type, a Job with and without parallelism,
each strategy type, ...). Only what the apiserver's decoding keeps as sent: canonical quantities,
no empty collections, no unknown fields (the decoding itself is tested elsewhere).

``corpus(seed, per_kind)`` returns ``per_kind`` objects of each kind of ``KINDS``, every one with
a name, in a fixed order for a seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Obj = dict[str, Any]

IMAGES = [
    "nginx", "nginx:latest", "nginx:1.27", "registry.k8s.io/pause:3.10", "localhost:5000/app", "Busybox:1",
    "busybox@sha256:" + "a" * 64, "ghcr.io/org/app:latest@sha256:" + "b" * 64, "a" * 64, "example.com/x/y:v1", "bad image",
]


class Maker:
    """Random objects from one ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def coin(self, p: float = 0.5) -> bool:
        return self.rng.random() < p

    def pick(self, *values: Any) -> Any:
        return self.rng.choice(values)

    def some(self, fields: dict[str, Callable[[], Any]], p: float = 0.5) -> Obj:
        """Each field present with probability ``p``."""
        return {k: make() for k, make in fields.items() if self.coin(p)}

    def labels(self) -> dict[str, str]:
        return {"app": self.pick("web", "db")}

    def meta(self, name: str) -> Obj:
        out: Obj = {"name": name}
        if self.coin(0.3):
            out["labels"] = {"team": "x"}
        return out

    def probe(self) -> Obj:
        handler = self.pick(
            {"httpGet": {"port": 8080, **self.some({"path": lambda: "/healthz", "scheme": lambda: "HTTPS"})}},
            {"tcpSocket": {"port": "http"}}, {"exec": {"command": ["true"]}}, {"grpc": {"port": 9090}},
        )
        return {**handler, **self.some({"periodSeconds": lambda: 5, "timeoutSeconds": lambda: 2, "failureThreshold": lambda: 1})}

    def container(self, name: str) -> Obj:
        out: Obj = {"name": name}
        out.update(self.some({
            "image": lambda: self.pick(*IMAGES),
            "imagePullPolicy": lambda: self.pick("Never", "IfNotPresent"),
            "terminationMessagePath": lambda: "/tmp/msg",
            "terminationMessagePolicy": lambda: "FallbackToLogsOnError",
            "ports": lambda: [{"containerPort": 80, **self.some({"protocol": lambda: "UDP", "hostPort": lambda: 8080})}],
            "resources": lambda: self.some({
                "limits": lambda: {"cpu": "500m", "memory": "128Mi"},
                "requests": lambda: {"cpu": "250m"},
            }),
            "livenessProbe": self.probe,
            "readinessProbe": self.probe,
            "env": lambda: [{"name": "A", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
            "lifecycle": lambda: {"preStop": {"httpGet": {"port": 80}}},
            "securityContext": lambda: {"runAsNonRoot": True},
        }))
        return out

    def volume(self, name: str) -> Obj:
        source = self.pick(
            {}, {"emptyDir": {}}, {"configMap": {"name": "cm"}}, {"secret": {"secretName": "s"}},
            {"configMap": {"name": "cm", "defaultMode": 256}}, {"hostPath": {"path": "/x"}},
            {"projected": {"sources": [{"serviceAccountToken": {"path": "t"}}]}},
            {"downwardAPI": {"items": [{"path": "p", "fieldRef": {"fieldPath": "metadata.name"}}]}},
            {"persistentVolumeClaim": {"claimName": "c"}},
        )
        return {"name": name, **source}

    def pod_spec(self) -> Obj:
        spec: Obj = {"containers": [self.container("c%d" % i) for i in range(self.pick(1, 2))]}
        spec.update(self.some({
            "initContainers": lambda: [self.container("init")],
            "volumes": lambda: [self.volume("v0"), self.volume("v1")],
            "restartPolicy": lambda: self.pick("Never", "OnFailure"),
            "dnsPolicy": lambda: "Default",
            "schedulerName": lambda: "other",
            "terminationGracePeriodSeconds": lambda: self.pick(0, 5, -3),
            "serviceAccountName": lambda: "sa",
            "serviceAccount": lambda: self.pick("sa", "other"),
            "hostNetwork": lambda: self.pick(True, False),
            "enableServiceLinks": lambda: False,
            "securityContext": lambda: {"runAsUser": 1000},
        }, 0.4))
        return spec

    def template(self, labels: dict[str, str]) -> Obj:
        meta: Obj = {"labels": labels} if self.coin(0.9) else {}
        return {"metadata": meta, "spec": self.pod_spec()} if meta else {"spec": self.pod_spec()}


def _pod(m: Maker, name: str) -> Obj:
    spec = m.pod_spec()
    if m.coin(0.2):  # pod-level resources (the PodLevelResources feature)
        spec["resources"] = m.pick({"limits": {"cpu": "1", "memory": "1Gi"}}, {"requests": {"cpu": "500m"}})
    return {"apiVersion": "v1", "kind": "Pod", "metadata": m.meta(name), "spec": spec,
            **({"status": m.pick({"podIP": "10.0.0.1"}, {"podIPs": [{"ip": "10.0.0.2"}]},
                                 {"podIP": "10.0.0.1", "podIPs": [{"ip": "10.0.0.2"}]})} if m.coin(0.3) else {})}


def _workload(kind: str, extra: Callable[[Maker], Obj]) -> Callable[[Maker, str], Obj]:
    def make(m: Maker, name: str) -> Obj:
        labels = m.labels()
        spec: Obj = {"selector": {"matchLabels": labels}, "template": m.template(labels)}
        spec.update(extra(m))
        return {"apiVersion": "apps/v1", "kind": kind, "metadata": m.meta(name), "spec": spec}
    return make


def _deployment_extra(m: Maker) -> Obj:
    return m.some({
        "replicas": lambda: m.pick(0, 3),
        "strategy": lambda: m.pick(
            {}, {"type": "Recreate"}, {"type": "RollingUpdate"}, {"rollingUpdate": {"maxSurge": 2}},
            {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "50%"}},
        ),
        "revisionHistoryLimit": lambda: 2, "progressDeadlineSeconds": lambda: 60, "minReadySeconds": lambda: 5,
    })


def _daemonset_extra(m: Maker) -> Obj:
    return m.some({
        "updateStrategy": lambda: m.pick({}, {"type": "OnDelete"}, {"rollingUpdate": {"maxSurge": 1}},
                                         {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "10%"}}),
        "revisionHistoryLimit": lambda: 3,
    })


def _statefulset_extra(m: Maker) -> Obj:
    return {"serviceName": "svc", **m.some({
        "replicas": lambda: 2,
        "podManagementPolicy": lambda: "Parallel",
        "updateStrategy": lambda: m.pick({}, {"type": "OnDelete"}, {"type": "RollingUpdate"},
                                         {"type": "RollingUpdate", "rollingUpdate": {"partition": 1}},
                                         {"rollingUpdate": {"maxUnavailable": 2}}),
        "persistentVolumeClaimRetentionPolicy": lambda: m.pick({"whenDeleted": "Delete"}, {}),
        "volumeClaimTemplates": lambda: [{"metadata": {"name": "data"},
                                          "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}],
    })}


def _replicaset_extra(m: Maker) -> Obj:
    return m.some({"replicas": lambda: 2, "minReadySeconds": lambda: 1})


def _job_spec(m: Maker) -> Obj:
    spec: Obj = {"template": m.template(m.labels())}
    spec["template"].setdefault("spec", {})["restartPolicy"] = m.pick("Never", "OnFailure")
    spec.update(m.some({
        "completions": lambda: m.pick(1, 4), "parallelism": lambda: m.pick(1, 2),
        "backoffLimit": lambda: 2, "completionMode": lambda: "Indexed", "suspend": lambda: True,
        "backoffLimitPerIndex": lambda: 1, "podReplacementPolicy": lambda: "Failed",
        "podFailurePolicy": lambda: {"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]},
        "manualSelector": lambda: False, "ttlSecondsAfterFinished": lambda: 100,
    }, 0.35))
    return spec


def _job(m: Maker, name: str) -> Obj:
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": m.meta(name), "spec": _job_spec(m)}


def _cronjob(m: Maker, name: str) -> Obj:
    spec: Obj = {"schedule": "*/5 * * * *", "jobTemplate": {"spec": _job_spec(m)}}
    spec.update(m.some({"concurrencyPolicy": lambda: "Forbid", "suspend": lambda: True,
                        "successfulJobsHistoryLimit": lambda: 1, "failedJobsHistoryLimit": lambda: 0}))
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": m.meta(name), "spec": spec}


def _service(m: Maker, name: str) -> Obj:
    port: Obj = {"port": 80}
    port.update(m.some({"targetPort": lambda: m.pick(8080, "http"), "protocol": lambda: "UDP", "name": lambda: "web"}))
    spec: Obj = {"ports": [port]}
    spec.update(m.some({
        "type": lambda: m.pick("ClusterIP", "NodePort", "LoadBalancer", "ExternalName"),
        "selector": lambda: {"app": "web"},
        "sessionAffinity": lambda: m.pick("None", "ClientIP"),
        "sessionAffinityConfig": lambda: m.pick({"clientIP": {"timeoutSeconds": 60}}, {"clientIP": {}}),
        "externalIPs": lambda: ["192.0.2.1"],
        "externalTrafficPolicy": lambda: "Local",
        "internalTrafficPolicy": lambda: "Local",
        "allocateLoadBalancerNodePorts": lambda: False,
        "externalName": lambda: "example.com",
        "clusterIP": lambda: m.pick("None", "10.0.0.10"),
        "clusterIPs": lambda: ["10.0.0.11"],
    }, 0.35))
    obj: Obj = {"apiVersion": "v1", "kind": "Service", "metadata": m.meta(name), "spec": spec}
    if m.coin(0.3):
        obj["status"] = {"loadBalancer": {"ingress": [{"ip": "192.0.2.9"}, {"hostname": "lb.example.com"}]}}
    return obj


def _simple(api_version: str, kind: str, body: Callable[[Maker], Obj]) -> Callable[[Maker, str], Obj]:
    def make(m: Maker, name: str) -> Obj:
        return {"apiVersion": api_version, "kind": kind, "metadata": m.meta(name), **body(m)}
    return make


KINDS: dict[str, Callable[[Maker, str], Obj]] = {
    "Pod": _pod,
    "Deployment": _workload("Deployment", _deployment_extra),
    "StatefulSet": _workload("StatefulSet", _statefulset_extra),
    "DaemonSet": _workload("DaemonSet", _daemonset_extra),
    "ReplicaSet": _workload("ReplicaSet", _replicaset_extra),
    "Job": _job,
    "CronJob": _cronjob,
    "Service": _service,
    "ConfigMap": _simple("v1", "ConfigMap", lambda m: m.some({"data": lambda: {"a": "1"}})),
    "Secret": _simple("v1", "Secret", lambda m: m.some({"type": lambda: "kubernetes.io/tls", "stringData": lambda: {"a": "b"},
                                                        "data": lambda: {"k": "dg=="}})),
    "PersistentVolumeClaim": _simple("v1", "PersistentVolumeClaim", lambda m: {"spec": {
        "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
        **m.some({"volumeMode": lambda: "Block", "storageClassName": lambda: "fast"})}}),
    "Ingress": _simple("networking.k8s.io/v1", "Ingress", lambda m: {"spec": {"rules": [{"host": "a.example.com", "http": {"paths": [
        {"path": "/", "pathType": m.pick("Prefix", "Exact"), "backend": {"service": {"name": "s", "port": {"number": 80}}}}]}}],
        **m.some({"ingressClassName": lambda: "nginx"})}}),
    "Namespace": _simple("v1", "Namespace", lambda m: m.some({"spec": lambda: {"finalizers": ["kubernetes"]}})),
    "ServiceAccount": _simple("v1", "ServiceAccount", lambda m: m.some({"automountServiceAccountToken": lambda: False})),
    "HorizontalPodAutoscaler": _simple("autoscaling/v2", "HorizontalPodAutoscaler", lambda m: {"spec": {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d"}, "maxReplicas": 5,
        **m.some({
            "minReplicas": lambda: 2,
            "metrics": lambda: [{"type": "Resource", "resource": {
                "name": "memory", "target": {"type": "AverageValue", "averageValue": "100Mi"},
            }}],
            "behavior": lambda: m.pick({}, {"scaleUp": {"stabilizationWindowSeconds": 30}}, {"scaleDown": {
                "selectPolicy": "Min", "policies": [{"type": "Pods", "value": 1, "periodSeconds": 60}],
            }}),
        })}}),
    "PodDisruptionBudget": _simple("policy/v1", "PodDisruptionBudget", lambda m: {"spec": m.some({
        "minAvailable": lambda: m.pick(1, "50%"), "selector": lambda: {"matchLabels": {"app": "web"}},
        "unhealthyPodEvictionPolicy": lambda: "AlwaysAllow",
    })}),
    "NetworkPolicy": _simple("networking.k8s.io/v1", "NetworkPolicy", lambda m: {"spec": {"podSelector": {}, **m.some({
        "ingress": lambda: [{"ports": [{"port": 80}, {"port": 53, "protocol": "UDP"}]}],
        "egress": lambda: [{"to": [{"ipBlock": {"cidr": "10.0.0.0/8"}}]}],
        "policyTypes": lambda: ["Egress"]})}}),
    "ReplicationController": lambda m, name: {
        "apiVersion": "v1", "kind": "ReplicationController", "metadata": m.meta(name),
        "spec": {"template": m.template({"app": "rc"}), **m.some({"replicas": lambda: 2, "selector": lambda: {"app": "rc"}})},
    },
    "PodTemplate": _simple("v1", "PodTemplate", lambda m: {"template": m.template(m.labels())}),
    "LimitRange": _simple("v1", "LimitRange", lambda m: {"spec": {"limits": [
        {"type": m.pick("Container", "Pod"), **m.some({
            "max": lambda: {"cpu": "1"}, "min": lambda: {"memory": "1Mi"}, "default": lambda: {"memory": "64Mi"},
            "defaultRequest": lambda: {"cpu": "100m"},
        })},
    ]}}),
    "Endpoints": _simple("v1", "Endpoints", lambda m: {"subsets": [{"addresses": [{"ip": "10.0.0.1"}], "ports": [
        {"port": 80, **m.some({"protocol": lambda: "UDP", "name": lambda: "p"})}]}]}),
    "EndpointSlice": _simple("discovery.k8s.io/v1", "EndpointSlice", lambda m: {"addressType": "IPv4", "endpoints": [
        {"addresses": ["10.0.0.1"]}], "ports": [m.some({"port": lambda: 80, "protocol": lambda: "UDP", "name": lambda: "p"})]}),
    "PersistentVolume": _simple("v1", "PersistentVolume", lambda m: {"spec": {
        "capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/x"},
        **m.some({"persistentVolumeReclaimPolicy": lambda: "Delete", "volumeMode": lambda: "Block"})}}),
    "IngressClass": _simple("networking.k8s.io/v1", "IngressClass", lambda m: {"spec": {"controller": "x.example.com/c", **m.some({
        "parameters": lambda: {"kind": "K", "name": "n", **m.some({"scope": lambda: "Namespace", "namespace": lambda: "ns"})}})}}),
    "CSIDriver": _simple("storage.k8s.io/v1", "CSIDriver", lambda m: {"spec": m.some({
        "attachRequired": lambda: False, "podInfoOnMount": lambda: True, "fsGroupPolicy": lambda: "File",
        "volumeLifecycleModes": lambda: ["Ephemeral"]})}),
    "MutatingWebhookConfiguration": _simple("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration", lambda m: {
        "webhooks": [{"name": "m.example.com", "sideEffects": "None", "admissionReviewVersions": ["v1"],
                      "clientConfig": {"url": "https://example.com/m"},
                      **m.some({"reinvocationPolicy": lambda: "IfNeeded", "objectSelector": lambda: {"matchLabels": {"a": "b"}},
                                "rules": lambda: [{"operations": ["*"], "apiGroups": ["*"], "apiVersions": ["*"], "resources": ["*"],
                                                   **m.some({"scope": lambda: "Namespaced"})}]})}]}),
    "ClusterRoleBinding": _simple("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", lambda m: {
        "roleRef": {"kind": "ClusterRole", "name": "r", "apiGroup": "rbac.authorization.k8s.io"},
        "subjects": [{"kind": "Group", "name": "g", **m.some({"apiGroup": lambda: "rbac.authorization.k8s.io"})}]}),
    "PriorityLevelConfiguration": _simple("flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration", lambda m: {"spec": m.pick(
        {"type": "Limited", "limited": m.some({
            "nominalConcurrencyShares": lambda: 5, "lendablePercent": lambda: 10,
            "limitResponse": lambda: m.pick({"type": "Reject"}, {"type": "Queue", "queuing": m.some({"queues": lambda: 16})})})},
        {"type": "Exempt", "exempt": m.some({"nominalConcurrencyShares": lambda: 1})},
    )}),
    "FlowSchema": _simple("flowcontrol.apiserver.k8s.io/v1", "FlowSchema", lambda m: {"spec": {
        "priorityLevelConfiguration": {"name": "p"}, **m.some({"matchingPrecedence": lambda: 500,
                                                               "distinguisherMethod": lambda: {"type": "ByUser"}})}}),
    "ResourceClaim": _simple("resource.k8s.io/v1", "ResourceClaim", lambda m: {"spec": {"devices": {"requests": [
        {"name": "r", "exactly": {"deviceClassName": "c", **m.some({"allocationMode": lambda: m.pick("All", "ExactCount"),
                                                                     "count": lambda: 2})}}]}}}),
    "Node": lambda m, name: {"apiVersion": "v1", "kind": "Node", "metadata": m.meta(name), **m.some({
        "status": lambda: {"capacity": {"cpu": "4", "memory": "8Gi"}, **m.some({"allocatable": lambda: {"cpu": "3"}})},
        "spec": lambda: m.pick({"podCIDR": "10.0.0.0/24"}, {"podCIDRs": ["10.1.0.0/24", "fd00::/64"]},
                               {"podCIDR": "10.0.0.0/24", "podCIDRs": ["10.1.0.0/24"]})})},
    "StorageClass": _simple("storage.k8s.io/v1", "StorageClass", lambda m: {"provisioner": "x.example.com", **m.some({
        "reclaimPolicy": lambda: "Retain", "volumeBindingMode": lambda: "WaitForFirstConsumer"})}),
    "PriorityClass": _simple("scheduling.k8s.io/v1", "PriorityClass", lambda m: {
        "value": 10, **m.some({"preemptionPolicy": lambda: "Never"}),
    }),
    "RoleBinding": _simple("rbac.authorization.k8s.io/v1", "RoleBinding", lambda m: {
        "roleRef": {"kind": "Role", "name": "r", **m.some({"apiGroup": lambda: "rbac.authorization.k8s.io"})},
        "subjects": [
            {"kind": "ServiceAccount", "name": "sa", "namespace": "ns"},
            {"kind": m.pick("User", "Group"), "name": "u", **m.some({"apiGroup": lambda: "rbac.authorization.k8s.io"})},
        ]}),
    "ValidatingWebhookConfiguration": _simple("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", lambda m: {"webhooks": [{
        "name": "w.example.com", "sideEffects": "None", "admissionReviewVersions": ["v1"],
        "clientConfig": {"service": {"namespace": "ns", "name": "s", **m.some({"port": lambda: 8443})}},
        "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}],
        **m.some({"failurePolicy": lambda: "Ignore", "timeoutSeconds": lambda: 5, "matchPolicy": lambda: "Exact",
                  "namespaceSelector": lambda: {"matchLabels": {"a": "b"}}})}]}),
}


def corpus(seed: int, per_kind: int) -> list[Obj]:
    """``per_kind`` random objects of each kind of ``KINDS``, the same for the same seed."""
    m = Maker(random.Random(seed))
    return [make(m, f"{kind.lower()}-{i}") for kind, make in KINDS.items() for i in range(per_kind)]
