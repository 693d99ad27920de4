"""A Service as the apiserver validates it (``pkg/apis/core/validation`` ValidateServiceCreate/Update).

The apiserver validates the *defaulted* internal object: before Go validation, v1 defaulting
(``SetDefaults_Service``) fills ``sessionAffinity: None`` (and drops its config), ``type:
ClusterIP``, each port's ``protocol: TCP`` and ``targetPort`` (the port, when 0 or ""),
``externalTrafficPolicy: Cluster`` for externally-accessible services, ``internalTrafficPolicy:
Cluster`` and a LoadBalancer's ``allocateLoadBalancerNodePorts: true``; the registry then syncs
``clusterIPs`` with ``clusterIP`` (normalizeClusterIPs) and, on an update, copies the values it
allocated that the client left out (patchAllocatedValues) and wipes those a type change no longer
needs (dropTypeDependentFields). ``validate_service`` does the same on a copy, then ports
validateService's rules: ports (names, numbers, protocols, target ports, duplicates), the type's
requirements (ExternalName's name, headless LoadBalancer/NodePort, nodePort with ClusterIP),
selector labels, session affinity, cluster IPs and IP families, external IPs, source ranges,
traffic policies, load balancer class; on an update the immutability of the cluster IPs, IP
families, load balancer class and health-check node port.

What only the allocator knows (a cluster IP outside the service CIDR, a node port outside its
range or in use) is not judged here. Rules follow Kubernetes 1.37 (StrictIPCIDRValidation on).
"""

from __future__ import annotations

import copy
import ipaddress
import json
from typing import Any

from kgen.runtime.apimachinery.validation.builtin import field
from kgen.runtime.apimachinery.validation.builtin import register
from kgen.runtime.apimachinery.validation.content import (
    is_dns1123_label, is_dns1123_subdomain, is_qualified_name, is_valid_cidr_legacy, is_valid_ip_legacy,
    is_valid_port_name, is_valid_port_num, parse_ip_sloppy,
)
from kgen.runtime.apimachinery.validation.builtin.meta import object_meta
from kgen.runtime.apimachinery.validation.metav1 import validate_labels
from kgen.runtime.apimachinery.validation.objectmeta import name_is_dns_label
from kgen.runtime.apimachinery.validation.structural import FieldError

__all__ = ["default_service", "validate_service"]

_AFFINITIES = ("ClientIP", "None")
_TYPES = ("ClusterIP", "ExternalName", "LoadBalancer", "NodePort")
_PROTOCOLS = ("SCTP", "TCP", "UDP")
_FAMILIES = ("IPv4", "IPv6")
_FAMILY_POLICIES = ("PreferDualStack", "RequireDualStack", "SingleStack")
_TRAFFIC_POLICIES = ("Cluster", "Local")
_TRAFFIC_DISTRIBUTIONS = ("PreferClose", "PreferSameZone", "PreferSameNode")
_MAX_AFFINITY_SECONDS = 86400
_LB_SOURCE_RANGES_ANNOTATION = "service.beta.kubernetes.io/load-balancer-source-ranges"
_TOPOLOGY_MODE = "service.kubernetes.io/topology-mode"
_TOPOLOGY_HINTS = "service.kubernetes.io/topology-aware-hints"


def _externally_accessible(spec: dict[str, Any]) -> bool:
    kind = spec.get("type")
    return kind in ("LoadBalancer", "NodePort") or (kind == "ClusterIP" and bool(spec.get("externalIPs")))


def _needs_health_check(spec: dict[str, Any]) -> bool:
    return spec.get("type") == "LoadBalancer" and spec.get("externalTrafficPolicy") == "Local"


def _headless(spec: dict[str, Any]) -> bool:
    ips = spec.get("clusterIPs") or []
    return len(ips) == 1 and ips[0] == "None"


def default_service(obj: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``obj`` as v1 defaulting (SetDefaults_Service) leaves it."""
    svc = copy.deepcopy(obj)
    spec = svc.setdefault("spec", {})
    if not isinstance(spec, dict):
        return svc
    if not spec.get("sessionAffinity"):
        spec["sessionAffinity"] = "None"
    if spec["sessionAffinity"] == "None":
        spec.pop("sessionAffinityConfig", None)
    if spec["sessionAffinity"] == "ClientIP":
        config = spec.get("sessionAffinityConfig")
        client_ip = config.get("clientIP") if isinstance(config, dict) else None
        if not isinstance(client_ip, dict) or client_ip.get("timeoutSeconds") is None:
            spec["sessionAffinityConfig"] = {"clientIP": {"timeoutSeconds": 10800}}
    if not spec.get("type"):
        spec["type"] = "ClusterIP"
    for port in spec.get("ports") or ():
        if isinstance(port, dict):
            if not port.get("protocol"):
                port["protocol"] = "TCP"
            if port.get("targetPort") in (None, 0, ""):
                port["targetPort"] = port.get("port", 0)
    if _externally_accessible(spec) and not spec.get("externalTrafficPolicy"):
        spec["externalTrafficPolicy"] = "Cluster"
    if spec.get("internalTrafficPolicy") is None and spec["type"] in ("NodePort", "LoadBalancer", "ClusterIP"):
        spec["internalTrafficPolicy"] = "Cluster"
    if spec["type"] == "LoadBalancer" and spec.get("allocateLoadBalancerNodePorts") is None:
        spec["allocateLoadBalancerNodePorts"] = True
    return svc


def _same(a: dict[str, Any], b: dict[str, Any], key: str) -> bool:
    return (a.get(key) or None) == (b.get(key) or None)


def _begin_update(spec: dict[str, Any], old: dict[str, Any]) -> None:
    """The registry's beginUpdate before allocating: patchAllocatedValues (the cluster IPs and
    health-check node port the client left out are the stored ones), normalizeClusterIPs."""
    if old.get("type") != "ExternalName" and spec.get("type") != "ExternalName":
        if not spec.get("clusterIP"):
            spec["clusterIP"] = old.get("clusterIP", "")
        if not spec.get("clusterIPs") and old.get("clusterIPs"):
            spec["clusterIPs"] = list(old["clusterIPs"])
    if _needs_health_check(old) and _needs_health_check(spec) and not spec.get("healthCheckNodePort"):
        spec["healthCheckNodePort"] = old.get("healthCheckNodePort", 0)
    if old.get("clusterIPs") and not spec.get("clusterIPs") and old.get("clusterIP") == spec.get("clusterIP"):
        spec["clusterIPs"] = list(old["clusterIPs"])
    if (old.get("clusterIP") or "") != (spec.get("clusterIP") or ""):
        if old.get("clusterIP") and not spec.get("clusterIP"):
            if _same(old, spec, "clusterIPs"):
                spec.pop("clusterIPs", None)
        elif _same(old, spec, "clusterIPs"):
            spec["clusterIPs"] = [spec["clusterIP"]]


def _drop_type_dependent_fields(spec: dict[str, Any], old: dict[str, Any]) -> None:
    """The strategy's PrepareForUpdate (dropTypeDependentFields, its cluster-IP part): a switch to
    ExternalName wipes the cluster IPs and families the client left as they were."""
    if old.get("type") != "ExternalName" and spec.get("type") == "ExternalName":
        if _same(old, spec, "clusterIP") and _same(old, spec, "clusterIPs"):
            spec.pop("clusterIP", None)
            spec.pop("clusterIPs", None)
        for key in ("ipFamilies", "ipFamilyPolicy"):
            if _same(old, spec, key):
                spec.pop(key, None)


def _allocator_prevalidation(spec: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """initIPFamilyFields, which the IP allocator runs before validation on a create and an
    update (not of an ExternalName service, nor an unchanged PreferDualStack one): any error of
    ValidateServiceClusterIPsRelatedFields ends the request there, those errors alone."""
    if spec.get("type") == "ExternalName":
        return []
    if (old is not None and spec.get("ipFamilyPolicy") == old.get("ipFamilyPolicy") == "PreferDualStack"
            and _same(old, spec, "clusterIPs") and _same(old, spec, "ipFamilies")):
        return []
    return _cluster_ip_errors(spec, old)


@register("", "Service")
def validate_service(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateServiceCreate (``old`` None) or ValidateServiceUpdate, after what the registry does
    first (its allocators' refusals answer alone); the name a DNS label (RelaxedServiceNameValidation,
    GA in 1.37; a DNS-1035 label before 1.36)."""
    svc = default_service(obj)
    spec = svc["spec"]
    if not isinstance(spec, dict):
        return object_meta(obj, old, "", name_is_dns_label)
    stored = default_service(old).get("spec") if old is not None else None
    old_spec = stored if isinstance(stored, dict) else None
    if old_spec is not None:
        _begin_update(spec, old_spec)
    elif spec.get("clusterIP") and not spec.get("clusterIPs"):
        spec["clusterIPs"] = [spec["clusterIP"]]  # normalizeClusterIPs of a create
    refused = _allocator_prevalidation(spec, old_spec)
    if refused:
        return refused
    if old_spec is None:
        conflict = _node_port_conflict(spec)
        if conflict is not None:
            return [conflict]
    errors = object_meta(obj, old, "", name_is_dns_label)
    if old_spec is not None:
        _drop_type_dependent_fields(spec, old_spec)
        errors += _update_errors(spec, old_spec)
    annotations = (svc.get("metadata") or {}).get("annotations") or {}
    old_annotations = ((old or {}).get("metadata") or {}).get("annotations") if old_spec is not None else None
    return errors + _service_errors(spec, annotations, old_spec, old_annotations)


def _node_port_conflict(spec: dict[str, Any]) -> FieldError | None:
    """The node-port allocator of a create (initNodePorts, which runs before validation): the
    node ports a NodePort or LoadBalancer service asks for are allocated one by one, once per
    service port number; one asked for twice is "already allocated". (A port another Service
    holds, or one outside the cluster's range, only the cluster knows.)"""
    if spec.get("type") not in ("NodePort", "LoadBalancer"):
        return None
    ports = [p if isinstance(p, dict) else {} for p in spec.get("ports") or ()]
    used: set[Any] = set()
    by_number: dict[Any, Any] = {}
    for i, port in enumerate(ports):
        number, asked = port.get("port", 0), port.get("nodePort") or 0
        allocated = by_number.get(number)
        if allocated is None:
            requested = next((q.get("nodePort") for q in ports if q.get("port", 0) == number and q.get("nodePort")), 0)
            if not requested:
                by_number[number] = ("next", i)  # AllocateNext: a port nobody asked for
                continue
            if requested in used:
                return field.invalid(f"spec.ports[{i}].nodePort", requested, "provided port is already allocated")
            used.add(requested)
            by_number[number] = requested
        elif asked and asked != allocated:
            if asked in used:
                return field.invalid(f"spec.ports[{i}].nodePort", asked, "provided port is already allocated")
            used.add(asked)
    return None


def _update_errors(spec: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """ValidateServiceUpdate's own rules: cluster IPs, IP families, load balancer class, health-check port."""
    errors: list[FieldError] = []
    new_ips, old_ips = spec.get("clusterIPs") or [], old.get("clusterIPs") or []
    if "ExternalName" not in (spec.get("type"), old.get("type")) and not (_headless(spec) and _headless(old)):
        at0 = "spec.clusterIPs[0]"
        if len(old_ips) == len(new_ips):
            errors += [field.invalid(f"spec.clusterIPs[{i}]", new_ips, "may not change once set")
                       for i, ip in enumerate(old_ips) if ip != new_ips[i]]
        elif len(old_ips) > len(new_ips):
            if not new_ips:
                errors.append(field.invalid(at0, new_ips, "primary clusterIP can not be unset"))
            elif new_ips[0] != old_ips[0]:
                errors.append(field.invalid(at0, new_ips, "may not change once set"))
            if len(new_ips) == 1 and spec.get("ipFamilyPolicy") != "SingleStack":
                errors.append(field.invalid("spec.ipFamilyPolicy", spec.get("ipFamilyPolicy"),
                                            "must be set to 'SingleStack' when releasing the secondary clusterIP"))
        elif old_ips and new_ips[0] != old_ips[0]:
            errors.append(field.invalid(at0, new_ips, "may not change once set"))
    new_fam, old_fam = spec.get("ipFamilies") or [], old.get("ipFamilies") or []
    if ("ExternalName" not in (spec.get("type"), old.get("type")) and not _headless(spec) and not _headless(old)
            and len(new_fam) == len(old_fam)):
        errors += [field.invalid("spec.ipFamilies[0]", new_fam, "may not change once set")
                   for i, fam in enumerate(old_fam) if fam != new_fam[i]]
    if (spec.get("type") == old.get("type") == "LoadBalancer"
            and spec.get("loadBalancerClass") != old.get("loadBalancerClass")):
        errors.append(field.invalid("spec.loadBalancerClass", spec.get("loadBalancerClass"), "may not change once set"))
    if (_needs_health_check(old) and _needs_health_check(spec)
            and spec.get("healthCheckNodePort") != old.get("healthCheckNodePort")):
        errors.append(field.forbidden("spec.healthCheckNodePort", "field is immutable"))
    return errors


def _service_errors(spec: dict[str, Any], annotations: dict[str, Any], old: dict[str, Any] | None,
                    old_annotations: dict[str, Any] | None) -> list[FieldError]:
    """validateService, in its order (``old``: the stored spec and annotations on an update)."""
    errors: list[FieldError] = []
    kind = spec.get("type")
    ports = [p if isinstance(p, dict) else {} for p in spec.get("ports") or ()]
    headless = _headless(spec)
    mode, hints = annotations.get(_TOPOLOGY_MODE), annotations.get(_TOPOLOGY_HINTS)
    if mode is not None and hints is not None and mode != hints:
        errors.append(field.invalid(f"metadata.annotations[{_TOPOLOGY_MODE}]", mode,
                                    f"must match annotations[{_TOPOLOGY_HINTS}] when both are specified"))
    if not ports and not headless and kind != "ExternalName":
        errors.append(field.required("spec.ports"))
    if kind in ("LoadBalancer", "NodePort") and headless:
        errors.append(field.invalid("spec.clusterIPs[0]", "None", f"may not be set to 'None' for {kind} services"))
    elif kind == "ExternalName":
        for key in ("clusterIPs", "ipFamilies"):
            if spec.get(key):
                errors.append(field.forbidden(f"spec.{key}", "may not be set for ExternalName services"))
        if spec.get("ipFamilyPolicy") is not None:
            errors.append(field.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services"))
        cname = str(spec.get("externalName") or "").removesuffix(".")
        if cname:
            errors += [field.invalid("spec.externalName", cname, m) for m in is_dns1123_subdomain(cname)]
        else:
            errors.append(field.required("spec.externalName"))
    names: set[str] = set()
    for i, port in enumerate(ports):
        errors += _port_errors(port, len(ports) > 1, names, f"spec.ports[{i}]")
    if spec.get("selector") is not None:
        errors += validate_labels(spec.get("selector"), "spec.selector")
    affinity = spec.get("sessionAffinity")
    if affinity not in _AFFINITIES:
        errors.append(field.not_supported("spec.sessionAffinity", affinity, _AFFINITIES))
    if affinity == "ClientIP":
        errors += _affinity_errors(spec.get("sessionAffinityConfig"))
    elif affinity == "None" and spec.get("sessionAffinityConfig") is not None:
        errors.append(field.forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None"))
    errors += _cluster_ip_errors(spec, old)
    old_external = (old or {}).get("externalIPs") or []
    for i, ip in enumerate(spec.get("externalIPs") or ()):
        at = f"spec.externalIPs[{i}]"
        msgs = [] if ip in old_external else is_valid_ip_legacy(ip)
        errors += [field.invalid(at, ip, m) for m in msgs] if msgs else _endpoint_ip_errors(ip, at)
    if kind not in _TYPES:
        errors.append(field.not_supported("spec.type", kind, _TYPES))
    if kind == "ClusterIP":
        errors += [field.forbidden(f"spec.ports[{i}].nodePort", "may not be used when `type` is 'ClusterIP'")
                   for i, p in enumerate(ports) if p.get("nodePort")]
    errors += _duplicate_port_errors(ports)
    errors += _source_range_errors(spec, annotations, old, old_annotations)
    if spec.get("allocateLoadBalancerNodePorts") is not None and kind != "LoadBalancer":
        errors.append(field.forbidden("spec.allocateLoadBalancerNodePorts", "may only be used when `type` is 'LoadBalancer'"))
    lb_class = spec.get("loadBalancerClass")
    if lb_class is not None:
        if kind == "LoadBalancer":
            errors += [field.invalid("spec.loadBalancerClass", lb_class, m) for m in is_qualified_name(lb_class)]
        else:
            errors.append(field.forbidden("spec.loadBalancerClass", "may only be used when `type` is 'LoadBalancer'"))
    errors += _traffic_policy_errors(spec)
    return errors


def _port_errors(port: dict[str, Any], require_name: bool, names: set[str], path: str) -> list[FieldError]:
    """validateServicePort."""
    errors: list[FieldError] = []
    name = port.get("name") or ""
    if require_name and not name:
        errors.append(field.required(f"{path}.name"))
    elif name:
        errors += [field.invalid(f"{path}.name", name, m) for m in is_dns1123_label(name)]
        if name in names:
            errors.append(field.duplicate(f"{path}.name", name))
        names.add(name)
    number = port.get("port", 0)
    errors += [field.invalid(f"{path}.port", number, m) for m in is_valid_port_num(number)]
    if port.get("protocol") not in _PROTOCOLS:
        errors.append(field.not_supported(f"{path}.protocol", port.get("protocol"), _PROTOCOLS))
    target = port.get("targetPort")
    if isinstance(target, str):
        errors += [field.invalid(f"{path}.targetPort", target, m) for m in is_valid_port_name(target)]
    elif isinstance(target, int):
        errors += [field.invalid(f"{path}.targetPort", target, m) for m in is_valid_port_num(target)]
    if port.get("appProtocol") is not None:
        app = str(port["appProtocol"])
        errors += [field.invalid(f"{path}.appProtocol", app, m) for m in is_qualified_name(app)]
    return errors


def _affinity_errors(config: Any) -> list[FieldError]:
    """validateClientIPAffinityConfig (after defaulting, only the timeout's range can fail)."""
    timeout = ((config or {}).get("clientIP") or {}).get("timeoutSeconds")
    if isinstance(timeout, int) and not 0 < timeout <= _MAX_AFFINITY_SECONDS:
        return [field.invalid("spec.sessionAffinityConfig.clientIP.timeoutSeconds", timeout,
                              f"must be greater than 0 and less than {_MAX_AFFINITY_SECONDS}")]
    return []


def _endpoint_ip_errors(ip: str, path: str) -> list[FieldError]:
    """ValidateEndpointIP: not unspecified, loopback, link-local or link-local multicast."""
    addr = parse_ip_sloppy(ip)
    if addr is None:
        return [field.invalid(path, ip, "must be a valid IP address")]
    errors: list[FieldError] = []
    if addr.is_unspecified:
        errors.append(field.invalid(path, ip, f"may not be unspecified ({ip})"))
    if addr.is_loopback:
        errors.append(field.invalid(path, ip, "may not be in the loopback range (127.0.0.0/8, ::1/128)"))
    if addr.is_link_local:
        errors.append(field.invalid(path, ip, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"))
    link_local_multicast = (ipaddress.ip_network("224.0.0.0/24") if addr.version == 4
                            else ipaddress.ip_network("ff02::/16"))
    if addr in link_local_multicast:
        errors.append(field.invalid(path, ip, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"))
    return errors


def _cluster_ip_errors(spec: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateServiceClusterIPsRelatedFields."""
    if spec.get("type") == "ExternalName":
        return []
    errors: list[FieldError] = []
    cluster_ip, ips = spec.get("clusterIP") or "", spec.get("clusterIPs") or []
    if cluster_ip:
        if not ips:
            errors.append(field.required("spec.clusterIPs"))
        elif ips[0] != cluster_ip:
            errors.append(field.invalid("spec.clusterIPs", ips, "first value must match `clusterIP`"))
    elif ips:
        errors.append(field.invalid("spec.clusterIPs", ips, "must be empty when `clusterIP` is not specified"))
    families = spec.get("ipFamilies") or []
    seen: set[str] = set()
    for i, family in enumerate(families):
        if family not in _FAMILIES:
            errors.append(field.not_supported(f"spec.ipFamilies[{i}]", family, _FAMILIES))
        if family in seen:
            errors.append(field.duplicate(f"spec.ipFamilies[{i}]", family))
        seen.add(family)
    policy = spec.get("ipFamilyPolicy")
    if policy is not None and policy not in _FAMILY_POLICIES:
        errors.append(field.not_supported("spec.ipFamilyPolicy", policy, _FAMILY_POLICIES))
    existing = (old or {}).get("clusterIPs") or []
    bad = False
    for i, ip in enumerate(ips):
        if i == 0 and ip == "None":
            if len(ips) > 1:
                bad = True
                errors.append(field.invalid("spec.clusterIPs", ips, "'None' must be the first and only value"))
            continue
        msgs = [] if ip in existing else is_valid_ip_legacy(ip)
        bad = bad or bool(msgs)
        errors += [field.invalid(f"spec.clusterIPs[{i}]", ip, m) for m in msgs]
    if len(ips) > 2:
        errors.append(field.invalid("spec.clusterIPs", ips, "may only hold up to 2 values"))
    if bad:
        return errors
    if len(ips) > 1:
        versions = [a.version for a in (parse_ip_sloppy(ip) for ip in ips) if a is not None]
        if not (len(versions) == 2 and versions[0] != versions[1]):
            errors.append(field.invalid("spec.clusterIPs", ips, "may specify no more than one IP for each IP family"))
    if not _headless(spec) and ips and families:
        for i, ip in enumerate(ips[:len(families)]):
            addr = parse_ip_sloppy(ip)
            v6 = addr is not None and addr.version == 6
            if families[i] == "IPv4" and v6:
                errors.append(field.invalid(f"spec.clusterIPs[{i}]", ip,
                                            f"expected an IPv4 value as indicated by `ipFamilies[{i}]`"))
            if families[i] == "IPv6" and not v6:
                errors.append(field.invalid(f"spec.clusterIPs[{i}]", ip,
                                            f"expected an IPv6 value as indicated by `ipFamilies[{i}]`"))
    return errors


def _go_service_port(port: dict[str, Any], **fields: Any) -> str:
    """A core.ServicePort key (only ``fields`` set) as json.Marshal writes it in field.Duplicate."""
    key = {"Name": "", "Protocol": "", "AppProtocol": None, "Port": 0, "TargetPort": 0, "NodePort": 0, **fields}
    return json.dumps(key, separators=(",", ":"))


def _duplicate_port_errors(ports: list[dict[str, Any]]) -> list[FieldError]:
    """Duplicate (protocol, nodePort) and (protocol, port) pairs."""
    errors: list[FieldError] = []
    node_ports: set[tuple[Any, Any]] = set()
    for i, port in enumerate(ports):
        if not port.get("nodePort"):
            continue
        key = (port.get("protocol"), port.get("nodePort"))
        if key in node_ports:
            errors.append(field.duplicate(f"spec.ports[{i}].nodePort", port.get("nodePort")))
        node_ports.add(key)
    seen: set[tuple[Any, Any]] = set()
    for i, port in enumerate(ports):
        key = (port.get("protocol"), port.get("port", 0))
        if key in seen:
            shown = _go_service_port(port, Protocol=key[0], Port=key[1])
            errors.append(FieldError("FieldValueDuplicate", f"spec.ports[{i}]", f"Duplicate value: {shown}"))
        seen.add(key)
    return errors


def _source_range_errors(spec: dict[str, Any], annotations: dict[str, Any], old: dict[str, Any] | None,
                         old_annotations: dict[str, Any] | None) -> list[FieldError]:
    """loadBalancerSourceRanges (reported at ``spec.LoadBalancerSourceRanges``, Go's spelling) or its annotation."""
    errors: list[FieldError] = []
    ranges = spec.get("loadBalancerSourceRanges") or []
    lb = spec.get("type") == "LoadBalancer"
    if ranges:
        at = "spec.LoadBalancerSourceRanges"
        if not lb:
            errors.append(field.forbidden(at, "may only be used when `type` is 'LoadBalancer'"))
        existing = [str(v).strip() for v in (old or {}).get("loadBalancerSourceRanges") or ()]
        for i, value in enumerate(ranges):
            value = str(value).strip()
            if value not in existing:
                errors += [field.invalid(f"{at}[{i}]", value, m) for m in is_valid_cidr_legacy(value)]
    elif _LB_SOURCE_RANGES_ANNOTATION in annotations:
        at = f"metadata.annotations[{_LB_SOURCE_RANGES_ANNOTATION}]"
        value = str(annotations[_LB_SOURCE_RANGES_ANNOTATION])
        if not lb:
            errors.append(field.forbidden(at, "may only be used when `type` is 'LoadBalancer'"))
        unchanged = old_annotations is not None and old_annotations.get(_LB_SOURCE_RANGES_ANNOTATION) == value
        if not unchanged and value.strip():
            for cidr in value.strip().split(","):
                errors += [field.invalid(at, cidr.strip(), m) for m in is_valid_cidr_legacy(cidr.strip())]
    return errors


def _traffic_policy_errors(spec: dict[str, Any]) -> list[FieldError]:
    """External and internal traffic policies, health-check node port, traffic distribution."""
    errors: list[FieldError] = []
    etp = spec.get("externalTrafficPolicy") or ""
    if not _externally_accessible(spec):
        if etp:
            errors.append(field.invalid("spec.externalTrafficPolicy", etp, "may only be set for externally-accessible services"))
    elif etp not in _TRAFFIC_POLICIES:
        errors.append(field.not_supported("spec.externalTrafficPolicy", etp, _TRAFFIC_POLICIES))
    hcnp = spec.get("healthCheckNodePort") or 0
    if not _needs_health_check(spec):
        if hcnp:
            errors.append(field.invalid("spec.healthCheckNodePort", hcnp,
                                        "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
    elif hcnp:
        errors += [field.invalid("spec.healthCheckNodePort", hcnp, m) for m in is_valid_port_num(hcnp)]
    itp = spec.get("internalTrafficPolicy")
    if itp is not None and itp not in _TRAFFIC_POLICIES:
        errors.append(field.not_supported("spec.internalTrafficPolicy", itp, _TRAFFIC_POLICIES))
    distribution = spec.get("trafficDistribution")
    if distribution is not None and distribution not in _TRAFFIC_DISTRIBUTIONS:
        errors.append(field.not_supported("spec.trafficDistribution", distribution, _TRAFFIC_DISTRIBUTIONS))
    return errors
