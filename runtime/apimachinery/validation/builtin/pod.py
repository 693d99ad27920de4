"""Pod templates and pod specs as ``k8s.io/kubernetes/pkg/apis/core/validation`` checks them
(ValidatePodTemplateSpec, ValidatePodSpec, ValidateVolumes), with the containers in ``container``.

What is carried: the template's labels and annotations (reported, as Go does, at
``<template>.labels`` and ``<template>.annotations``, not under ``metadata``), volumes (names,
exactly one source, the common sources' required fields, modes and paths), containers and init
containers, the restart and DNS policies, node selector labels, the names a spec refers to
(service account, node, priority class, hostname, subdomain), ``activeDeadlineSeconds``, readiness
gates, tolerations, node affinity and topology spread constraints (``scheduling``), the user and
group ids of security contexts, their seccomp and AppArmor profiles and CAP_SYS_ADMIN without
privilege escalation, the DNS config, ephemeral containers (forbidden in a template). Not carried
yet: privileged (the cluster's policy), procMount, SELinux and Windows options, pod affinity
terms' matchLabelKeys and mismatchLabelKeys, resource claims, OS-specific rules; an object wrong
only there is accepted here. Pod affinity and anti-affinity terms: ``scheduling``.
Host ports are checked across containers. A ``/status`` write: ``validate_pod_status``.
"""

from __future__ import annotations

import re
from typing import Any

from kgen.runtime.apimachinery.validation.builtin import field, register
from kgen.runtime.apimachinery.validation.builtin.container import (
    _dict, _int, _list, _str, dns1123_label, id_range, local_descending_path, validate_containers, validate_init_containers,
)
from kgen.runtime.apimachinery.validation.builtin.meta import go_struct, object_meta, spec_kept
from kgen.runtime.apimachinery.validation.builtin.quantity import QuantityError, parse
from kgen.runtime.apimachinery.validation.builtin.scheduling import (
    validate_node_affinity, validate_pod_affinity, validate_topology_spread_constraints,
)
from kgen.runtime.apimachinery.validation.content import (
    is_dns1123_subdomain, is_label_value, is_qualified_name, is_valid_ip_legacy, regex_error,
)
from kgen.runtime.apimachinery.validation.metav1 import validate_labels
from kgen.runtime.apimachinery.validation.structural import FieldError, child

__all__ = ["validate_annotations", "validate_pod", "validate_pod_spec", "validate_pod_status", "validate_pod_template_spec"]

_SOURCES = ("emptyDir", "hostPath", "gitRepo", "gcePersistentDisk", "awsElasticBlockStore", "secret", "nfs", "iscsi",
            "glusterfs", "flocker", "persistentVolumeClaim", "rbd", "cinder", "cephfs", "quobyte", "downwardAPI", "fc",
            "flexVolume", "configMap", "azureFile", "vsphereVolume", "photonPersistentDisk", "portworxVolume", "azureDisk",
            "storageOS", "projected", "scaleIO", "csi", "ephemeral", "image")
"""VolumeSource's members in the order validateVolumeSource tries them (the first counts, each later is forbidden)."""
_RESTART_POLICIES = ("Always", "OnFailure", "Never")
_DNS_POLICIES = ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
_FILE_MODE = "must be a number between 0 and 0777 (octal), both inclusive"
_MAX_INT32 = 2**31 - 1
_ANNOTATIONS_LIMIT = 256 * 1024


def validate_annotations(annotations: Any, path: str) -> list[FieldError]:
    """ValidateAnnotations: each key a qualified name (lower-cased), all together at most 256 KiB."""
    errors: list[FieldError] = []
    total = 0
    for key, value in (annotations.items() if isinstance(annotations, dict) else ()):
        errors.extend(field.invalid(path, key, m) for m in is_qualified_name(key.lower()))
        total += len(key.encode()) + len(_str(value).encode())
    if total > _ANNOTATIONS_LIMIT:
        errors.append(field.too_long(path, _ANNOTATIONS_LIMIT))
    return errors


def validate_pod_template_spec(template: Any, path: str) -> list[FieldError]:
    """ValidatePodTemplateSpec: the template's labels and annotations, its pod spec, and no
    ephemeral containers."""
    template = _dict(template)
    meta, spec = _dict(template.get("metadata")), _dict(template.get("spec"))
    errors = validate_labels(meta.get("labels"), child(path, "labels"))
    errors.extend(validate_annotations(meta.get("annotations"), child(path, "annotations")))
    errors.extend(validate_pod_spec(spec, child(path, "spec")))
    if _list(spec.get("ephemeralContainers")):
        errors.append(field.forbidden(child(child(path, "spec"), "ephemeralContainers"),
                                      "ephemeral containers not allowed in pod template"))
    return errors


@register("", "Pod")
def validate_pod(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidatePodCreate: ObjectMeta, then the pod spec; with ``old``, ValidatePodUpdate: the same,
    then what an update may change (images, a lower activeDeadlineSeconds, tolerations,
    scheduling gates; the Forbidden's text ends with a Go diff kgen does not write)."""
    errors = object_meta(obj, old, "")
    spec = _dict(obj.get("spec"))
    if old is not None:
        before = _dict(old.get("spec"))
        for key in ("containers", "initContainers"):
            if len(_list(spec.get(key))) != len(_list(before.get(key))):
                return errors + [field.forbidden(f"spec.{key}", "pod updates may not add or remove containers")]
    errors.extend(validate_pod_spec(spec, "spec"))
    if old is not None:
        errors.extend(_pod_update(spec, _dict(old.get("spec"))))
    elif _list(spec.get("ephemeralContainers")):
        errors.append(field.forbidden("spec.ephemeralContainers", "cannot be set on create"))
    return errors


_UPDATABLE = ("`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` "
              "(only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it "
              "was previously negative)")


def _pod_update(spec: dict[str, Any], before: dict[str, Any]) -> list[FieldError]:
    """ValidatePodUpdate's rules on the spec (the containers' count is checked first)."""
    deadline, old_deadline = spec.get("activeDeadlineSeconds"), before.get("activeDeadlineSeconds")
    if isinstance(deadline, int):
        if not 0 <= deadline <= _MAX_INT32:
            return [field.invalid("spec.activeDeadlineSeconds", deadline, f"must be between 0 and {_MAX_INT32}, inclusive")]
        if isinstance(old_deadline, int) and old_deadline < deadline:
            return [field.invalid("spec.activeDeadlineSeconds", deadline, "must be less than or equal to previous value")]
    elif isinstance(old_deadline, int):
        return [field.invalid("spec.activeDeadlineSeconds", None, "must not update from a positive integer to nil value")]
    munged = dict(spec)
    for key in ("containers", "initContainers"):
        if key in munged:
            munged[key] = [{**_dict(c), "image": _dict(o).get("image")} for c, o in zip(_list(munged[key]),
                                                                                       _list(before.get(key)), strict=False)]
    for key in ("activeDeadlineSeconds", "schedulingGates", "tolerations"):
        munged.pop(key, None)
        if key in before:
            munged[key] = before[key]
    if munged != before:
        return [field.forbidden("spec", f"pod updates may not change fields other than {_UPDATABLE}\n")]
    return []


def validate_pod_spec(spec: dict[str, Any], path: str) -> list[FieldError]:
    """ValidatePodSpec (the parts listed in the module's docstring)."""
    volumes, errors = validate_volumes(spec.get("volumes"), child(path, "volumes"))
    errors.extend(validate_containers(spec.get("containers"), volumes, spec, child(path, "containers")))
    errors.extend(validate_init_containers(spec.get("initContainers"), spec.get("containers"), volumes, spec,
                                           child(path, "initContainers")))
    restart = _str(spec.get("restartPolicy"))
    if restart and restart not in _RESTART_POLICIES:
        errors.append(field.not_supported(child(path, "restartPolicy"), restart, _RESTART_POLICIES))
    dns = _str(spec.get("dnsPolicy"))
    if dns and dns not in _DNS_POLICIES:
        errors.append(field.not_supported(child(path, "dnsPolicy"), dns, _DNS_POLICIES))
    errors.extend(validate_labels(spec.get("nodeSelector"), child(path, "nodeSelector")))
    for key in ("serviceAccountName", "nodeName"):
        value = _str(spec.get(key))
        if value:
            errors.extend(field.invalid(child(path, key), value, m) for m in is_dns1123_subdomain(value))
    deadline = spec.get("activeDeadlineSeconds")
    if isinstance(deadline, int) and not 1 <= deadline <= _MAX_INT32:
        errors.append(field.invalid(child(path, "activeDeadlineSeconds"), deadline,
                                    f"must be between 1 and {_MAX_INT32}, inclusive"))
    for key in ("hostname", "subdomain"):
        value = _str(spec.get(key))
        if value:
            errors.extend(dns1123_label(value, child(path, key)))
    priority_class = _str(spec.get("priorityClassName"))
    if priority_class:
        errors.extend(field.invalid(child(path, "priorityClassName"), priority_class, m)
                      for m in is_dns1123_subdomain(priority_class))
    errors.extend(_host_ports(spec, path))
    errors.extend(_tolerations(spec.get("tolerations"), child(path, "tolerations")))
    errors.extend(validate_node_affinity(spec.get("affinity"), child(path, "affinity")))
    errors.extend(validate_pod_affinity(spec.get("affinity"), child(path, "affinity")))
    errors.extend(validate_topology_spread_constraints(spec.get("topologySpreadConstraints"),
                                                       child(path, "topologySpreadConstraints")))
    errors.extend(_dns_config(spec.get("dnsConfig"), spec.get("dnsPolicy"), child(path, "dnsConfig")))
    context = _dict(spec.get("securityContext"))
    errors.extend(_profiles(context, child(path, "securityContext")))
    for key in ("initContainers", "containers", "ephemeralContainers"):
        for i, c in enumerate(_list(spec.get(key))):
            errors.extend(_container_security(_dict(_dict(c).get("securityContext")), f"{path}.{key}[{i}].securityContext"))
    for key in ("fsGroup", "runAsUser", "runAsGroup"):
        errors.extend(id_range(context.get(key), child(child(path, "securityContext"), key)))
    for i, group in enumerate(_list(context.get("supplementalGroups"))):
        errors.extend(id_range(group, child(child(child(path, "securityContext"), "supplementalGroups"), i)))
    for i, gate in enumerate(_list(spec.get("readinessGates"))):
        condition = _str(_dict(gate).get("conditionType"))
        at = child(child(path, "readinessGates"), i)
        errors.extend(field.invalid(child(at, "conditionType"), condition, m) for m in is_qualified_name(condition))
    return errors


def validate_volumes(volumes: Any, path: str) -> tuple[set[str], list[FieldError]]:
    """ValidateVolumes: the names of the volumes without errors (the ones mounts may name) and the
    errors."""
    valid: set[str] = set()
    errors: list[FieldError] = []
    names: set[str] = set()
    for i, volume in enumerate(_list(volumes)):
        volume, at = _dict(volume), child(path, i)
        name = _str(volume.get("name"))
        found = _source(volume, at)
        found.extend([field.required(child(at, "name"))] if not name else dns1123_label(name, child(at, "name")))
        if name in names:
            found.append(field.duplicate(child(at, "name"), name))
        if not found:
            names.add(name)
            valid.add(name)
        errors.extend(found)
    return valid, errors


def _source(volume: dict[str, Any], path: str) -> list[FieldError]:
    """validateVolumeSource: at most one source, and what the common ones require."""
    first, extra = field.one_of(volume, _SOURCES, path, "volume type")
    errors = _source_fields(*first) if first else []
    errors += extra
    # none: v1 defaulting (SetDefaults_Volume) makes it an emptyDir, so Go's "must specify a volume type" never shows
    return errors


def _source_fields(kind: str, source: dict[str, Any], path: str) -> list[FieldError]:
    errors: list[FieldError] = []
    if kind == "emptyDir" and source.get("sizeLimit") is not None:
        try:
            negative = parse(source["sizeLimit"])[0] < 0
        except (QuantityError, TypeError):
            negative = False
        if negative:
            errors.append(field.forbidden(child(path, "sizeLimit"), "SizeLimit field must be a valid resource quantity"))
    elif kind == "hostPath":
        host_path = _str(source.get("path"))
        if not host_path:
            return [field.required(child(path, "path"))]
        if ".." in host_path.split("/"):
            errors.append(field.invalid(child(path, "path"), host_path, "must not contain '..'"))
    elif kind in ("secret", "configMap"):
        name_key = "secretName" if kind == "secret" else "name"
        if not _str(source.get(name_key)):
            errors.append(field.required(child(path, name_key)))
        mode = source.get("defaultMode")
        if isinstance(mode, int) and not 0 <= mode <= 0o777:
            errors.append(field.invalid(child(path, "defaultMode"), mode, _FILE_MODE))
        for i, item in enumerate(_list(source.get("items"))):
            errors.extend(_key_to_path(_dict(item), child(child(path, "items"), i)))
    elif kind == "persistentVolumeClaim" and not _str(source.get("claimName")):
        errors.append(field.required(child(path, "claimName")))
    return errors


def _key_to_path(item: dict[str, Any], path: str) -> list[FieldError]:
    """validateKeyToPath."""
    errors: list[FieldError] = []
    if not _str(item.get("key")):
        errors.append(field.required(child(path, "key")))
    target = _str(item.get("path"))
    if not target:
        errors.append(field.required(child(path, "path")))
    errors.extend(local_descending_path(target, child(path, "path")))
    if target.startswith("..") and not target.startswith("../"):
        errors.append(field.invalid(child(path, "path"), target, "must not start with '..'"))
    mode = item.get("mode")
    if isinstance(mode, int) and not 0 <= _int(mode) <= 0o777:
        errors.append(field.invalid(child(path, "mode"), mode, _FILE_MODE))
    return errors


_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")


def _tolerations(tolerations: Any, path: str) -> list[FieldError]:
    """ValidateTolerations (numeric comparison operators off: TaintTolerationComparisonOperators is alpha)."""
    errors: list[FieldError] = []
    for i, toleration in enumerate(_list(tolerations)):
        toleration, at = _dict(toleration), child(path, i)
        key, operator, value = _str(toleration.get("key")), _str(toleration.get("operator")), _str(toleration.get("value"))
        effect = _str(toleration.get("effect"))
        if key:
            errors.extend(field.invalid(child(at, "key"), key, m) for m in is_qualified_name(key))
        if not key and operator != "Exists":
            errors.append(field.invalid(child(at, "operator"), operator,
                                        'operator must be Exists when `key` is empty, which means "match all values and all keys"'))
        if toleration.get("tolerationSeconds") is not None and effect != "NoExecute":
            errors.append(field.invalid(child(at, "effect"), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
        if operator in ("Equal", ""):
            msgs = is_label_value(value)
            if msgs:
                errors.append(field.invalid(child(at, "operator"), value, ";".join(msgs)))
        elif operator == "Exists":
            if value:
                errors.append(field.invalid(child(at, "operator"), value, "value must be empty when `operator` is 'Exists'"))
        elif operator in ("Lt", "Gt"):
            errors.append(field.not_supported(child(at, "operator"), operator, ["Equal", "Exists", "Lt", "Gt"]))
        else:
            errors.append(field.not_supported(child(at, "operator"), operator, ["Equal", "Exists"]))
        if effect and effect not in _EFFECTS:
            errors.append(field.not_supported(child(at, "effect"), effect, _EFFECTS))
    return errors


def _host_ports(spec: dict[str, Any], path: str) -> list[FieldError]:
    """checkHostPortConflicts (the regular containers together, each init container alone: they run
    one by one) and validatePodHostNetworkDeps (with hostNetwork a host port is its container port;
    a pod's unset host port is defaulted to it, a template's left 0)."""
    errors: list[FieldError] = []
    groups = [[(i, c) for i, c in enumerate(_list(spec.get("containers")))]]
    groups += [[(i, c)] for i, c in enumerate(_list(spec.get("initContainers")))]
    for n, group in enumerate(groups):
        seen: set[str] = set()
        key = "containers" if n == 0 else "initContainers"
        for i, c in group:
            for j, port in enumerate(_list(_dict(c).get("ports"))):
                port = _dict(port)
                host = _int(port.get("hostPort"))
                if host == 0:
                    continue
                shown = f"{_str(port.get('protocol')) or 'TCP'}/{_str(port.get('hostIP'))}/{host}"
                if shown in seen:
                    errors.append(field.duplicate(f"{path}.{key}[{i}].ports[{j}].hostPort", shown))
                seen.add(shown)
    if spec.get("hostNetwork") is True:
        for i, c in enumerate(_list(spec.get("containers"))):
            for j, port in enumerate(_list(_dict(c).get("ports"))):
                host, number = _int(_dict(port).get("hostPort")), _int(_dict(port).get("containerPort"))
                if host != 0 and host != number:
                    errors.append(field.invalid(f"{path}.containers[{i}].ports[{j}].hostPort", host,
                                                "must match `containerPort` when `hostNetwork` is true"))
    return errors


# -- /status writes -------------------------------------------------------------------------------

_SYSTEM_CONDITIONS = ("PodScheduled", "Ready", "Initialized")
_MIRROR_ANNOTATION = "kubernetes.io/config.mirror"
_APPARMOR_PREFIX = "container.apparmor.security.beta.kubernetes.io/"


def _pod_annotation_updates(new: dict[str, Any], old: dict[str, Any], spec: dict[str, Any]) -> list[FieldError]:
    """ValidatePodSpecificAnnotationUpdates: AppArmor and mirror-pod annotations neither changed,
    removed nor added; then (ValidatePodSpecificAnnotations, in part) a mirror-pod annotation needs
    a nodeName. Not carried yet: the tolerations, deletion-cost, seccomp and AppArmor annotations' values."""
    errors: list[FieldError] = []
    if _MIRROR_ANNOTATION in new and not _str(spec.get("nodeName")):
        errors.append(field.invalid(f"metadata.annotations[{_MIRROR_ANNOTATION}]", _str(new[_MIRROR_ANNOTATION]),
                                    "must set spec.nodeName if mirror pod annotation is set"))
    for key, value in old.items():
        if key in new and new[key] == value:
            continue
        if key.startswith(_APPARMOR_PREFIX):
            errors.append(field.forbidden(f"metadata.annotations[{key}]", "may not remove or update AppArmor annotations"))
        if key == _MIRROR_ANNOTATION:
            errors.append(field.forbidden(f"metadata.annotations[{key}]", "may not remove or update mirror pod annotation"))
    for key in new:
        if key in old:
            continue
        if key.startswith(_APPARMOR_PREFIX):
            errors.append(field.forbidden(f"metadata.annotations[{key}]", "may not add AppArmor annotations"))
        if key == _MIRROR_ANNOTATION:
            errors.append(field.forbidden(f"metadata.annotations[{key}]", "may not add mirror pod annotation"))
    return errors


@register("", "Pod", subresource="status")
def validate_pod_status(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidatePodStatusUpdate, after podStatusStrategy.PrepareForUpdate (the stored spec and owner
    references kept, no deletionTimestamp, an empty qosClass backfilled): the ObjectMeta update,
    AppArmor and mirror-pod annotations, condition types (qualified names but for the system ones)
    and observed generations, a changed nominatedNodeName a DNS subdomain, observedGeneration not
    negative, qosClass immutable. Not carried yet: container state transitions, resource claim
    statuses, a nominated node on a bound pod."""
    old = old or {}
    old_meta, old_status = _dict(old.get("metadata")), _dict(old.get("status"))
    meta = {k: v for k, v in _dict(obj.get("metadata")).items() if k not in ("deletionTimestamp", "ownerReferences")}
    if "ownerReferences" in old_meta:
        meta["ownerReferences"] = old_meta["ownerReferences"]
    status = dict(_dict(obj.get("status")))
    if not status.get("qosClass") and old_status.get("qosClass"):
        status["qosClass"] = old_status["qosClass"]
    prepared = spec_kept({**obj, "metadata": meta, "status": status}, old)
    errors = object_meta(prepared, old, "")
    errors += _pod_annotation_updates(_dict(meta.get("annotations")), _dict(old_meta.get("annotations")), _dict(old.get("spec")))
    for i, condition in enumerate(_list(status.get("conditions"))):
        condition, at = _dict(condition), f"status.conditions[{i}]"
        generation = condition.get("observedGeneration")
        if isinstance(generation, int) and generation < 0:
            errors.append(field.invalid(f"{at}.observedGeneration", generation, "must be a non-negative integer"))
        kind = _str(condition.get("type"))
        if kind not in _SYSTEM_CONDITIONS:
            errors += [field.invalid(f"{at}.Type", kind, m) for m in is_qualified_name(kind)]
    nominated = _str(status.get("nominatedNodeName"))
    if nominated and nominated != _str(old_status.get("nominatedNodeName")):
        errors += [field.invalid("status.nominatedNodeName", nominated, m) for m in is_dns1123_subdomain(nominated)]
    generation = status.get("observedGeneration")
    if isinstance(generation, int) and generation < 0:
        errors.append(field.invalid("status.observedGeneration", generation, "must be a non-negative integer"))
    if _str(status.get("qosClass")) != _str(old_status.get("qosClass")):
        errors.append(field.invalid("status.qosClass", _str(status.get("qosClass")), "field is immutable"))
    return errors


# -- security contexts beyond user and group IDs ------------------------------------------------

def _profiles(context: dict[str, Any], path: str) -> list[FieldError]:
    """validateSeccompProfileField and ValidateAppArmorProfileField of a (pod or container) security
    context: a localhost profile named exactly when the type is Localhost, an AppArmor one unpadded."""
    errors: list[FieldError] = []
    seccomp = context.get("seccompProfile")
    if isinstance(seccomp, dict):
        kind, local = seccomp.get("type"), seccomp.get("localhostProfile")
        if kind == "Localhost" and local is None:
            errors.append(field.required(f"{path}.seccompProfile.localhostProfile", "must be set when seccomp type is Localhost"))
        elif kind != "Localhost" and local is not None:
            shown = go_struct(("Type", kind or ""), ("LocalhostProfile", local))
            errors.append(field.invalid(f"{path}.seccompProfile.localhostProfile", shown, "can only be set when seccomp type is Localhost"))
    armor = context.get("appArmorProfile")
    if isinstance(armor, dict):
        kind, local, at = armor.get("type"), armor.get("localhostProfile"), f"{path}.appArmorProfile.localhostProfile"
        if kind == "Localhost":
            if local is None or (isinstance(local, str) and local == local.strip() == ""):
                errors.append(field.required(at, "must be set when AppArmor type is Localhost"))
            elif isinstance(local, str) and local != local.strip():
                errors.append(field.invalid(at, local, "must not be padded with whitespace"))
        elif kind in ("RuntimeDefault", "Unconfined") and local is not None:
            errors.append(field.invalid(at, local, "can only be set when AppArmor type is Localhost"))
    return errors


def _container_security(context: dict[str, Any], path: str) -> list[FieldError]:
    """ValidateSecurityContext beyond IDs, on a create: the profiles, and CAP_SYS_ADMIN not added when
    allowPrivilegeEscalation is false (privileged is the cluster's --allow-privileged policy: not judged)."""
    errors = _profiles(context, path)
    if context.get("allowPrivilegeEscalation") is False:
        added = _list(_dict(context.get("capabilities")).get("add"))
        errors += [field.invalid(path, _security_context_json(context),
                                 "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN")
                   for cap in added if cap == "CAP_SYS_ADMIN"]
    return errors


def _security_context_json(context: dict[str, Any]) -> field.Shown:
    """The internal core.SecurityContext as json.Marshal prints it (Go field names, declaration order)."""
    caps = context.get("capabilities")
    shown_caps = None if not isinstance(caps, dict) else {"Add": caps.get("add"), "Drop": caps.get("drop")}
    return go_struct(("Capabilities", shown_caps), ("Privileged", context.get("privileged")), ("SELinuxOptions", None),
                     ("WindowsOptions", None), ("RunAsUser", context.get("runAsUser")), ("RunAsGroup", context.get("runAsGroup")),
                     ("RunAsNonRoot", context.get("runAsNonRoot")), ("ReadOnlyRootFilesystem", context.get("readOnlyRootFilesystem")),
                     ("AllowPrivilegeEscalation", context.get("allowPrivilegeEscalation")), ("ProcMount", context.get("procMount")),
                     ("SeccompProfile", None), ("AppArmorProfile", None))


_SEARCH_FMT = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*"
_SEARCH_MSG = ("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and "
               "must start and end with an alphanumeric character")


def _dns_config(config: Any, policy: Any, path: str) -> list[FieldError]:
    """validatePodDNSConfig: with dnsPolicy None a config with a nameserver; at most 3 nameservers,
    each an IP; at most 32 search domains, 2048 characters in all, each a subdomain (underscores
    allowed, a trailing dot ignored); each option named."""
    if policy == "None":
        if not isinstance(config, dict):
            return [field.required(path, "must provide `dnsConfig` when `dnsPolicy` is None")]
        if not _list(config.get("nameservers")):
            return [field.required(f"{path}.nameservers", "must provide at least one DNS nameserver when `dnsPolicy` is None")]
    if not isinstance(config, dict):
        return []
    errors: list[FieldError] = []
    servers, searches = [_str(n) for n in _list(config.get("nameservers"))], [_str(n) for n in _list(config.get("searches"))]
    if len(servers) > 3:
        errors.append(field.invalid(f"{path}.nameservers", servers, "must not have more than 3 nameservers"))
    for i, server in enumerate(servers):
        errors += [field.invalid(f"{path}.nameservers[{i}]", server, m) for m in is_valid_ip_legacy(server)]
    if len(searches) > 32:
        errors.append(field.invalid(f"{path}.searches", searches, "must not have more than 32 search paths"))
    if len(" ".join(searches).encode()) > 2048:
        errors.append(field.invalid(f"{path}.searches", searches,
                                    "must not have more than 2048 characters (including spaces) in the search list"))
    for i, search in enumerate(searches):
        if search != ".":
            search = search.removesuffix(".")
            messages = ["must be no more than 253 characters"] if len(search.encode()) > 253 else []
            if not re.fullmatch(_SEARCH_FMT, search):
                messages.append(regex_error(_SEARCH_MSG, _SEARCH_FMT, "example.com"))
            errors += [field.invalid(f"{path}.searches[{i}]", search, m) for m in messages]
    for i, option in enumerate(_list(config.get("options"))):
        if not _str(_dict(option).get("name")):
            errors.append(field.required(f"{path}.options[{i}]", "must not be empty"))
    return errors
