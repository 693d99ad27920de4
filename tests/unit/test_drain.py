"""kgen's drain and cordon on the fake clientset, each test on both flavours (threads, asyncio).

What a cluster cannot show is tested here: a mirror pod (the apiserver accepts the mirror
annotation only from the node's kubelet, so an admin client cannot create one) is skipped and
never evicted; the pods' eviction loops (a 429 retried after the delay with the pod read again,
a 404 meaning gone, a replacement of the same name counted as gone, a terminating namespace, a
timeout's messages), the delete path (``disable_eviction``), a pod deleted long ago skipped,
and bad input. The comparison with kubectl itself is tests/cluster/test_drain.py.

The fake clientset serves neither the core v1 discovery nor ``pods/eviction``; ``_Cluster``
adds both in front of its tracker: an eviction deletes the pod unless the test scripted an
answer for that pod (429s, a replacement, a terminating namespace).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import re
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import httpx
import pytest

from kgen.kubernetes.fake import FakeClientset
from kgen.runtime.kubectl.drain import filters as drain_filters
from kgen.runtime.kubectl.drain import DrainError, DrainOutcome, DrainResult, PodDeleteStatus, cordon, drain, uncordon
from kgen.runtime.kubectl.drain.core import DrainOptions, aggregate, drain_steps, go_duration
from kgen.runtime.kubectl.drain.steps import arun, run
from kgen.runtime.rest import AsyncRESTClient, Config, RESTClient

NODE = "n1"
DISCOVERY = {"kind": "APIResourceList", "groupVersion": "v1", "resources": [
    {"name": "pods", "kind": "Pod", "namespaced": True, "verbs": ["get", "list", "delete"]},
    {"name": "pods/eviction", "kind": "Eviction", "group": "policy", "version": "v1", "namespaced": True, "verbs": ["create"]},
]}
EVICTION = re.compile(r"/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction")


def pod(name: str, *, owner: str | None = "ReplicaSet", node: str = NODE, annotations: dict[str, str] | None = None,
        empty_dir: bool = False, phase: str = "Running", ns: str = "ns", **metadata: Any) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": ns, "uid": f"uid-{name}", **metadata}
    if owner:
        meta["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": owner, "name": f"{owner.lower()}-1", "uid": "u",
                                    "controller": True}]
    if annotations:
        meta["annotations"] = annotations
    spec: dict[str, Any] = {"nodeName": node, "containers": [{"name": "c", "image": "i"}]}
    if empty_dir:
        spec["volumes"] = [{"name": "v", "emptyDir": {}}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": {"phase": phase}}


NODE_OBJ = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": NODE}}
DAEMON_SET = {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "daemonset-1", "namespace": "ns"},
              "spec": {"selector": {"matchLabels": {"a": "b"}},
                       "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}}


class _Cluster:
    """A fake clientset's tracker, plus the core v1 discovery and the eviction subresource."""

    def __init__(self, *objects: dict[str, Any], eviction: bool = True) -> None:
        self.fake = FakeClientset(*objects)
        self.eviction = eviction
        self.scripted: dict[str, list[Callable[[], httpx.Response | None]]] = {}
        self.evictions: list[tuple[str, dict[str, Any]]] = []
        self.inner: httpx.BaseTransport = self.fake.tracker.transport()

    def answer(self, request: httpx.Request) -> httpx.Response | None:
        """The answer this wrapper gives itself, or None to ask the tracker."""
        if request.url.path == "/api/v1":
            resources: Any = DISCOVERY["resources"]
            resources = resources if self.eviction else resources[:1]
            return httpx.Response(200, json={**DISCOVERY, "resources": resources})
        match = EVICTION.fullmatch(request.url.path)
        if match is None or request.method != "POST":
            return None
        name = match.group(2)
        body = json.loads(request.content)
        self.evictions.append((name, body))
        if (body.get("deleteOptions") or {}).get("dryRun") == ["All"]:
            return httpx.Response(201, json={"kind": "Status", "apiVersion": "v1", "status": "Success"})
        script = self.scripted.get(name)
        if script:
            scripted: httpx.Response | None = script.pop(0)()
            if scripted is not None:
                return scripted
        gone = self.inner.handle_request(httpx.Request("DELETE", str(request.url).removesuffix("/eviction")))
        if gone.status_code >= 400:
            return gone
        return httpx.Response(201, json={"kind": "Status", "apiVersion": "v1", "status": "Success"})

    def sync(self) -> httpx.BaseTransport:
        outer = self

        class Sync(httpx.BaseTransport):
            def handle_request(self, request: httpx.Request) -> httpx.Response:
                request.read()
                return outer.answer(request) or outer.inner.handle_request(request)

        return Sync()

    def asynchronous(self) -> httpx.AsyncBaseTransport:
        outer = self
        inner = self.fake.tracker.async_transport()

        class Async(httpx.AsyncBaseTransport):
            async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
                await request.aread()
                return outer.answer(request) or await inner.handle_async_request(request)

        return Async()

    def pods(self) -> list[str]:
        return sorted(p.metadata.name or "" for p in self.fake.core_v1.pods("").list().items if p.metadata)


def status(code: int, reason: str, message: str, causes: list[dict[str, str]] | None = None) -> Callable[[], httpx.Response]:
    body = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": code, "reason": reason, "message": message,
            "details": {"causes": causes or []}}
    return lambda: httpx.Response(code, json=body)


PDB_429 = status(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.",
                 [{"reason": "DisruptionBudget", "message": "The disruption budget web needs 2 healthy pods and has 2 currently"}])


class _Clients:
    """A clientset of one flavour over a ``_Cluster``; ``call`` runs a drain/cordon function."""

    def __init__(self, flavour: str, cluster: _Cluster) -> None:
        self.flavour = flavour
        config = Config(host="https://fake.kgen.invalid", qps=-1)
        self.rest: Any = RESTClient(config, transport=cluster.sync()) if flavour == "sync" else \
            AsyncRESTClient(config, transport=cluster.asynchronous())

    def call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self.flavour == "sync":
            return function(self, *args, **kwargs)
        return asyncio.run(function(self, *args, **kwargs))

    def steps(self, steps: Any) -> Any:
        return run(self.rest, steps) if self.flavour == "sync" else asyncio.run(arun(self.rest, steps))

    def drain(self, **kwargs: Any) -> DrainResult:
        result: DrainResult = self.call(drain, NODE, **{"evict_error_retry_delay": 0.01, **kwargs})
        return result

    def refused(self, **kwargs: Any) -> DrainError:
        with pytest.raises(DrainError) as caught:
            self.drain(**kwargs)
        return caught.value


@pytest.fixture(params=["sync", "async"])
def flavour(request: pytest.FixtureRequest) -> Iterator[str]:
    yield str(request.param)


def _outcomes(result: DrainResult) -> dict[str, str]:
    return {p.name: p.outcome.value for p in result.pods}


def test_a_mirror_pod_is_skipped_and_never_evicted(flavour: str) -> None:
    mirror = pod("kube-apiserver-n1", owner="Node", annotations={drain_filters.MIRROR_POD_ANNOTATION: "abc"})
    cluster = _Cluster(NODE_OBJ, mirror, pod("web-1"))
    result = _Clients(flavour, cluster).drain()
    assert _outcomes(result) == {"kube-apiserver-n1": "skipped", "web-1": "evicted"}
    assert [name for name, _ in cluster.evictions] == ["web-1"]
    assert cluster.pods() == ["kube-apiserver-n1"]
    assert result.warnings == [] and "Warning" not in " ".join(result.output)
    assert result.output == [f"node/{NODE} cordoned", "evicting pod ns/web-1", "pod/web-1 evicted", f"node/{NODE} drained"]


def test_only_the_nodes_pods_matching_the_selector_are_drained(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, pod("web-1"), pod("other", node="n2"), pod("db-1", labels={"app": "db"}))
    result = _Clients(flavour, cluster).drain(pod_selector="app=db")
    assert _outcomes(result) == {"db-1": "evicted"}
    assert cluster.pods() == ["other", "web-1"]


def test_the_pods_are_listed_in_pages_of_chunk_size(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, *(pod(f"web-{i}") for i in range(3)))
    result = _Clients(flavour, cluster).drain(chunk_size=2)
    assert _outcomes(result) == {f"web-{i}": "evicted" for i in range(3)}
    lists = [a.params for a in cluster.fake.actions() if a.verb == "list"]
    assert [(p["limit"], "continue" in p, p["fieldSelector"]) for p in lists] == [
        ("2", False, f"spec.nodeName={NODE}"), ("2", True, f"spec.nodeName={NODE}")]


def test_a_refused_drain_evicts_nothing_and_aggregates_kubectls_errors(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, DAEMON_SET, pod("bare", owner=None), pod("ds-1", owner="DaemonSet"), pod("web-1"),
                       pod("web-2", empty_dir=True))
    error = _Clients(flavour, cluster).refused()
    assert error.errors == [
        "cannot delete Pods that declare no controller (use --force to override): ns/bare",
        "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): ns/ds-1",
        "cannot delete Pods with local storage (use --delete-emptydir-data to override): ns/web-2",
    ]
    assert str(error) == "[" + ", ".join(error.errors) + "]"
    assert _outcomes(error.result) == {"bare": "refused", "ds-1": "refused", "web-1": "pending", "web-2": "refused"}
    assert cluster.evictions == [] and len(cluster.pods()) == 4
    assert cluster.fake.core_v1.nodes().get(NODE).spec.unschedulable is True  # type: ignore[union-attr]


def test_an_orphaned_daemonset_pod_refuses_the_drain_unless_forced(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, pod("ds-1", owner="DaemonSet"))
    error = _Clients(flavour, cluster).refused()
    assert error.errors == ['cannot delete daemonsets.apps "daemonset-1" not found: ns/ds-1']
    result = _Clients(flavour, cluster).drain(force=True)
    # The DaemonSet filter's warning is overwritten by the next filters' Okay (kubectl keeps the
    # last filter's status), so kubectl prints none, as for a replicated pod with local storage.
    assert result.warnings == [] and _outcomes(result) == {"ds-1": "evicted"}


def test_additional_filters_run_after_kubectls_and_can_refuse_skip_or_warn(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, DAEMON_SET, pod("ds-1", owner="DaemonSet"), pod("db-0", labels={"tier": "db"}),
                       pod("cache-0", labels={"tier": "cache"}), pod("web-1"))
    seen: list[str] = []

    def by_tier(p: Mapping[str, Any]) -> PodDeleteStatus:
        seen.append(p["metadata"]["name"])
        tier = (p["metadata"].get("labels") or {}).get("tier")
        if tier == "db":
            return PodDeleteStatus.error("Pods of the db tier (drain them by hand)")
        if tier == "cache":
            return PodDeleteStatus.warning(False, "leaving cache Pods")
        return PodDeleteStatus.okay()

    error = _Clients(flavour, cluster).refused(ignore_daemonsets=True, additional_filters=[by_tier])
    assert error.errors == ["cannot delete Pods of the db tier (drain them by hand): ns/db-0"]
    assert seen == ["cache-0", "db-0", "web-1"]  # not the DaemonSet's pod: kubectl's filter stopped at it
    result = _Clients(flavour, cluster).drain(
        ignore_daemonsets=True, additional_filters=[lambda p: PodDeleteStatus.skip("db") if p["metadata"]["name"] == "db-0"
                                                    else PodDeleteStatus.okay(), by_tier])
    assert _outcomes(result) == {"cache-0": "skipped", "db-0": "skipped", "ds-1": "skipped", "web-1": "evicted"}
    assert result.warnings == ["leaving cache Pods: ns/cache-0", "ignoring DaemonSet-managed Pods: ns/ds-1"]  # list order
    with pytest.raises(TypeError, match="additional_filters: .* returned None, expected a PodDeleteStatus"):
        _Clients(flavour, cluster).drain(additional_filters=[lambda p: None])


def test_a_finished_pod_goes_whatever_the_filters(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, DAEMON_SET, pod("done", owner=None, empty_dir=True, phase="Succeeded"),
                       pod("ds-done", owner="DaemonSet", phase="Failed"))
    assert _outcomes(_Clients(flavour, cluster).drain()) == {"done": "evicted", "ds-done": "evicted"}


def test_a_429_is_retried_after_the_delay_with_kubectls_message(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, pod("web-1"), pod("web-2"))
    cluster.scripted["web-2"] = [PDB_429, PDB_429]
    result = _Clients(flavour, cluster).drain(grace_period=7)
    retry = ('error when evicting pods/"web-2" -n "ns" (will retry after 10ms): '
             "Cannot evict pod as it would violate the pod's disruption budget.")
    web2 = next(p for p in result.pods if p.name == "web-2")
    assert web2.messages == ["evicting pod ns/web-2", retry, "evicting pod ns/web-2", retry, "evicting pod ns/web-2",
                             "pod/web-2 evicted"]
    assert (web2.outcome, web2.evictions) == (DrainOutcome.EVICTED, 3)
    # Every eviction was asked for before the first wait, as kubectl's goroutines do.
    assert result.output[1:3] == ["evicting pod ns/web-1", "evicting pod ns/web-2"]
    assert {json.dumps(body, sort_keys=True) for _, body in cluster.evictions} == {
        json.dumps({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": n, "namespace": "ns"},
                    "deleteOptions": {"gracePeriodSeconds": 7}}, sort_keys=True) for n in ("web-1", "web-2")}


def test_the_timeout_ends_retries_with_kubectls_global_timeout_message(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, pod("web-1"))
    cluster.scripted["web-1"] = [PDB_429] * 100
    error = _Clients(flavour, cluster).refused(timeout=0.2, evict_error_retry_delay=5)
    assert error.errors == ['error when evicting pods/"web-1" -n "ns": global timeout reached: 200ms']
    assert error.result.pods[0].outcome == DrainOutcome.FAILED and error.result.pods[0].evictions == 1
    assert f"node/{NODE} drained" not in error.result.output


def test_a_pod_gone_before_its_eviction_counts_as_gone_silently(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, pod("web-1"))
    cluster.scripted["web-1"] = [status(404, "NotFound", 'pods "web-1" not found')]
    result = _Clients(flavour, cluster).drain()
    assert _outcomes(result) == {"web-1": "gone"} and result.pods[0].messages == ["evicting pod ns/web-1"]


def test_a_replacement_of_the_same_name_counts_as_evicted(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, pod("web-0", owner="StatefulSet"))

    def replace() -> httpx.Response:
        cluster.fake.core_v1.pods("ns").delete("web-0")
        cluster.fake.tracker.add(pod("web-0", owner="StatefulSet", uid="uid-new"))
        return httpx.Response(201, json={"kind": "Status", "status": "Success"})

    cluster.scripted["web-0"] = [replace]
    result = _Clients(flavour, cluster).drain()
    assert _outcomes(result) == {"web-0": "evicted"} and cluster.pods() == ["web-0"]


def test_a_terminating_namespace_is_retried_unless_the_pod_is_being_deleted(flavour: str) -> None:
    terminating = status(403, "Forbidden", 'pods "web-1" is forbidden: unable to create new content in namespace ns because it is '
                         "being terminated", [{"reason": "NamespaceTerminating", "message": "namespace ns is being terminated"}])
    cluster = _Cluster(NODE_OBJ, pod("web-1"))
    cluster.scripted["web-1"] = [terminating]
    result = _Clients(flavour, cluster).drain()
    assert result.pods[0].messages[1].startswith(
        'error when evicting pod "web-1" from terminating namespace "ns" (will retry after 10ms): pods "web-1" is forbidden')
    assert result.pods[0].outcome == DrainOutcome.EVICTED and result.pods[0].evictions == 2


def test_another_eviction_error_fails_that_pod_only(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ, pod("web-1"), pod("web-2"))
    cluster.scripted["web-1"] = [status(500, "InternalError", "etcd is down")]
    error = _Clients(flavour, cluster).refused()
    assert error.errors == ['error when evicting pods/"web-1" -n "ns": etcd is down']
    assert _outcomes(error.result) == {"web-1": "failed", "web-2": "evicted"}


@pytest.mark.parametrize("disable_eviction", [True, False])
def test_without_eviction_pods_are_deleted_and_waited_for(flavour: str, disable_eviction: bool) -> None:
    cluster = _Cluster(NODE_OBJ, pod("web-1"), pod("web-2"), eviction=disable_eviction)
    result = _Clients(flavour, cluster).drain(disable_eviction=disable_eviction, grace_period=0)
    assert _outcomes(result) == {"web-1": "deleted", "web-2": "deleted"}
    assert cluster.evictions == [] and cluster.pods() == []
    assert result.output == [f"node/{NODE} cordoned", "pod/web-1 deleted", "pod/web-2 deleted", f"node/{NODE} drained"]
    deletes = [a for a in cluster.fake.actions() if a.verb == "delete"]
    assert [a.name for a in deletes] == ["web-1", "web-2"]


@pytest.mark.parametrize("disable_eviction", [False, True])
def test_a_pod_that_outlives_the_timeout_fails_with_kubectls_wait_error(flavour: str, disable_eviction: bool) -> None:
    cluster = _Cluster(NODE_OBJ, pod("held", finalizers=["hold"]))
    error = _Clients(flavour, cluster).refused(timeout=0.3, disable_eviction=disable_eviction)
    expected = "context deadline exceeded" if disable_eviction else \
        'error when waiting for pod "held" in namespace "ns" to terminate: context deadline exceeded'
    assert error.errors == [expected] and error.result.pods[0].outcome == DrainOutcome.FAILED
    assert cluster.fake.core_v1.pods("ns").get("held").metadata.deletion_timestamp  # type: ignore[union-attr]


def test_a_pod_deleted_long_ago_is_skipped_and_one_that_becomes_so_is_not_waited_for(flavour: str) -> None:
    old = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=60)).strftime("%Y-%m-%dT%H:%M:%SZ")
    cluster = _Cluster(NODE_OBJ, pod("stuck", deletionTimestamp=old, finalizers=["hold"]), pod("held", finalizers=["hold"]))
    clients = _Clients(flavour, cluster)
    later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=100)  # as if 100 s had passed since
    options = DrainOptions(skip_wait_for_delete_timeout=30, evict_error_retry_delay=0.01)
    result = clients.steps(drain_steps(NODE, options, clock=time.monotonic, wall=lambda: later))
    assert _outcomes(result) == {"held": "skipped", "stuck": "skipped"}
    held = next(p for p in result.pods if p.name == "held")
    assert held.messages[-1] == 'pod "held" has DeletionTimestamp older than 30 seconds, skipping' and held.evictions == 1
    assert [name for name, _ in cluster.evictions] == ["held"]


@pytest.mark.parametrize("disable_eviction", [False, True])
def test_a_server_dry_run_changes_nothing_and_waits_for_nothing(flavour: str, disable_eviction: bool) -> None:
    cluster = _Cluster(NODE_OBJ, pod("web-1"), pod("bare", owner=None))
    result = _Clients(flavour, cluster).drain(dry_run=True, force=True, disable_eviction=disable_eviction)
    verb = "deleted" if disable_eviction else "evicted"
    assert _outcomes(result) == {"bare": verb, "web-1": verb} and result.dry_run
    evicting = [] if disable_eviction else ["evicting pod ns/bare (server dry run)", "evicting pod ns/web-1 (server dry run)"]
    assert result.output == [f"node/{NODE} cordoned (server dry run)",
                             "Warning: deleting Pods that declare no controller: ns/bare", *evicting,
                             f"node/{NODE} drained (server dry run)"]
    assert cluster.pods() == ["bare", "web-1"] and not cluster.fake.core_v1.nodes().get(NODE).to_dict().get("spec")
    writes = [(a.verb, a.params.get("dryRun")) for a in cluster.fake.actions() if a.verb in ("patch", "delete")]
    assert writes == [("patch", "All")] + ([("delete", None)] * 2 if disable_eviction else [])
    if not disable_eviction:
        assert {b["deleteOptions"]["dryRun"][0] for _, b in cluster.evictions} == {"All"}


def test_cordon_and_uncordon_send_kubectls_patch_only_when_needed(flavour: str) -> None:
    cluster = _Cluster(NODE_OBJ)
    clients = _Clients(flavour, cluster)
    assert [clients.call(cordon, NODE), clients.call(cordon, NODE), clients.call(uncordon, NODE), clients.call(uncordon, NODE)] \
        == [True, False, True, False]
    patches = [(a.patch_type, a.patch) for a in cluster.fake.actions() if a.verb == "patch"]
    assert patches == [("application/strategic-merge-patch+json", b'{"spec":{"unschedulable":true}}'),
                       ("application/strategic-merge-patch+json", b'{"spec":{"unschedulable":null}}')]
    assert cluster.fake.core_v1.nodes().get(NODE).to_dict().get("spec", {}).get("unschedulable") is None


def test_a_missing_node_raises_the_servers_error(flavour: str) -> None:
    from kgen.runtime.apimachinery import NotFound

    with pytest.raises(NotFound, match='nodes "nowhere" not found'):
        _Clients(flavour, _Cluster()).call(drain, "nowhere")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"timeout": -1}, "timeout: expected seconds >= 0"),
    ({"pod_selector": "app in (a"}, "pod_selector: expected a valid label selector"),
    ({"grace_period": 1.5}, "grace_period: expected whole seconds"),
    ({"force": "yes"}, "force: expected True or False"),
])
def test_bad_options_are_refused_before_anything_is_sent(kwargs: dict[str, Any], message: str) -> None:
    cluster = _Cluster(NODE_OBJ)
    with pytest.raises((ValueError, TypeError), match=re.escape(message)):
        _Clients("sync", cluster).drain(**kwargs)
    with pytest.raises(ValueError, match="node: expected the name of a Node"):
        _Clients("sync", cluster).call(drain, "")
    assert cluster.fake.actions() == []


@pytest.mark.parametrize(("seconds", "text"), [
    (5, "5s"), (0.2, "200ms"), (90, "1m30s"), (3600, "1h0m0s"), (1.5, "1.5s"), (0, "0s"), (0.0000015, "1.5µs"),
    ((2**63 - 1) / 1e9, "2562047h47m16.854775807s"),
])
def test_durations_are_written_as_go_writes_them(seconds: float, text: str) -> None:
    assert go_duration(seconds) == text


def test_errors_aggregate_as_apimachinery_does() -> None:
    assert aggregate(["a"]) == "a"
    assert aggregate(["a", "b", "a"]) == "[a, b]"
    assert aggregate(["a", "a"]) == "a"
