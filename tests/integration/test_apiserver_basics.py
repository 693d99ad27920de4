"""The harness's real apiserver does what later issues rely on (plain httpx: no kgen client yet)."""

from __future__ import annotations

import json
import uuid

import httpx

from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import RESTRICTED_NAMESPACE, KubeAPIServer
from tests.support.apiserver import CRDS, crd_manifest, install_crd, wait_for


def _configmap(name: str, data: dict[str, str]) -> dict:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data}


def _watch_events(client: httpx.Client, path: str, params: dict, count: int) -> list[dict]:
    """Reads ``count`` watch events (or fewer, if the server ends the stream first)."""
    events: list[dict] = []
    with client.stream("GET", path, params={"watch": "true", **params}, timeout=30.0) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if line:
                events.append(json.loads(line))
            if len(events) == count:
                break
    return events


def test_configmap_create_get_list_watch_delete(admin: httpx.Client, namespace: str) -> None:
    base = f"/api/v1/namespaces/{namespace}/configmaps"
    created = admin.post(base, json=_configmap("one", {"k": "v"}))
    assert created.status_code == 201, created.text
    rv = created.json()["metadata"]["resourceVersion"]

    got = admin.get(f"{base}/one").json()
    assert got["data"] == {"k": "v"}
    assert got["metadata"]["uid"] == created.json()["metadata"]["uid"]

    listed = admin.get(base).json()
    assert listed["kind"] == "ConfigMapList"
    assert [item["metadata"]["name"] for item in listed["items"]] == ["one"]

    updated = admin.put(f"{base}/one", json={**got, "data": {"k": "v2"}})
    assert updated.status_code == 200, updated.text
    assert admin.delete(f"{base}/one").status_code == 200

    events = _watch_events(admin, base, {"resourceVersion": rv}, count=2)
    assert [(e["type"], e["object"]["metadata"]["name"]) for e in events] == [
        ("MODIFIED", "one"),
        ("DELETED", "one"),
    ]
    assert events[0]["object"]["data"] == {"k": "v2"}
    assert admin.get(f"{base}/one").status_code == 404


def _client_for(kubeconfig: str) -> httpx.Client:
    config = load_kubeconfig(kubeconfig)
    return httpx.Client(base_url=config.host, verify=config.ssl_context(), timeout=30.0)


def test_restricted_identity_is_forbidden_on_secrets(kube_apiserver: KubeAPIServer, admin: httpx.Client) -> None:
    ns = RESTRICTED_NAMESPACE
    admin.post(f"/api/v1/namespaces/{ns}/configmaps", json=_configmap(f"r-{uuid.uuid4().hex[:6]}", {}))
    with _client_for(kube_apiserver.restricted_kubeconfig) as restricted:
        allowed = restricted.get(f"/api/v1/namespaces/{ns}/configmaps")
        assert allowed.status_code == 200, allowed.text

        denied = restricted.get(f"/api/v1/namespaces/{ns}/secrets")
        assert denied.status_code == 403
        status = denied.json()
        assert status["kind"] == "Status" and status["reason"] == "Forbidden"
        assert 'User "kgen-restricted"' in status["message"]

        assert restricted.get("/api/v1/namespaces/default/configmaps").status_code == 403
        write = restricted.post(f"/api/v1/namespaces/{ns}/configmaps", json=_configmap("nope", {}))
        assert write.status_code == 403


def test_kubeconfigs_authenticate_as_their_identity(kube_apiserver: KubeAPIServer) -> None:
    review = {"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}
    seen = {}
    for kubeconfig in (kube_apiserver.kubeconfig, kube_apiserver.restricted_kubeconfig):
        config = load_kubeconfig(kubeconfig)
        assert config.host == kube_apiserver.url and config.ca_data  # CA embedded, not a path
        with _client_for(kubeconfig) as client:
            answer = client.post("/apis/authentication.k8s.io/v1/selfsubjectreviews", json=review)
            assert answer.status_code == 201, answer.text
            info = answer.json()["status"]["userInfo"]
            seen[info["username"]] = set(info.get("groups", []))
    assert "system:masters" in seen["kgen-admin"]
    assert "system:masters" not in seen["kgen-restricted"]


def test_crd_becomes_established_and_is_published_in_openapi_v3(admin: httpx.Client) -> None:
    group = f"g{uuid.uuid4().hex[:8]}.kgen.test"
    install_crd(admin, crd_manifest(group, "Widget", "widgets", {"size": {"type": "integer"}}))
    index_key = f"apis/{group}/v1"
    entry = wait_for(lambda: admin.get("/openapi/v3").json()["paths"].get(index_key))
    doc = admin.get(entry["serverRelativeURL"]).json()
    schemas = doc["components"]["schemas"]
    widget = next(s for s in schemas.values() if {"group": group, "version": "v1", "kind": "Widget"}
                  in s.get("x-kubernetes-group-version-kind", []))
    assert widget["properties"]["spec"]["properties"]["size"]["type"] == "integer"
    admin.delete(f"{CRDS}/widgets.{group}")


def test_watch_from_compacted_resource_version_is_gone(kube_apiserver_without_watch_cache: KubeAPIServer) -> None:
    server = kube_apiserver_without_watch_cache
    base = "/api/v1/namespaces/default/configmaps"
    with server.admin_client(timeout=30.0) as admin:
        old_rv = admin.post(base, json=_configmap("before", {})).json()["metadata"]["resourceVersion"]
        for i in range(3):
            admin.post(base, json=_configmap(f"after-{i}", {})).raise_for_status()

        compacted_to = server.compact_etcd()
        assert compacted_to > int(old_rv)

        params = {"watch": "true", "resourceVersion": old_rv, "timeoutSeconds": "10"}
        response = admin.get(base, params=params)
        # An expired resourceVersion comes back either as HTTP 410 or, once the watch stream
        # has started, as an ERROR event carrying a 410 Status: both mean "relist".
        if response.status_code == 410:
            status = response.json()
        else:
            assert response.status_code == 200, response.text
            event = json.loads(response.text.splitlines()[0])
            assert event["type"] == "ERROR"
            status = event["object"]
        assert status["code"] == 410
        assert status["reason"] in ("Expired", "Gone")

        # A watch from a revision after the compaction still works: only history is gone.
        fresh = admin.get(base, params={**params, "resourceVersion": str(compacted_to), "timeoutSeconds": "1"})
        assert fresh.status_code == 200 and '"ERROR"' not in fresh.text
