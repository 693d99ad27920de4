"""Issue 35 item 22's acceptance, part B: kgen's ``validate`` of Services, Ingresses,
IngressClasses, ConfigMaps, Secrets and PersistentVolumeClaims against the real apiserver's Go
validation.

Each row (tests/support/builtin_validation.py's ``Mistake``) is a common mistake, or a valid
object, sent to the apiserver as a server-side dry-run create, or, for the update rules
(immutable fields, a Secret's type, cluster IPs, a claim's spec), created for real and changed by
a dry-run update; the same object goes through ``validate`` (``old=`` the stored object on an
update). kgen must accept what the apiserver accepts, and refuse what it refuses with the same
field paths, and the same messages where the apiserver's are deterministic (``messages=False``
where Go prints its spec diff). The figure is printed in the run's figures section.

kgen follows the newest release's rules. Rows whose answer differs on older releases are pinned
(``PINNED``: the row runs from that release on): from 1.36 Service and backend names are DNS labels
(RelaxedServiceNameValidation) and IPs and CIDRs are parsed strictly (StrictIPCIDRValidation); from 1.35 a
key with two slashes is "a valid label key" (apimachinery's content package).
"""

from __future__ import annotations

import base64
import copy
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from kgen.runtime.testing import KubeAPIServer
from tests.conftest import Figure
from tests.support.builtin_validation import Mistake, _answer, differences, kgen_answer, server_answer, with_
from tests.support.versions import minor_of

Obj = dict[str, Any]


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
    Mistake("valid: service, two named ports", service({"selector": {"app": "web"}, "ports": [
        {"name": "http", "port": 80, "targetPort": "http-alt"}, {"name": "dns", "port": 53, "protocol": "UDP"}]})),
    Mistake("valid: headless service", service({"clusterIP": "None", "ports": PORT})),
    Mistake("valid: external name", service({"type": "ExternalName", "externalName": "db.example.com."})),
    Mistake("valid: load balancer, Local, source ranges", service({
        "type": "LoadBalancer", "externalTrafficPolicy": "Local", "ports": PORT,
        "loadBalancerSourceRanges": ["10.0.0.0/8"], "loadBalancerClass": "example.com/lb"})),
    Mistake("valid: one nodePort for TCP and UDP of a port", service({"type": "NodePort", "ports": [
        {"name": "t", "port": 53, "nodePort": 30053}, {"name": "u", "port": 53, "protocol": "UDP", "nodePort": 30053}]})),
    Mistake("valid: ClientIP affinity", service({"ports": PORT, "sessionAffinity": "ClientIP"})),
    Mistake("valid: ingress with rules, wildcard host, TLS", ingress({
        "ingressClassName": "nginx", "rules": [rule("*.example.com"), rule("www.example.com", path="/a", pathType="Exact")],
        "tls": [{"hosts": ["www.example.com"], "secretName": "web-tls"}]})),
    Mistake("valid: ingress with a resource default backend", ingress({
        "defaultBackend": {"resource": {"apiGroup": "k8s.example.com", "kind": "StorageBucket", "name": "assets"}}})),
    Mistake("valid: ingress class", ingress_class({"controller": "example.com/ingress-controller", "parameters": {
        "kind": "Params", "name": "p", "scope": "Namespace", "namespace": "ops"}})),
    Mistake("valid: config map, both bags", config_map(data={"app.conf": "x=1"}, binaryData={"logo.png": _b64("PNG")})),
    Mistake("valid: tls secret", secret(type="kubernetes.io/tls", data={"tls.crt": _b64("c"), "tls.key": _b64("k")})),
    Mistake("valid: dockerconfigjson secret", secret(type="kubernetes.io/dockerconfigjson",
                                                  stringData={".dockerconfigjson": '{"auths": {}}'})),
    Mistake("valid: claim", claim({**CLAIM, "storageClassName": "fast", "volumeMode": "Block"})),
    Mistake("valid: claim cloned from a claim", claim({**CLAIM, "dataSource": {"kind": "PersistentVolumeClaim", "name": "src"}})),
]

MISTAKES = [
    # ObjectMeta, by each kind's name rule
    Mistake("service: name with a dot", service({"ports": PORT}) | {"metadata": {"name": "web.svc"}}),
    Mistake("service: name starting with a digit is fine, uppercase is not", service({"ports": PORT}) | {"metadata": {"name": "1Web"}}),
    Mistake("config map: name not a DNS subdomain", config_map(data={"a": "1"}) | {"metadata": {"name": "Bad_Name"}}),
    Mistake("secret: bad label value", secret(data={}) | {"metadata": {"name": "s", "labels": {"tier": "front end"}}}),
    # (the name the server generates ends in five random characters)
    Mistake("claim: bad generateName", claim(CLAIM) | {"metadata": {"generateName": "Data_"}}, messages=False),
    Mistake("ingress class: bad name", ingress_class({"controller": "example.com/c"}) | {"metadata": {"name": "My_Class"}}),
    Mistake("ingress: bad annotation key", ingress({"rules": [rule()]}, annotations={"a/b/c": "x"})),
    # Service ports
    Mistake("service: two ports, one unnamed", service({"ports": [{"name": "http", "port": 80}, {"port": 443}]})),
    Mistake("service: duplicate port names", service({"ports": [{"name": "a", "port": 80}, {"name": "a", "port": 81}]})),
    Mistake("service: duplicate port and protocol", service({"ports": [{"name": "a", "port": 80}, {"name": "b", "port": 80}]})),
    Mistake("service: port 0", service({"ports": [{"port": 0, "targetPort": 8080}]})),
    Mistake("service: port 70000", service({"ports": [{"port": 70000}]})),
    Mistake("service: port name not a DNS label", service({"ports": [{"name": "HTTP_1", "port": 80}]})),
    Mistake("service: bad targetPort name", service({"ports": [{"port": 80, "targetPort": "http--web"}]})),
    Mistake("service: targetPort name too long, no letter", service({"ports": [{"port": 80, "targetPort": "1234567890123456"}]})),
    Mistake("service: targetPort 70000", service({"ports": [{"port": 80, "targetPort": 70000}]})),
    Mistake("service: bad appProtocol", service({"ports": [{"port": 80, "appProtocol": "my proto"}]})),
    Mistake("service: no ports", service({"selector": {"app": "web"}})),
    # selector
    Mistake("service: bad selector value", service({"ports": PORT, "selector": {"app": "web server"}})),
    Mistake("service: bad selector key", service({"ports": PORT, "selector": {"-app": "web"}})),
    # type, clusterIP, externalName
    Mistake("service: ExternalName without a name", service({"type": "ExternalName"})),
    Mistake("service: ExternalName with a cluster IP", service({"type": "ExternalName", "externalName": "a.example.com",
                                                             "clusterIP": "10.0.0.10"})),
    Mistake("service: ExternalName not a DNS name", service({"type": "ExternalName", "externalName": "bad_name.com"})),
    Mistake("service: ExternalName with IP families", service({"type": "ExternalName", "externalName": "a.example.com",
                                                                "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack"})),
    Mistake("service: headless LoadBalancer", service({"type": "LoadBalancer", "clusterIP": "None", "ports": PORT})),
    Mistake("service: headless NodePort", service({"type": "NodePort", "clusterIP": "None", "ports": PORT})),
    Mistake("service: clusterIP not an IP", service({"clusterIP": "10.0.0", "ports": PORT})),
    # the IP allocator checks the cluster-IP fields before validation: their errors answer alone
    Mistake("service: bad clusterIP and a bad port name", service({"clusterIP": "10.0.0.300",
                                                                   "ports": [{"name": "HTTP", "port": 80}]})),
    Mistake("service: clusterIPs disagree with clusterIP", service({"clusterIP": "10.0.0.10", "clusterIPs": ["10.0.0.11"],
                                                                 "ports": PORT})),
    Mistake("service: unknown IP family", service({"ports": PORT, "ipFamilies": ["IPv5"]})),
    # nodePort, traffic policies, load balancer fields
    Mistake("service: nodePort on a ClusterIP service", service({"ports": [{"port": 80, "nodePort": 30080}]})),
    Mistake("service: externalTrafficPolicy on ClusterIP", service({"ports": PORT, "externalTrafficPolicy": "Local"})),
    Mistake("service: healthCheckNodePort without Local", service({"type": "NodePort", "ports": PORT,
                                                               "healthCheckNodePort": 30100})),
    Mistake("service: source ranges on ClusterIP", service({"ports": PORT, "loadBalancerSourceRanges": ["10.0.0.0/8"]})),
    Mistake("service: bad source range", service({"type": "LoadBalancer", "ports": PORT,
                                               "loadBalancerSourceRanges": ["10.0.0.1/8", "nope"]})),
    Mistake("service: allocateLoadBalancerNodePorts on NodePort", service({"type": "NodePort", "ports": PORT,
                                                                       "allocateLoadBalancerNodePorts": False})),
    Mistake("service: loadBalancerClass on ClusterIP", service({"ports": PORT, "loadBalancerClass": "example.com/lb"})),
    Mistake("service: bad trafficDistribution", service({"ports": PORT, "trafficDistribution": "Anywhere"})),
    Mistake("service: loopback external IP", service({"ports": PORT, "externalIPs": ["127.0.0.1"]})),
    Mistake("service: unknown type", service({"ports": PORT, "type": "Internal"})),
    Mistake("service: unknown protocol", service({"ports": [{"port": 80, "protocol": "HTTP"}]})),
    Mistake("service: unknown ipFamilyPolicy", service({"ports": PORT, "ipFamilyPolicy": "Both"})),
    # the node-port allocator, which runs before validation, finds the repeat first (its message, alone)
    Mistake("service: duplicate nodePorts", service({"type": "NodePort", "ports": [
        {"name": "a", "port": 80, "nodePort": 30081}, {"name": "b", "port": 81, "nodePort": 30081}]})),
    Mistake("service: duplicate nodePorts and a bad port name", service({"type": "LoadBalancer", "ports": [
        {"name": "a", "port": 80, "nodePort": 30082}, {"name": "B", "port": 81, "nodePort": 30082}]})),
    Mistake("service: external IP with leading zeros", service({"ports": PORT, "externalIPs": ["010.1.2.3"]})),
    Mistake("service: two clusterIPs of one family", service({"clusterIP": "10.0.0.10", "clusterIPs": ["10.0.0.10", "10.0.0.11"],
                                                           "ports": PORT})),
    # session affinity
    Mistake("service: unknown session affinity", service({"ports": PORT, "sessionAffinity": "Sticky"})),
    Mistake("service: affinity timeout 0", service({"ports": PORT, "sessionAffinity": "ClientIP",
                                                 "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 0}}})),
    Mistake("service: affinity timeout above a day", service({"ports": PORT, "sessionAffinity": "ClientIP",
                                                           "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 86401}}})),
    # Ingress
    Mistake("ingress: neither rules nor default backend", ingress({})),
    Mistake("ingress: path without pathType", ingress({"rules": [{"http": {"paths": [{"path": "/", "backend": BACKEND}]}}]})),
    Mistake("ingress: relative Prefix path", ingress({"rules": [rule(path="api")]})),
    Mistake("ingress: Exact path with // and /..", ingress({"rules": [rule(path="/a//b/..", pathType="Exact")]})),
    Mistake("ingress: ImplementationSpecific relative path", ingress({"rules": [rule(path="api", pathType="ImplementationSpecific")]})),
    Mistake("ingress: host is an IP", ingress({"rules": [rule("10.1.2.3")]})),
    Mistake("ingress: host with uppercase", ingress({"rules": [rule("Example.com")]})),
    Mistake("ingress: bad wildcard host", ingress({"rules": [rule("foo.*.example.com")]})),
    Mistake("ingress: http without paths", ingress({"rules": [{"host": "a.example.com", "http": {"paths": []}}]})),
    Mistake("ingress: backend with service and resource", ingress({"rules": [rule(backend={
        **BACKEND, "resource": {"kind": "Bucket", "name": "b"}})]})),
    Mistake("ingress: backend without port", ingress({"defaultBackend": {"service": {"name": "web"}}})),
    Mistake("ingress: backend with port name and number", ingress({"defaultBackend": {"service": {
        "name": "web", "port": {"name": "http", "number": 80}}}})),
    Mistake("ingress: backend port 0 name bad", ingress({"rules": [rule(backend={"service": {
        "name": "web", "port": {"name": "HTTP"}}})]})),
    Mistake("ingress: backend service name not a DNS label", ingress({"defaultBackend": {"service": {
        "name": "web.svc", "port": {"number": 80}}}})),
    Mistake("ingress: empty backend", ingress({"rules": [rule(backend={})]})),
    Mistake("ingress: resource backend without a kind", ingress({"defaultBackend": {"resource": {"name": "b"}}})),
    Mistake("ingress: resource backend with slash in name", ingress({"defaultBackend": {"resource": {
        "kind": "Bucket", "name": "a/b"}}})),
    Mistake("ingress: bad TLS host and secret name", ingress({"rules": [rule("a.example.com")],
                                                          "tls": [{"hosts": ["*.*.example.com"], "secretName": "Web_TLS"}]})),
    Mistake("ingress: bad ingressClassName", ingress({"ingressClassName": "Nginx", "rules": [rule()]})),
    Mistake("ingress: class annotation disagrees", ingress({"ingressClassName": "nginx", "rules": [rule()]},
                                                        annotations={"kubernetes.io/ingress.class": "traefik"})),
    Mistake("ingress: Prefix path ending in /.", ingress({"rules": [rule(path="/a/.")]})),
    Mistake("ingress: path with %2F", ingress({"rules": [rule(path="/a%2Fb")]})),
    Mistake("ingress class: controller of 251 characters", ingress_class({"controller": "example.com/" + "c" * 239})),
    Mistake("ingress class: controller without a domain", ingress_class({"controller": "controller"})),
    Mistake("ingress class: Namespace scope without a namespace", ingress_class({"controller": "example.com/c", "parameters": {
        "kind": "Params", "name": "p", "scope": "Namespace"}})),
    Mistake("ingress class: Cluster scope with a namespace", ingress_class({"controller": "example.com/c", "parameters": {
        "kind": "Params", "name": "p", "scope": "Cluster", "namespace": "ops"}})),
    # ConfigMap
    Mistake("config map: key with a slash", config_map(data={"conf/app": "x"})),
    Mistake("config map: key '..'", config_map(data={"..": "x"})),
    Mistake("config map: key of 254 characters", config_map(data={"k" * 254: "x"})),
    Mistake("config map: key in both bags", config_map(data={"k": "x"}, binaryData={"k": _b64("y")})),
    Mistake("config map: bad binaryData key", config_map(binaryData={"a b": _b64("y")})),
    Mistake("config map: above 1 MiB", config_map(data={"a": "x" * (1024 * 1024), "b": "y"})),
    # Secret
    Mistake("secret: key with a space", secret(data={"my key": _b64("x")})),
    Mistake("secret: bad stringData key", secret(stringData={"../x": "y"})),
    Mistake("secret: tls without tls.key", secret(type="kubernetes.io/tls", data={"tls.crt": _b64("c")})),
    Mistake("secret: tls without keys", secret(type="kubernetes.io/tls", data={})),
    Mistake("secret: dockerconfigjson missing", secret(type="kubernetes.io/dockerconfigjson", data={})),
    Mistake("secret: dockerconfigjson not JSON", secret(type="kubernetes.io/dockerconfigjson",
                                                     stringData={".dockerconfigjson": "auths: {}"})),
    Mistake("secret: dockerconfigjson an array", secret(type="kubernetes.io/dockerconfigjson",
                                                     stringData={".dockerconfigjson": "[]"})),
    Mistake("secret: dockercfg truncated JSON", secret(type="kubernetes.io/dockercfg", stringData={".dockercfg": '{"a": '})),
    Mistake("secret: dockerconfigjson with a trailing comma", secret(type="kubernetes.io/dockerconfigjson",
                                                                 stringData={".dockerconfigjson": '{"auths": {},}'})),
    Mistake("secret: dockerconfigjson a number", secret(type="kubernetes.io/dockerconfigjson",
                                                        stringData={".dockerconfigjson": "42"})),
    Mistake("secret: basic-auth without username and password", secret(type="kubernetes.io/basic-auth",
                                                                     stringData={"user": "a"})),
    Mistake("secret: ssh-auth without a key", secret(type="kubernetes.io/ssh-auth", data={})),
    Mistake("secret: service-account-token without the name annotation", secret(type="kubernetes.io/service-account-token")),
    Mistake("secret: above 1 MiB", secret(stringData={"a": "x" * (1024 * 1024 + 1)})),
    # PersistentVolumeClaim
    Mistake("config map: a data value a number (400)", config_map(data={"a": "1", "k": 1})),
    Mistake("service: port a string (400)", service({"ports": [{"port": "80"}]})),
    Mistake("ingress: rules an object (400)", ingress({"rules": {"host": "a.example.com"}})),
    Mistake("claim: no access modes", claim({"resources": {"requests": {"storage": "1Gi"}}})),
    Mistake("claim: unknown access mode", claim({**CLAIM, "accessModes": ["ReadWriteSometimes"]})),
    Mistake("claim: ReadWriteOncePod with another mode", claim({**CLAIM, "accessModes": ["ReadWriteOncePod", "ReadOnlyMany"]})),
    Mistake("claim: no storage request", claim({"accessModes": ["ReadWriteOnce"]})),
    Mistake("claim: zero storage", claim({**CLAIM, "resources": {"requests": {"storage": "0"}}})),
    Mistake("claim: negative storage", claim({**CLAIM, "resources": {"requests": {"storage": "-1Gi"}}})),
    Mistake("claim: unknown volumeMode", claim({**CLAIM, "volumeMode": "Raw"})),
    Mistake("claim: bad volumeAttributesClassName", claim({**CLAIM, "volumeAttributesClassName": "Gold Tier"})),
    Mistake("claim: bad storageClassName", claim({**CLAIM, "storageClassName": "Fast_SSD"})),
    Mistake("claim: bad selector", claim({**CLAIM, "selector": {"matchExpressions": [{"key": "tier", "operator": "In"}]}})),
    Mistake("claim: dataSource of another kind in the core group", claim({**CLAIM, "dataSourceRef": {
        "kind": "Pod", "name": "p"}})),
    Mistake("claim: dataSourceRef without a name", claim({**CLAIM, "dataSourceRef": {
        "apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot"}})),
    Mistake("claim: dataSource and dataSourceRef disagree", claim({**CLAIM, "dataSource": {
        "kind": "PersistentVolumeClaim", "name": "a"}, "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "b"}})),
]


def _set(path: str, value: Any) -> Callable[[Obj], Obj]:
    return lambda stored: with_(stored, path, value)


def _spec(**changes: Any) -> Callable[[Obj], Obj]:
    def change(stored: Obj) -> Obj:
        stored["spec"].update(changes)
        return stored
    return change


UPDATES = [
    Mistake("update: service clusterIP changed", service({"ports": PORT}), _set("spec.clusterIP", "10.0.0.77")),
    Mistake("update: service clusterIPs dropped, clusterIP changed", service({"ports": PORT}),
           _spec(clusterIPs=None, clusterIP="10.0.0.78")),
    Mistake("update: service to ExternalName keeping nothing", service({"ports": PORT}),
           _spec(type="ExternalName", externalName="a.example.com")),
    Mistake("update: load balancer class changed", service({"type": "LoadBalancer", "ports": PORT,
                                                         "loadBalancerClass": "example.com/a"}),
           _set("spec.loadBalancerClass", "example.com/b")),
    Mistake("update: health-check node port changed", service({"type": "LoadBalancer", "externalTrafficPolicy": "Local",
                                                               "ports": PORT}),
           _set("spec.healthCheckNodePort", 31999)),
    Mistake("update: service IP family changed", service({"ports": PORT}), _set("spec.ipFamilies", ["IPv6"])),
    Mistake("update: service clusterIP changed and a port unnamed", service({"ports": PORT}),
            _spec(clusterIP="10.0.0.79", clusterIPs=["10.0.0.79"], ports=[{"port": 80}, {"port": 81}])),
    Mistake("update: valid service port change", service({"ports": PORT}), _set("spec.ports", [{"port": 81}])),
    Mistake("update: immutable config map data", config_map(data={"a": "1"}, immutable=True), _set("data", {"a": "2"})),
    Mistake("update: immutable config map made mutable", config_map(data={"a": "1"}, immutable=True),
           _set("immutable", False)),
    Mistake("update: config map without immutable, data changed", config_map(data={"a": "1"}), _set("data", {"a": "2"})),
    Mistake("update: secret type changed", secret(data={"a": _b64("1")}), _set("type", "kubernetes.io/basic-auth")),
    Mistake("update: immutable secret made mutable", secret(data={"a": _b64("1")}, immutable=True), _set("immutable", None)),
    Mistake("update: immutable secret data", secret(data={"a": _b64("1")}, immutable=True), _set("data", {"a": _b64("2")})),
    Mistake("update: claim accessModes changed", claim(CLAIM), _set("spec.accessModes", ["ReadWriteMany"]), messages=False),
    Mistake("update: claim storage shrunk", claim(CLAIM), _set("spec.resources", {"requests": {"storage": "500Mi"}}),
           messages=False),
    Mistake("update: claim storageClassName set once", claim(CLAIM), _set("spec.storageClassName", "fast")),
    Mistake("update: ingress class controller changed", ingress_class({"controller": "example.com/a"}),
           _set("spec.controller", "example.com/b")),
    Mistake("update: config map labels changed", config_map(data={"a": "1"}), _set("metadata.labels", {"v": "2"})),
    Mistake("update: ingress host fixed", ingress({"rules": [rule("a.example.com")]}),
           _set("spec.rules", [rule("b.example.com")])),
    # /status writes (the status strategies keep the stored spec)
    Mistake("status: load-balancer ingress on a ClusterIP service", service({"ports": PORT}), subresource="status",
            change=_set("status.loadBalancer", {"ingress": [{"ip": "10.1.2.3", "ipMode": "VIP"}]})),
    Mistake("status: load-balancer ingress mistakes", service({"type": "LoadBalancer", "ports": PORT}), subresource="status",
            change=_set("status.loadBalancer", {"ingress": [
                {"ip": "10.1.2.3"}, {"hostname": "1.2.3.4"}, {"ip": "10.1.2.300", "ipMode": "VIP"},
                {"hostname": "lb.example.com", "ipMode": "Proxy"}, {"ip": "10.1.2.4", "ipMode": "Tunnel"},
                {"hostname": "Bad_Host"}]})),
    Mistake("status: valid load-balancer ingress, spec type changed (ignored)",
            service({"type": "LoadBalancer", "ports": PORT}), subresource="status",
            change=lambda s: with_(with_(s, "spec.type", "ClusterIP"), "status.loadBalancer", {"ingress": [
                {"ip": "10.1.2.3", "ipMode": "Proxy"}, {"hostname": "lb.example.com"}]})),
    Mistake("status: IP without ipMode, the body's type not LoadBalancer (no default)",
            service({"type": "LoadBalancer", "ports": PORT}), subresource="status",
            change=lambda s: with_(with_(s, "spec.type", "NodePort"), "status.loadBalancer", {"ingress": [{"ip": "10.1.2.3"}]})),
    Mistake("status: claim capacity negative, resize status and allocated resources unknown", claim(CLAIM), subresource="status",
            change=_set("status", {"phase": "Bound", "capacity": {"storage": "-1Gi"},
                                   "allocatedResourceStatuses": {"storage": "Resizing", "cpu": "NodeResizePending"},
                                   "allocatedResources": {"storage": "-0.5", "memory": "1Gi", "Bad Key": "1"}})),
    Mistake("status: valid claim status, a spec change (ignored)", claim(CLAIM), subresource="status",
            change=lambda s: with_(with_(s, "spec.accessModes", ["Sometimes"]), "status", {
                "phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"},
                "allocatedResourceStatuses": {"storage": "ControllerResizeInProgress"},
                "allocatedResources": {"storage": "2Gi", "example.com/iops": "3"}})),
    Mistake("status: ingress load-balancer mistakes", ingress({"rules": [rule("a.example.com")]}), subresource="status",
            change=_set("status.loadBalancer", {"ingress": [{"ip": "300.1.1.1"}, {"hostname": "10.0.0.1"},
                                                            {"hostname": "-bad.example.com"}]})),
    Mistake("status: valid ingress load balancer, a bad rule host (ignored)", ingress({"rules": [rule("a.example.com")]}),
            subresource="status", change=lambda s: with_(with_(s, "spec.rules", [rule("Bad_Host")]), "status.loadBalancer",
                                                          {"ingress": [{"ip": "10.1.2.3", "ports": [{"port": 80, "protocol": "TCP"}]}]})),
]


PINNED: dict[str, tuple[int, int]] = {
    # StrictIPCIDRValidation (beta, on from 1.36): bits beyond the prefix, leading zeros
    "service: bad source range": (1, 36),
    "service: external IP with leading zeros": (1, 36),
    # RelaxedServiceNameValidation (beta 1.36, GA 1.37): a DNS label, no longer a DNS-1035 label
    "ingress: backend service name not a DNS label": (1, 36),
    "service: name with a dot": (1, 36),
    "service: name starting with a digit is fine, uppercase is not": (1, 36),
    # apimachinery 0.35's content.IsLabelKey: "a valid label key" (up to 1.34 "a qualified name")
    "ingress: bad annotation key": (1, 35),
}
"""Rows whose apiserver answer differs between releases: the row runs from that release on."""


def _rows(version: str) -> list[Mistake]:
    return [row for row in VALID + MISTAKES + UPDATES
            if row.label not in PINNED or minor_of(version) >= PINNED[row.label]]


def test_the_table_covers_part_b_kinds() -> None:
    kinds = {row.obj["kind"] for row in MISTAKES + UPDATES}
    assert kinds >= {"Service", "Ingress", "IngressClass", "ConfigMap", "Secret", "PersistentVolumeClaim"}
    assert len(MISTAKES) >= 25 and len(UPDATES) >= 10
    assert all(row.change is None for row in VALID + MISTAKES) and all(row.change is not None for row in UPDATES)


def test_service_ingress_config_and_claim_mistakes_agree_with_the_apiserver(
        kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str, figure: Figure) -> None:
    found: list[str] = []
    rows = _rows(kube_apiserver.version)
    refused = agreeing = accepted = valid = 0
    for row in rows:
        server, stored = server_answer(admin, namespace, row)
        diff = differences(row, server, kgen_answer(row, stored))
        found.extend(diff)
        if row.label.startswith("valid"):
            valid += 1
            found.extend([] if server.accepted else [f"{row.label} is not valid: {sorted(server.causes)}"])
            accepted += int(not diff)
        elif row in MISTAKES:
            found.extend([f"{row.label} is accepted by the apiserver: not a mistake"] if server.accepted else [])
        refused += int(not server.accepted)
        agreeing += int(not diff and not server.accepted)
    figure(f"built-in kinds (Service, Ingress, IngressClass, ConfigMap, Secret, PVC) on {kube_apiserver.version}: "
           f"{len(rows)} rows, {refused} refused by the apiserver, {agreeing} of them agreeing (verdict, field paths, "
           f"messages where deterministic); {accepted}/{valid} valid objects accepted by both")
    assert found == [], "\n".join(found)


BOUND = [
    # (a resize validation lets through, the PersistentVolumeClaimResize admission plugin refuses
    # for a claim no storage class provisioned: a 403 no client-side check can predict)
    Mistake("bound claim: storage below the capacity", claim(CLAIM), _set("spec.resources.requests.storage", "500Mi")),
    Mistake("bound claim: volumeAttributesClassName set", claim(CLAIM), _set("spec.volumeAttributesClassName", "gold")),
    Mistake("bound claim: access modes changed", claim(CLAIM), _set("spec.accessModes", ["ReadOnlyMany"]), messages=False),
]
"""Updates of a claim the apiserver holds as Bound (its status written through /status first, with
a 1Gi capacity): a bound claim's requests and volumeAttributesClassName are its only mutable spec,
and the requests may not shrink to or below the capacity."""


def test_bound_claims_agree_with_the_apiserver(admin: httpx.Client, namespace: str, figure: Figure) -> None:
    found: list[str] = []
    refused = 0
    for row in BOUND:
        obj = with_(row.obj, "metadata.name", f"bound-{uuid.uuid4().hex[:6]}")
        url = f"/api/v1/namespaces/{namespace}/persistentvolumeclaims"
        created = admin.post(url, json=obj)
        assert created.status_code == 201, created.text
        bound = with_(created.json(), "status", {"phase": "Bound", "accessModes": ["ReadWriteOnce"],
                                                 "capacity": {"storage": "1Gi"}})
        resp = admin.put(f"{url}/{obj['metadata']['name']}/status", json=bound)
        assert resp.status_code == 200, resp.text
        stored = resp.json()
        assert stored["status"]["phase"] == "Bound"
        changed = row.change(copy.deepcopy(stored)) if row.change else stored
        server = _answer(admin.put(f"{url}/{obj['metadata']['name']}", params={"dryRun": "All"}, json=changed))
        found.extend(differences(row, server, kgen_answer(row, stored)))
        refused += int(not server.accepted)
    figure(f"bound claims: {len(BOUND)} updates, {refused} refused by the apiserver, {len(BOUND) - len(found)} agreeing")
    assert found == [], "\n".join(found)
    assert refused == 2, "the rows must hold refused updates"


def test_the_comparison_sees_a_planted_difference(admin: httpx.Client, namespace: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness self-test: with the Service validator unregistered, a Service mistake disagrees."""
    from kgen.runtime.apimachinery.validation import builtin

    builtin.validator_for("", "Service")
    monkeypatch.setitem(builtin._VALIDATORS, ("", "Service", ""), lambda obj, old: [])
    row = next(r for r in MISTAKES if r.label == "service: port 0")
    server, stored = server_answer(admin, namespace, row)
    assert differences(row, server, kgen_answer(row, stored)) != []
