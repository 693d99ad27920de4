"""``@rbac`` rules -> the ClusterRole (and namespaced Roles) a controller runs with, controller-gen's way.

controller-gen (``pkg/rbac/parser.go``) gathers every ``+kubebuilder:rbac`` marker into one
ClusterRole named by ``rbac:roleName`` (kubebuilder's projects: ``manager-role``), and the
markers with a ``namespace`` into a Role of that name in each namespace; the file is
``role.yaml``, one YAML document per role. Rules are normalized as it normalizes them: the group
``core`` is ``""``, the verbs of the same group, resource, resource names and URLs are merged,
then the resources of one group with the same verbs are listed in one rule, everything sorted,
so the role does not depend on the order controllers were declared in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kgen.runtime.apimachinery.markers import RBACRule

from .errors import ManifestError

DEFAULT_ROLE_NAME = "manager-role"
#: The verbs the apiserver's authorizers know (RBAC checks any string; these catch typos).
VERBS = {"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "impersonate", "bind",
         "escalate", "use", "approve", "sign", "proxy", "*"}

_Key = tuple[str, str, tuple[str, ...], tuple[str, ...]]  # group, resource, resource names, URLs


def build_roles(rules: Iterable[tuple[str, RBACRule]], role_name: str = DEFAULT_ROLE_NAME) -> list[dict[str, Any]]:
    """The ClusterRole, then one Role per namespace (sorted); ``rules`` are (where, rule)."""
    by_namespace: dict[str | None, dict[_Key, set[str]]] = {}
    for where, rule in rules:
        _check(where, rule)
        merged = by_namespace.setdefault(rule.namespace, {})
        groups = [("" if g == "core" else g) for g in rule.groups] or [""]
        names = tuple(sorted(set(rule.resource_names)))
        if rule.urls:
            merged.setdefault(("", "", (), tuple(sorted(set(rule.urls)))), set()).update(rule.verbs)
        for group in groups:
            for resource in rule.resources:
                merged.setdefault((group, resource, names, ()), set()).update(rule.verbs)
    roles = []
    if None in by_namespace:
        roles.append(_role("ClusterRole", role_name, None, by_namespace[None]))
    for namespace in sorted(n for n in by_namespace if n is not None):
        roles.append(_role("Role", role_name, namespace, by_namespace[namespace]))
    return roles


def _role(kind: str, name: str, namespace: str | None, merged: dict[_Key, set[str]]) -> dict[str, Any]:
    # Resources of one group with the same verbs (and names) share a rule.
    combined: dict[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], list[str]] = {}
    for (group, resource, names, urls), verb_set in merged.items():
        combined.setdefault((group, tuple(sorted(verb_set)), names, urls), []).append(resource)
    rules = []
    for (group, verbs, names, urls), resources in sorted(combined.items(), key=lambda kv: (kv[0][0], sorted(kv[1]), kv[0])):
        rule: dict[str, Any] = {}
        if urls:
            rule["nonResourceURLs"] = list(urls)
        else:
            rule["apiGroups"] = [group]
            rule["resources"] = sorted(resources)
            if names:
                rule["resourceNames"] = list(names)
        rule["verbs"] = list(verbs)
        rules.append(rule)
    metadata: dict[str, Any] = {"name": name}
    if namespace is not None:
        metadata["namespace"] = namespace
    return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": metadata, "rules": rules}


def _check(where: str, rule: RBACRule) -> None:
    if not rule.verbs:
        raise ManifestError(where, "@rbac without verbs", "verbs=[...], e.g. ['get', 'list', 'watch']")
    unknown = sorted(set(rule.verbs) - VERBS)
    if unknown:
        raise ManifestError(where, f"@rbac verbs {unknown} are not Kubernetes verbs", f"verbs among {sorted(VERBS)}")
    if rule.urls and (rule.resources or rule.groups or rule.resource_names):
        raise ManifestError(where, "@rbac with both urls and resources", "urls alone, or groups and resources")
    if rule.urls and rule.namespace is not None:
        raise ManifestError(where, "@rbac urls in a namespace", "non-resource URLs only in the ClusterRole (no namespace)")
    if not rule.urls and not rule.resources:
        raise ManifestError(where, "@rbac without resources", "resources=[...] (and groups), or urls=[...]")
