"""A pod spec's scheduling constraints as ``k8s.io/kubernetes/pkg/apis/core/validation`` checks
them: node affinity (validateNodeAffinity: required node selector terms, preferred terms'
weights, each requirement's operator, key and values) and topology spread constraints
(validateTopologySpreadConstraints: maxSkew, topologyKey, whenUnsatisfiable, repeated pairs,
minDomains, node inclusion policies, the label selector) and pod affinity and anti-affinity
(validatePodAffinity/validatePodAntiAffinity: label and namespace selectors, namespaces, topology
keys, preferred weights; matchLabelKeys and mismatchLabelKeys are not carried yet)."""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.validation.builtin import field
from kgen.runtime.apimachinery.validation.builtin.container import _dict, _int, _list, _str
from kgen.runtime.apimachinery.validation.content import is_dns1123_label, is_label_value, is_qualified_name
from kgen.runtime.apimachinery.validation.metav1 import validate_label_selector
from kgen.runtime.apimachinery.validation.structural import FieldError, child

__all__ = ["validate_node_affinity", "validate_pod_affinity", "validate_topology_spread_constraints"]

_NOT_POSITIVE = "must be greater than zero"


def _requirement(req: dict[str, Any], check_values: bool, path: str) -> list[FieldError]:
    """ValidateNodeSelectorRequirement."""
    errors: list[FieldError] = []
    operator, values = _str(req.get("operator")), _list(req.get("values"))
    if operator in ("In", "NotIn"):
        if not values:
            errors.append(field.required(child(path, "values"), "must be specified when `operator` is 'In' or 'NotIn'"))
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            errors.append(field.forbidden(child(path, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    elif operator in ("Gt", "Lt"):
        if len(values) != 1:
            errors.append(field.required(child(path, "values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"))
    else:
        errors.append(field.invalid(child(path, "operator"), operator, "not a valid selector operator"))
    key = _str(req.get("key"))
    errors.extend(field.invalid(child(path, "key"), key, m) for m in is_qualified_name(key))
    if check_values:
        for i, value in enumerate(values):
            if isinstance(value, str):
                errors.extend(field.invalid(child(child(path, "values"), i), value, m) for m in is_label_value(value))
    return errors


def _term(term: dict[str, Any], check_values: bool, path: str) -> list[FieldError]:
    """ValidateNodeSelectorTerm (match fields: only metadata.name, with one value for In/NotIn)."""
    errors: list[FieldError] = []
    for j, req in enumerate(_list(term.get("matchExpressions"))):
        errors.extend(_requirement(_dict(req), check_values, child(child(path, "matchExpressions"), j)))
    for j, req in enumerate(_list(term.get("matchFields"))):
        req, at = _dict(req), child(child(path, "matchFields"), j)
        if _str(req.get("operator")) in ("In", "NotIn"):
            if len(_list(req.get("values"))) != 1:
                errors.append(field.required(child(at, "values"),
                                             "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"))
        else:
            errors.append(field.invalid(child(at, "operator"), _str(req.get("operator")), "not a valid selector operator"))
        if _str(req.get("key")) != "metadata.name":
            errors.append(field.invalid(child(at, "key"), _str(req.get("key")), "not a valid field selector key"))
    return errors


def validate_node_affinity(affinity: Any, path: str) -> list[FieldError]:
    """validateAffinity's node affinity (``path``: the pod spec's ``affinity``)."""
    node = _dict(_dict(affinity).get("nodeAffinity"))
    at = child(path, "nodeAffinity")
    errors: list[FieldError] = []
    required = node.get("requiredDuringSchedulingIgnoredDuringExecution")
    if isinstance(required, dict):
        req_path = child(child(at, "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms")
        terms = _list(required.get("nodeSelectorTerms"))
        if not terms:
            errors.append(field.required(req_path, "must have at least one node selector term"))
        for i, term in enumerate(terms):
            errors.extend(_term(_dict(term), True, child(req_path, i)))
    for i, term in enumerate(_list(node.get("preferredDuringSchedulingIgnoredDuringExecution"))):
        term, pref = _dict(term), child(child(at, "preferredDuringSchedulingIgnoredDuringExecution"), i)
        weight = _int(term.get("weight"))
        if not 0 < weight <= 100:
            errors.append(field.invalid(child(pref, "weight"), weight, "must be in the range 1-100"))
        errors.extend(_term(_dict(term.get("preference")), False, child(pref, "preference")))
    return errors


def validate_topology_spread_constraints(constraints: Any, path: str) -> list[FieldError]:
    """validateTopologySpreadConstraints (its matchLabelKeys rules aside)."""
    errors: list[FieldError] = []
    items = [_dict(c) for c in _list(constraints)]
    for i, c in enumerate(items):
        at = child(path, i)
        skew = _int(c.get("maxSkew"))
        if skew <= 0:
            errors.append(field.invalid(child(at, "maxSkew"), skew, _NOT_POSITIVE))
        if not _str(c.get("topologyKey")):
            errors.append(field.required(child(at, "topologyKey"), "can not be empty"))
        action = _str(c.get("whenUnsatisfiable"))
        if action not in ("DoNotSchedule", "ScheduleAnyway"):
            errors.append(field.not_supported(child(at, "whenUnsatisfiable"), action, ("DoNotSchedule", "ScheduleAnyway")))
        key = _str(c.get("topologyKey"))
        if any(_str(r.get("topologyKey")) == key and _str(r.get("whenUnsatisfiable")) == action for r in items[i + 1:]):
            errors.append(field.duplicate(child(at, "{topologyKey, whenUnsatisfiable}"), f"{{{key}, {action}}}"))
        domains = c.get("minDomains")
        if isinstance(domains, int):
            if domains <= 0:
                errors.append(field.invalid(child(at, "minDomains"), domains, _NOT_POSITIVE))
            if action != "DoNotSchedule":
                errors.append(field.invalid(child(at, "minDomains"), domains,
                                            f"can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"))
        for key_name in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            policy = c.get(key_name)
            if isinstance(policy, str) and policy not in ("Honor", "Ignore"):
                errors.append(field.not_supported(child(at, key_name), policy, ("Honor", "Ignore")))
        errors.extend(validate_label_selector(c.get("labelSelector"), child(at, "labelSelector")))
    return errors


def _pod_affinity_term(term: dict[str, Any], path: str) -> list[FieldError]:
    """validatePodAffinityTerm (matchLabelKeys and mismatchLabelKeys aside): its label and namespace
    selectors, each namespace a DNS label (reported at ``namespace``, as Go does), a topologyKey
    required and a qualified name."""
    errors = validate_label_selector(term.get("labelSelector"), f"{path}.labelSelector")
    errors += validate_label_selector(term.get("namespaceSelector"), f"{path}.namespaceSelector")
    for name in _list(term.get("namespaces")):
        errors += [field.invalid(f"{path}.namespace", _str(name), m) for m in is_dns1123_label(_str(name))]
    key = _str(term.get("topologyKey"))
    if not key:
        errors.append(field.required(f"{path}.topologyKey", "can not be empty"))
    return errors + [field.invalid(f"{path}.topologyKey", key, m) for m in is_qualified_name(key)]


def validate_pod_affinity(affinity: Any, path: str) -> list[FieldError]:
    """validatePodAffinity and validatePodAntiAffinity: each required term, and each preferred one's
    weight (1 to 100) and term."""
    errors: list[FieldError] = []
    for kind in ("podAffinity", "podAntiAffinity"):
        section, at = _dict(_dict(affinity).get(kind)), f"{path}.{kind}"
        for i, term in enumerate(_list(section.get("requiredDuringSchedulingIgnoredDuringExecution"))):
            errors += _pod_affinity_term(_dict(term), f"{at}.requiredDuringSchedulingIgnoredDuringExecution[{i}]")
        for i, weighted in enumerate(_list(section.get("preferredDuringSchedulingIgnoredDuringExecution"))):
            weighted, item = _dict(weighted), f"{at}.preferredDuringSchedulingIgnoredDuringExecution[{i}]"
            weight = _int(weighted.get("weight"))
            if weight <= 0 or weight > 100:
                errors.append(field.invalid(f"{item}.weight", weight, "must be in the range 1-100"))
            errors += _pod_affinity_term(_dict(weighted.get("podAffinityTerm")), f"{item}.podAffinityTerm")
    return errors
