"""Issue 35 item 22, part B: kgen's ``validate`` of Services, Ingresses, IngressClasses,
ConfigMaps, Secrets and PersistentVolumeClaims against the real apiserver's Go validation.

Each case of the table is a common mistake (or a valid object) sent to the apiserver as a
server-side dry-run create (``CASES``), or, for the update rules (immutable fields), created for
real and then sent as a dry-run update of the stored object (``UPDATES``); the same object goes
through ``validate`` (with ``old=`` the stored object on an update). kgen must answer as the
server does: accept what it accepts, and refuse what it refuses with the same set of field paths,
and the same messages where the server's are deterministic (``paths_only`` marks the others:
a message carrying Go's spec diff). The figures are printed (``pytest -s``).

The table pins Kubernetes 1.37 (this test is not in the compatibility suite): Service and
backend names are DNS labels from 1.36 (RelaxedServiceNameValidation) and IPs are parsed
strictly from 1.36 (StrictIPCIDRValidation); no case depends on either.
"""

from __future__ import annotations

import base64
import copy
import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from kgen.runtime.apimachinery.validation import FieldError, validate
from kgen.runtime.testing import KubeAPIServer

Obj = dict[str, Any]


@dataclass(frozen=True)
class Case:
    """One object and what to compare: paths always, messages unless ``paths_only``."""

    label: str
    obj: Obj
    paths_only: bool = False


@dataclass(frozen=True)
class Update:
    """A stored object (created for real) and the change an update makes to it."""

    label: str
    stored: Obj
    change: Callable[[Obj], None]
    paths_only: bool = False
    status: Obj | None = field(default=None)


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def service(spec: Obj, **meta: Any) -> Obj:
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc", **meta}, "spec": spec}


def ingress(spec: Obj, **meta: Any) -> Obj:
    return {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "ing", **meta}, "spec": spec}


def ingress_class(spec: Obj) -> Obj:
    return {"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass", "metadata": {"name": "cls"}, "spec": spec}


def config_map(**body: Any) -> Obj:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, **body}


def secret(**body: Any) -> Obj:
    return {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "sec"}, **body}


def claim(spec: Obj) -> Obj:
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "pvc"}, "spec": spec}


PORT = [{"port": 80}]
BACKEND = {"service": {"name": "web", "port": {"number": 80}}}
RULE_PATH = {"path": "/", "pathType": "Prefix", "backend": BACKEND}
CLAIM = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}


def rule(host: str | None = None, **path: Any) -> Obj:
    out: Obj = {"http": {"paths": [{**RULE_PATH, **path}]}}
    if host is not None:
        out["host"] = host
    return out


VALID = [
    Case("valid: service, two named ports", service({"selector": {"app": "web"}, "ports": [
        {"name": "http", "port": 80, "targetPort": "http-alt"}, {"name": "dns", "port": 53, "protocol": "UDP"}]})),
    Case("valid: headless service", service({"clusterIP": "None", "ports": PORT})),
    Case("valid: external name", service({"type": "ExternalName", "externalName": "db.example.com."})),
    Case("valid: load balancer, Local, source ranges", service({
        "type": "LoadBalancer", "externalTrafficPolicy": "Local", "ports": PORT,
        "loadBalancerSourceRanges": ["10.0.0.0/8"], "loadBalancerClass": "example.com/lb"})),
    Case("valid: one nodePort for TCP and UDP of a port", service({"type": "NodePort", "ports": [
        {"name": "t", "port": 53, "nodePort": 30053}, {"name": "u", "port": 53, "protocol": "UDP", "nodePort": 30053}]})),
    Case("valid: ClientIP affinity", service({"ports": PORT, "sessionAffinity": "ClientIP"})),
    Case("valid: ingress with rules, wildcard host, TLS", ingress({
        "ingressClassName": "nginx", "rules": [rule("*.example.com"), rule("www.example.com", path="/a", pathType="Exact")],
        "tls": [{"hosts": ["www.example.com"], "secretName": "web-tls"}]})),
    Case("valid: ingress with a resource default backend", ingress({
        "defaultBackend": {"resource": {"apiGroup": "k8s.example.com", "kind": "StorageBucket", "name": "assets"}}})),
    Case("valid: ingress class", ingress_class({"controller": "example.com/ingress-controller", "parameters": {
        "kind": "Params", "name": "p", "scope": "Namespace", "namespace": "ops"}})),
    Case("valid: config map, both bags", config_map(data={"app.conf": "x=1"}, binaryData={"logo.png": _b64("PNG")})),
    Case("valid: tls secret", secret(type="kubernetes.io/tls", data={"tls.crt": _b64("c"), "tls.key": _b64("k")})),
    Case("valid: dockerconfigjson secret", secret(type="kubernetes.io/dockerconfigjson",
                                                  stringData={".dockerconfigjson": '{"auths": {}}'})),
    Case("valid: claim", claim({**CLAIM, "storageClassName": "fast", "volumeMode": "Block"})),
    Case("valid: claim cloned from a claim", claim({**CLAIM, "dataSource": {"kind": "PersistentVolumeClaim", "name": "src"}})),
]

MISTAKES = [
    # Service ports
    Case("service: two ports, one unnamed", service({"ports": [{"name": "http", "port": 80}, {"port": 443}]})),
    Case("service: duplicate port names", service({"ports": [{"name": "a", "port": 80}, {"name": "a", "port": 81}]})),
    Case("service: duplicate port and protocol", service({"ports": [{"name": "a", "port": 80}, {"name": "b", "port": 80}]})),
    Case("service: port 0", service({"ports": [{"port": 0, "targetPort": 8080}]})),
    Case("service: port 70000", service({"ports": [{"port": 70000}]})),
    Case("service: port name not a DNS label", service({"ports": [{"name": "HTTP_1", "port": 80}]})),
    Case("service: bad targetPort name", service({"ports": [{"port": 80, "targetPort": "http--web"}]})),
    Case("service: targetPort name too long, no letter", service({"ports": [{"port": 80, "targetPort": "1234567890123456"}]})),
    Case("service: targetPort 70000", service({"ports": [{"port": 80, "targetPort": 70000}]})),
    Case("service: bad appProtocol", service({"ports": [{"port": 80, "appProtocol": "my proto"}]})),
    Case("service: no ports", service({"selector": {"app": "web"}})),
    # selector
    Case("service: bad selector value", service({"ports": PORT, "selector": {"app": "web server"}})),
    Case("service: bad selector key", service({"ports": PORT, "selector": {"-app": "web"}})),
    # type, clusterIP, externalName
    Case("service: ExternalName without a name", service({"type": "ExternalName"})),
    Case("service: ExternalName with a cluster IP", service({"type": "ExternalName", "externalName": "a.example.com",
                                                             "clusterIP": "10.0.0.10"})),
    Case("service: ExternalName not a DNS name", service({"type": "ExternalName", "externalName": "bad_name.com"})),
    Case("service: headless LoadBalancer", service({"type": "LoadBalancer", "clusterIP": "None", "ports": PORT})),
    Case("service: headless NodePort", service({"type": "NodePort", "clusterIP": "None", "ports": PORT})),
    Case("service: clusterIP not an IP", service({"clusterIP": "10.0.0", "ports": PORT})),
    Case("service: clusterIPs disagree with clusterIP", service({"clusterIP": "10.0.0.10", "clusterIPs": ["10.0.0.11"],
                                                                 "ports": PORT})),
    Case("service: unknown IP family", service({"ports": PORT, "ipFamilies": ["IPv5"]})),
    # nodePort, traffic policies, load balancer fields
    Case("service: nodePort on a ClusterIP service", service({"ports": [{"port": 80, "nodePort": 30080}]})),
    Case("service: externalTrafficPolicy on ClusterIP", service({"ports": PORT, "externalTrafficPolicy": "Local"})),
    Case("service: healthCheckNodePort without Local", service({"type": "NodePort", "ports": PORT,
                                                               "healthCheckNodePort": 30100})),
    Case("service: source ranges on ClusterIP", service({"ports": PORT, "loadBalancerSourceRanges": ["10.0.0.0/8"]})),
    Case("service: bad source range", service({"type": "LoadBalancer", "ports": PORT,
                                               "loadBalancerSourceRanges": ["10.0.0.1/8", "nope"]})),
    Case("service: allocateLoadBalancerNodePorts on NodePort", service({"type": "NodePort", "ports": PORT,
                                                                       "allocateLoadBalancerNodePorts": False})),
    Case("service: loadBalancerClass on ClusterIP", service({"ports": PORT, "loadBalancerClass": "example.com/lb"})),
    Case("service: bad trafficDistribution", service({"ports": PORT, "trafficDistribution": "Anywhere"})),
    Case("service: loopback external IP", service({"ports": PORT, "externalIPs": ["127.0.0.1"]})),
    Case("service: unknown type", service({"ports": PORT, "type": "Internal"})),
    Case("service: unknown protocol", service({"ports": [{"port": 80, "protocol": "HTTP"}]})),
    Case("service: unknown ipFamilyPolicy", service({"ports": PORT, "ipFamilyPolicy": "Both"})),
    # the node-port allocator, which runs before validation, finds the repeat first (its message, alone)
    Case("service: duplicate nodePorts", service({"type": "NodePort", "ports": [
        {"name": "a", "port": 80, "nodePort": 30081}, {"name": "b", "port": 81, "nodePort": 30081}]})),
    Case("service: duplicate nodePorts and a bad port name", service({"type": "LoadBalancer", "ports": [
        {"name": "a", "port": 80, "nodePort": 30082}, {"name": "B", "port": 81, "nodePort": 30082}]})),
    Case("service: external IP with leading zeros", service({"ports": PORT, "externalIPs": ["010.1.2.3"]})),
    Case("service: two clusterIPs of one family", service({"clusterIP": "10.0.0.10", "clusterIPs": ["10.0.0.10", "10.0.0.11"],
                                                           "ports": PORT})),
    # session affinity
    Case("service: unknown session affinity", service({"ports": PORT, "sessionAffinity": "Sticky"})),
    Case("service: affinity timeout 0", service({"ports": PORT, "sessionAffinity": "ClientIP",
                                                 "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 0}}})),
    Case("service: affinity timeout above a day", service({"ports": PORT, "sessionAffinity": "ClientIP",
                                                           "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 86401}}})),
    # Ingress
    Case("ingress: neither rules nor default backend", ingress({})),
    Case("ingress: path without pathType", ingress({"rules": [{"http": {"paths": [{"path": "/", "backend": BACKEND}]}}]})),
    Case("ingress: relative Prefix path", ingress({"rules": [rule(path="api")]})),
    Case("ingress: Exact path with // and /..", ingress({"rules": [rule(path="/a//b/..", pathType="Exact")]})),
    Case("ingress: ImplementationSpecific relative path", ingress({"rules": [rule(path="api", pathType="ImplementationSpecific")]})),
    Case("ingress: host is an IP", ingress({"rules": [rule("10.1.2.3")]})),
    Case("ingress: host with uppercase", ingress({"rules": [rule("Example.com")]})),
    Case("ingress: bad wildcard host", ingress({"rules": [rule("foo.*.example.com")]})),
    Case("ingress: http without paths", ingress({"rules": [{"host": "a.example.com", "http": {"paths": []}}]})),
    Case("ingress: backend with service and resource", ingress({"rules": [rule(backend={
        **BACKEND, "resource": {"kind": "Bucket", "name": "b"}})]})),
    Case("ingress: backend without port", ingress({"defaultBackend": {"service": {"name": "web"}}})),
    Case("ingress: backend with port name and number", ingress({"defaultBackend": {"service": {
        "name": "web", "port": {"name": "http", "number": 80}}}})),
    Case("ingress: backend port 0 name bad", ingress({"rules": [rule(backend={"service": {
        "name": "web", "port": {"name": "HTTP"}}})]})),
    Case("ingress: backend service name not a DNS label", ingress({"defaultBackend": {"service": {
        "name": "web.svc", "port": {"number": 80}}}})),
    Case("ingress: empty backend", ingress({"rules": [rule(backend={})]})),
    Case("ingress: resource backend without a kind", ingress({"defaultBackend": {"resource": {"name": "b"}}})),
    Case("ingress: resource backend with slash in name", ingress({"defaultBackend": {"resource": {
        "kind": "Bucket", "name": "a/b"}}})),
    Case("ingress: bad TLS host and secret name", ingress({"rules": [rule("a.example.com")],
                                                          "tls": [{"hosts": ["*.*.example.com"], "secretName": "Web_TLS"}]})),
    Case("ingress: bad ingressClassName", ingress({"ingressClassName": "Nginx", "rules": [rule()]})),
    Case("ingress: class annotation disagrees", ingress({"ingressClassName": "nginx", "rules": [rule()]},
                                                        annotations={"kubernetes.io/ingress.class": "traefik"})),
    Case("ingress class: controller without a domain", ingress_class({"controller": "controller"})),
    Case("ingress class: Namespace scope without a namespace", ingress_class({"controller": "example.com/c", "parameters": {
        "kind": "Params", "name": "p", "scope": "Namespace"}})),
    Case("ingress class: Cluster scope with a namespace", ingress_class({"controller": "example.com/c", "parameters": {
        "kind": "Params", "name": "p", "scope": "Cluster", "namespace": "ops"}})),
    # ConfigMap
    Case("config map: key with a slash", config_map(data={"conf/app": "x"})),
    Case("config map: key '..'", config_map(data={"..": "x"})),
    Case("config map: key in both bags", config_map(data={"k": "x"}, binaryData={"k": _b64("y")})),
    Case("config map: bad binaryData key", config_map(binaryData={"a b": _b64("y")})),
    Case("config map: above 1 MiB", config_map(data={"a": "x" * (1024 * 1024), "b": "y"})),
    # Secret
    Case("secret: key with a space", secret(data={"my key": _b64("x")})),
    Case("secret: bad stringData key", secret(stringData={"../x": "y"})),
    Case("secret: tls without tls.key", secret(type="kubernetes.io/tls", data={"tls.crt": _b64("c")})),
    Case("secret: tls without keys", secret(type="kubernetes.io/tls", data={})),
    Case("secret: dockerconfigjson missing", secret(type="kubernetes.io/dockerconfigjson", data={})),
    Case("secret: dockerconfigjson not JSON", secret(type="kubernetes.io/dockerconfigjson",
                                                     stringData={".dockerconfigjson": "auths: {}"})),
    Case("secret: dockerconfigjson an array", secret(type="kubernetes.io/dockerconfigjson",
                                                     stringData={".dockerconfigjson": "[]"})),
    Case("secret: basic-auth without username and password", secret(type="kubernetes.io/basic-auth",
                                                                     stringData={"user": "a"})),
    Case("secret: ssh-auth without a key", secret(type="kubernetes.io/ssh-auth", data={})),
    Case("secret: service-account-token without the name annotation", secret(type="kubernetes.io/service-account-token")),
    Case("secret: above 1 MiB", secret(stringData={"a": "x" * (1024 * 1024 + 1)})),
    # PersistentVolumeClaim
    Case("claim: no access modes", claim({"resources": {"requests": {"storage": "1Gi"}}})),
    Case("claim: unknown access mode", claim({**CLAIM, "accessModes": ["ReadWriteSometimes"]})),
    Case("claim: ReadWriteOncePod with another mode", claim({**CLAIM, "accessModes": ["ReadWriteOncePod", "ReadOnlyMany"]})),
    Case("claim: no storage request", claim({"accessModes": ["ReadWriteOnce"]})),
    Case("claim: zero storage", claim({**CLAIM, "resources": {"requests": {"storage": "0"}}})),
    Case("claim: negative storage", claim({**CLAIM, "resources": {"requests": {"storage": "-1Gi"}}})),
    Case("claim: bad storageClassName", claim({**CLAIM, "storageClassName": "Fast_SSD"})),
    Case("claim: bad selector", claim({**CLAIM, "selector": {"matchExpressions": [{"key": "tier", "operator": "In"}]}})),
    Case("claim: dataSource of another kind in the core group", claim({**CLAIM, "dataSourceRef": {
        "kind": "Pod", "name": "p"}})),
    Case("claim: dataSourceRef without a name", claim({**CLAIM, "dataSourceRef": {
        "apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot"}})),
    Case("claim: dataSource and dataSourceRef disagree", claim({**CLAIM, "dataSource": {
        "kind": "PersistentVolumeClaim", "name": "a"}, "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "b"}})),
]


def _set(path: str, value: Any) -> Callable[[Obj], None]:
    def change(obj: Obj) -> None:
        *parents, last = path.split(".")
        node = obj
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value
    return change


UPDATES = [
    Update("update: service clusterIP changed", service({"ports": PORT}), _set("spec.clusterIP", "10.0.0.77")),
    Update("update: service clusterIPs dropped, clusterIP changed", service({"ports": PORT}),
           lambda o: o["spec"].update(clusterIPs=None, clusterIP="10.0.0.78")),
    Update("update: service to ExternalName keeping nothing", service({"ports": PORT}),
           lambda o: o["spec"].update(type="ExternalName", externalName="a.example.com")),
    Update("update: load balancer class changed", service({"type": "LoadBalancer", "ports": PORT,
                                                         "loadBalancerClass": "example.com/a"}),
           _set("spec.loadBalancerClass", "example.com/b")),
    Update("update: health-check node port changed", service({"type": "LoadBalancer", "externalTrafficPolicy": "Local",
                                                               "ports": PORT}),
           _set("spec.healthCheckNodePort", 31999)),
    Update("update: valid service port change", service({"ports": PORT}), _set("spec.ports", [{"port": 81}])),
    Update("update: immutable config map data", config_map(data={"a": "1"}, immutable=True), _set("data", {"a": "2"})),
    Update("update: immutable config map made mutable", config_map(data={"a": "1"}, immutable=True),
           _set("immutable", False)),
    Update("update: config map without immutable, data changed", config_map(data={"a": "1"}), _set("data", {"a": "2"})),
    Update("update: secret type changed", secret(data={"a": _b64("1")}), _set("type", "kubernetes.io/basic-auth")),
    Update("update: immutable secret made mutable", secret(data={"a": _b64("1")}, immutable=True), _set("immutable", None)),
    Update("update: immutable secret data", secret(data={"a": _b64("1")}, immutable=True), _set("data", {"a": _b64("2")})),
    Update("update: claim accessModes changed", claim(CLAIM), _set("spec.accessModes", ["ReadWriteMany"]), paths_only=True),
    Update("update: claim storage shrunk", claim(CLAIM), _set("spec.resources", {"requests": {"storage": "500Mi"}}),
           paths_only=True),
    Update("update: claim storageClassName set once", claim(CLAIM), _set("spec.storageClassName", "fast")),
    Update("update: ingress class controller changed", ingress_class({"controller": "example.com/a"}),
           _set("spec.controller", "example.com/b")),
    Update("update: ingress host fixed", ingress({"rules": [rule("a.example.com")]}),
           _set("spec.rules", [rule("b.example.com")])),
]


# -- the comparison ------------------------------------------------------------------------------

def _collection(obj: Obj, namespace: str) -> str:
    group_version, kind = obj["apiVersion"], obj["kind"]
    plural = {"Service": "services", "ConfigMap": "configmaps", "Secret": "secrets",
              "PersistentVolumeClaim": "persistentvolumeclaims", "Ingress": "ingresses", "IngressClass": "ingressclasses"}[kind]
    base = f"/api/{group_version}" if "/" not in group_version else f"/apis/{group_version}"
    return f"{base}/{plural}" if kind == "IngressClass" else f"{base}/namespaces/{namespace}/{plural}"


@dataclass(frozen=True)
class Verdict:
    """An answer as a set of (field, message) pairs; empty when the object is accepted."""

    accepted: bool
    causes: frozenset[tuple[str, str]]

    def paths(self) -> frozenset[str]:
        return frozenset(f for f, _ in self.causes)


def _server_verdict(resp: httpx.Response) -> Verdict:
    if resp.status_code < 400:
        return Verdict(True, frozenset())
    body = resp.json()
    causes = (body.get("details") or {}).get("causes") or []
    assert resp.status_code == 422, f"{resp.status_code}: {body.get('message')}"
    return Verdict(False, frozenset((str(c.get("field", "")), str(c.get("message", ""))) for c in causes))


def _kgen_verdict(errors: list[FieldError]) -> Verdict:
    return Verdict(not errors, frozenset((e.field, e.message) for e in errors))


def _dry_run(admin: httpx.Client, method: str, path: str, obj: Obj) -> httpx.Response:
    return admin.request(method, path, params={"dryRun": "All"}, content=json.dumps(obj),
                         headers={"Content-Type": "application/json"})


def _unique(obj: Obj, namespace: str) -> Obj:
    """The object with a fresh name (cluster-scoped kinds share one namespace of names) in ``namespace``."""
    out = copy.deepcopy(obj)
    out["metadata"]["name"] = f"{out['metadata']['name']}-{uuid.uuid4().hex[:8]}"
    if out["kind"] != "IngressClass":
        out["metadata"]["namespace"] = namespace
    return out


@dataclass
class Tally:
    """The figures: cases, and how many of each kind agreed."""

    rows: list[tuple[str, Verdict, Verdict, bool]] = field(default_factory=list)

    def add(self, label: str, real: Verdict, ours: Verdict, paths_only: bool) -> None:
        self.rows.append((label, real, ours, paths_only))

    def disagreements(self) -> list[str]:
        out = []
        for label, real, ours, paths_only in self.rows:
            same = real.accepted == ours.accepted and (
                real.paths() == ours.paths() if paths_only else real.causes == ours.causes)
            if not same:
                out.append(f"{label}:\n  apiserver {sorted(real.causes) or 'accepted'}\n  kgen      {sorted(ours.causes) or 'accepted'}")
        return out


@pytest.fixture(scope="module")
def tally() -> Iterator[Tally]:
    table = Tally()
    yield table
    refused = sum(1 for _, real, _, _ in table.rows if not real.accepted)
    print(f"\nbuilt-in validation (Service, Ingress, IngressClass, ConfigMap, Secret, PVC): {len(table.rows)} cases, "
          f"{refused} refused by the apiserver, {len(table.rows) - refused} accepted; "
          f"{len(table.rows) - len(table.disagreements())} answered alike by kgen")


def test_creates_match_the_apiserver(admin: httpx.Client, namespace: str, tally: Tally) -> None:
    """Every mistake of the table is refused by both with the same paths (and messages), every
    valid object accepted by both; the table really holds mistakes (the server refuses each)."""
    for case in [*VALID, *MISTAKES]:
        obj = _unique(case.obj, namespace)
        real = _server_verdict(_dry_run(admin, "POST", _collection(obj, namespace), obj))
        tally.add(case.label, real, _kgen_verdict(validate(obj)), case.paths_only)
        assert real.accepted == case.label.startswith("valid"), f"{case.label}: the apiserver answered {real}"
    assert len(MISTAKES) >= 25
    assert not tally.disagreements(), "\n".join(tally.disagreements())


def test_updates_match_the_apiserver(admin: httpx.Client, namespace: str, tally: Tally) -> None:
    """Updates of stored objects: immutable fields, a Secret's type, cluster IPs, a claim's spec."""
    start = len(tally.rows)
    for case in UPDATES:
        obj = _unique(case.stored, namespace)
        path = _collection(obj, namespace)
        created = admin.post(path, json=obj)
        assert created.status_code == 201, f"{case.label}: {created.text}"
        stored = created.json()
        updated = copy.deepcopy(stored)
        case.change(updated)
        real = _server_verdict(_dry_run(admin, "PUT", f"{path}/{obj['metadata']['name']}", updated))
        tally.add(case.label, real, _kgen_verdict(validate(updated, old=stored)), case.paths_only)
        admin.delete(f"{path}/{obj['metadata']['name']}")
    refused = sum(1 for _, real, _, _ in tally.rows[start:] if not real.accepted)
    assert refused >= 8, "the update table must hold refused updates"
    assert not tally.disagreements(), "\n".join(tally.disagreements())


def test_harness_sees_a_planted_difference() -> None:
    """The comparison is not vacuous: a missing cause, a wrong message and a wrong verdict all count."""
    table = Tally()
    real = Verdict(False, frozenset({("spec.ports[0].port", "Invalid value: 0: must be between 1 and 65535, inclusive")}))
    table.add("missing", real, Verdict(True, frozenset()), False)
    table.add("message", real, Verdict(False, frozenset({("spec.ports[0].port", "Invalid value: 0: other")})), False)
    table.add("paths only, same path", real, Verdict(False, frozenset({("spec.ports[0].port", "other")})), True)
    assert [d.split(":")[0] for d in table.disagreements()] == ["missing", "message"]


def test_server_release_is_pinned(kube_apiserver: KubeAPIServer) -> None:
    """The table's expectations are 1.37's (module docstring): fail loudly on another release."""
    assert kube_apiserver.version.removeprefix("v").startswith("1.37."), kube_apiserver.version
