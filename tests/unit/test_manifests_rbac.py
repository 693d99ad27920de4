"""`kgen manifests`: ``@rbac`` rules -> role.yaml, normalized as controller-gen normalizes them
(``core`` is ``""``, verbs merged per group and resource, resources with the same verbs in one
rule, namespaced rules in a Role per namespace, everything sorted)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kgen.generator.cli import main as kgen
from kgen.generator.manifests.errors import ManifestError
from kgen.generator.manifests.rbac import build_roles
from kgen.runtime.apimachinery.markers import RBAC_ATTRIBUTE, RBACRule, rbac
from tests.support.manifests import controllers

G = "widgets.manifests.kgen.test"
CLUSTER_RULES = [
    {"nonResourceURLs": ["/healthz"], "verbs": ["get"]},
    {"apiGroups": [""], "resources": ["configmaps"],
     "verbs": ["create", "delete", "get", "list", "patch", "update", "watch"]},
    {"apiGroups": [""], "resources": ["events"], "verbs": ["create", "patch"]},
    {"apiGroups": [G], "resources": ["widgets"], "verbs": ["get", "list", "patch", "update", "watch"]},
    {"apiGroups": [G], "resources": ["widgets/status"], "verbs": ["get", "patch", "update"]},
]


def test_role_yaml_holds_the_cluster_role_and_a_role_per_namespace(tmp_path: Path) -> None:
    out = tmp_path / "config"
    assert kgen(["manifests", "--allow-dangerous-types", "--module", controllers.__name__, "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["role.yaml"]
    text = (out / "role.yaml").read_text()
    assert text.startswith("---\n")
    cluster_role, role = yaml.safe_load_all(text)
    assert cluster_role == {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
                            "metadata": {"name": "manager-role"}, "rules": CLUSTER_RULES}
    assert role == {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
                    "metadata": {"name": "manager-role", "namespace": "kube-system"},
                    "rules": [{"apiGroups": ["coordination.k8s.io"], "resources": ["leases"],
                               "verbs": ["create", "get", "update"]}]}


def test_role_name_option_and_crds_in_the_same_run(tmp_path: Path) -> None:
    args = ["manifests", "--allow-dangerous-types", "--module", controllers.__name__, "--module", "tests.support.manifests.widgets",
            "--role-name", "widget-controller", "--out", str(tmp_path)]
    assert kgen(args) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["role.yaml", f"{G}_widgets.yaml"]
    assert {d["metadata"]["name"] for d in yaml.safe_load_all((tmp_path / "role.yaml").read_text())} == {"widget-controller"}


def test_rules_are_the_same_whatever_the_declaration_order() -> None:
    rules = [(f"c{i}", r) for i, r in enumerate(getattr(controllers.WidgetReconciler, RBAC_ATTRIBUTE))]
    assert build_roles(rules) == build_roles(list(reversed(rules)))


def test_same_verbs_share_a_rule_and_resource_names_stay_apart() -> None:
    rules = [("a", RBACRule(("apps",), ("deployments", "statefulsets"), ("get",))),
             ("b", RBACRule(("apps",), ("deployments",), ("get",), resource_names=("web",)))]
    (role,) = build_roles(rules)
    assert role["rules"] == [
        {"apiGroups": ["apps"], "resources": ["deployments"], "resourceNames": ["web"], "verbs": ["get"]},
        {"apiGroups": ["apps"], "resources": ["deployments", "statefulsets"], "verbs": ["get"]},
    ]


def test_rbac_decorator_keeps_rules_per_class_not_inherited() -> None:
    @rbac(groups=["apps"], resources=["deployments"], verbs=["get"])
    class Base:
        pass

    @rbac(groups=["batch"], resources=["jobs"], verbs=["list"])
    class Child(Base):
        pass

    assert [r.resources for r in vars(Child)[RBAC_ATTRIBUTE]] == [("jobs",)]
    assert [r.resources for r in vars(Base)[RBAC_ATTRIBUTE]] == [("deployments",)]


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (RBACRule(("apps",), ("deployments",), ()), "w: @rbac without verbs (expected verbs=[...], e.g. ['get', 'list', 'watch'])"),
        (RBACRule(("apps",), ("deployments",), ("read",)), "w: @rbac verbs ['read'] are not Kubernetes verbs (expected verbs among "
         "['*', 'approve', 'bind', 'create', 'delete', 'deletecollection', 'escalate', 'get', 'impersonate', 'list', "
         "'patch', 'proxy', 'sign', 'update', 'use', 'watch'])"),
        (RBACRule(("apps",), ("deployments",), ("get",), urls=("/metrics",)),
         "w: @rbac with both urls and resources (expected urls alone, or groups and resources)"),
        (RBACRule((), (), ("get",), urls=("/metrics",), namespace="ns"),
         "w: @rbac urls in a namespace (expected non-resource URLs only in the ClusterRole (no namespace))"),
        (RBACRule(("apps",), (), ("get",)), "w: @rbac without resources (expected resources=[...] (and groups), or urls=[...])"),
    ],
)
def test_bad_rules_are_refused(rule: RBACRule, message: str) -> None:
    with pytest.raises(ManifestError) as error:
        build_roles([("w", rule)])
    assert str(error.value) == message
