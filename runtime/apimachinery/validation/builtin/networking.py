"""Ingresses and IngressClasses as the apiserver validates them (``pkg/apis/networking/validation``).

An Ingress needs rules or a default backend. Each rule's host is a DNS-1123 subdomain, or a
wildcard ``*.`` and one, never an IP; each HTTP path has a pathType (Exact and Prefix paths are
absolute and free of ``//``, ``/./``, ``/../``, ``%2f`` and of a ``/.`` or ``/..`` ending), and
one backend: a service (a DNS-label name and exactly one of port name and port number) or a
resource (a kind and name usable as path segments), not both. TLS hosts follow the host rules,
TLS secret names are Secret names; the class name a DNS subdomain, and on create the
``kubernetes.io/ingress.class`` annotation agrees with it. An update keeps tolerating what the
stored object already had (invalid TLS secret names, invalid rules under wildcard hosts).
An IngressClass: its controller a domain-prefixed path (immutable), its parameters' reference
complete and scoped. Rules follow Kubernetes 1.37 (RelaxedServiceNameValidation, GA in 1.37:
service names are DNS labels, not DNS-1035 labels).

``/status`` writes of Ingresses and Services (ValidateIngressStatusUpdate,
ValidateServiceStatusUpdate, on the stored spec as the status strategies keep it): the ObjectMeta
update and each load-balancer ingress (an IP, unless the stored status had it, a valid IP; a
hostname a DNS subdomain, not an IP; a Service's ipMode set exactly when the IP is, VIP or Proxy,
and no ingress at all unless the Service is of type LoadBalancer).
"""

from __future__ import annotations

import re
from typing import Any

from kgen.runtime.apimachinery.validation.builtin import field, register
from kgen.runtime.apimachinery.validation.builtin.meta import object_meta, spec_kept
from kgen.runtime.apimachinery.validation.content import (
    is_dns1123_label, is_dns1123_subdomain, is_path_segment_name, is_valid_port_name, is_valid_port_num,
    is_valid_ip_legacy, is_wildcard_dns1123_subdomain, parse_ip_sloppy, regex_error,
)
from kgen.runtime.apimachinery.validation.objectmeta import name_is_dns_label
from kgen.runtime.apimachinery.validation.structural import FieldError

__all__ = ["load_balancer_ingress", "validate_ingress", "validate_ingress_class", "validate_ingress_status",
           "validate_service_status"]

_PATH_TYPES = ("Exact", "ImplementationSpecific", "Prefix")
_INVALID_SEQUENCES = ("//", "/./", "/../", "%2f", "%2F")
_INVALID_SUFFIXES = ("/..", "/.")
_SCOPES = ("Cluster", "Namespace")
_HTTP_PATH = re.compile(r"[A-Za-z0-9/\-._~%!$&'()*+,;=:]+")


def _dict(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def _host_errors(host: str, path: str) -> list[FieldError]:
    check = is_wildcard_dns1123_subdomain if "*" in host else is_dns1123_subdomain
    return [field.invalid(path, host, m) for m in check(host)]


def _typed_reference(ref: dict[str, Any], path: str) -> list[FieldError]:
    """What an Ingress backend's resource (validateIngressTypedLocalObjectReference) and an
    IngressClass's parameters (validateIngressClassParametersReference) both check: an apiGroup, if
    set, is a DNS subdomain; kind and name are required path segments."""
    errors: list[FieldError] = []
    if ref.get("apiGroup") is not None:
        group = str(ref["apiGroup"])
        errors += [field.invalid(f"{path}.apiGroup", group, m) for m in is_dns1123_subdomain(group)]
    for key in ("kind", "name"):
        value = str(ref.get(key) or "")
        if not value:
            errors.append(field.required(f"{path}.{key}"))
        else:
            errors += [field.invalid(f"{path}.{key}", value, m) for m in is_path_segment_name(value)]
    return errors


def _backend_errors(backend: dict[str, Any], path: str) -> list[FieldError]:
    """validateIngressBackend."""
    resource, service = backend.get("resource"), backend.get("service")
    if resource is not None and service is not None:
        return [field.invalid(path, "", "cannot set both resource and service backends")]
    errors: list[FieldError] = []
    if isinstance(resource, dict):
        return _typed_reference(resource, f"{path}.resource")
    if not isinstance(service, dict):
        return [field.invalid(path, "", "resource or service backend is required")]
    name = str(service.get("name") or "")
    if not name:
        errors.append(field.required(f"{path}.service.name"))
    else:
        errors += [field.invalid(f"{path}.service.name", name, m) for m in is_dns1123_label(name)]
    port = _dict(service.get("port"))
    port_name, number = str(port.get("name") or ""), port.get("number") or 0
    if port_name and number:
        errors.append(field.invalid(path, "", "cannot set both port name & port number"))
    elif port_name:
        errors += [field.invalid(f"{path}.service.port.name", port_name, m) for m in is_valid_port_name(port_name)]
    elif number:
        errors += [field.invalid(f"{path}.service.port.number", number, m) for m in is_valid_port_num(number)]
    else:
        errors.append(field.required(path, "port name or number is required"))
    return errors


def _http_path_errors(item: dict[str, Any], path: str) -> list[FieldError]:
    """validateHTTPIngressPath."""
    path_type = item.get("pathType")
    if path_type is None:
        return [field.required(f"{path}.pathType", "pathType must be specified")]
    errors: list[FieldError] = []
    value = str(item.get("path") or "")
    if path_type in ("Exact", "Prefix"):
        if not value.startswith("/"):
            errors.append(field.invalid(f"{path}.path", value, "must be an absolute path"))
        if value:
            errors += [field.invalid(f"{path}.path", value, f"must not contain '{seq}'")
                       for seq in _INVALID_SEQUENCES if seq in value]
            errors += [field.invalid(f"{path}.path", value, f"cannot end with '{suffix}'")
                       for suffix in _INVALID_SUFFIXES if value.endswith(suffix)]
    elif path_type == "ImplementationSpecific":
        if value and not value.startswith("/"):
            errors.append(field.invalid(f"{path}.path", value, "must be an absolute path"))
    else:
        errors.append(field.not_supported(f"{path}.pathType", path_type, _PATH_TYPES))
    return errors + _backend_errors(_dict(item.get("backend")), f"{path}.backend")


def _rule_value_errors(rule: dict[str, Any], path: str) -> list[FieldError]:
    http = rule.get("http")
    if not isinstance(http, dict):
        return []
    paths = http.get("paths") or []
    errors = [] if paths else [field.required(f"{path}.http.paths")]
    for i, item in enumerate(paths):
        errors += _http_path_errors(_dict(item), f"{path}.http.paths[{i}]")
    return errors


def _tls_secret_errors(name: str) -> list[str]:
    return is_dns1123_subdomain(name) if name else []


def _spec_errors(spec: dict[str, Any], old_spec: dict[str, Any] | None) -> list[FieldError]:
    """ValidateIngressSpec, with the update's tolerances of what ``old_spec`` already had."""
    errors: list[FieldError] = []
    rules = spec.get("rules") or []
    if not rules and spec.get("defaultBackend") is None:
        errors.append(field.invalid("spec", rules if rules else None, "either `defaultBackend` or `rules` must be specified"))
    if isinstance(spec.get("defaultBackend"), dict):
        errors += _backend_errors(spec["defaultBackend"], "spec.defaultBackend")
    old = old_spec or {}
    tolerate_wildcard_rules = any("*" in str(_dict(r).get("host") or "") and _rule_value_errors(_dict(r), "")
                                  for r in old.get("rules") or ())
    for i, rule in enumerate(rules):
        rule, at = _dict(rule), f"spec.rules[{i}]"
        host = str(rule.get("host") or "")
        if host:
            if parse_ip_sloppy(host) is not None:
                errors.append(field.invalid(f"{at}.host", host, "must be a DNS name, not an IP address"))
            errors += _host_errors(host, f"{at}.host")
        if "*" not in host or not tolerate_wildcard_rules:
            errors += _rule_value_errors(rule, at)
    tolerate_secret = any(_tls_secret_errors(str(_dict(t).get("secretName") or "")) for t in old.get("tls") or ())
    for i, tls in enumerate(spec.get("tls") or ()):
        tls = _dict(tls)
        for j, host in enumerate(tls.get("hosts") or ()):
            errors += _host_errors(str(host), f"spec.tls[{i}].hosts[{j}]")
        if not tolerate_secret:
            secret = str(tls.get("secretName") or "")
            errors += [field.invalid(f"spec.tls[{i}].secretName", secret, m) for m in _tls_secret_errors(secret)]
    class_name = spec.get("ingressClassName")
    if class_name is not None:
        errors += [field.invalid("spec.ingressClassName", class_name, m) for m in is_dns1123_subdomain(str(class_name))]
    return errors


@register("networking.k8s.io", "Ingress")
def validate_ingress(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateIngressCreate, or with ``old`` ValidateIngressUpdate (the name a DNS subdomain)."""
    spec = _dict(obj.get("spec"))
    old_spec = _dict((old or {}).get("spec")) if old is not None else None
    errors = object_meta(obj, old, "networking.k8s.io") + _spec_errors(spec, old_spec)
    if old is None:
        annotation = _dict(_dict(obj.get("metadata")).get("annotations")).get("kubernetes.io/ingress.class")
        class_name = spec.get("ingressClassName")
        if annotation is not None and class_name is not None and annotation != class_name:
            errors.append(field.invalid("annotations.kubernetes.io/ingress.class", annotation,
                                        "must match `ingressClassName` when both are specified"))
    return errors


def _domain_prefixed_path(value: str, path: str) -> list[FieldError]:
    """IsDomainPrefixedPath: ``<DNS subdomain>/<HTTP path>``."""
    if not value:
        return [field.required(path)]
    host, sep, rest = value.partition("/")
    if not sep or not host or not rest:
        return [field.invalid(path, value, "must be a domain-prefixed path (such as \"acme.io/foo\")")]
    errors = [field.invalid(path, host, m) for m in is_dns1123_subdomain(host)]
    if not _HTTP_PATH.fullmatch(rest):
        errors.append(field.invalid(path, rest, regex_error("Invalid path", _HTTP_PATH.pattern)))
    return errors


def _parameters_errors(params: dict[str, Any], path: str) -> list[FieldError]:
    """validateIngressClassParametersReference."""
    errors = _typed_reference(params, path)
    scope = params.get("scope")
    if scope is None:
        scope = "Cluster"  # SetDefaults_IngressClass (so Go's Required never shows)
    if scope not in _SCOPES:
        return errors + [field.not_supported(f"{path}.scope", scope, _SCOPES)]
    namespace = params.get("namespace")
    if scope == "Namespace":
        if namespace is None:
            errors.append(field.required(f"{path}.namespace", "`parameters.scope` is set to 'Namespace'"))
        else:
            errors += [field.invalid(f"{path}.namespace", namespace, m) for m in is_dns1123_label(str(namespace))]
    elif namespace is not None:
        errors.append(field.forbidden(f"{path}.namespace", "`parameters.scope` is set to 'Cluster'"))
    return errors


@register("networking.k8s.io", "IngressClass")
def validate_ingress_class(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateIngressClass, or with ``old`` ValidateIngressClassUpdate (the name a DNS subdomain;
    cluster-scoped: the apiserver clears a namespace sent with it before validating)."""
    spec = _dict(obj.get("spec"))
    cleared = {**obj, "metadata": {k: v for k, v in _dict(obj.get("metadata")).items() if k != "namespace"}}
    errors = object_meta(cleared, old, "networking.k8s.io")
    controller = str(spec.get("controller") or "")
    if old is not None:
        before = str(_dict(old.get("spec")).get("controller") or "")
        if controller != before:
            errors.append(field.invalid("spec.controller", controller, "field is immutable"))
    if len(controller) > 250:
        errors.append(field.too_long("spec.controller", 250))
    errors += _domain_prefixed_path(controller, "spec.controller")
    if isinstance(spec.get("parameters"), dict):
        errors += _parameters_errors(spec["parameters"], "spec.parameters")
    return errors


# -- /status writes -------------------------------------------------------------------------------

_IP_MODES = ("Proxy", "VIP")


def load_balancer_ingress(status: Any, old_status: Any, path: str, ip_mode: bool) -> list[FieldError]:
    """The load-balancer ingresses of ``status`` (a LoadBalancerStatus or IngressLoadBalancerStatus;
    ``old_status`` the stored one, whose IPs are tolerated as they are), as ValidateLoadBalancerStatus
    (``ip_mode``: a Service's, which also checks ipMode) and ValidateIngressLoadBalancerStatus do."""
    existing = {str(i["ip"]) for i in _dict(old_status).get("ingress") or () if isinstance(i, dict) and i.get("ip")}
    errors: list[FieldError] = []
    for i, ingress in enumerate(_dict(status).get("ingress") or ()):
        ingress, at = _dict(ingress), f"{path}.ingress[{i}]"
        ip, hostname = str(ingress.get("ip") or ""), str(ingress.get("hostname") or "")
        if ip:
            errors += [field.invalid(f"{at}.ip", ip, m) for m in ([] if ip in existing else is_valid_ip_legacy(ip))]
        mode = ingress.get("ipMode")
        if not ip_mode:
            pass
        elif mode is None:
            errors += [field.required(f"{at}.ipMode", "must be specified when `ip` is set")] if ip else []
        elif not ip:
            errors.append(field.forbidden(f"{at}.ipMode", "may not be specified when `ip` is not set"))
        elif mode not in _IP_MODES:
            errors.append(field.not_supported(f"{at}.ipMode", mode, _IP_MODES))
        if hostname:
            errors += [field.invalid(f"{at}.hostname", hostname, m) for m in is_dns1123_subdomain(hostname)]
            if parse_ip_sloppy(hostname) is not None:
                errors.append(field.invalid(f"{at}.hostname", hostname, "must be a DNS name, not an IP address"))
    return errors


@register("networking.k8s.io", "Ingress", subresource="status")
def validate_ingress_status(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateIngressStatusUpdate, after ingressStatusStrategy.PrepareForUpdate."""
    old = old or {}
    obj = spec_kept(obj, old)
    return object_meta(obj, old, "networking.k8s.io") + load_balancer_ingress(
        _dict(obj.get("status")).get("loadBalancer"), _dict(old.get("status")).get("loadBalancer"), "status.loadBalancer",
        ip_mode=False)


@register("", "Service", subresource="status")
def validate_service_status(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateServiceStatusUpdate, after serviceStatusStrategy.PrepareForUpdate (the stored spec's
    type decides whether load-balancer ingresses may be reported) and v1 defaulting (the body's
    type LoadBalancer gives an ingress with an IP the ipMode VIP)."""
    old = old or {}
    balancer = _dict(_dict(obj.get("status")).get("loadBalancer"))
    if _dict(obj.get("spec")).get("type") == "LoadBalancer":  # SetDefaults_Service, on the body as sent
        balancer = {**balancer, "ingress": [{**i, "ipMode": "VIP"} if isinstance(i, dict) and i.get("ip") and i.get("ipMode") is None
                                            else i for i in balancer.get("ingress") or ()]}
    obj = spec_kept(obj, old)
    errors = object_meta(obj, old, "", name_is_dns_label)
    if _dict(obj.get("spec")).get("type", "ClusterIP") != "LoadBalancer" and balancer.get("ingress"):
        return errors + [field.forbidden("status.loadBalancer.ingress", "may only be used when `spec.type` is 'LoadBalancer'")]
    return errors + load_balancer_ingress(balancer, _dict(old.get("status")).get("loadBalancer"), "status.loadBalancer",
                                          ip_mode=True)
