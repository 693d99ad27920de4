"""RESTMapper built from the real server's discovery, and the dynamic client on plain dicts."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from kgen.runtime.discovery.discovery_client import DiscoveryClient
from kgen.runtime.dynamic.client import DynamicClient
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.discovery.restmapper import Ambiguous, NoMatch, RESTMapper
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.apimachinery.selectors import fields, labels
from kgen.runtime.apimachinery.unstructured import get_nested, remove_nested, set_nested
from tests.support.apiserver import CRDS, crd_manifest, install_crd, wait_for



@pytest.fixture(scope="module")
def mapper(rest: RESTClient) -> RESTMapper:
    return RESTMapper.from_discovery(DiscoveryClient(rest, cache_dir=None))


@pytest.fixture
def dynamic(rest: RESTClient) -> DynamicClient:
    return DynamicClient(rest, DiscoveryClient(rest, cache_dir=None))


def _names(lst: dict[str, Any]) -> list[str]:
    return sorted(get_nested(item, "metadata", "name") for item in lst["items"])


# -- RESTMapper -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["deploy", "Deployment", "deployment", "deployments", "deployments.apps", "deployment.v1.apps", "DEPLOY", "Deployments.Apps"]
)
def test_deployment_resolves_from_every_name_kubectl_accepts(mapper: RESTMapper, text: str) -> None:
    r = mapper.resource_for(text)
    assert (r.group, r.version, r.plural, r.kind, r.namespaced) == ("apps", "v1", "deployments", "Deployment", True)


@pytest.mark.parametrize("text", ["cm", "CM", "configmap", "configmaps", "ConfigMap", "CONFIGMAPS"])
def test_configmap_resolves_case_insensitively(mapper: RESTMapper, text: str) -> None:
    r = mapper.resource_for(text)
    assert (r.group, r.version, r.plural, r.kind) == ("", "v1", "configmaps", "ConfigMap")


def test_partial_group_and_preferred_version(mapper: RESTMapper) -> None:
    hpa = mapper.resource_for("hpa")
    assert (hpa.group, hpa.version) == ("autoscaling", "v2")  # the group's preferred version
    assert mapper.resource_for("hpa.v1.autoscaling").version == "v1"
    assert mapper.resource_for("clusterroles.rbac").group == "rbac.authorization.k8s.io"


def test_core_group_wins_an_unqualified_name_served_by_two_groups(mapper: RESTMapper) -> None:
    assert mapper.resource_for("events").group == ""
    assert mapper.resource_for("events.events.k8s.io").group == "events.k8s.io"


def test_category_all_includes_pods_and_deployments_once(mapper: RESTMapper) -> None:
    everything = mapper.category("ALL")
    names = [(r.group, r.plural) for r in everything]
    assert {("", "pods"), ("apps", "deployments"), ("", "services")} <= set(names)
    assert ("", "configmaps") not in names and len(names) == len(set(names))


def test_kind_to_resource(mapper: RESTMapper) -> None:
    assert mapper.rest_mapping("Deployment").plural == "deployments"
    assert mapper.rest_mapping("configmap").plural == "configmaps"
    hpa = mapper.rest_mapping("HorizontalPodAutoscaler", "autoscaling")
    assert (hpa.plural, hpa.version) == ("horizontalpodautoscalers", "v2")
    assert mapper.rest_mapping("HorizontalPodAutoscaler", "autoscaling", "v1").version == "v1"
    assert mapper.kind_for("deploy") == "Deployment"
    with pytest.raises(Ambiguous, match=r"^kind 'Event' is served by several groups: '' \(core\), 'events.k8s.io'; name one$"):
        mapper.rest_mapping("Event")  # core/v1 and events.k8s.io/v1


def test_unknown_names_are_no_match(mapper: RESTMapper) -> None:
    for text in ("nosuchthing", "deployments.nosuchgroup", "deployment.v9.apps"):
        with pytest.raises(NoMatch):
            mapper.resource_for(text)
    with pytest.raises(NoMatch):
        mapper.rest_mapping("Deployment", "batch")


# -- DynamicClient ----------------------------------------------------------------------------


def test_dynamic_configmap_lifecycle_on_plain_dicts(dynamic: DynamicClient, namespace: str) -> None:
    cms = dynamic.for_name("cm", namespace=namespace)
    created = cms.create({"metadata": {"name": "dyn", "labels": {"app": "x"}}, "data": {"k": "v"}})
    assert (created["apiVersion"], created["kind"]) == ("v1", "ConfigMap")  # filled in from discovery

    got = cms.get("dyn")
    set_nested(got, "v2", "data", "k")
    set_nested(got, "new", "data", "added")
    remove_nested(got, "metadata", "labels", "app")
    updated = cms.update(got)
    assert updated["data"] == {"k": "v2", "added": "new"}
    assert get_nested(updated, "metadata", "labels", "app") is None

    assert _names(cms.list()) == ["dyn"]
    assert cms.delete("dyn") is None
    with pytest.raises(NotFound):
        cms.get("dyn")


def test_dynamic_resource_by_group_version_plural(dynamic: DynamicClient, namespace: str) -> None:
    deployments = dynamic.resource("apps", "v1", "deployments", namespace)
    deployments.create(
        {
            "metadata": {"name": "web"},
            "spec": {
                "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}},
            },
        }
    )
    got = deployments.get("web")
    assert got["kind"] == "Deployment" and get_nested(got, "spec", "replicas") == 1  # server default
    assert _names(dynamic.for_kind("Deployment", namespace=namespace).list()) == ["web"]


def test_dynamic_cluster_scoped_resource_ignores_the_namespace(dynamic: DynamicClient, namespace: str) -> None:
    namespaces = dynamic.for_name("ns", namespace="ignored")
    assert get_nested(namespaces.get(namespace), "metadata", "name") == namespace


def test_crd_becomes_usable_through_the_dynamic_client_after_invalidate(
    rest: RESTClient, admin: httpx.Client, namespace: str
) -> None:
    discovery = DiscoveryClient(rest, cache_dir=None)
    dynamic = DynamicClient(rest, discovery)
    group = f"g{uuid.uuid4().hex[:8]}.kgen.test"
    with pytest.raises(NoMatch):
        dynamic.for_name(f"widgets.{group}")  # discovery is now cached without it
    crd = crd_manifest(group, "Widget", "widgets", {"size": {"type": "integer"}})
    install_crd(admin, crd)
    try:
        def discovered() -> bool:
            discovery.invalidate()
            return any(r.group == group for r in discovery.resources())

        wait_for(discovered, timeout=30)
        widgets = dynamic.for_name(f"widget.{group}", namespace=namespace)
        created = widgets.create({"metadata": {"name": "w1"}, "spec": {"size": 3}})
        assert (created["apiVersion"], created["kind"]) == (f"{group}/v1", "Widget")
        set_nested(created, 4, "spec", "size")
        assert get_nested(widgets.update(created), "spec", "size") == 4
        assert _names(widgets.list()) == ["w1"]
        widgets.delete("w1")
    finally:
        admin.delete(f"{CRDS}/{crd['metadata']['name']}")


# -- selectors on the real server -------------------------------------------------------------


def test_built_selectors_select_what_the_server_selects(dynamic: DynamicClient, namespace: str) -> None:
    cms = dynamic.for_name("configmaps", namespace=namespace)
    for name, lbls in {
        "fe": {"tier": "fe", "app": "web"},
        "be": {"tier": "be", "app": "web", "canary": "true"},
        "db": {"tier": "db", "app": "web"},
        "other": {"app": "other"},
    }.items():
        cms.create({"metadata": {"name": name, "labels": lbls}})
    assert _names(cms.list(label_selector=labels(app="web"))) == ["be", "db", "fe"]
    assert _names(cms.list(label_selector=labels(app="web").in_("tier", ["fe", "be"]))) == ["be", "fe"]
    assert _names(cms.list(label_selector=labels().not_in("tier", ["fe", "be"]))) == ["db", "other"]
    assert _names(cms.list(label_selector=labels().exists("tier").does_not_exist("canary"))) == ["db", "fe"]
    assert _names(cms.list(label_selector=labels().ne("app", "web"))) == ["other"]
    assert _names(cms.list(field_selector=fields(**{"metadata.name": "db"}))) == ["db"]
    assert _names(cms.list(field_selector=fields().ne("metadata.name", "db"), label_selector="app=web")) == ["be", "fe"]


def test_field_selector_values_are_escaped_for_the_server(dynamic: DynamicClient, namespace: str) -> None:
    secrets = dynamic.for_name("secrets", namespace=namespace)
    odd_type = r"kgen.test/a,b=c\d"  # Secret types are free-form: the selector must escape , = and \
    secrets.create({"metadata": {"name": "odd"}, "type": odd_type})
    secrets.create({"metadata": {"name": "plain"}, "type": "kgen.test/a"})
    assert _names(secrets.list(field_selector=fields(type=odd_type))) == ["odd"]
    assert _names(secrets.list(field_selector=fields().ne("type", odd_type))) == ["plain"]
