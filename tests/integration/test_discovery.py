"""Discovery against the real apiserver: aggregated and legacy, the disk cache, a dead aggregated API."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.discovery.discovery_client import AGGREGATED_ACCEPT, APIResource, Discovered, DiscoveryClient
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import wait_for

BROKEN_GROUP = "broken.kgen.test"
APISERVICES = "/apis/apiregistration.k8s.io/v1/apiservices"


class CountingRESTClient(RESTClient):
    """Records the path of every request sent."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.paths: list[str] = []
        self.http.event_hooks = {"request": [lambda request: self.paths.append(request.url.path)], "response": []}


@pytest.fixture
def rest(kube_apiserver: KubeAPIServer) -> Iterator[CountingRESTClient]:
    config = load_kubeconfig(kube_apiserver.kubeconfig)
    config.qps = -1
    with CountingRESTClient(config) as client:
        yield client


def _resource(found: Discovered, group: str, plural: str) -> APIResource:
    (resource,) = [r for r in found.resources if (r.group, r.plural) == (group, plural)][:1]
    return resource


def test_aggregated_discovery_describes_core_and_apps_resources(rest: CountingRESTClient) -> None:
    found = DiscoveryClient(rest, cache_dir=None).discover()
    assert rest.paths == ["/api", "/apis"]  # two requests for everything

    cm = _resource(found, "", "configmaps")
    assert (cm.version, cm.kind, cm.singular, cm.namespaced, cm.short_names) == ("v1", "ConfigMap", "configmap", True, ("cm",))
    assert set(cm.verbs) == {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}

    deploy = _resource(found, "apps", "deployments")
    assert (deploy.version, deploy.kind, deploy.namespaced, deploy.short_names) == ("v1", "Deployment", True, ("deploy",))
    assert deploy.categories == ("all",)
    subresources = dict(deploy.subresources)
    assert set(subresources) == {"scale", "status"}
    assert subresources["scale"] == ("get", "patch", "update")

    pods = _resource(found, "", "pods")
    assert {"log", "eviction", "status", "exec"} <= dict(pods.subresources).keys()
    assert dict(pods.subresources)["eviction"] == ("create",)
    assert not _resource(found, "", "nodes").namespaced

    groups = {g.name: g for g in found.groups}
    assert groups[""].preferred_version == "v1" and groups["apps"].versions == ("v1",)
    assert groups["autoscaling"].versions[0] == "v2" and "v1" in groups["autoscaling"].versions
    assert found.failed == {}


def test_server_version(rest: CountingRESTClient, kube_apiserver: KubeAPIServer) -> None:
    assert DiscoveryClient(rest, cache_dir=None).server_version()["gitVersion"] == kube_apiserver.version


def test_disk_cache_is_written_and_reused_within_the_ttl(rest: CountingRESTClient, tmp_path: Path) -> None:
    first = DiscoveryClient(rest, cache_dir=tmp_path).discover()
    assert rest.paths == ["/api", "/apis"] and (tmp_path / "discovery.json").is_file()

    rest.paths.clear()
    second_client = DiscoveryClient(rest, cache_dir=tmp_path)  # a new process, in effect
    assert second_client.discover() == first
    assert second_client.discover() == first  # and then from memory
    assert rest.paths == []

    second_client.invalidate()
    assert not (tmp_path / "discovery.json").exists()
    assert second_client.discover() == first
    assert rest.paths == ["/api", "/apis"] and (tmp_path / "discovery.json").is_file()


def test_disk_cache_older_than_the_ttl_is_refetched(rest: CountingRESTClient, tmp_path: Path) -> None:
    DiscoveryClient(rest, cache_dir=tmp_path, ttl=60).discover()
    cache = tmp_path / "discovery.json"
    old = time.time() - 61
    os.utime(cache, (old, old))
    rest.paths.clear()
    DiscoveryClient(rest, cache_dir=tmp_path, ttl=60).discover()
    assert rest.paths == ["/api", "/apis"]
    assert time.time() - cache.stat().st_mtime < 60  # rewritten


def test_damaged_disk_cache_is_refetched(rest: CountingRESTClient, tmp_path: Path) -> None:
    (tmp_path / "discovery.json").write_text('{"groups": [')
    found = DiscoveryClient(rest, cache_dir=tmp_path).discover()
    assert rest.paths == ["/api", "/apis"] and _resource(found, "", "configmaps").kind == "ConfigMap"


def test_legacy_discovery_yields_the_same_resources_as_aggregated(rest: CountingRESTClient) -> None:
    aggregated = DiscoveryClient(rest, cache_dir=None).discover()
    rest.paths.clear()
    legacy = DiscoveryClient(rest, cache_dir=None, aggregated=False).discover()
    assert rest.paths[:2] == ["/api", "/apis"] and {"/api/v1", "/apis/apps/v1"} <= set(rest.paths)
    assert sorted(legacy.resources, key=repr) == sorted(aggregated.resources, key=repr)
    assert sorted(legacy.groups, key=repr) == sorted(aggregated.groups, key=repr)
    assert legacy.failed == {}


def _aggregated_versions(admin: httpx.Client) -> dict[str, str]:
    """group/version -> freshness, as the server's aggregated discovery reports them."""
    doc = admin.get("/apis", headers={"Accept": AGGREGATED_ACCEPT}).json()
    return {
        f"{g['metadata']['name']}/{v['version']}": v.get("freshness", "Current")
        for g in doc["items"]
        for v in g.get("versions") or []
    }


@pytest.fixture
def broken_apiservice(admin: httpx.Client) -> Iterator[str]:
    """An APIService for broken.kgen.test/v1 whose Service has no endpoints (nothing answers)."""
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "kgen-broken"}, "spec": {"ports": [{"port": 443}]}}
    admin.post("/api/v1/namespaces/default/services", json=service).raise_for_status()
    apiservice = {
        "apiVersion": "apiregistration.k8s.io/v1",
        "kind": "APIService",
        "metadata": {"name": f"v1.{BROKEN_GROUP}"},
        "spec": {
            "group": BROKEN_GROUP, "version": "v1", "groupPriorityMinimum": 1000, "versionPriority": 15,
            "insecureSkipTLSVerify": True, "service": {"name": "kgen-broken", "namespace": "default", "port": 443},
        },
    }
    admin.post(APISERVICES, json=apiservice).raise_for_status()
    try:
        yield f"{BROKEN_GROUP}/v1"
    finally:
        admin.delete(f"{APISERVICES}/v1.{BROKEN_GROUP}")
        admin.delete("/api/v1/namespaces/default/services/kgen-broken")


def test_unavailable_aggregated_api_is_reported_in_failed_and_discovery_still_succeeds(
    rest: CountingRESTClient, admin: httpx.Client, broken_apiservice: str, tmp_path: Path
) -> None:
    # The server's aggregated discovery marks the group-version Stale once it has tried it.
    wait_for(lambda: _aggregated_versions(admin).get(broken_apiservice) == "Stale", timeout=30)

    for client in (DiscoveryClient(rest, cache_dir=tmp_path), DiscoveryClient(rest, cache_dir=None, aggregated=False)):
        found = client.discover()
        assert broken_apiservice in found.failed, found.failed
        assert BROKEN_GROUP not in {g.name for g in found.groups}
        assert not [r for r in found.resources if r.group == BROKEN_GROUP]
        assert _resource(found, "apps", "deployments").kind == "Deployment"
    assert not (tmp_path / "discovery.json").exists()  # a partial answer is never cached

    admin.delete(f"{APISERVICES}/v1.{BROKEN_GROUP}").raise_for_status()
    wait_for(lambda: broken_apiservice not in _aggregated_versions(admin), timeout=30)
    client = DiscoveryClient(rest, cache_dir=tmp_path)
    assert client.discover().failed == {} and (tmp_path / "discovery.json").is_file()
