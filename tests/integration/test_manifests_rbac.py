"""`kgen manifests` roles against the real apiserver's RBAC authorizer: a user bound only to the
role written from the controllers' ``@rbac`` rules may do what they declare and nothing more, and
the same role with one rule removed makes that request Forbidden.

Requests are made as that user through impersonation (the admin identity may impersonate),
so the apiserver's own authorizer decides every one of them.
"""

from __future__ import annotations

import copy
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from kgen.generator.cli import main as kgen
from tests.support.apiserver import install_crd, wait_for
from tests.support.manifests import controllers, widgets

CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
RBAC = "/apis/rbac.authorization.k8s.io/v1"


@pytest.fixture(scope="module")
def manifests(admin: httpx.Client, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    out = Path(tmp_path_factory.mktemp("config"))
    role_name = f"manifests-{uuid.uuid4().hex[:6]}"
    args = ["manifests", "--allow-dangerous-types", "--module", controllers.__name__, "--module", widgets.__name__,
            "--role-name", role_name, "--out", str(out)]
    assert kgen(args) == 0
    crd = yaml.safe_load((out / f"{widgets.GROUP}_widgets.yaml").read_text())
    if admin.get(f"{CRDS}/{crd['metadata']['name']}").status_code == 404:
        install_crd(admin, crd)
    return list(yaml.safe_load_all((out / "role.yaml").read_text()))


def _bind(admin: httpx.Client, roles: list[dict[str, Any]], user: str) -> None:
    """Creates ``roles`` and binds ``user`` to each, as the ClusterRoleBinding/RoleBinding a
    kubebuilder project's config/rbac holds."""
    for role in roles:
        namespace = role["metadata"].get("namespace")
        base = f"{RBAC}/namespaces/{namespace}" if namespace else RBAC
        plural = "roles" if namespace else "clusterroles"
        created = admin.post(f"{base}/{plural}", json=role)
        assert created.status_code == 201, created.text
        binding = {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "RoleBinding" if namespace else "ClusterRoleBinding",
            "metadata": {"name": f"{role['metadata']['name']}-{user}", **({"namespace": namespace} if namespace else {})},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": role["kind"], "name": role["metadata"]["name"]},
            "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": user}],
        }
        bound = admin.post(f"{base}/{'rolebindings' if namespace else 'clusterrolebindings'}", json=binding)
        assert bound.status_code == 201, bound.text


def _as(admin: httpx.Client, user: str, method: str, path: str, body: dict[str, Any] | None = None) -> int:
    return admin.request(method, path, json=body, headers={"Impersonate-User": user}).status_code


def _event(namespace: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Event", "metadata": {"generateName": "e-", "namespace": namespace},
            "involvedObject": {"kind": "Widget", "name": "w", "namespace": namespace}, "reason": "Test",
            "message": "m", "type": "Normal"}


def test_bound_user_can_do_what_the_controllers_declared_and_nothing_else(
    manifests: list[dict[str, Any]], admin: httpx.Client, namespace: str
) -> None:
    user = f"controller-{uuid.uuid4().hex[:6]}"
    widgets_path = f"/apis/{widgets.GROUP}/v1/namespaces/{namespace}/widgets"
    assert _as(admin, user, "GET", widgets_path) == 403  # nothing before the binding
    _bind(admin, manifests, user)
    wait_for(lambda: _as(admin, user, "GET", widgets_path) == 200)
    # Declared: list/watch widgets, configmaps read and write, events create, leases in kube-system.
    assert _as(admin, user, "GET", f"{widgets_path}?watch=1&timeoutSeconds=1") == 200
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "owned"}, "data": {"a": "b"}}
    assert _as(admin, user, "POST", f"/api/v1/namespaces/{namespace}/configmaps", cm) == 201
    assert _as(admin, user, "DELETE", f"/api/v1/namespaces/{namespace}/configmaps/owned") == 200
    assert _as(admin, user, "POST", f"/api/v1/namespaces/{namespace}/events", _event(namespace)) == 201
    # get (not list) on leases in kube-system: an absent lease is 404, not 403.
    assert _as(admin, user, "GET", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/none") == 404
    assert _as(admin, user, "GET", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases") == 403
    # Not declared: creating or deleting widgets, leases outside kube-system, secrets.
    widget = {"apiVersion": f"{widgets.GROUP}/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"size": "1Gi"}}
    assert _as(admin, user, "POST", widgets_path, widget) == 403
    assert _as(admin, user, "DELETE", f"{widgets_path}/w") == 403
    assert _as(admin, user, "GET", f"/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/none") == 403
    assert _as(admin, user, "GET", f"/api/v1/namespaces/{namespace}/secrets") == 403


def test_removing_one_rule_makes_its_request_forbidden(
    manifests: list[dict[str, Any]], admin: httpx.Client, namespace: str
) -> None:
    user = f"controller-{uuid.uuid4().hex[:6]}"
    roles = copy.deepcopy(manifests)
    for role in roles:
        role["metadata"]["name"] += "-no-events"
    cluster_role = roles[0]
    kept = [r for r in cluster_role["rules"] if r.get("resources") != ["events"]]
    assert len(kept) == len(cluster_role["rules"]) - 1
    cluster_role["rules"] = kept
    _bind(admin, roles, user)
    wait_for(lambda: _as(admin, user, "GET", f"/api/v1/namespaces/{namespace}/configmaps") == 200)
    assert _as(admin, user, "POST", f"/api/v1/namespaces/{namespace}/events", _event(namespace)) == 403
