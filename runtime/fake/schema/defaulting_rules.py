"""The apiserver's conditional defaults of built-in kinds, hand-written beside the extracted data.

``kgen.runtime.fake.schema.defaulting`` sets, from ``schema/defaults.json``, the fields a Go type's
defaulting sets whatever the object holds. What depends on other fields is here, one rule per Go
type (run on each value of that type before its data), with ``OWNED``: the fields a rule decides,
which the data never sets. Each follows k8s.io/kubernetes' pkg/apis/<group>/<version>/defaults.go
at the data's release (SetDefaults_Container, SetDefaults_Service, SetDefaults_Pod, ...); where a
constant depends on a feature gate of that release (a StatefulSet's ``maxUnavailable``), the rule
takes it from the data, which has it exactly when the gate is on.
tests/unit/test_fake_defaulting_oracle.py checks them against the Go code itself.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from kgen.runtime.apimachinery.validation.builtin import quantity
from kgen.runtime.fake.store import Obj


@dataclass
class Context:
    """The object being defaulted: its kind, the whole object (a rule may read or set its
    metadata), the kind's own entries of the data and the shared ones."""

    api_version: str
    kind: str
    obj: Obj
    kind_data: dict[str, dict[str, Any]]
    shared: dict[str, dict[str, Any]]
    release: str = ""
    """The Kubernetes release whose defaults these are (``1.37.2``)."""

    def before(self, major: int, minor: int) -> bool:
        """Whether the release is older than ``major.minor``."""
        parts = self.release.split(".")
        return len(parts) >= 2 and (int(parts[0]), int(parts[1])) < (major, minor)

    def constant(self, type_name: str, field: str) -> Any:
        """The data's default of ``field`` of a Go type in this kind (None if it has none)."""
        return (self.kind_data.get(type_name) or self.shared.get(type_name) or {}).get(field)


Rule = Callable[[Obj, Context], None]
"""A conditional default: sets, in place, the fields of one value of its Go type."""


def _dict(value: Any) -> Obj:
    return value if isinstance(value, dict) else {}


def _sub(parent: Obj, key: str) -> Obj:
    """``parent[key]``, made an empty dict when absent or null (Go's zero struct value)."""
    value = parent.get(key)
    if not isinstance(value, dict):
        value = parent[key] = {}
    return value


# distribution/reference's grammar, as k8s.io/kubernetes/pkg/util/parsers.ParseImageName reads an image
_ALNUM = r"[a-z0-9]+"
_PATH_COMPONENT = rf"{_ALNUM}(?:(?:[._]|__|-+){_ALNUM})*"
_DOMAIN_COMPONENT = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_DOMAIN = rf"(?:{_DOMAIN_COMPONENT}(?:\.{_DOMAIN_COMPONENT})*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?"
_REFERENCE = re.compile(
    rf"^((?:{_DOMAIN}/)?{_PATH_COMPONENT}(?:/{_PATH_COMPONENT})*)(?::([\w][\w.-]{{0,127}}))?"
    r"(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$"
)
_DIGEST_LENGTHS = {"sha256": 64, "sha384": 96, "sha512": 128}


def image_tag(image: str) -> str:
    """The tag ``ParseImageName`` finds: ``latest`` when the image names neither tag nor digest,
    ``""`` when it is no valid reference (the parser's error is ignored by the defaulting)."""
    if re.fullmatch(r"[a-f0-9]{64}", image):
        return ""  # an image ID, refused by ParseNormalizedNamed
    match = _REFERENCE.match(image)
    if match is None or len(match.group(1)) > 255:
        return ""
    name, tag, digest = match.groups()
    first, slash, rest = name.partition("/")
    remainder = name if not slash or ("." not in first and ":" not in first and first != "localhost" and first.lower() == first) else rest
    if remainder.lower() != remainder:
        return ""  # repository name must be lowercase
    if digest is not None:
        algorithm, _, hex_part = digest.partition(":")
        if _DIGEST_LENGTHS.get(algorithm) != len(hex_part) or hex_part.lower() != hex_part:
            return ""
    return tag or ("" if digest else "latest")


def _pull_policy(image: Any) -> str:
    return "Always" if image_tag(image if isinstance(image, str) else "") == "latest" else "IfNotPresent"


def _container(value: Obj, ctx: Context) -> None:
    """SetDefaults_Container: ``imagePullPolicy`` Always for ``:latest`` or no tag, else IfNotPresent."""
    if not value.get("imagePullPolicy"):
        value["imagePullPolicy"] = _pull_policy(value.get("image"))


def _volume(value: Obj, ctx: Context) -> None:
    """SetDefaults_Volume: a volume with no source is an ``emptyDir``; an image volume's pull policy
    from its reference's tag (when the release's ImageVolume gate defaults it at all)."""
    if all(v is None for k, v in value.items() if k != "name"):
        value["emptyDir"] = {}
    image = value.get("image")
    if isinstance(image, dict) and not image.get("pullPolicy") and ctx.constant("core/v1.ImageVolumeSource", "pullPolicy"):
        image["pullPolicy"] = "Always" if image_tag(str(image.get("reference") or "")) == "latest" else "IfNotPresent"


def _pod_spec(value: Obj, ctx: Context) -> None:
    """SetDefaults_PodSpec: ``serviceAccountName`` and the deprecated ``serviceAccount`` mirror each other."""
    name = value.get("serviceAccountName") or value.get("serviceAccount") or ""
    for key in ("serviceAccountName", "serviceAccount"):
        if name:
            value[key] = name
        else:
            value.pop(key, None)


def _pod(value: Obj, ctx: Context) -> None:
    """SetDefaults_Pod: a negative grace period becomes 1; each container's (and init container's)
    requests take its limits' missing keys; with ``hostNetwork``, a port's ``hostPort`` is its
    ``containerPort``."""
    spec = _dict(value.get("spec"))
    grace = spec.get("terminationGracePeriodSeconds")
    if isinstance(grace, int) and not isinstance(grace, bool) and grace < 0:
        spec["terminationGracePeriodSeconds"] = 1
    for key in ("containers", "initContainers"):
        for container in spec.get(key) or []:
            if not isinstance(container, dict):
                continue
            resources = _dict(container.get("resources"))
            limits = resources.get("limits")
            if isinstance(limits, dict) and limits:
                requests = _sub(resources, "requests")
                for name, limit in limits.items():
                    requests.setdefault(name, limit)
                container["resources"] = resources
            if spec.get("hostNetwork") is True:
                for port in container.get("ports") or []:
                    if isinstance(port, dict) and not port.get("hostPort"):
                        port["hostPort"] = port.get("containerPort", 0)
    if ctx.before(1, 37):  # PodLevelResources on, PodLevelResourcesFixDefaulting not yet
        _pod_level_requests(spec)


_POD_LEVEL = ("cpu", "memory")


def _pod_level_requests(spec: Obj) -> None:
    """defaultPodRequests (1.34-1.36): pod-level ``limits`` give pod-level ``requests`` for cpu and
    memory (hugepages aside), the containers' aggregated requests first (the regular ones summed, the
    largest init container's if larger; sidecars, restartable init containers, added to both), else
    the limit."""
    resources = spec.get("resources")
    if not isinstance(resources, dict) or not _dict(resources.get("limits")):
        return
    requests = dict(_dict(resources.get("requests")))
    total: dict[str, Any] = {}
    for container in spec.get("containers") or []:
        _add(total, _dict(_dict(_dict(container).get("resources")).get("requests")))
    sidecars: dict[str, Any] = {}
    init_max: dict[str, Any] = {}
    for container in spec.get("initContainers") or []:
        own = _dict(_dict(_dict(container).get("resources")).get("requests"))
        if _dict(container).get("restartPolicy") == "Always":
            _add(total, own)
            _add(sidecars, own)
            candidate = dict(sidecars)
        else:
            candidate = {}
            _add(candidate, own)
            _add(candidate, sidecars)
        for key, value in candidate.items():
            if key not in init_max or value[0] > init_max[key][0]:
                init_max[key] = value
    for key, value in init_max.items():
        if key not in total or value[0] > total[key][0]:
            total[key] = value
    for key, (amount, fmt) in total.items():
        if key in _POD_LEVEL and key not in requests:
            requests[key] = _print(amount, fmt)
    for key, limit in _dict(resources.get("limits")).items():
        if key in _POD_LEVEL or key.startswith("hugepages-"):
            requests.setdefault(key, limit)
    if requests:
        resources["requests"] = requests


def _add(total: dict[str, Any], quantities: Obj) -> None:
    """addResourceList: sums (exact value, format of the first) per resource name."""
    for key, text in quantities.items():
        amount, fmt = quantity.parse(text)
        total[key] = (total[key][0] + amount, total[key][1]) if key in total else (amount, fmt)


def _print(amount: Any, fmt: str) -> str:
    """Quantity.String of an exact value in a format."""
    if fmt == "BinarySI" and amount == amount.to_integral_value() and int(amount) % 1024 == 0:
        return quantity.canonical(f"{int(amount) // 1024}Ki")
    return quantity.canonical(f"{amount:f}")


def _pod_status(value: Obj, ctx: Context) -> None:
    """SetDefaults_PodStatus: ``podIP`` and ``podIPs[0]`` agree, ``podIP`` winning."""
    ip, ips = value.get("podIP") or "", value.get("podIPs") or []
    if ip and (not ips or not isinstance(ips[0], dict) or ips[0].get("ip") != ip):
        value["podIPs"] = [{"ip": ip}]
    elif not ip and ips and isinstance(ips[0], dict):
        value["podIP"] = ips[0].get("ip", "")
        if not value["podIP"]:
            del value["podIP"]


def _service(value: Obj, ctx: Context) -> None:
    """SetDefaults_Service: session affinity (None drops its config, ClientIP gets 10800 s), the
    type, each port's protocol and ``targetPort`` (its ``port``), the traffic policies, a load
    balancer's node ports and its ingress IPs' ``ipMode``."""
    spec = _sub(value, "spec")
    affinity = spec.setdefault("sessionAffinity", "None") or "None"
    spec["sessionAffinity"] = affinity
    if affinity == "None":
        spec.pop("sessionAffinityConfig", None)
    elif affinity == "ClientIP":
        config = spec.get("sessionAffinityConfig")
        client = _dict(_dict(config).get("clientIP"))
        if client.get("timeoutSeconds") is None:
            spec["sessionAffinityConfig"] = {"clientIP": {"timeoutSeconds": 10800}}
    kind = spec.get("type") or "ClusterIP"
    spec["type"] = kind
    for port in spec.get("ports") or []:
        if isinstance(port, dict):
            if not port.get("protocol"):
                port["protocol"] = "TCP"
            if port.get("targetPort") in (None, 0, ""):
                port["targetPort"] = port.get("port", 0)
    accessible = kind in ("LoadBalancer", "NodePort") or (kind == "ClusterIP" and bool(spec.get("externalIPs")))
    if accessible and not spec.get("externalTrafficPolicy"):
        spec["externalTrafficPolicy"] = "Cluster"
    if spec.get("internalTrafficPolicy") is None and kind in ("NodePort", "LoadBalancer", "ClusterIP"):
        spec["internalTrafficPolicy"] = "Cluster"
    if kind == "LoadBalancer":
        if spec.get("allocateLoadBalancerNodePorts") is None:
            spec["allocateLoadBalancerNodePorts"] = True
        for ingress in _dict(_dict(value.get("status")).get("loadBalancer")).get("ingress") or []:
            if isinstance(ingress, dict) and ingress.get("ip") and ingress.get("ipMode") is None:
                ingress["ipMode"] = "VIP"


def _template_labels(obj: Obj) -> Any:
    return _dict(_dict(_dict(obj.get("spec")).get("template")).get("metadata")).get("labels")


def _replication_controller(value: Obj, ctx: Context) -> None:
    """SetDefaults_ReplicationController: the selector and the labels default to the template's labels."""
    labels = _template_labels(value)
    if isinstance(labels, dict) and labels:
        spec = _sub(value, "spec")
        if not spec.get("selector"):
            spec["selector"] = dict(labels)
        metadata = _sub(value, "metadata")
        if not metadata.get("labels"):
            metadata["labels"] = dict(labels)


def _namespace(value: Obj, ctx: Context) -> None:
    """SetDefaults_Namespace: the ``kubernetes.io/metadata.name`` label is the name."""
    metadata = _dict(value.get("metadata"))
    if metadata.get("name"):
        metadata["labels"] = {**_dict(metadata.get("labels")), "kubernetes.io/metadata.name": metadata["name"]}


def _node_spec(value: Obj, ctx: Context) -> None:
    """The NodeSpec conversion: ``podCIDR`` and ``podCIDRs[0]`` agree, ``podCIDR`` winning (then
    ``podCIDRs`` is ``[podCIDR]``)."""
    cidr, cidrs = value.get("podCIDR") or "", value.get("podCIDRs") or []
    if cidr and (not cidrs or cidrs[0] != cidr):
        value["podCIDRs"] = [cidr]
    elif not cidr and cidrs:
        value["podCIDR"] = cidrs[0]


def _node_status(value: Obj, ctx: Context) -> None:
    """SetDefaults_NodeStatus: ``allocatable`` is the ``capacity`` when absent."""
    if value.get("allocatable") is None and isinstance(value.get("capacity"), dict):
        value["allocatable"] = dict(value["capacity"])


def _limit_range_item(value: Obj, ctx: Context) -> None:
    """SetDefaults_LimitRangeItem: a Container limit's ``default`` takes its ``max``, and its
    ``defaultRequest`` its ``default`` then its ``min``, key by key."""
    if value.get("type") != "Container":
        return
    default, request = dict(_dict(value.get("default"))), dict(_dict(value.get("defaultRequest")))
    for source, target in (("max", default), ("default", request), ("min", request)):
        for key, amount in _dict(default if source == "default" else value.get(source)).items():
            target.setdefault(key, amount)
    for key, target in (("default", default), ("defaultRequest", request)):
        if target:
            value[key] = target


def _strategy(rolling_type: str, rolling_field: str, defaults: dict[str, Any]) -> Rule:
    """A Deployment's or DaemonSet's strategy: type RollingUpdate when empty; if RollingUpdate,
    ``rollingUpdate`` with its defaults (another type keeps what it has, undefaulted)."""

    def rule(value: Obj, ctx: Context) -> None:
        if not value.get("type"):
            value["type"] = "RollingUpdate"
        if value["type"] == "RollingUpdate":
            rolling = _sub(value, rolling_field)
            for key in defaults:
                if rolling.get(key) is None:
                    rolling[key] = ctx.constant(rolling_type, key)

    return rule


def _stateful_set_strategy(value: Obj, ctx: Context) -> None:
    """SetDefaults_StatefulSet's strategy: an empty type becomes RollingUpdate with a
    ``rollingUpdate``; a RollingUpdate's ``rollingUpdate`` (if any) gets ``partition`` 0 (and
    ``maxUnavailable`` 1 where MaxUnavailableStatefulSet is on)."""
    if not value.get("type"):
        value["type"] = "RollingUpdate"
        _sub(value, "rollingUpdate")
    rolling = value.get("rollingUpdate")
    if value["type"] == "RollingUpdate" and isinstance(rolling, dict):
        for key in ("partition", "maxUnavailable"):
            default = ctx.constant("apps/v1.RollingUpdateStatefulSetStrategy", key)
            if rolling.get(key) is None and default is not None:
                rolling[key] = default


def _job(value: Obj, ctx: Context) -> None:
    """SetDefaults_Job: completions and parallelism 1 when both are absent, else parallelism 1;
    ``backoffLimit`` 6 (MaxInt32 with ``backoffLimitPerIndex``); the Job's labels from its
    template's when it has none; ``podReplacementPolicy`` Failed with a ``podFailurePolicy``."""
    spec = _sub(value, "spec")
    if spec.get("completions") is None and spec.get("parallelism") is None:
        spec["completions"] = 1
    if spec.get("parallelism") is None:
        spec["parallelism"] = 1
    if spec.get("backoffLimit") is None:
        spec["backoffLimit"] = 2147483647 if spec.get("backoffLimitPerIndex") is not None else 6
    labels = _template_labels(value)
    metadata = _sub(value, "metadata")
    if isinstance(labels, dict) and not metadata.get("labels"):
        metadata["labels"] = dict(labels)
        if not labels:
            del metadata["labels"]
    if spec.get("podReplacementPolicy") is None:
        spec["podReplacementPolicy"] = "Failed" if spec.get("podFailurePolicy") is not None else "TerminatingOrFailed"


_SCALE_UP = {
    "selectPolicy": "Max", "stabilizationWindowSeconds": 0,
    "policies": [{"type": "Pods", "value": 4, "periodSeconds": 15}, {"type": "Percent", "value": 100, "periodSeconds": 15}],
}
_SCALE_DOWN = {"selectPolicy": "Max", "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]}


def _hpa(value: Obj, ctx: Context) -> None:
    """SetDefaults_HorizontalPodAutoscaler (autoscaling/v2): a CPU utilization metric when there
    are none; a behavior's scaleUp and scaleDown rules filled from the defaults, field by field."""
    spec = _sub(value, "spec")
    if not spec.get("metrics"):
        spec["metrics"] = [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]
    behavior = spec.get("behavior")
    if isinstance(behavior, dict):
        for key, defaults in (("scaleUp", _SCALE_UP), ("scaleDown", _SCALE_DOWN)):
            given = _dict(behavior.get(key))
            rules = {k: _copy(v) for k, v in defaults.items()}
            rules.update({k: v for k, v in given.items() if v is not None})
            behavior[key] = rules


def _copy(value: Any) -> Any:
    return [dict(v) for v in value] if isinstance(value, list) else value


def _network_policy(value: Obj, ctx: Context) -> None:
    """SetDefaults_NetworkPolicy: policyTypes [Ingress] (and Egress with egress rules) when empty."""
    spec = _sub(value, "spec")
    if not spec.get("policyTypes"):
        spec["policyTypes"] = ["Ingress", "Egress"] if spec.get("egress") else ["Ingress"]


def _secret(value: Obj, ctx: Context) -> None:
    """Convert_v1_Secret_To_core_Secret: ``stringData`` is written into ``data`` (base64), winning
    over the same key, and is never stored."""
    string_data = value.pop("stringData", None)
    if isinstance(string_data, dict) and string_data:
        data = _sub(value, "data")
        for key, text in string_data.items():
            data[key] = base64.b64encode(str(text or "").encode()).decode()


def _subject(value: Obj, ctx: Context) -> None:
    """SetDefaults_Subject: a User's or Group's ``apiGroup`` is rbac.authorization.k8s.io."""
    if not value.get("apiGroup") and value.get("kind") in ("User", "Group"):
        value["apiGroup"] = "rbac.authorization.k8s.io"


def _daemon_set(value: Obj, ctx: Context) -> None:
    """apps/v1's DaemonSet conversion: the internal ``templateGeneration`` is written back as the
    ``deprecated.daemonset.template.generation`` annotation, ``0`` when the object had none."""
    metadata = _sub(value, "metadata")
    annotations = _dict(metadata.get("annotations"))
    annotations.setdefault("deprecated.daemonset.template.generation", "0")
    metadata["annotations"] = annotations


def _device_request(value: Obj, ctx: Context) -> None:
    """SetDefaults_ExactDeviceRequest / DeviceSubRequest: allocationMode ExactCount, and then a count of 1."""
    if not value.get("allocationMode"):
        value["allocationMode"] = "ExactCount"
    if value["allocationMode"] == "ExactCount" and not value.get("count"):
        value["count"] = 1


def _device_taint(value: Obj, ctx: Context) -> None:
    """resource.k8s.io's DeviceTaint: ``timeAdded`` is the time of the write."""
    if value.get("timeAdded") is None:
        value["timeAdded"] = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


RULES: dict[str, Rule] = {
    "core/v1.Container": _container,
    "core/v1.EphemeralContainer": _container,
    "core/v1.Volume": _volume,
    "core/v1.PodSpec": _pod_spec,
    "core/v1.Pod": _pod,
    "core/v1.PodStatus": _pod_status,
    "core/v1.Service": _service,
    "core/v1.ReplicationController": _replication_controller,
    "core/v1.Namespace": _namespace,
    "core/v1.NodeStatus": _node_status,
    "core/v1.NodeSpec": _node_spec,
    "core/v1.LimitRangeItem": _limit_range_item,
    "apps/v1.DeploymentStrategy": _strategy("apps/v1.RollingUpdateDeployment", "rollingUpdate", {"maxUnavailable": 1, "maxSurge": 1}),
    "apps/v1.DaemonSetUpdateStrategy": _strategy("apps/v1.RollingUpdateDaemonSet", "rollingUpdate", {"maxUnavailable": 1, "maxSurge": 1}),
    "apps/v1.StatefulSetUpdateStrategy": _stateful_set_strategy,
    "batch/v1.Job": _job,
    "autoscaling/v2.HorizontalPodAutoscaler": _hpa,
    "networking/v1.NetworkPolicy": _network_policy,
    "resource/v1.DeviceTaint": _device_taint,
    "core/v1.Secret": _secret,
    "resource/v1.ExactDeviceRequest": _device_request,
    "resource/v1.DeviceSubRequest": _device_request,
    "rbac/v1.Subject": _subject,
    "apps/v1.DaemonSet": _daemon_set,
}
"""Go type name (``core/v1.Container``) to its conditional defaulting."""

OWNED: dict[str, frozenset[str]] = {
    "core/v1.Container": frozenset({"imagePullPolicy"}),
    "core/v1.EphemeralContainer": frozenset({"imagePullPolicy"}),
    "core/v1.Volume": frozenset({"emptyDir"}),
    "core/v1.ImageVolumeSource": frozenset({"pullPolicy"}),
    "core/v1.ServiceSpec": frozenset({
        "sessionAffinity", "sessionAffinityConfig", "type", "externalTrafficPolicy", "internalTrafficPolicy",
        "allocateLoadBalancerNodePorts",
    }),
    "core/v1.ServicePort": frozenset({"targetPort"}),
    "apps/v1.DeploymentStrategy": frozenset({"type", "rollingUpdate"}),
    "apps/v1.RollingUpdateDeployment": frozenset({"maxSurge", "maxUnavailable"}),
    "apps/v1.DaemonSetUpdateStrategy": frozenset({"type", "rollingUpdate"}),
    "apps/v1.RollingUpdateDaemonSet": frozenset({"maxSurge", "maxUnavailable"}),
    "apps/v1.StatefulSetUpdateStrategy": frozenset({"type", "rollingUpdate"}),
    "apps/v1.RollingUpdateStatefulSetStrategy": frozenset({"partition", "maxUnavailable"}),
    "batch/v1.JobSpec": frozenset({"completions", "parallelism", "backoffLimit", "podReplacementPolicy"}),
    "autoscaling/v2.HorizontalPodAutoscalerSpec": frozenset({"metrics"}),
    "autoscaling/v2.HorizontalPodAutoscalerBehavior": frozenset({"scaleUp", "scaleDown"}),
    "autoscaling/v2.HPAScalingRules": frozenset({"selectPolicy", "stabilizationWindowSeconds", "policies", "tolerance"}),
    "networking/v1.NetworkPolicySpec": frozenset({"policyTypes"}),
    "resource/v1.DeviceTaint": frozenset({"timeAdded"}),
    "resource/v1.ExactDeviceRequest": frozenset({"allocationMode", "count"}),
    "resource/v1.DeviceSubRequest": frozenset({"allocationMode", "count"}),
}
"""Go type name to the fields its rule decides (the data's constants for them are not used)."""

__all__ = ["OWNED", "RULES", "Context", "Rule", "image_tag"]
