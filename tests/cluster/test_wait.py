"""kubectl wait and client-go's tools/watch, side by side with kubectl on the whole cluster.

Each wait runs at the same time as ``kubectl wait`` with the same ``--for`` on the same object
(kubectl in a subprocess started just before kgen's wait, both timed with one clock): they must
return together (within 1 s) and agree on the outcome. The 410 test runs on the session's
apiserver without watch cache (``kube_apiserver_without_watch_cache``): the cluster's apiserver
serves a watch from its watch cache, which an etcd compaction does not expire, so only there does
a compaction turn a resume into a 410 Gone. The jsonpath evaluator is compared with ``kubectl get
-o jsonpath`` on the very JSON kubectl printed.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMap, Namespace, Pod
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import NotFound
from kgen.runtime.dynamic import DynamicClient
from kgen.runtime.gentype import PatchType
from kgen.runtime.kubectl import async_wait_for, wait_for, wait_for_all
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import Cluster, KubeAPIServer
from kgen.runtime.tools.watch import AsyncRetryWatcher, RetryWatcher, WaitTimeout
from kgen.runtime.util.jsonpath import JSONPath, JSONPathError

pytestmark = pytest.mark.timeout(180)


class Timed:
    """A call in a thread, with the monotonic time it returned and its result or error."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.result: Any = None
        self.error: BaseException | None = None
        self.returned_at = 0.0

        def run() -> None:
            try:
                self.result = fn()
            except BaseException as e:  # noqa: BLE001 - reported by the test
                self.error = e
            self.returned_at = time.monotonic()
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def join(self, timeout: float = 90.0) -> Timed:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the wait did not return"
        return self


def kubectl_wait(cluster: Cluster, ns: str, *args: str, verbose: bool = False) -> Timed:
    """``kubectl wait -n ns ARGS`` started now; its result is (exit code, stdout, stderr). With
    ``verbose``, kubectl logs its requests (-v=6) and ``.asked`` is set once it has watched or
    been told the object is not there yet: from then on it cannot miss the change."""
    command = [str(cluster.assets / "kubectl"), f"--kubeconfig={cluster.kubeconfig}", "wait", "-n", ns, *args]
    proc = subprocess.Popen([*command, *(["-v=6"] if verbose else [])], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    asked = threading.Event()
    stderr: list[str] = []

    def read_stderr() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            stderr.append(line)
            if "watch=true" in line and "200 OK" in line or "404 Not Found" in line:
                asked.set()
    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()

    def finish() -> tuple[int, str, str]:
        assert proc.stdout is not None
        out = proc.stdout.read()
        proc.wait(timeout=120)
        reader.join(10)
        return proc.returncode, out, "".join(stderr)
    timed = Timed(finish)
    timed.asked = asked  # type: ignore[attr-defined]
    return timed


@pytest.fixture
def acs(kube_cluster: Cluster) -> Iterator[AsyncClientset]:
    yield AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig))


def deployment(name: str, replicas: int, paused: bool = False) -> Deployment:
    return Deployment.from_dict({
        "metadata": {"name": name},
        "spec": {"replicas": replicas, "paused": paused, "selector": {"matchLabels": {"app": name}},
                 "template": {"metadata": {"labels": {"app": name}},
                              "spec": {"containers": [{"name": "app", "image": "example.com/web:1"}]}}},
    })


def available(d: Deployment) -> bool:
    conditions = d.status.conditions if d.status and d.status.conditions else []
    return any(c.type == "Available" and c.status == "True" for c in conditions)


def test_wait_for_available_returns_when_kubectl_wait_does(
    kube_cluster: Cluster, cs: Clientset, acs: AsyncClientset, ns: str
) -> None:
    # Paused, the Deployment gets no ReplicaSet: Available=False until it is resumed, so every wait
    # below is under way (kubectl's watch established) before the rollout starts.
    deployments = cs.apps_v1.deployments(ns)
    deployments.create(deployment("web", 3, paused=True))
    ours = Timed(lambda: wait_for(cs.apps_v1.deployments(ns), "web", condition="Available", timeout=90))

    async def async_wait() -> Deployment:
        async with acs:
            return await async_wait_for(acs.apps_v1.deployments(ns), "web", condition="available", status="true", timeout=90)
    ours_async = Timed(lambda: asyncio.run(async_wait()))
    theirs = kubectl_wait(kube_cluster, ns, "--for=condition=Available", "deployment/web", "--timeout=90s", verbose=True)
    assert theirs.asked.wait(30), "kubectl wait never watched"  # type: ignore[attr-defined]
    assert ours.thread.is_alive() and ours_async.thread.is_alive() and theirs.thread.is_alive()
    assert not available(deployments.get("web"))
    started = time.monotonic()
    deployments.patch("web", {"spec": {"paused": False}}, PatchType.MERGE)  # the rollout
    code, out, _ = theirs.join().result
    ours.join(), ours_async.join()
    assert (code, out.strip()) == (0, "deployment.apps/web condition met")
    assert ours.error is None and ours_async.error is None
    assert available(ours.result) and available(ours_async.result)
    assert ours.result.status.ready_replicas == 3
    took = {"kubectl": theirs.returned_at - started, "kgen": ours.returned_at - started,
            "kgen async": ours_async.returned_at - started}
    print(f"condition=Available after the rollout began: {', '.join(f'{k} {v:.2f}s' for k, v in took.items())}")
    assert abs(took["kgen"] - took["kubectl"]) <= 1.0, took
    assert abs(took["kgen async"] - took["kubectl"]) <= 1.0, took


def test_wait_for_delete_returns_when_the_finalizer_is_removed(kube_cluster: Cluster, cs: Clientset, ns: str) -> None:
    cms = cs.core_v1.config_maps(ns)
    cms.create(ConfigMap(metadata=ObjectMeta(name="held", finalizers=["example.com/hold"])))
    cms.delete("held")
    ours = Timed(lambda: wait_for(cms, "held", delete=True, timeout=60))
    dynamic = Timed(lambda: wait_for(DynamicClient(cs.rest).resource("", "v1", "configmaps", ns), "held", delete=True))
    theirs = kubectl_wait(kube_cluster, ns, "--for=delete", "configmap/held", "--timeout=60s", verbose=True)
    assert theirs.asked.wait(30), "kubectl wait never watched"  # type: ignore[attr-defined]
    time.sleep(2.0)  # the delay the finalizer is held for: nothing to await, it is the point
    assert theirs.thread.is_alive() and ours.thread.is_alive() and dynamic.thread.is_alive(), "returned before the finalizer went"
    assert cms.get("held").metadata.deletion_timestamp is not None  # type: ignore[union-attr]
    removed_at = time.monotonic()
    cms.patch("held", [{"op": "remove", "path": "/metadata/finalizers"}], PatchType.JSON)
    code, out, _ = theirs.join().result
    ours.join(), dynamic.join()
    assert (code, out.strip()) == (0, "configmap/held condition met")
    assert ours.error is None and ours.result is None and dynamic.error is None
    assert removed_at <= ours.returned_at and removed_at <= dynamic.returned_at
    assert abs(ours.returned_at - theirs.returned_at) <= 1.0
    with pytest.raises(NotFound):
        cms.get("held")
    # Already gone: both return at once.
    code, out, _ = kubectl_wait(kube_cluster, ns, "--for=delete", "configmap/held", "--timeout=5s").join().result
    assert code == 0 and wait_for(cms, "held", delete=True, timeout=5) is None


def test_create_and_jsonpath_forms_agree_with_kubectl_wait(kube_cluster: Cluster, cs: Clientset, ns: str) -> None:
    pods = cs.core_v1.pods(ns)
    ours = Timed(lambda: wait_for(pods, "late", create=True, timeout=60))
    ours_running = Timed(lambda: wait_for(pods, "late", create=True, jsonpath="{.status.phase}", value="Running", timeout=60))
    theirs = kubectl_wait(kube_cluster, ns, "--for=create", "pod/late", "--timeout=60s", verbose=True)
    assert theirs.asked.wait(30), "kubectl wait never looked"  # type: ignore[attr-defined]
    assert ours.thread.is_alive() and ours_running.thread.is_alive()
    pods.create(Pod.from_dict({"metadata": {"name": "late", "labels": {"app": "late"}},
                               "spec": {"containers": [{"name": "app", "image": "example.com/late:1"}]}}))
    code, out, _ = theirs.join().result
    assert (code, out.strip()) == (0, "pod/late condition met")
    assert ours.join().error is None and ours.result.metadata.name == "late"
    assert abs(ours.returned_at - theirs.returned_at) <= 1.0  # kubectl polls every 0.5 s
    forms = [
        ("--for=jsonpath={.status.phase}=Running", {"jsonpath": "{.status.phase}", "value": "Running"}),
        ("--for=jsonpath=status.phase=Running", {"jsonpath": "status.phase", "value": "Running"}),
        ('--for=jsonpath={.status.conditions[?(@.type=="Ready")].status}=True',
         {"jsonpath": '{.status.conditions[?(@.type=="Ready")].status}', "value": "True"}),
        ("--for=jsonpath={.status.podIP}", {"jsonpath": "{.status.podIP}"}),
        ("--for=condition=Ready", {"condition": "Ready"}),
    ]
    wait_for(pods, "late", condition="Ready", timeout=60)  # all met now: the same answer, not timing, is checked
    waits = [(kubectl_wait(kube_cluster, ns, flag, "pod/late", "--timeout=60s"),
              Timed(lambda kw=kw: wait_for(pods, "late", timeout=60, **kw))) for flag, kw in forms]  # type: ignore[misc]
    for (flag, _), (kubectl, kgen) in zip(forms, waits, strict=True):
        code, out, err = kubectl.join().result
        assert (code, out.strip(), err) == (0, "pod/late condition met", ""), flag
        assert kgen.join().error is None and kgen.result.metadata.name == "late", flag
    assert ours_running.join().error is None and ours_running.result.status.phase == "Running"
    by_label = wait_for_all(pods, label_selector="app=late", jsonpath="{.status.phase}", value="Running", timeout=10)
    assert [p.metadata.name for p in by_label] == ["late"]  # type: ignore[union-attr]

    # A value never reached: both time out and name the object; kgen adds the last state seen.
    code, _, err = kubectl_wait(kube_cluster, ns, "--for=jsonpath={.status.phase}=Nope", "pod/late", "--timeout=1s").join().result
    with pytest.raises(WaitTimeout) as caught:
        wait_for(pods, "late", jsonpath="{.status.phase}", value="Nope", timeout=1)
    assert code == 1 and err.strip().endswith("on pods/late")
    assert "on pods/late; last seen: Pod " + ns + "/late" in str(caught.value)
    assert '"phase":"Running"' in str(caught.value)
    # No such object: kubectl's NotFound, and kgen's.
    code, _, err = kubectl_wait(kube_cluster, ns, "--for=condition=Ready", "pod/missing", "--timeout=5s").join().result
    with pytest.raises(NotFound) as missing:
        wait_for(pods, "missing", condition="Ready", timeout=5)
    assert code == 1 and 'pods "missing" not found' in err and 'pods "missing" not found' in str(missing.value)
    # A path that selects several values is refused by both.
    code, _, err = kubectl_wait(kube_cluster, ns, "--for=jsonpath={.status.conditions[*].type}=Ready", "pod/late").join().result
    with pytest.raises(ValueError, match="matches more than one value") as several:
        wait_for(pods, "late", jsonpath="{.status.conditions[*].type}", value="Ready", timeout=5)
    assert code == 1 and str(several.value) in err


GADGETS = """
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.wait.kgen.example.com
spec:
  group: wait.kgen.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
"""

STATUSES = [  # (status written, status= waited for)
    ({"conditions": [{"type": "Ready", "status": "True", "observedGeneration": 1}]}, "True"),
    ({"conditions": [{"type": "Ready", "status": "True", "observedGeneration": 2}]}, "True"),
    ({"conditions": [{"type": "ready", "status": "TRUE", "observedGeneration": 2}]}, "true"),
    ({"observedGeneration": 1, "conditions": [{"type": "Ready", "status": "True"}]}, "True"),
    ({"observedGeneration": 2, "conditions": [{"type": "Ready", "status": "True"}]}, "True"),
    ({"observedGeneration": 1, "conditions": [{"type": "Ready", "status": "True", "observedGeneration": 2}]}, "True"),
    ({"conditions": [{"type": "Ready", "status": "False"}]}, "True"),
    ({"conditions": [{"type": "Ready", "status": "False"}]}, "False"),
    ({"conditions": [{"type": "Ready"}, {"type": "Ready", "status": "True"}]}, "True"),
    ({"conditions": [{"type": "Other", "status": "True"}]}, "True"),
    ({"phase": "Running"}, "True"),
]


def test_conditions_are_judged_as_kubectl_judges_them(kube_cluster: Cluster, cs: Clientset, ns: str) -> None:
    """Case folding and the observedGeneration rule, on a custom resource whose status the test
    writes (generation 2): each status checked once (--timeout=0) by kubectl and by kgen."""
    kube_cluster.kubectl("apply", "-f", "-", input=GADGETS, check=True)
    try:
        kube_cluster.kubectl("wait", "--for=condition=Established", "crd/gadgets.wait.kgen.example.com", check=True)
        gadgets = DynamicClient(cs.rest).resource("wait.kgen.example.com", "v1", "gadgets", ns, namespaced=True, kind="Gadget")
        gadgets.create({"apiVersion": "wait.kgen.example.com/v1", "kind": "Gadget", "metadata": {"name": "g"}, "spec": {"size": 1}})
        assert gadgets.patch("g", {"spec": {"size": 2}})["metadata"]["generation"] == 2
        outcomes = []
        for status, target in STATUSES:
            gadgets.patch("g", [{"op": "add", "path": "/status", "value": status}], PatchType.JSON, subresource="status")
            theirs = kube_cluster.kubectl("wait", "-n", ns, f"--for=condition=Ready={target}", "gadget/g", "--timeout=0")
            try:
                wait_for(gadgets, "g", condition="Ready", status=target, timeout=0)
                ours = True
            except WaitTimeout:
                ours = False
            outcomes.append((status, target, theirs.returncode == 0, ours))
        assert [o for o in outcomes if o[2] != o[3]] == []
        assert {o[2] for o in outcomes} == {True, False}  # both verdicts occur
    finally:
        kube_cluster.kubectl("delete", "crd/gadgets.wait.kgen.example.com", "--wait=false")


JSONPATHS = [
    "{.metadata.name}", "{.spec.containers[0].image}", "{.spec.containers[*].name}", "{.spec.containers[-1:].name}",
    '{.status.conditions[?(@.type=="Ready")].status}', '{.status.conditions[?(@.status!="True")].type}',
    "{.metadata.labels['app']}", "{.metadata.labels}", "{..image}", "{.spec.terminationGracePeriodSeconds}",
    "name: {.metadata.name}, phase: {.status.phase}", r"{.metadata.annotations.example\.com/note}",
    "{.metadata.annotations['example.com/note']}", "{.spec.containers[0,0].name}", "{.nope.nada}",
    "{.status.containerStatuses[0].ready}", "{.spec.containers[0].ports[?(@.containerPort>79)].name}",
    "{.spec.containers[0].ports[?(@.containerPort<=80)].containerPort}", "{.spec.tolerations[1:3:1].key}",
    "{.spec.containers[5].name}", "{.spec.containers[?(@.name==3)].name}", "{.metadata.name.x}", "{.spec.containers[0]}",
    "{.status.conditions[?(@.type=='Ready')].status}", "{.spec.containers[?(@.ports)].name}", "{.spec.containers[0].ports[*]}",
    "{.spec.containers[0].ports[?(@.name=='http')].containerPort}", "{.spec.containers[0].ports[1:].name}",
    '{.metadata.labels.app} and "{.metadata.name}"', "{.status.conditions[0:2].type}", "{.spec.containers[0].ports[::0]}",
    "{range .spec.containers[*]}{.name}{end}", "{range .spec.containers[0].ports[*]}{.name}={.containerPort};{end}",
    "{range .status.conditions[*]}[{.type}:{range .nope[*]}x{end}{.status}] {end}!", "{.metadata.name}{end}",
    r'{.status.conditions[?(@.type=="Re\x61dy")].status}', r"{.status.conditions[?(@.type=='Re\u0061dy')].status}",
]


def test_jsonpath_prints_what_kubectl_get_prints(kube_cluster: Cluster, cs: Clientset, ns: str) -> None:
    cs.core_v1.pods(ns).create(Pod.from_dict({
        "metadata": {"name": "p", "labels": {"app": "p"}, "annotations": {"example.com/note": "<a&b>"}},
        "spec": {"containers": [{"name": "app", "image": "example.com/p:1",
                                 "ports": [{"name": "http", "containerPort": 80}, {"name": "alt", "containerPort": 8080}]}]},
    }))
    wait_for(cs.core_v1.pods(ns), "p", condition="Ready", timeout=60)
    snapshot = kube_cluster.kubectl("get", "-n", ns, "pod/p", "-o", "json", check=True).stdout
    obj = json.loads(snapshot)
    mismatches: list[tuple[str, str, str | None]] = []
    for expression in JSONPATHS:
        theirs = kube_cluster.kubectl("create", "--dry-run=client", "-f", "-", "-o", f"jsonpath={expression}", input=snapshot)
        try:
            ours: str | None = JSONPath(expression, allow_missing_keys=True).execute(obj)
        except JSONPathError as e:
            ours = None
            error = str(e)
        if theirs.returncode != 0:
            if ours is not None or error not in theirs.stderr:
                mismatches.append((expression, theirs.stderr.strip(), ours if ours is not None else error))
        elif ours != theirs.stdout:
            mismatches.append((expression, theirs.stdout, ours))
    print(f"{len(JSONPATHS)} jsonpath expressions, {len(mismatches)} mismatches")
    assert mismatches == []


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_endless_watch_across_a_410_loses_nothing(
    kube_apiserver_without_watch_cache: KubeAPIServer, kube_cluster: Cluster, flavour: str
) -> None:
    server = kube_apiserver_without_watch_cache
    config = load_kubeconfig(server.kubeconfig)
    ns = f"w410-{flavour}"
    with Clientset(config) as admin:
        admin.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=ns)))
        cms = admin.core_v1.config_maps(ns)
        for name in "abc":
            cms.create(ConfigMap(metadata=ObjectMeta(name=name), data={"v": "0"}))
        listed = cms.list()
        start, known = listed.metadata.resource_version, listed.items  # type: ignore[union-attr]
        # What happens while nobody watches, then compacted away:
        cms.update(ConfigMap(metadata=ObjectMeta(name="a"), data={"v": "1"}))
        cms.delete("b")
        cms.create(ConfigMap(metadata=ObjectMeta(name="d"), data={"v": "0"}))
        cms.delete("c")
        cms.create(ConfigMap(metadata=ObjectMeta(name="c"), data={"v": "new"}))  # same name, another uid
        server.compact_etcd()
        seen: list[tuple[str, str]] = []
        after = threading.Event()

        def record(event: Any) -> bool:
            seen.append((event.type, event.object.metadata.name))
            if len(seen) == 5:  # the relist's changes: now change more, live
                after.set()
                cms.update(ConfigMap(metadata=ObjectMeta(name="d"), data={"v": "1"}))
            return len(seen) == 6

        if flavour == "sync":
            with RetryWatcher(cms, start, known=known) as watcher:
                for event in watcher:
                    if record(event):
                        break
        else:
            async def watch() -> AsyncRetryWatcher[ConfigMap]:
                async with AsyncClientset(config) as acs:
                    async with AsyncRetryWatcher(acs.core_v1.config_maps(ns), start, known=known) as watcher:
                        async for event in watcher:
                            if await asyncio.to_thread(record, event):
                                break
                return watcher
            watcher = asyncio.run(watch())  # type: ignore[arg-type]  # both flavours show the same state
        assert watcher.relists == 1
        assert sorted(seen[:5]) == [("ADDED", "c"), ("ADDED", "d"), ("DELETED", "b"), ("DELETED", "c"), ("MODIFIED", "a")]
        assert seen[5] == ("MODIFIED", "d")
        # The server's state, as kubectl reads it, is the state the watcher holds.
        got = subprocess.run([str(kube_cluster.assets / "kubectl"), f"--kubeconfig={server.kubeconfig}", "get", "configmaps",
                              "-n", ns, "-o", "json"], capture_output=True, text=True, check=True).stdout
        state = {f"{ns}/{i['metadata']['name']}": i["metadata"]["resourceVersion"] for i in json.loads(got)["items"]
                 if i["metadata"]["name"] != "kube-root-ca.crt"}
        held = {k: v.metadata.resource_version for k, v in watcher.objects.items()}  # type: ignore[union-attr]
        assert held == state
