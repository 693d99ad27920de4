"""``k8s.io/kubernetes/pkg/apis/apps/validation``: Deployment, ReplicaSet, StatefulSet, DaemonSet.

Each kind: its ObjectMeta, its spec (replicas and other counts non-negative, a non-empty selector
that parses and matches the template's labels, the pod template, a restart policy of ``Always``,
no ``activeDeadlineSeconds``, the update strategy), and on an update the immutable fields (every
kind's selector; a StatefulSet's serviceName, podManagementPolicy and volumeClaimTemplates).
Fields the apiserver defaults before validating (strategies and their rolling-update parameters,
podManagementPolicy, restartPolicy...) are judged with their defaults when absent.

A ``/status`` write (``*_status``): the status strategy keeps the stored spec (and a Deployment's
labels), then ``ValidateXStatusUpdate`` checks the ObjectMeta update, the status counts (non-negative,
none above ``replicas``, ``availableReplicas`` not above ``readyReplicas``) and that
``collisionCount`` is not decremented.
"""

from __future__ import annotations

import re
from typing import Any

from kgen.runtime.apimachinery.validation.builtin import field, register
from kgen.runtime.apimachinery.validation.builtin.container import _dict, _int, _list, _str, dns1123_label, nonnegative
from kgen.runtime.apimachinery.validation.builtin.meta import (
    go_struct, object_meta, selector_empty, selector_errors, selector_json, selector_matches, spec_kept,
)
from kgen.runtime.apimachinery.validation.builtin.pod import validate_pod_template_spec
from kgen.runtime.apimachinery.validation.builtin.storage import prepare_claim_spec, validate_persistent_volume_claim_spec
from kgen.runtime.apimachinery.validation.content import regex_error
from kgen.runtime.apimachinery.validation.metav1 import validate_label_selector
from kgen.runtime.apimachinery.validation.objectmeta import name_is_dns_label
from kgen.runtime.apimachinery.validation.structural import FieldError, child

__all__ = [
    "validate_daemon_set", "validate_daemon_set_status", "validate_deployment", "validate_deployment_status",
    "validate_replica_set", "validate_replica_set_status", "validate_stateful_set", "validate_stateful_set_status",
]

_PERCENT_FMT = "[0-9]+%"


def _selector(spec: dict[str, Any], kind: str, path: str) -> list[FieldError]:
    """A required, non-empty selector (``empty selector is invalid for <kind>``)."""
    selector = spec.get("selector")
    if not isinstance(selector, dict):
        return [field.required(child(path, "selector"))]
    errors = validate_label_selector(selector, child(path, "selector"))
    if selector_empty(selector):
        errors.append(field.invalid(child(path, "selector"), selector_json(selector), f"empty selector is invalid for {kind}"))
    return errors


def _template_matches(spec: dict[str, Any], path: str, only_if_not_empty: bool = True) -> list[FieldError]:
    selector, labels = spec.get("selector"), _dict(_dict(spec.get("template")).get("metadata")).get("labels")
    if only_if_not_empty and selector_empty(selector):
        return []
    if selector_matches(selector, labels):
        return []
    return [field.invalid(child(child(child(path, "template"), "metadata"), "labels"), labels if isinstance(labels, dict) else None,
                          "`selector` does not match template `labels`")]


def _always_restart(spec: dict[str, Any], kind: str, path: str) -> list[FieldError]:
    """The pod template of a controller that keeps pods running: restartPolicy Always (the default),
    no activeDeadlineSeconds."""
    pod = _dict(_dict(spec.get("template")).get("spec"))
    errors: list[FieldError] = []
    restart = _str(pod.get("restartPolicy")) or "Always"
    if restart != "Always":
        errors.append(field.not_supported(f"{path}.template.spec.restartPolicy", restart, ["Always"]))
    if pod.get("activeDeadlineSeconds") is not None:
        errors.append(field.forbidden(f"{path}.template.spec.activeDeadlineSeconds", f"activeDeadlineSeconds in {kind} is not Supported"))
    return errors


def _percent(value: Any) -> int | None:
    """getPercentValue: the number of a valid percent string, else None."""
    return int(value[:-1]) if isinstance(value, str) and re.fullmatch(_PERCENT_FMT, value) else None


def _int_or_percent(value: Any) -> int:
    """getIntOrPercentValue (a string that is no percent: its Atoi, 0 when it is no number)."""
    percent = _percent(value)
    if percent is not None:
        return percent
    if isinstance(value, str):
        return int(value) if re.fullmatch(r"[+-]?\d+", value) else 0
    return _int(value)


def _positive_int_or_percent(value: Any, path: str) -> list[FieldError]:
    """ValidatePositiveIntOrPercent."""
    if isinstance(value, str):
        if _percent(value) is None:
            return [field.invalid(path, value, regex_error("a valid percent string must be a numeric string followed by an "
                                                           "ending '%'", _PERCENT_FMT, "1%", "93%"))]
        return []
    return nonnegative(value, path)


def _not_over_100(value: Any, path: str) -> list[FieldError]:
    percent = _percent(value)
    return [field.invalid(path, value, "must not be greater than 100%")] if percent is not None and percent > 100 else []


def _replica_set_like(spec: dict[str, Any], empty_word: str, path: str) -> list[FieldError]:
    """ValidateReplicaSetSpec's (and ValidateDeploymentSpec's) shared part: replicas, selector, template."""
    errors = nonnegative(spec.get("replicas"), child(path, "replicas"))
    errors.extend(_selector(spec, empty_word, path))
    selector = spec.get("selector")
    if isinstance(selector, dict) and selector_errors(selector):
        errors.append(field.invalid(child(path, "selector"), selector_json(selector), "invalid label selector"))
        return errors
    errors.extend(_template_matches(spec, path))
    errors.extend(validate_pod_template_spec(spec.get("template"), child(path, "template")))
    errors.extend(_always_restart(spec, "ReplicaSet", path))  # Go's text says ReplicaSet for a Deployment too
    return errors


def _deployment_strategy(strategy: dict[str, Any], path: str) -> list[FieldError]:
    kind = _str(strategy.get("type")) or "RollingUpdate"
    rolling = strategy.get("rollingUpdate")
    if kind == "Recreate":
        return [field.forbidden(child(path, "rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")] \
            if isinstance(rolling, dict) else []
    if kind != "RollingUpdate":
        return [field.not_supported(path, go_struct(("Type", kind), ("RollingUpdate", None)), ["Recreate", "RollingUpdate"])]
    rolling = _dict(rolling)
    unavailable, surge = rolling.get("maxUnavailable", "25%"), rolling.get("maxSurge", "25%")
    at = child(path, "rollingUpdate")
    errors = _positive_int_or_percent(unavailable, child(at, "maxUnavailable"))
    errors.extend(_positive_int_or_percent(surge, child(at, "maxSurge")))
    if _int_or_percent(unavailable) == 0 and _int_or_percent(surge) == 0:
        errors.append(field.invalid(child(at, "maxUnavailable"), unavailable, "may not be 0 when `maxSurge` is 0"))
    errors.extend(_not_over_100(unavailable, child(at, "maxUnavailable")))
    return errors


def _immutable_selector(obj: dict[str, Any], old: dict[str, Any] | None, path: str = "spec.selector") -> list[FieldError]:
    if old is None:
        return []
    new, before = _dict(obj.get("spec")).get("selector"), _dict(old.get("spec")).get("selector")
    return [] if new == before else [field.invalid(path, selector_json(new), "field is immutable")]


@register("apps", "Deployment")
def validate_deployment(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateDeployment / ValidateDeploymentUpdate."""
    spec, path = _dict(obj.get("spec")), "spec"
    errors = object_meta(obj, old, "apps")
    errors.extend(_replica_set_like(spec, "deployment", path))
    errors.extend(_deployment_strategy(_dict(spec.get("strategy")), child(path, "strategy")))
    errors.extend(nonnegative(spec.get("minReadySeconds"), child(path, "minReadySeconds")))
    if spec.get("revisionHistoryLimit") is not None:
        errors.extend(nonnegative(spec.get("revisionHistoryLimit"), child(path, "revisionHistoryLimit")))
    deadline = spec.get("progressDeadlineSeconds", 600)
    if isinstance(deadline, int):
        errors.extend(nonnegative(deadline, child(path, "progressDeadlineSeconds")))
        if deadline <= _int(spec.get("minReadySeconds")):
            errors.append(field.invalid(child(path, "progressDeadlineSeconds"), deadline, "must be greater than minReadySeconds"))
    return errors + _immutable_selector(obj, old)


@register("apps", "ReplicaSet")
def validate_replica_set(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateReplicaSet / ValidateReplicaSetUpdate (its empty-selector message says deployment, as Go's does)."""
    spec = _dict(obj.get("spec"))
    errors = object_meta(obj, old, "apps")
    errors.extend(nonnegative(spec.get("minReadySeconds"), "spec.minReadySeconds"))
    errors.extend(_replica_set_like(spec, "deployment", "spec"))
    return errors + _immutable_selector(obj, old)


@register("apps", "DaemonSet")
def validate_daemon_set(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateDaemonSet / ValidateDaemonSetUpdate."""
    spec, path = _dict(obj.get("spec")), "spec"
    errors = object_meta(obj, old, "apps")
    selector = spec.get("selector")
    errors.extend(validate_label_selector(selector, child(path, "selector")))
    if not selector_errors(selector):
        errors.extend(_template_matches(spec, path, only_if_not_empty=False))
    if selector_empty(selector):
        errors.append(field.invalid(child(path, "selector"), selector_json(selector), "empty selector is invalid for daemonset"))
    errors.extend(validate_pod_template_spec(spec.get("template"), child(path, "template")))
    errors.extend(_always_restart(spec, "DaemonSet", path))
    errors.extend(nonnegative(spec.get("minReadySeconds"), child(path, "minReadySeconds")))
    errors.extend(nonnegative(spec.get("templateGeneration"), child(path, "templateGeneration")))
    errors.extend(_daemon_set_strategy(_dict(spec.get("updateStrategy")), child(path, "updateStrategy")))
    if spec.get("revisionHistoryLimit") is not None:
        errors.extend(nonnegative(spec.get("revisionHistoryLimit"), child(path, "revisionHistoryLimit")))
    return errors + _immutable_selector(obj, old)


def _daemon_set_strategy(strategy: dict[str, Any], path: str) -> list[FieldError]:
    kind = _str(strategy.get("type")) or "RollingUpdate"
    if kind == "OnDelete":
        return []
    if kind != "RollingUpdate":
        rolling = strategy.get("rollingUpdate")
        shown = None if not isinstance(rolling, dict) else {"MaxUnavailable": rolling.get("maxUnavailable"),
                                                             "MaxSurge": rolling.get("maxSurge")}
        return [field.not_supported(path, go_struct(("Type", kind), ("RollingUpdate", shown)), ["RollingUpdate", "OnDelete"])]
    rolling = _dict(strategy.get("rollingUpdate"))
    unavailable, surge = rolling.get("maxUnavailable", 1), rolling.get("maxSurge", 0)
    at = child(path, "rollingUpdate")
    errors = _positive_int_or_percent(unavailable, child(at, "maxUnavailable"))
    errors.extend(_positive_int_or_percent(surge, child(at, "maxSurge")))
    errors.extend(_not_over_100(unavailable, child(at, "maxUnavailable")))
    errors.extend(_not_over_100(surge, child(at, "maxSurge")))
    has_unavailable, has_surge = _int_or_percent(unavailable) != 0, _int_or_percent(surge) != 0
    if has_unavailable and has_surge:
        errors.append(field.invalid(child(at, "maxSurge"), surge, "may not be set when maxUnavailable is non-zero"))
    elif not has_unavailable and not has_surge:
        errors.append(field.required(child(at, "maxUnavailable"), "cannot be 0 when maxSurge is 0"))
    return errors


@register("apps", "StatefulSet")
def validate_stateful_set(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateStatefulSet / ValidateStatefulSetUpdate (the name a DNS label: it names the pods' hostnames).
    An update's immutable fields are 1.37's (each ``field is immutable`` at its path; up to 1.36 one
    Forbidden at ``spec``)."""
    spec, path = _dict(obj.get("spec")), "spec"
    errors = object_meta(obj, old, "apps", name_is_dns_label)
    policy = _str(spec.get("podManagementPolicy")) or "OrderedReady"
    if policy not in ("OrderedReady", "Parallel"):
        errors.append(field.invalid(child(path, "podManagementPolicy"), policy, "must be 'OrderedReady' or 'Parallel'"))
    errors.extend(_stateful_set_strategy(_dict(spec.get("updateStrategy")), child(path, "updateStrategy")))
    retention = _dict(spec.get("persistentVolumeClaimRetentionPolicy"))
    for key in ("whenDeleted", "whenScaled"):
        value = _str(retention.get(key)) or "Retain"
        if value not in ("Retain", "Delete"):
            errors.append(field.not_supported(f"{path}.persistentVolumeClaimRetentionPolicy.{key}", value, ["Retain", "Delete"]))
    for i, claim in enumerate(_list(spec.get("volumeClaimTemplates"))):
        errors.extend(validate_persistent_volume_claim_spec(prepare_claim_spec(_dict(_dict(claim).get("spec"))),
                                                            f"{path}.volumeClaimTemplates[{i}].spec"))
    errors.extend(nonnegative(spec.get("replicas"), child(path, "replicas")))
    errors.extend(nonnegative(spec.get("minReadySeconds"), child(path, "minReadySeconds")))
    if isinstance(spec.get("ordinals"), dict):
        errors.extend(nonnegative(spec["ordinals"].get("start"), child(path, "ordinals.start")))
    service = _str(spec.get("serviceName"))
    if service:
        errors.extend(dns1123_label(service, child(path, "serviceName")))
    errors.extend(_selector(spec, "statefulset", path))
    selector = spec.get("selector")
    if selector_errors(selector) and isinstance(selector, dict):
        errors.append(field.invalid(child(path, "selector"), selector_json(selector), ""))
    else:
        template = _dict(spec.get("template"))
        claims = [_str(_dict(_dict(c).get("metadata")).get("name")) for c in _list(spec.get("volumeClaimTemplates"))]
        pod = dict(_dict(template.get("spec")))
        pod.pop("hostname", None)
        pod.pop("subdomain", None)
        if claims:
            kept = [v for v in _list(pod.get("volumes")) if _dict(v).get("name") not in claims]
            pod["volumes"] = [{"name": c, "persistentVolumeClaim": {"claimName": c}} for c in dict.fromkeys(claims)] + kept
        if not selector_empty(selector) and not selector_matches(selector, _dict(template.get("metadata")).get("labels")):
            labels = _dict(template.get("metadata")).get("labels")
            errors.append(field.invalid(f"{path}.template.metadata.labels", labels if isinstance(labels, dict) else None,
                                        "`selector` does not match template `labels`"))
        errors.extend(validate_pod_template_spec({**template, "spec": pod}, child(path, "template")))
    errors.extend(_always_restart(spec, "StatefulSet", path))
    if old is not None:
        before = _dict(old.get("spec"))
        errors.extend(_immutable_selector(obj, old))
        for key, default in (("volumeClaimTemplates", None), ("serviceName", ""), ("podManagementPolicy", "OrderedReady")):
            if (spec.get(key) or default) != (before.get(key) or default):
                errors.append(field.invalid(child(path, key), spec.get(key) or default, "field is immutable"))
    return errors


def _stateful_set_strategy(strategy: dict[str, Any], path: str) -> list[FieldError]:
    kind = _str(strategy.get("type")) or "RollingUpdate"
    rolling = strategy.get("rollingUpdate")
    if kind == "OnDelete":
        if isinstance(rolling, dict):
            shown = go_struct(("Partition", _int(rolling.get("partition"))), ("MaxUnavailable", rolling.get("maxUnavailable")))
            return [field.invalid(child(path, "rollingUpdate"), shown, "only allowed for updateStrategy 'RollingUpdate'")]
        return []
    if kind != "RollingUpdate":
        return [field.invalid(path, go_struct(("Type", kind), ("RollingUpdate", None)), "must be 'RollingUpdate' or 'OnDelete'")]
    if not isinstance(rolling, dict):
        return []
    at = child(path, "rollingUpdate")
    errors = nonnegative(rolling.get("partition"), child(at, "partition"))
    if rolling.get("maxUnavailable") is not None:
        value = rolling["maxUnavailable"]
        errors.extend(_positive_int_or_percent(value, child(at, "maxUnavailable")))
        if _int_or_percent(value) == 0:
            errors.append(field.invalid(child(at, "maxUnavailable"), value, "cannot be 0"))
        errors.extend(_not_over_100(value, child(at, "maxUnavailable")))
    return errors


# -- /status writes -------------------------------------------------------------------------------

def _status_prepared(obj: dict[str, Any], old: dict[str, Any] | None, labels: bool = False,
                     ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The status strategy's PrepareForUpdate: the stored spec kept (``labels``: the stored labels too,
    as a Deployment's strategy does); returns the prepared object, the stored one ({} if none) and
    the status."""
    old = old or {}
    out = spec_kept(obj, old)
    if labels:
        meta = {k: v for k, v in _dict(obj.get("metadata")).items() if k != "labels"}
        if "labels" in _dict(old.get("metadata")):
            meta["labels"] = old["metadata"]["labels"]
        out["metadata"] = meta
    return out, old, _dict(out.get("status"))


def _status_counts(status: dict[str, Any], counts: tuple[str, ...], optional: tuple[str, ...] = ()) -> list[FieldError]:
    """ValidateNonnegativeField of each of ``counts`` (absent: 0) and of each of ``optional`` present
    (pointers in Go), in Go's order."""
    errors: list[FieldError] = []
    for name in counts + optional:
        if name in counts or status.get(name) is not None:
            errors.extend(nonnegative(status.get(name), child("status", name)))
    return errors


def _not_above(status: dict[str, Any], names: tuple[str, ...], limit: str, message: str) -> list[FieldError]:
    """Each of ``names`` greater than the ``limit`` count is Invalid with ``message``."""
    bound = _int(status.get(limit))
    return [field.invalid(child("status", n), _int(status.get(n)), message) for n in names if _int(status.get(n)) > bound]


def _collision_decremented(status: dict[str, Any], old: dict[str, Any]) -> list[FieldError]:
    """IsDecremented(collisionCount): removed, or lowered, from the stored status's."""
    new, before = status.get("collisionCount"), _dict(old.get("status")).get("collisionCount")
    if before is None or (new is not None and _int(new) >= _int(before)):
        return []
    return [field.invalid("status.collisionCount", _int(new), "cannot be decremented")]


_OVER = "cannot be greater than status.replicas"


@register("apps", "Deployment", subresource="status")
def validate_deployment_status(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateDeploymentStatusUpdate, after deploymentStatusStrategy.PrepareForUpdate."""
    obj, old, status = _status_prepared(obj, old, labels=True)
    errors = object_meta(obj, old, "apps")
    errors += _status_counts(status, ("observedGeneration", "replicas", "updatedReplicas", "readyReplicas",
                                      "availableReplicas", "unavailableReplicas"), ("terminatingReplicas", "collisionCount"))
    errors += _not_above(status, ("updatedReplicas", "readyReplicas", "availableReplicas"), "replicas", _OVER)
    errors += _not_above(status, ("availableReplicas",), "readyReplicas", "cannot be greater than readyReplicas")
    return errors + _collision_decremented(status, old)


@register("apps", "ReplicaSet", subresource="status")
def validate_replica_set_status(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateReplicaSetStatusUpdate, after rsStatusStrategy.PrepareForUpdate."""
    obj, old, status = _status_prepared(obj, old)
    errors = object_meta(obj, old, "apps")
    errors += _status_counts(status, ("replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas",
                                      "observedGeneration"), ("terminatingReplicas",))
    errors += _not_above(status, ("fullyLabeledReplicas", "readyReplicas", "availableReplicas"), "replicas", _OVER)
    return errors + _not_above(status, ("availableReplicas",), "readyReplicas", "cannot be greater than readyReplicas")


@register("apps", "StatefulSet", subresource="status")
def validate_stateful_set_status(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateStatefulSetStatusUpdate, after statefulSetStatusStrategy.PrepareForUpdate."""
    obj, old, status = _status_prepared(obj, old)
    errors = _status_counts(status, ("replicas", "readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"),
                            ("observedGeneration", "collisionCount"))
    errors += _not_above(status, ("readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"), "replicas", _OVER)
    errors += _not_above(status, ("availableReplicas",), "readyReplicas", "cannot be greater than status.readyReplicas")
    return errors + object_meta(obj, old, "apps", name_is_dns_label) + _collision_decremented(status, old)


@register("apps", "DaemonSet", subresource="status")
def validate_daemon_set_status(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateDaemonSetStatusUpdate, after daemonSetStatusStrategy.PrepareForUpdate."""
    obj, old, status = _status_prepared(obj, old)
    errors = object_meta(obj, old, "apps")
    errors += _status_counts(status, ("currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady",
                                      "observedGeneration", "updatedNumberScheduled", "numberAvailable", "numberUnavailable"),
                             ("collisionCount",))
    return errors + _collision_decremented(status, old)
