"""A deterministic PodList of realistic pods, as a kube-apiserver would send it (compact JSON).

Each pod is what a Deployment's ReplicaSet creates on a real cluster: metadata with labels,
annotations, an ownerReference and timestamps; an application container and a sidecar, each
with ports, env (literal values, and ``valueFrom`` fieldRef, resourceFieldRef, secretKeyRef and
configMapKeyRef), resources, probes, volume mounts and a security context; configMap, secret,
emptyDir and projected service-account volumes; the default tolerations; and a running status
with conditions and containerStatuses. About 6.9 KB of JSON a pod: 34.5 MB for 5,000.
The fields are those Kubernetes 1.37 knows, so every typed model can decode them (no
``managedFields``, as in reference/model-performance.md). Explicit ``null``s appear where the
apiserver writes them (``lastProbeTime``).
"""

from __future__ import annotations

import hashlib
import json
import random
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

JSON = dict[str, Any]

_APPS = ["checkout", "payments", "catalog", "search", "frontend", "orders", "inventory", "auth",
         "notifications", "recommendations", "shipping", "billing", "gateway", "reporting"]
_TEAMS = ["platform", "commerce", "growth", "data", "identity"]
_NAMESPACES = ["prod", "staging", "team-a", "team-b", "observability"]
_SIDECARS = [("envoy", "docker.io/envoyproxy/envoy:v1.31.2", 15090, "http-envoy-prom"),
             ("fluent-bit", "cr.fluentbit.io/fluent/fluent-bit:3.1.9", 2020, "http-metrics"),
             ("oauth2-proxy", "quay.io/oauth2-proxy/oauth2-proxy:v7.7.1", 4180, "http-proxy")]
_EPOCH = datetime(2024, 3, 1, tzinfo=timezone.utc)
_HEX = "0123456789abcdef"
_ALNUM = "bcdfghjklmnpqrstvwxz2456789"


def _time(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _suffix(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(_ALNUM) for _ in range(n))


def _uid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _digest(rng: random.Random) -> str:
    return "sha256:" + "".join(rng.choice(_HEX) for _ in range(64))


def _probe(path: str, port: str, initial: int) -> JSON:
    return {
        "httpGet": {"path": path, "port": port, "scheme": "HTTP"},
        "initialDelaySeconds": initial,
        "timeoutSeconds": 1,
        "periodSeconds": 10,
        "successThreshold": 1,
        "failureThreshold": 3,
    }


def _app_container(rng: random.Random, app: str, version: str, mounts: list[JSON]) -> JSON:
    cpu = rng.choice(["100m", "250m", "500m", "1"])
    memory = rng.choice(["128Mi", "256Mi", "512Mi", "1Gi"])
    return {
        "name": app,
        "image": f"registry.example.com/{app}:{version}",
        "imagePullPolicy": "IfNotPresent",
        "args": ["--config=/etc/app/config.yaml", f"--log-level={rng.choice(['info', 'debug'])}"],
        "ports": [
            {"name": "http", "containerPort": 8080, "protocol": "TCP"},
            {"name": "metrics", "containerPort": 9090, "protocol": "TCP"},
        ],
        "env": [
            {"name": "APP_ENV", "value": "production"},
            {"name": "LOG_FORMAT", "value": "json"},
            {"name": "GOMAXPROCS", "valueFrom": {"resourceFieldRef": {
                "containerName": app, "resource": "limits.cpu", "divisor": "1"}}},
            {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
            {"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {
                "apiVersion": "v1", "fieldPath": "metadata.namespace"}}},
            {"name": "DATABASE_PASSWORD", "valueFrom": {"secretKeyRef": {"name": f"{app}-db", "key": "password"}}},
            {"name": "FEATURE_FLAGS", "valueFrom": {"configMapKeyRef": {
                "name": f"{app}-flags", "key": "flags", "optional": True}}},
        ],
        "resources": {"limits": {"cpu": cpu, "memory": memory},
                      "requests": {"cpu": cpu, "memory": memory}},
        "volumeMounts": mounts,
        "livenessProbe": _probe("/healthz", "http", 15),
        "readinessProbe": _probe("/readyz", "http", 5),
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "capabilities": {"drop": ["ALL"]},
            "readOnlyRootFilesystem": True,
            "runAsNonRoot": True,
        },
    }


def _sidecar_container(rng: random.Random, sidecar: tuple[str, str, int, str], sa_mount: JSON) -> JSON:
    name, image, port, port_name = sidecar
    return {
        "name": name,
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "ports": [{"name": port_name, "containerPort": port, "protocol": "TCP"}],
        "env": [
            {"name": "NODE_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}}},
            {"name": "SERVICE_ACCOUNT", "valueFrom": {"fieldRef": {
                "apiVersion": "v1", "fieldPath": "spec.serviceAccountName"}}},
        ],
        "resources": {"limits": {"memory": "128Mi"}, "requests": {"cpu": "50m", "memory": "64Mi"}},
        "volumeMounts": [{"name": "sidecar-config", "mountPath": f"/etc/{name}", "readOnly": True}, sa_mount],
        "readinessProbe": _probe("/ready", port_name, 1),
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "FallbackToLogsOnError",
        "securityContext": {"allowPrivilegeEscalation": False, "runAsNonRoot": True, "runAsUser": 1337},
    }


def _container_status(rng: random.Random, container: JSON, started: datetime, node: str) -> JSON:
    restarts = rng.choice([0, 0, 0, 0, 1, 2])
    status: JSON = {
        "name": container["name"],
        "state": {"running": {"startedAt": _time(started + timedelta(seconds=rng.randint(2, 20)))}},
        "lastState": {},
        "ready": True,
        "restartCount": restarts,
        "image": container["image"],
        "imageID": container["image"].split(":")[0] + "@" + _digest(rng),
        "containerID": "containerd://" + "".join(rng.choice(_HEX) for _ in range(64)),
        "started": True,
    }
    if restarts:
        at = started + timedelta(minutes=rng.randint(1, 300))
        status["lastState"] = {"terminated": {
            "exitCode": 137, "reason": "OOMKilled", "startedAt": _time(started),
            "finishedAt": _time(at), "containerID": "containerd://" + "".join(rng.choice(_HEX) for _ in range(64)),
        }}
    return status


def make_pod(rng: random.Random, index: int) -> JSON:
    """One pod; everything but ``index``-derived names is drawn from ``rng``."""
    app = _APPS[index % len(_APPS)]
    namespace = _NAMESPACES[(index // len(_APPS)) % len(_NAMESPACES)]
    version = f"v{rng.randint(1, 4)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}"
    template_hash = _suffix(rng, 10)
    replica_set = f"{app}-{template_hash}"
    name = f"{replica_set}-{_suffix(rng, 5)}"
    created = _EPOCH + timedelta(seconds=rng.randint(0, 90 * 86400))
    node = f"ip-10-{rng.randint(0, 255)}-{rng.randint(0, 255)}-{rng.randint(1, 254)}.eu-west-1.compute.internal"
    pod_ip = f"10.{rng.randint(100, 120)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    host_ip = ".".join(node[3:].split(".")[0].split("-"))
    sa_volume = f"kube-api-access-{_suffix(rng, 5)}"
    sa_mount: JSON = {"name": sa_volume, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "readOnly": True}
    app_mounts: list[JSON] = [
        {"name": "config", "mountPath": "/etc/app", "readOnly": True},
        {"name": "tls", "mountPath": "/etc/tls", "readOnly": True},
        {"name": "tmp", "mountPath": "/tmp"},
        sa_mount,
    ]
    app_container = _app_container(rng, app, version, app_mounts)
    sidecar = _sidecar_container(rng, _SIDECARS[index % len(_SIDECARS)], sa_mount)
    scheduled = created + timedelta(seconds=1)
    started = scheduled + timedelta(seconds=rng.randint(1, 5))
    ready = started + timedelta(seconds=rng.randint(5, 60))
    checksum = hashlib.sha256(f"{app}-{version}".encode()).hexdigest()
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": name,
            "generateName": f"{replica_set}-",
            "namespace": namespace,
            "uid": _uid(rng),
            "resourceVersion": str(rng.randint(10_000_000, 99_999_999)),
            "creationTimestamp": _time(created),
            "labels": {
                "app.kubernetes.io/name": app,
                "app.kubernetes.io/instance": f"{app}-{namespace}",
                "app.kubernetes.io/version": version,
                "app.kubernetes.io/component": rng.choice(["api", "worker", "web"]),
                "app.kubernetes.io/part-of": "shop",
                "app.kubernetes.io/managed-by": "Helm",
                "team": rng.choice(_TEAMS),
                "pod-template-hash": template_hash,
            },
            "annotations": {
                "kubectl.kubernetes.io/restartedAt": _time(created - timedelta(hours=rng.randint(1, 48))),
                "prometheus.io/scrape": "true",
                "prometheus.io/port": "9090",
                "prometheus.io/path": "/metrics",
                "checksum/config": checksum,
            },
            "ownerReferences": [{
                "apiVersion": "apps/v1",
                "kind": "ReplicaSet",
                "name": replica_set,
                "uid": _uid(rng),
                "controller": True,
                "blockOwnerDeletion": True,
            }],
        },
        "spec": {
            "volumes": [
                {"name": "config", "configMap": {"name": f"{app}-config", "defaultMode": 420}},
                {"name": "tls", "secret": {"secretName": f"{app}-tls", "defaultMode": 256}},
                {"name": "tmp", "emptyDir": {"sizeLimit": "1Gi"}},
                {"name": "sidecar-config", "configMap": {"name": f"{sidecar['name']}-config", "defaultMode": 420}},
                {"name": sa_volume, "projected": {"defaultMode": 420, "sources": [
                    {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                    {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                    {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {
                        "apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}},
                ]}},
            ],
            "containers": [app_container, sidecar],
            "restartPolicy": "Always",
            "terminationGracePeriodSeconds": 30,
            "dnsPolicy": "ClusterFirst",
            "serviceAccountName": app,
            "serviceAccount": app,
            "nodeName": node,
            "securityContext": {"runAsUser": 10001, "runAsGroup": 10001, "fsGroup": 10001,
                                "seccompProfile": {"type": "RuntimeDefault"}},
            "schedulerName": "default-scheduler",
            "tolerations": [
                {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                 "tolerationSeconds": 300},
                {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute",
                 "tolerationSeconds": 300},
            ],
            "priority": 0,
            "enableServiceLinks": True,
            "preemptionPolicy": "PreemptLowerPriority",
        },
        "status": {
            "phase": "Running",
            "conditions": [
                {"type": t, "status": "True", "lastProbeTime": None, "lastTransitionTime": _time(when)}
                for t, when in [("PodReadyToStartContainers", started), ("Initialized", scheduled),
                                ("Ready", ready), ("ContainersReady", ready), ("PodScheduled", scheduled)]
            ],
            "hostIP": host_ip,
            "hostIPs": [{"ip": host_ip}],
            "podIP": pod_ip,
            "podIPs": [{"ip": pod_ip}],
            "startTime": _time(scheduled),
            "containerStatuses": [_container_status(rng, c, started, node) for c in (app_container, sidecar)],
            "qosClass": "Burstable",
        },
    }


def make_pod_list(count: int = 5000, seed: int = 20240301) -> JSON:
    """A PodList of ``count`` pods; the same ``seed`` gives the same list, byte for byte."""
    rng = random.Random(seed)
    return {
        "apiVersion": "v1",
        "kind": "PodList",
        "metadata": {"resourceVersion": "123456789"},
        "items": [make_pod(rng, i) for i in range(count)],
    }


def pod_list_json(count: int = 5000, seed: int = 20240301) -> bytes:
    """The PodList as an apiserver sends it: compact JSON bytes."""
    return json.dumps(make_pod_list(count, seed), separators=(",", ":")).encode()
