"""The apply/delete core without a server: the order (namespaces and CRDs first, CRDs awaited and
discovery refreshed before what follows, delete reversed), cli-runtime's namespace rules, and a
failed object leaving the others be; each on the sync and the asyncio driver."""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from typing import Any

import pytest

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.discovery import APIGroup, APIResource, RESTMapper
from kgen.runtime.kubectl._apply_core import (
    ApplyResult,
    ApplyStep,
    AwaitEstablished,
    DeleteStep,
    Discover,
    Pause,
    Options,
    Step,
    apply_steps,
    delete_steps,
    items_of,
)
from kgen.runtime.kubectl.apply import _adrive, _drive

BUILTIN = [
    APIResource("", "v1", "namespaces", "namespace", "Namespace", False),
    APIResource("", "v1", "configmaps", "configmap", "ConfigMap", True),
    APIResource("apps", "v1", "deployments", "deployment", "Deployment", True),
    APIResource("apiextensions.k8s.io", "v1", "customresourcedefinitions", "customresourcedefinition",
                "CustomResourceDefinition", False),
    APIResource("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations", "validatingwebhookconfiguration",
                "ValidatingWebhookConfiguration", False),
]
WIDGETS = APIResource("example.com", "v1", "widgets", "widget", "Widget", True)


def obj(api_version: str, kind: str, name: str, namespace: str | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name}
    if namespace:
        meta["namespace"] = namespace
    return {"apiVersion": api_version, "kind": kind, "metadata": meta}


FOLDER = [
    obj("example.com/v1", "Widget", "w1", "demo"),
    obj("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "hook"),
    obj("apps/v1", "Deployment", "web", "demo"),
    obj("v1", "ConfigMap", "settings"),
    {**obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", "widgets.example.com"),
     "spec": {"group": "example.com", "versions": [{"name": "v1", "served": True}]}},
    obj("v1", "Namespace", "demo"),
    obj("example.com/v1", "Widget", "w2", "demo"),
]


class FakeServer:
    """Answers the core's steps; Widgets are served once the CRD was applied and discovery refreshed."""

    def __init__(self, refuse: str = "", widgets_served: bool = False, dry_run: bool = False,
                 established: bool = True, discovery_lag: int = 0) -> None:
        self.discovery_lag = discovery_lag  # refreshes after Established that still miss the Widgets
        self.dry_run = dry_run
        self.established = established
        self.crd_applied = widgets_served
        self.widgets_served = widgets_served
        self.refuse = refuse
        self.log: list[str] = []

    def perform(self, step: Step) -> Any:
        if isinstance(step, Pause):
            self.log.append(f"pause {step.seconds}")
            return None
        if isinstance(step, Discover):
            lagging = self.crd_applied and step.refresh and self.discovery_lag > 0
            self.discovery_lag -= lagging
            served = BUILTIN + ([WIDGETS] if self.widgets_served or self.crd_applied and step.refresh and not lagging else [])
            self.log.append(f"discover{' refresh' if step.refresh else ''}: {len(served)}")
            groups = [APIGroup(g, ("v1",)) for g in sorted({r.group for r in served})]
            return RESTMapper(groups, served)
        if isinstance(step, AwaitEstablished):
            self.log.append(f"await {step.crd['metadata']['name']}")
            self.crd_applied = self.established
            return self.established
        if isinstance(step, ApplyStep):
            name = step.body["metadata"]["name"]
            self.log.append(f"apply {step.body['kind']}/{step.namespace or ''}/{name}")
            if name == self.refuse:
                return ApiError({"code": 422, "reason": "Invalid", "message": "refused"}, 422)
            self.crd_applied |= step.body["kind"] == "CustomResourceDefinition" and not self.dry_run
            return {**step.body, "metadata": {**step.body["metadata"], "resourceVersion": "1"}}
        assert isinstance(step, DeleteStep)
        self.log.append(f"delete {step.resource.kind}/{step.namespace or ''}/{step.name}")
        return None

    async def aperform(self, step: Step) -> Any:
        return self.perform(step)


def run(flavour: str, steps: Generator[Step, Any, list[ApplyResult]], server: FakeServer) -> list[ApplyResult]:
    if flavour == "sync":
        return _drive(steps, server.perform)
    return asyncio.run(_adrive(steps, server.aperform))


FLAVOURS = pytest.mark.parametrize("flavour", ["sync", "async"])


@FLAVOURS
def test_namespaces_and_crds_first_and_crds_awaited_before_their_resources(flavour: str) -> None:
    server = FakeServer()
    results = run(flavour, apply_steps(items_of(FOLDER, False), Options(default_namespace="home")), server)
    assert server.log == [
        "discover: 5",
        "apply Namespace//demo",
        "apply CustomResourceDefinition//widgets.example.com",
        "await widgets.example.com",
        "discover refresh: 6",
        "apply ConfigMap/home/settings",
        "apply Deployment/demo/web",
        "apply Widget/demo/w1",
        "apply Widget/demo/w2",
        "apply ValidatingWebhookConfiguration//hook",
    ]
    assert [r.line for r in results] == [  # in the order given
        "widget.example.com/w1 serverside-applied",
        "validatingwebhookconfiguration.admissionregistration.k8s.io/hook serverside-applied",
        "deployment.apps/web serverside-applied",
        "configmap/settings serverside-applied",
        "customresourcedefinition.apiextensions.k8s.io/widgets.example.com serverside-applied",
        "namespace/demo serverside-applied",
        "widget.example.com/w2 serverside-applied",
    ]
    assert results[3].stored is not None and results[3].stored["metadata"] == {
        "name": "settings", "namespace": "home", "resourceVersion": "1"}


@FLAVOURS
def test_dry_run_awaits_no_crd_and_its_resources_are_not_found(flavour: str) -> None:
    server = FakeServer(dry_run=True)
    results = run(flavour, apply_steps(items_of(FOLDER, True), Options(dry_run=True)), server)
    assert not any(line.startswith("await") for line in server.log)
    assert [r.ok for r in results] == [False, True, True, True, True, True, False]
    assert str(results[0].error) == 'no matches for kind "Widget" in version "example.com/v1": ensure CRDs are installed first'
    assert results[5].line == "namespace/demo serverside-applied (server dry run)"


@FLAVOURS
def test_a_crd_not_established_in_time_fails_its_resources_only(flavour: str) -> None:
    server = FakeServer(established=False)
    results = run(flavour, apply_steps(items_of(FOLDER, False), Options(established_timeout=5)), server)
    assert [r.ok for r in results] == [False, True, True, True, True, True, False]
    assert str(results[6].error) == (
        'no matches for kind "Widget" in version "example.com/v1": ensure CRDs are installed first '
        "(CustomResourceDefinition widgets.example.com was not Established in time)")
    assert server.log.count("discover refresh: 5") == 1  # refreshed once after the wait, not again on the miss


@FLAVOURS
def test_discovery_lagging_behind_an_established_crd_is_asked_again(flavour: str) -> None:
    """The apiserver lists an Established CRD's group-version in discovery a moment later (seen on
    a loaded 1.37.2): the custom resources wait for it rather than fail."""
    server = FakeServer(discovery_lag=3)
    results = run(flavour, apply_steps(items_of(FOLDER, False), Options()), server)
    assert all(r.ok for r in results), [r.error for r in results]
    start = server.log.index("await widgets.example.com") + 1
    assert server.log[start:start + 9] == [
        "discover refresh: 5", "apply ConfigMap/default/settings", "apply Deployment/demo/web",
        "discover refresh: 5", "pause 0.25", "discover refresh: 5", "pause 0.25", "discover refresh: 6",
        "apply Widget/demo/w1",
    ]


@FLAVOURS
def test_a_refused_object_leaves_the_others_be(flavour: str) -> None:
    server = FakeServer(refuse="web")
    results = run(flavour, apply_steps(items_of(FOLDER, False), Options()), server)
    assert [r.ok for r in results] == [True, True, False, True, True, True, True]
    assert results[2].action is None and results[2].line == "error: deployment.apps/web: 422 Invalid: refused"
    assert repr(results[2]) == "ApplyResult(deployment.apps/web in demo: failed)"
    assert repr(results[3]) == "ApplyResult(configmap/settings in default: serverside-applied)"


@FLAVOURS
def test_namespace_rules_of_the_resource_builder(flavour: str) -> None:
    objects = [obj("v1", "ConfigMap", "a"), obj("v1", "ConfigMap", "b", "other"), obj("v1", "Namespace", "n", "ignored"),
               {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"generateName": "x-"}}]
    server = FakeServer()
    results = run(flavour, apply_steps(items_of(objects, False), Options(namespace="mine")), server)
    assert [r.namespace for r in results] == ["mine", "other", None, None]
    assert str(results[1].error) == (
        'the namespace from the provided object "other" does not match the namespace "mine". '
        "You must pass '--namespace=other' to perform this operation.")
    assert str(results[3].error) == "from x-: cannot use generate name with apply"
    assert server.log[1:] == ["apply Namespace//n", "apply ConfigMap/mine/a"]


@FLAVOURS
def test_delete_goes_the_other_way(flavour: str) -> None:
    server = FakeServer(widgets_served=True)
    results = run(flavour, delete_steps(items_of(FOLDER, False), Options(default_namespace="home")), server)
    assert server.log == [
        "discover: 6",
        "delete ValidatingWebhookConfiguration//hook",
        "delete Widget/demo/w2",
        "delete Widget/demo/w1",
        "delete Deployment/demo/web",
        "delete ConfigMap/home/settings",
        "delete CustomResourceDefinition//widgets.example.com",
        "delete Namespace//demo",
    ]
    assert results[2].line == 'deployment.apps "web" deleted from demo namespace'
    assert results[5].line == 'namespace "demo" deleted'
    server = FakeServer()
    results = run(flavour, delete_steps(items_of(FOLDER, True), Options(dry_run=True)), server)
    assert [r.ok for r in results] == [False, True, True, True, True, True, False]
    assert results[3].line == 'configmap "settings" deleted from default namespace (server dry run)'
