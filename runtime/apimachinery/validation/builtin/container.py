"""A pod's containers as ``k8s.io/kubernetes/pkg/apis/core/validation`` checks them
(validateContainers, validateInitContainers, validateContainerCommon and what they call:
ports, env, volume mounts, pull policy, resources, probes, lifecycle handlers, the security
context's user and group ids).

The object is the one sent, not defaulted: fields the apiserver defaults before validating
(``imagePullPolicy``, ``terminationMessagePolicy``, a port's ``protocol``, a probe's thresholds and
timeouts, an HTTP probe's ``path`` and ``scheme``, a field selector's ``apiVersion``) are checked
only when given, a zero value standing for absent as Go's defaulting reads it.
"""

from __future__ import annotations

import re
from typing import Any

from kgen.runtime.apimachinery.validation.builtin import field
from kgen.runtime.apimachinery.validation.builtin.quantity import QuantityError, canonical, parse
from kgen.runtime.apimachinery.validation.content import (
    is_config_map_key, is_dns1123_label, is_dns1123_subdomain, is_qualified_name, is_valid_port_name, is_valid_port_num,
    regex_error,
)
from kgen.runtime.apimachinery.validation.structural import FieldError, child

__all__ = ["validate_containers", "validate_init_containers"]

_NEGATIVE = "must be greater than or equal to 0"
_PROTOCOLS = ("SCTP", "TCP", "UDP")
_PULL_POLICIES = ("Always", "IfNotPresent", "Never")
_TERMINATION_MESSAGE_POLICIES = ("File", "FallbackToLogsOnError")
_ENV_FIELD_PATHS = ("metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
                    "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs")
_RESOURCE_FIELD_PATHS = ("limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu",
                         "requests.ephemeral-storage", "requests.memory")
_STANDARD_CONTAINER_RESOURCES = ("cpu", "memory", "ephemeral-storage")
_INTEGER_RESOURCES = frozenset({"pods", "quotas", "services", "replicationcontrollers", "secrets", "configmaps",
                                "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"})
_STANDARD_RESOURCES = frozenset({"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
                                 "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
                                 "requests.storage", "storage", *_INTEGER_RESOURCES})
_HTTP_HEADER_FMT = "[-A-Za-z0-9]+"


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def nonnegative(value: Any, path: str) -> list[FieldError]:
    """ValidateNonnegativeField of an integer field (absent: 0)."""
    return [field.invalid(path, value, _NEGATIVE)] if _int(value) < 0 else []


def id_range(value: Any, path: str) -> list[FieldError]:
    """IsValidUserID / IsValidGroupID of an optional id: 0 to 2147483647."""
    if not isinstance(value, int) or isinstance(value, bool) or 0 <= value <= 2**31 - 1:
        return []
    return [field.invalid(path, value, "must be between 0 and 2147483647, inclusive")]


def dns1123_label(value: str, path: str) -> list[FieldError]:
    """ValidateDNS1123Label."""
    return [field.invalid(path, value, m) for m in is_dns1123_label(value)]


def _relaxed_env_var_name(value: str) -> list[str]:
    """IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation: GA, locked on, since 1.34)."""
    errs = ["environment variable name must be non-empty"] if not value else []
    if any(ord(c) > 127 or not c.isprintable() or c == "=" for c in value):
        errs.append("a valid environment variable name must consist only of printable ASCII characters other than '='")
    return errs


def validate_containers(containers: Any, volumes: set[str], spec: dict[str, Any], path: str) -> list[FieldError]:
    """validateContainers: the regular containers (at least one), names unique among them."""
    items = _list(containers)
    if not items:
        return [field.required(path)]
    errors: list[FieldError] = []
    names: set[str] = set()
    grace = spec.get("terminationGracePeriodSeconds", 30)
    for i, c in enumerate(items):
        c, at = _dict(c), child(path, i)
        errors.extend(_common(c, volumes, at))
        name = _str(c.get("name"))
        if name in names:
            errors.append(field.duplicate(child(at, "name"), name))
        names.add(name)
        if isinstance(c.get("lifecycle"), dict):
            errors.extend(_lifecycle(c["lifecycle"], grace, child(at, "lifecycle")))
        errors.extend(_probes(c, grace, at))
        errors.extend(_restart_policy(c, at))
    return errors


_CONTAINER_RESTART_POLICIES = ("Always", "Never", "OnFailure")


def _restart_policy(c: dict[str, Any], path: str) -> list[FieldError]:
    """validateContainerRestartPolicy (ContainerRestartRules: on by default from 1.35; up to 1.34 a
    regular container's restartPolicy is forbidden and an init container's can only be Always)."""
    policy = c.get("restartPolicy")
    if policy is None:
        return [field.required(child(path, "restartPolicy"), "must specify restartPolicy when restart rules are used")] \
            if _list(c.get("restartPolicyRules")) else []
    if policy not in _CONTAINER_RESTART_POLICIES:
        return [field.not_supported(child(path, "restartPolicy"), policy, _CONTAINER_RESTART_POLICIES)]
    return []


def validate_init_containers(init: Any, containers: Any, volumes: set[str], spec: dict[str, Any],
                             path: str) -> list[FieldError]:
    """validateInitContainers: names unique among init and regular containers; lifecycle and
    probes only for a restartable (sidecar, ``restartPolicy: Always``) init container."""
    errors: list[FieldError] = []
    names = {_str(_dict(c).get("name")) for c in _list(containers)}
    grace = spec.get("terminationGracePeriodSeconds", 30)
    for i, c in enumerate(_list(init)):
        c, at = _dict(c), child(path, i)
        errors.extend(_common(c, volumes, at))
        policy = c.get("restartPolicy")
        if policy != "Always":
            errors.extend(_restart_policy(c, at))
        elif _list(c.get("restartPolicyRules")):
            errors.append(field.forbidden(child(at, "restartPolicyRules"), "restartPolicyRules are not allowed for init "
                                          "containers with restart policy Always"))
        name = _str(c.get("name"))
        if name in names:
            errors.append(field.duplicate(child(at, "name"), name))
        elif name:
            names.add(name)
        if policy == "Always":
            if isinstance(c.get("lifecycle"), dict):
                errors.extend(_lifecycle(c["lifecycle"], grace, child(at, "lifecycle")))
            errors.extend(_probes(c, grace, at))
        else:
            for key in ("lifecycle", "livenessProbe", "readinessProbe", "startupProbe"):
                if c.get(key) is not None:
                    errors.append(field.forbidden(child(at, key), "may not be set for init containers without "
                                                  "restartPolicy=Always"))
    return errors


def _common(c: dict[str, Any], volumes: set[str], path: str) -> list[FieldError]:
    """validateContainerCommon."""
    errors: list[FieldError] = []
    name = _str(c.get("name"))
    errors.extend([field.required(child(path, "name"))] if not name else dns1123_label(name, child(path, "name")))
    if not _str(c.get("image")):
        errors.append(field.required(child(path, "image")))
    policy = _str(c.get("terminationMessagePolicy"))
    if policy and policy not in _TERMINATION_MESSAGE_POLICIES:
        errors.append(field.not_supported(child(path, "terminationMessagePolicy"), policy, _TERMINATION_MESSAGE_POLICIES))
    errors.extend(_ports(c.get("ports"), child(path, "ports")))
    errors.extend(_env(c.get("env"), child(path, "env")))
    errors.extend(_env_from(c.get("envFrom"), child(path, "envFrom")))
    errors.extend(_mounts(c.get("volumeMounts"), volumes, child(path, "volumeMounts")))
    pull = _str(c.get("imagePullPolicy"))
    if pull and pull not in _PULL_POLICIES:
        errors.append(field.not_supported(child(path, "imagePullPolicy"), pull, _PULL_POLICIES))
    errors.extend(validate_resources(_dict(c.get("resources")), child(path, "resources")))
    context = _dict(c.get("securityContext"))
    for key in ("runAsUser", "runAsGroup"):
        errors.extend(id_range(context.get(key), child(child(path, "securityContext"), key)))
    return errors


def _ports(ports: Any, path: str) -> list[FieldError]:
    """validateContainerPorts."""
    errors: list[FieldError] = []
    names: set[str] = set()
    for i, port in enumerate(_list(ports)):
        port, at = _dict(port), child(path, i)
        name = _str(port.get("name"))
        if name:
            msgs = is_valid_port_name(name)
            if msgs:
                errors.extend(field.invalid(child(at, "name"), name, m) for m in msgs)
            elif name in names:
                errors.append(field.duplicate(child(at, "name"), name))
            names.add(name)
        number = _int(port.get("containerPort"))
        if number == 0:
            errors.append(field.required(child(at, "containerPort")))
        else:
            errors.extend(field.invalid(child(at, "containerPort"), number, m) for m in is_valid_port_num(number))
        host = _int(port.get("hostPort"))
        if host != 0:
            errors.extend(field.invalid(child(at, "hostPort"), host, m) for m in is_valid_port_num(host))
        protocol = _str(port.get("protocol"))
        if protocol and protocol not in _PROTOCOLS:
            errors.append(field.not_supported(child(at, "protocol"), protocol, _PROTOCOLS))
    return errors


def _env(env: Any, path: str) -> list[FieldError]:
    """ValidateEnv (relaxed names) and validateEnvVarValueFrom."""
    errors: list[FieldError] = []
    for i, var in enumerate(_list(env)):
        var, at = _dict(var), child(path, i)
        name = _str(var.get("name"))
        if not name:
            errors.append(field.required(child(at, "name")))
        else:
            errors.extend(field.invalid(child(at, "name"), name, m) for m in _relaxed_env_var_name(name))
        source = var.get("valueFrom")
        if not isinstance(source, dict):
            continue
        from_path = child(at, "valueFrom")
        count = 0
        for key in ("fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef"):
            if isinstance(source.get(key), dict):
                count += 1
                errors.extend(_source(key, source[key], child(from_path, key)))
        if count == 0:
            errors.append(field.invalid(from_path, "", "must specify one of: `fieldRef`, `resourceFieldRef`, "
                                        "`configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
        elif _str(var.get("value")):
            errors.append(field.invalid(from_path, "", "may not be specified when `value` is not empty"))
        elif count > 1:
            errors.append(field.invalid(from_path, "", "may not have more than one field specified at a time"))
    return errors


def _source(kind: str, ref: dict[str, Any], path: str) -> list[FieldError]:
    errors: list[FieldError] = []
    if kind in ("configMapKeyRef", "secretKeyRef"):
        name = _str(ref.get("name"))
        errors.extend(field.invalid(child(path, "name"), name, m) for m in is_dns1123_subdomain(name))
        key = _str(ref.get("key"))
        if not key:
            errors.append(field.required(child(path, "key")))
        else:
            errors.extend(field.invalid(child(path, "key"), key, m) for m in is_config_map_key(key))
    elif kind == "fieldRef":
        field_path = _str(ref.get("fieldPath"))
        version = _str(ref.get("apiVersion")) or "v1"  # defaulted
        if not field_path:
            errors.append(field.required(child(path, "fieldPath")))
        elif version != "v1":
            errors.append(field.invalid(child(path, "fieldPath"), field_path,
                                        f"error converting fieldPath: unsupported pod version: {version}"))
        else:
            errors.extend(_downward_field(field_path, path))
    elif kind == "resourceFieldRef":
        resource = _str(ref.get("resource"))
        if not resource:
            errors.append(field.required(child(path, "resource")))
        elif resource not in _RESOURCE_FIELD_PATHS and not resource.startswith(("limits.hugepages-", "requests.hugepages-")):
            errors.append(field.not_supported(child(path, "resource"), resource, _RESOURCE_FIELD_PATHS))
    return errors


_POD_FIELD_LABELS = frozenset({"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace",
                               "metadata.uid", "spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName",
                               "spec.schedulerName", "status.phase", "status.hostIP", "status.hostIPs", "status.podIP",
                               "status.podIPs"})
"""The field labels ConvertDownwardAPIFieldLabel knows for a v1 pod."""
_SUBSCRIPTED = re.compile(r"^(metadata\.(?:annotations|labels))\['(.*)'\]$")


def _downward_field(field_path: str, path: str) -> list[FieldError]:
    """validateObjectFieldSelector of an env var's fieldRef: the label converts, then is one env vars take."""
    subscripted = _SUBSCRIPTED.match(field_path)
    if subscripted is not None:
        base, key = subscripted.groups()
        return [field.invalid(path, key, m) for m in is_qualified_name(key.lower() if base.endswith("annotations") else key)]
    if field_path not in _POD_FIELD_LABELS:
        return [field.invalid(child(path, "fieldPath"), field_path,
                              f"error converting fieldPath: field label not supported: {field_path}")]
    if field_path not in _ENV_FIELD_PATHS:
        return [field.not_supported(child(path, "fieldPath"), field_path, _ENV_FIELD_PATHS)]
    return []


def _env_from(sources: Any, path: str) -> list[FieldError]:
    """ValidateEnvFrom: a relaxed-name prefix, exactly one of configMapRef and secretRef, each named."""
    errors: list[FieldError] = []
    for i, source in enumerate(_list(sources)):
        source, at = _dict(source), child(path, i)
        prefix = _str(source.get("prefix"))
        if prefix:
            errors.extend(field.invalid(child(at, "prefix"), prefix, m) for m in _relaxed_env_var_name(prefix))
        count = 0
        for key in ("configMapRef", "secretRef"):
            ref = source.get(key)
            if isinstance(ref, dict):
                count += 1
                name = _str(ref.get("name"))
                errors.extend(field.invalid(child(child(at, key), "name"), name, m) for m in is_dns1123_subdomain(name))
        if count == 0:
            errors.append(field.invalid(at, "", "must specify one of: `configMapRef` or `secretRef`"))
        elif count > 1:
            errors.append(field.invalid(at, "", "may not have more than one field specified at a time"))
    return errors


def _mounts(mounts: Any, volumes: set[str], path: str) -> list[FieldError]:
    """ValidateVolumeMounts: each names a declared volume, mount paths unique, sub-paths relative
    and without ``..`` (reported at ``volumeMounts.subPath``, no index, as Go does)."""
    errors: list[FieldError] = []
    seen: set[str] = set()
    for i, mount in enumerate(_list(mounts)):
        mount, at = _dict(mount), child(path, i)
        name, mount_path = _str(mount.get("name")), _str(mount.get("mountPath"))
        if not name:
            errors.append(field.required(child(at, "name")))
        if name not in volumes:
            errors.append(field.not_found(child(at, "name"), name))
        if not mount_path:
            errors.append(field.required(child(at, "mountPath")))
        if mount_path in seen:
            errors.append(field.invalid(child(at, "mountPath"), mount_path, "must be unique"))
        seen.add(mount_path)
        sub_path, expr = _str(mount.get("subPath")), _str(mount.get("subPathExpr"))
        if sub_path:
            errors.extend(local_descending_path(sub_path, child(path, "subPath")))
        if expr:
            if sub_path:
                errors.append(field.invalid(child(at, "subPathExpr"), expr, "subPathExpr and subPath are mutually exclusive"))
            errors.extend(local_descending_path(expr, child(path, "subPathExpr")))
    return errors


def local_descending_path(target: str, path: str) -> list[FieldError]:
    """validateLocalDescendingPath: relative, no ``..`` element."""
    errors = [field.invalid(path, target, "must be a relative path")] if target.startswith("/") else []
    if ".." in target.replace("\\", "/").split("/"):
        errors.append(field.invalid(path, target, "must not contain '..'"))
    return errors


def _resource_name(name: str, path: str) -> list[FieldError]:
    """ValidateContainerResourceName."""
    msgs = is_qualified_name(name)
    if msgs:
        return [field.invalid(path, name, m) for m in msgs]
    if "/" not in name:
        errors = []
        if name not in _STANDARD_RESOURCES and not name.startswith(("hugepages-", "requests.hugepages-")):
            errors.append(field.invalid(path, name, "must be a standard resource type or fully qualified"))
        if name not in _STANDARD_CONTAINER_RESOURCES and not name.startswith("hugepages-"):
            errors.append(field.invalid(path, name, "must be a standard resource for containers"))
        return errors
    elif "kubernetes.io/" not in name and not _extended(name):
        return [field.invalid(path, name, "doesn't follow extended resource name standard")]
    return []


def _extended(name: str) -> bool:
    return "/" in name and "kubernetes.io/" not in name and not name.startswith("requests.") and \
        not is_qualified_name("requests." + name)


def _overcommit(name: str) -> bool:
    return ("/" not in name or "kubernetes.io/" in name) and not name.startswith("hugepages-")


def validate_resources(resources: dict[str, Any], path: str) -> list[FieldError]:
    """validateResourceRequirements of a container: names, non-negative quantities, whole numbers
    for integer resources, requests at most their limits (equal for extended resources)."""
    errors: list[FieldError] = []
    limits, requests = _dict(resources.get("limits")), _dict(resources.get("requests"))
    lim_path, req_path = child(path, "limits"), child(path, "requests")
    for name, q in limits.items():  # a map key is field.Path.Key: limits[cpu]
        errors.extend(_resource_name(name, f"{lim_path}[{name}]"))
        errors.extend(_quantity_value(name, q, f"{lim_path}[{name}]"))
    for name, q in requests.items():
        errors.extend(_resource_name(name, f"{req_path}[{name}]"))
        errors.extend(_quantity_value(name, q, f"{req_path}[{name}]"))
        value = _value(q)
        if name in limits:
            limit = _value(limits[name])
            if value is None or limit is None:
                continue
            if value != limit and not _overcommit(name):
                errors.append(field.invalid(req_path, canonical(q), f"must be equal to {name} limit of {canonical(limits[name])}"))
            elif value > limit:
                errors.append(field.invalid(req_path, canonical(q),
                                            f"must be less than or equal to {name} limit of {canonical(limits[name])}"))
        elif not _overcommit(name):
            errors.append(field.required(lim_path, "Limit must be set for non overcommitable resources"))
    return errors


def _value(q: Any) -> Any:
    try:
        return parse(q)[0]
    except (QuantityError, TypeError):
        return None


def _quantity_value(name: str, q: Any, path: str) -> list[FieldError]:
    """ValidateResourceQuantityValue."""
    value = _value(q)
    if value is None:
        return []
    errors = [field.invalid(path, canonical(q), _NEGATIVE)] if value < 0 else []
    if (name in _INTEGER_RESOURCES or _extended(name)) and (value * 1000) % 1000 != 0:
        errors.append(field.invalid(path, canonical(q), "must be an integer"))
    return errors


def _probes(c: dict[str, Any], grace: Any, path: str) -> list[FieldError]:
    errors: list[FieldError] = []
    for key in ("livenessProbe", "readinessProbe", "startupProbe"):
        probe = c.get(key)
        if not isinstance(probe, dict):
            continue
        at = child(path, key)
        errors.extend(_handler(probe, ("exec", "httpGet", "tcpSocket", "grpc"), grace, at))
        for number in ("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"):
            errors.extend(nonnegative(probe.get(number), child(at, number)))
        tgps = probe.get("terminationGracePeriodSeconds")
        if isinstance(tgps, int) and tgps <= 0:
            errors.append(field.invalid(child(at, "terminationGracePeriodSeconds"), tgps, "must be greater than 0"))
        success = _int(probe.get("successThreshold")) or 1
        if key != "readinessProbe" and success != 1:
            errors.append(field.invalid(child(at, "successThreshold"), success, "must be 1"))
        if key == "readinessProbe" and tgps is not None:
            errors.append(field.invalid(child(at, "terminationGracePeriodSeconds"), tgps, "must not be set for readinessProbes"))
    return errors


def _lifecycle(lifecycle: dict[str, Any], grace: Any, path: str) -> list[FieldError]:
    errors: list[FieldError] = []
    for key in ("postStart", "preStop"):
        if isinstance(lifecycle.get(key), dict):
            errors.extend(_handler(lifecycle[key], ("exec", "httpGet", "tcpSocket", "sleep"), grace, child(path, key)))
    return errors


def _handler(handler: dict[str, Any], kinds: tuple[str, ...], grace: Any, path: str) -> list[FieldError]:
    """validateHandler: exactly one action (the first given is validated, each later one forbidden)."""
    first, extra = field.one_of(handler, [k for k in ("exec", "httpGet", "tcpSocket", "grpc", "sleep") if k in kinds],
                                path, "handler type")
    if first is None:
        return [field.required(path, "must specify a handler type")]
    errors: list[FieldError] = []
    kind, action, at = first
    if kind == "exec" and not _list(action.get("command")):
        errors.append(field.required(child(at, "command")))
    elif kind == "httpGet":
        errors.extend(port_num_or_name(action.get("port"), child(at, "port")))
        scheme = _str(action.get("scheme"))
        if scheme and scheme not in ("HTTP", "HTTPS"):
            errors.append(field.not_supported(child(at, "scheme"), scheme, ("HTTP", "HTTPS")))
        for header in _list(action.get("httpHeaders")):
            name = _str(_dict(header).get("name"))
            if not re.fullmatch(_HTTP_HEADER_FMT, name):
                errors.append(field.invalid(child(at, "httpHeaders"), name, regex_error(
                    "a valid HTTP header must consist of alphanumeric characters or '-'", _HTTP_HEADER_FMT,
                    "X-Header-Name")))
    elif kind == "tcpSocket":
        errors.extend(port_num_or_name(action.get("port"), child(at, "port")))
    elif kind == "grpc":
        port = _int(action.get("port"))
        errors.extend(field.invalid(child(at, "port"), port, m) for m in is_valid_port_num(port))
    elif kind == "sleep" and isinstance(grace, int):
        seconds = _int(action.get("seconds"))
        if seconds < 0 or seconds > grace:
            errors.append(field.invalid(at, seconds, "must be non-negative and less than "
                                        f"terminationGracePeriodSeconds ({grace})"))
    return errors + extra


def port_num_or_name(port: Any, path: str) -> list[FieldError]:
    """ValidatePortNumOrName of an int-or-string port (absent: the int 0)."""
    if isinstance(port, str):
        return [field.invalid(path, port, m) for m in is_valid_port_name(port)]
    number = _int(port)
    return [field.invalid(path, number, m) for m in is_valid_port_num(number)]
