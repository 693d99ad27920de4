"""Objects whose managedFields a real apiserver wrote, loaded into the fake, then re-applied with
the same configurations by the same managers: nothing changes (issue 12, "Fake vs real").

The real server is the oracle twice over: its own re-apply of each configuration changes
nothing either (no new resourceVersion, the same managedFields, times included: the apiserver
skips a write whose only change would be managedFields timestamps), and the fake must answer
its re-apply with exactly the object it was loaded with. What this catches is granularity the
fake's server-side apply does not share with structured-merge-diff: an atomic ``spec.selector``,
a custom resource's ``spec``/``status`` existence markers, list-map keys such as
``containerPort``+``protocol``; with any of these wrong, the re-apply removes or re-owns fields.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kgen.kubernetes.fake import FakeClientset
from kgen.runtime.fake import ObjectTracker
from tests.support.apiserver import CRDS, install_crd, wait_for
from tests.integration.test_fake_vs_server import GROUP, WIDGETS, _crd, custom_resource_models

APPLY = {"Content-Type": "application/apply-patch+yaml"}

Json = Any


def _configs(ns: str) -> list[tuple[str, str, str, Json]]:
    """(path of the object, subresource suffix, manager, configuration), in the order applied."""
    cm = f"/api/v1/namespaces/{ns}/configmaps/cm"
    web = f"/apis/apps/v1/namespaces/{ns}/deployments/web"
    widget = f"/apis/{GROUP}/v1/namespaces/{ns}/widgets/w"
    labels = {"app": "web"}
    deployment = {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "labels": {"tier": "a"}},
        "spec": {
            "replicas": 2, "selector": {"matchLabels": labels},
            "template": {"metadata": {"labels": labels}, "spec": {"containers": [{
                "name": "c", "image": "registry.invalid/c:1",
                "ports": [{"containerPort": 80, "protocol": "TCP"}, {"containerPort": 81}],
            }]}},
        },
    }
    sidecar = {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "annotations": {"by": "m2"}},
        "spec": {"template": {"spec": {"containers": [
            {"name": "c", "env": [{"name": "E", "value": "1"}]},
            {"name": "d", "image": "registry.invalid/d:1", "ports": [{"containerPort": 90, "protocol": "UDP"}]},
        ]}}},
    }
    return [
        (cm, "", "m1", {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "labels": {"x": "1"}},
                        "data": {"a": "1"}}),
        (cm, "", "m2", {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm"}, "data": {"b": "2"}}),
        (web, "", "m1", deployment),
        (web, "", "m2", sidecar),
        (widget, "", "m1", {"apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"a": "x"}}),
        (widget, "/status", "m2", {"apiVersion": f"{GROUP}/v1", "kind": "Widget", "metadata": {"name": "w"},
                                   "status": {"s": 1, "phase": "Ready"}}),
    ]


@pytest.fixture
def widgets(admin: httpx.Client) -> Iterator[None]:
    if admin.get(f"{CRDS}/widgets.{GROUP}").status_code == 404:
        install_crd(admin, _crd("Widget", "widgets", True))
    wait_for(lambda: admin.get(f"/apis/{GROUP}/v1/widgets").status_code == 200)
    yield


def _apply(client: httpx.Client, path: str, manager: str, config: Json) -> httpx.Response:
    return client.patch(path, json=config, params={"fieldManager": manager}, headers=APPLY)


@pytest.mark.integration
def test_reapplying_server_written_managed_fields_in_the_fake_changes_nothing(
    admin: httpx.Client, namespace: str, widgets: None
) -> None:
    configs = _configs(namespace)
    for path, suffix, manager, config in configs:
        response = _apply(admin, path + suffix, manager, config)
        assert response.status_code in (200, 201), response.text
    paths = list(dict.fromkeys(path for path, *_ in configs))
    written = {path: admin.get(path).json() for path in paths}

    # The oracle: the server's own re-apply changes nothing, managedFields and resourceVersion included.
    for path, suffix, manager, config in configs:
        response = _apply(admin, path + suffix, manager, config)
        assert response.status_code == 200, response.text
        assert response.json() == written[path], f"the server changed {path} on re-applying {manager}'s configuration"

    custom_resource_models()  # the fake's field manager gets the Widget's structural schema, as the server has it
    tracker: ObjectTracker = FakeClientset().tracker
    tracker.register(WIDGETS, status=True)
    loaded = {path: tracker.add(obj) for path, obj in written.items()}
    for path, obj in loaded.items():  # loaded as the server wrote it, but for the fake's own resourceVersion
        assert {**obj["metadata"], "resourceVersion": ""} == {**written[path]["metadata"], "resourceVersion": ""}
    with httpx.Client(base_url="https://fake.kgen.invalid", transport=tracker.transport()) as fake:
        for path, suffix, manager, config in configs:
            response = _apply(fake, path + suffix, manager, config)
            assert response.status_code == 200, response.text
            assert response.json() == loaded[path], _changes(loaded[path], response.json(), f"{manager} on {path}{suffix}")
        for path in paths:
            assert fake.get(path).json() == loaded[path]
    assert int(tracker.resource_version) == len(loaded)  # no write since loading


def _changes(before: Json, after: Json, what: str, at: str = "") -> str:
    """What a re-apply changed, as paths (for the failure message)."""
    if isinstance(before, dict) and isinstance(after, dict):
        lines = [_changes(before.get(k), after.get(k), what, f"{at}/{k}") for k in sorted(set(before) | set(after))]
        return "\n".join(line for line in lines if line)
    if before != after:
        return f"re-applying {what} changed {at}: {before!r} -> {after!r}"
    return ""
