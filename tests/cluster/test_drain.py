"""kgen's drain and cordon against ``kubectl drain`` / ``cordon`` / ``uncordon`` on the same cluster.

Two fresh kwok nodes carry the same workload: a Deployment's 3 pods (with an emptyDir volume), a
pod of a DaemonSet pinned to both nodes, a bare pod, and a PodDisruptionBudget over the
Deployment's pods. kgen drains one node, kubectl drains its twin with the same flags, both at
once; their outputs are compared with the pod names mapped to their roles (``web-*``, ``ds-*``,
``bare``, ``NODE``):

0. ``--dry-run=server`` on the bare pod: the same lines, nothing cordoned or evicted;
1. no flags: both refuse with the same ``cannot delete ...`` errors (DaemonSet, local storage,
   no controller), nothing evicted, the node cordoned;
2. ``--force --ignore-daemonsets``: both refuse the emptyDir pods only;
3. the budget allowing no disruption (minAvailable 3), ``--pod-selector`` on the Deployment and
   ``--timeout=3s`` (kgen's asyncio flavour): both retry each 429 with kubectl's message and
   give up with ``global timeout reached: 3s`` for each pod;
4. the budget allowing one (minAvailable 2), ``--force --ignore-daemonsets
   --delete-emptydir-data``, with a third node the replacements may go to: the same pods
   evicted, the DaemonSet pod skipped with the same warning, each pod's lines in kubectl's
   order, and on both sides a watch never sees fewer than 2 of the Deployment's pods Ready;
   then ``--disable-eviction``: a pod bound by ``spec.nodeName`` after the drain is deleted;
5. uncordon and cordon: the same patch bytes as kubectl's (its -v=8 request body), the same
   stored spec.

Mirror pods cannot be made by an admin client (the apiserver refuses the mirror annotation from
anything but the node's kubelet), so that filter is tested on the fake clientset
(tests/unit/test_drain.py).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import re
import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.apps.v1 import DaemonSet, Deployment
from kgen.kubernetes.models.core.v1 import Pod
from kgen.kubernetes.models.policy.v1 import PodDisruptionBudget
from kgen.runtime.apimachinery import NotFound
from kgen.runtime.kubectl.drain import DrainError, DrainOutcome, DrainResult, cordon, drain, uncordon
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import Cluster
from tests.cluster.conftest import some, wait_for

pytestmark = pytest.mark.timeout(240)

SIDES = ("kgen", "kubectl")


def _pod_spec(selector: dict[str, str]) -> dict[str, Any]:
    return {"nodeSelector": selector, "terminationGracePeriodSeconds": 1,
            "containers": [{"name": "app", "image": "example.com/app:1"}]}


def _workload(cs: Clientset, ns: str, tag: str) -> None:
    """The DaemonSet on both drained nodes; per side a Deployment (emptyDir), a bare pod, a PDB."""
    cs.apps_v1.daemon_sets(ns).create(DaemonSet.from_dict({
        "metadata": {"name": f"ds-{tag}"},
        "spec": {"selector": {"matchLabels": {"app": "ds"}},
                 "template": {"metadata": {"labels": {"app": "ds"}}, "spec": _pod_spec({f"drain-{tag}/ds": "yes"})}},
    }))
    for side in SIDES:
        on_node = {f"drain-{tag}/{side}": "yes"}
        spec = _pod_spec(on_node) | {"volumes": [{"name": "scratch", "emptyDir": {}}]}
        cs.apps_v1.deployments(ns).create(Deployment.from_dict({
            "metadata": {"name": f"web-{side}"},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": f"web-{side}"}},
                     "template": {"metadata": {"labels": {"app": f"web-{side}"}}, "spec": spec}},
        }))
        cs.core_v1.pods(ns).create(Pod.from_dict({"metadata": {"name": f"bare-{side}", "labels": {"app": f"bare-{side}"}},
                                                  "spec": _pod_spec(on_node)}))
        cs.policy_v1.pod_disruption_budgets(ns).create(PodDisruptionBudget.from_dict({
            "metadata": {"name": f"web-{side}"},
            "spec": {"minAvailable": 3, "selector": {"matchLabels": {"app": f"web-{side}"}}},
        }))


def _ready(pod: Pod) -> bool:
    conditions = (pod.status.conditions if pod.status else None) or []
    return any(c.type == "Ready" and c.status == "True" for c in conditions) and not some(pod.metadata).deletion_timestamp


def _on(cs: Clientset, node: str) -> list[Pod]:
    return list(cs.core_v1.pods("").list(field_selector=f"spec.nodeName={node}").items)


class _Canon:
    """Maps one side's names to roles so kgen's and kubectl's texts compare."""

    def __init__(self, tag: str, side: str, node: str, ns: str) -> None:
        self.rules = [
            (re.compile(rf"\bweb-{side}-[a-z0-9]+-[a-z0-9]+\b"), "web-*"),
            (re.compile(rf"\bds-{tag}-[a-z0-9]+\b"), "ds-*"),
            (re.compile(rf"\bbare-{side}\b"), "bare"),
            (re.compile(re.escape(node)), "NODE"),
            (re.compile(re.escape(ns)), "NS"),
        ]

    def __call__(self, text: str) -> str:
        for pattern, role in self.rules:
            text = pattern.sub(role, text)
        return text


def _kubectl_errors(stderr: str, release: tuple[int, ...]) -> list[str]:
    """The messages of kubectl's ``unable to drain node "x" due to error: <aggregate>`` line."""
    match = re.search(r'due to error: (.*), continuing command\.\.\.', stderr)
    assert match, stderr
    text = match.group(1)
    if release < (1, 36):  # kubectl v0.34/v0.35's unmanagedFatal began with "cannot delete " too (fixed in v0.36)
        text = text.replace("cannot delete cannot delete ", "cannot delete ")
    if text.startswith("["):
        text = text[1:-1]
    return re.split(r", (?=cannot delete |error when )", text)


def _aggregate_matches(text: str, messages: list[str]) -> bool:
    return text == (messages[0] if len(messages) == 1 else "[" + ", ".join(messages) + "]")


def _per_pod(lines: list[str]) -> dict[str, str]:
    """Each pod's lines as a sequence: evicting, retry (a 429), evicted."""
    per_pod: dict[str, list[str]] = {}
    for line in lines:
        if m := re.match(r"evicting pod [^/]+/(\S+)$", line):
            per_pod.setdefault(m.group(1), []).append("evicting")
        elif m := re.match(r'error when evicting pods/"([^"]+)" .* \(will retry after 5s\)', line):
            per_pod.setdefault(m.group(1), []).append("retry")
        elif m := re.match(r"pod/(\S+) evicted$", line):
            per_pod.setdefault(m.group(1), []).append("evicted")
    return {name: ",".join(seq) for name, seq in per_pod.items()}


class _Availability:
    """Watches a Deployment's pods and keeps the fewest Ready, undeleted ones seen at once."""

    def __init__(self, cs: Clientset, ns: str, app: str) -> None:
        self.cs, self.ns, self.app = cs, ns, app
        pods = cs.core_v1.pods(ns).list(label_selector=f"app={app}")
        self.ready = {some(p.metadata).name: _ready(p) for p in pods.items}
        self.fewest = sum(self.ready.values())
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._watch, args=(pods.metadata.resource_version if pods.metadata else None,),
                                       daemon=True)
        self.thread.start()

    def _watch(self, resource_version: str | None) -> None:
        # Short watches resumed from the last resourceVersion, so that the thread ends soon after
        # stop(); a pod's event updates its readiness.
        while not self.stopped.is_set():
            for event in self.cs.core_v1.pods(self.ns).watch(
                resource_version=resource_version, label_selector=f"app={self.app}", timeout_seconds=1,
            ):
                name = some(event.object.metadata).name
                self.ready[name] = event.type != "DELETED" and _ready(event.object)
                self.fewest = min(self.fewest, sum(self.ready.values()))
                resource_version = some(event.object.metadata).resource_version

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=30)
        assert not self.thread.is_alive()


def _request_body(verbose: str) -> Any:
    """The JSON body of the PATCH kubectl -v=8 logged."""
    bodies = re.findall(r'"Request Body" body="((?:[^"\\]|\\.)+)"', verbose)
    assert bodies, verbose
    return json.loads(json.loads(f'"{bodies[-1]}"'))


@pytest.fixture
def nodes(kube_cluster: Cluster, cs: Clientset) -> Iterator[dict[str, str]]:
    tag = uuid.uuid4().hex[:6]
    names = {"tag": tag, "kgen": f"drain-kgen-{tag}", "kubectl": f"drain-kubectl-{tag}", "spare": f"drain-spare-{tag}"}
    for side in SIDES:
        kube_cluster.add_node(names[side], {f"drain-{tag}/ds": "yes", f"drain-{tag}/{side}": "yes"})
    kube_cluster.add_node(names["spare"])
    try:
        kube_cluster.wait_for_node_ready([names[side] for side in (*SIDES, "spare")])
        yield names
    finally:
        for side in (*SIDES, "spare"):
            try:
                cs.core_v1.nodes().delete(names[side])
            except NotFound:
                pass


def test_drain_refuses_evicts_and_skips_as_kubectl_drain(
    kube_cluster: Cluster, cs: Clientset, ns: str, nodes: dict[str, str]
) -> None:
    tag = nodes["tag"]
    release = tuple(int(p) for p in re.findall(r"\d+", kube_cluster.version)[:2])
    canon = {side: _Canon(tag, side, nodes[side], ns) for side in SIDES}
    _workload(cs, ns, tag)
    wait_for("5 pods Ready on each drained node", lambda: all(
        len(pods := _on(cs, nodes[side])) == 5 and all(_ready(p) for p in pods) for side in SIDES))
    pool = concurrent.futures.ThreadPoolExecutor(1)

    def both(flags: list[str], **kwargs: Any) -> tuple[DrainResult | DrainError, Any]:
        """kubectl drain on its node (in a thread) while kgen drains its own."""
        theirs = pool.submit(kube_cluster.kubectl, "drain", nodes["kubectl"], *flags, timeout=120)
        try:
            ours: DrainResult | DrainError = drain(cs, nodes["kgen"], **kwargs)
        except DrainError as e:
            ours = e
        return ours, theirs.result()

    # 0. --dry-run=server on the bare pods: kubectl's lines with "(server dry run)"; nothing changes.
    ours, theirs = both(["--dry-run=server", "--force", "--pod-selector=app=bare-kubectl"], dry_run=True, force=True,
                        pod_selector="app=bare-kgen")
    assert isinstance(ours, DrainResult) and theirs.returncode == 0, (ours, theirs)
    assert [canon["kgen"](line) for line in ours.output] == [
        canon["kubectl"](line) for line in theirs.stdout.splitlines()[:1] + theirs.stderr.splitlines() + theirs.stdout.splitlines()[1:]
    ] == ["node/NODE cordoned (server dry run)", "Warning: deleting Pods that declare no controller: NS/bare",
          "evicting pod NS/bare (server dry run)", "node/NODE drained (server dry run)"]
    assert [(p.name, p.outcome) for p in ours.pods] == [("bare-kgen", DrainOutcome.EVICTED)] and ours.dry_run
    for side in SIDES:
        assert not some(cs.core_v1.nodes().get(nodes[side]).spec).unschedulable
        assert _ready(cs.core_v1.pods(ns).get(f"bare-{side}"))

    # 1. No flags: refused for the DaemonSet pod, the emptyDir pods and the bare pod; cordoned.
    ours, theirs = both([])
    assert isinstance(ours, DrainError) and theirs.returncode == 1, (ours, theirs)
    kubectl_errors = _kubectl_errors(theirs.stderr, release)
    assert len(kubectl_errors) == 3
    assert sorted(map(canon["kgen"], ours.errors)) == sorted(map(canon["kubectl"], kubectl_errors))
    assert _aggregate_matches(str(ours), ours.errors)
    assert [canon["kgen"](line) for line in ours.result.output] == [canon["kubectl"](theirs.stdout.strip())] \
        == ["node/NODE cordoned"]
    assert Counter(p.outcome for p in ours.result.pods) == {DrainOutcome.REFUSED: 5}
    assert len(_on(cs, nodes["kgen"])) == len(_on(cs, nodes["kubectl"])) == 5  # nothing evicted
    assert some(cs.core_v1.nodes().get(nodes["kgen"]).spec).unschedulable is True

    # 2. --force --ignore-daemonsets: the emptyDir pods still refuse it.
    ours, theirs = both(["--force", "--ignore-daemonsets"], force=True, ignore_daemonsets=True)
    assert isinstance(ours, DrainError) and theirs.returncode == 1, (ours, theirs)
    assert [canon["kgen"](m) for m in ours.errors] == [canon["kubectl"](m) for m in _kubectl_errors(theirs.stderr, release)] \
        == ["cannot delete Pods with local storage (use --delete-emptydir-data to override): NS/web-*, NS/web-*, NS/web-*"]
    assert canon["kubectl"](theirs.stdout.strip()) == canon["kgen"](ours.result.output[0]) == "node/NODE already cordoned"

    # 3. No disruption allowed, the Deployment's pods only, a 3 s timeout (kgen on asyncio).
    async def async_drain() -> DrainResult | DrainError:
        async_cs = AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig))
        try:
            return await drain(async_cs, nodes["kgen"], force=True, ignore_daemonsets=True, delete_emptydir_data=True,
                               grace_period=1, pod_selector="app=web-kgen", timeout=3)
        except DrainError as e:
            return e
        finally:
            await async_cs.close()

    flags = ["--force", "--ignore-daemonsets", "--delete-emptydir-data", "--grace-period=1"]
    theirs_future = pool.submit(kube_cluster.kubectl, "drain", nodes["kubectl"], *flags, "--pod-selector=app=web-kubectl",
                                "--timeout=3s", timeout=120)
    timed_out = asyncio.run(async_drain())
    theirs = theirs_future.result()
    assert isinstance(timed_out, DrainError) and theirs.returncode == 1, (timed_out, theirs)
    expected = ['error when evicting pods/"web-*" -n "NS": global timeout reached: 3s'] * 3
    assert [canon["kgen"](m) for m in timed_out.errors] == [canon["kubectl"](m) for m in _kubectl_errors(theirs.stderr, release)] \
        == expected
    retry = ('error when evicting pods/"web-*" -n "NS" (will retry after 5s): '
             "Cannot evict pod as it would violate the pod's disruption budget.")
    kubectl_lines = theirs.stdout.splitlines() + [line for line in theirs.stderr.splitlines() if "will retry" in line]
    assert Counter(map(canon["kgen"], timed_out.result.output)) == Counter(map(canon["kubectl"], kubectl_lines)) == Counter(
        {"node/NODE already cordoned": 1, "evicting pod NS/web-*": 6, retry: 3})
    assert [p.evictions for p in timed_out.result.pods] == [1, 1, 1]  # the second round found the deadline passed
    assert len(_on(cs, nodes["kgen"])) == len(_on(cs, nodes["kubectl"])) == 5

    # 4. One disruption allowed; the spare node takes the replacements. The whole drain.
    for side in SIDES:
        cs.policy_v1.pod_disruption_budgets(ns).patch(f"web-{side}", {"spec": {"minAvailable": 2}})
        cs.core_v1.nodes().patch(nodes["spare"], {"metadata": {"labels": {f"drain-{tag}/{side}": "yes"}}})
    wait_for("both budgets allowing one disruption", lambda: all(
        (b := cs.policy_v1.pod_disruption_budgets(ns).get(f"web-{side}")).status is not None
        and b.status.disruptions_allowed == 1 and b.status.observed_generation == some(b.metadata).generation for side in SIDES))
    watches = {side: _Availability(cs, ns, f"web-{side}") for side in SIDES}
    ours, theirs = both(flags, force=True, ignore_daemonsets=True, delete_emptydir_data=True, grace_period=1)
    assert isinstance(ours, DrainResult) and theirs.returncode == 0, (ours, theirs)
    kubectl_out = theirs.stdout.splitlines()
    kubectl_err = theirs.stderr.splitlines()
    ours_out = [line for line in ours.output if not line.startswith(("Warning: ", "error when"))]
    # The same lines but for how many 429s each met (timing); each pod's lines in kubectl's order.
    assert set(map(canon["kgen"], ours_out)) == set(map(canon["kubectl"], kubectl_out)) == {
        "node/NODE already cordoned", "evicting pod NS/web-*", "evicting pod NS/bare", "pod/web-* evicted", "pod/bare evicted",
        "node/NODE drained"}
    # kgen's one stream: evicting, (429, evicting again)*, evicted. kubectl's stdout alone has the
    # same without the 429s, which go to its stderr: one more "evicting" per 429 of that pod.
    for name, seq in _per_pod(ours.output).items():
        assert re.fullmatch(r"evicting(,retry,evicting)*,evicted", seq), (name, seq)
    retries = Counter(name for name, seq in _per_pod(kubectl_err).items() for _ in seq.split(","))
    for name, seq in _per_pod(kubectl_out).items():
        assert seq == ",".join(["evicting"] * (1 + retries[name]) + ["evicted"]), (name, seq, retries)
    assert ours_out[0].startswith("node/") and ours_out[-1] == f"node/{nodes['kgen']} drained"
    assert kubectl_out[0].startswith("node/") and kubectl_out[-1] == f"node/{nodes['kubectl']} drained"
    assert Counter(canon["kgen"](line) for line in ours_out if line.startswith("pod/")) == Counter(
        canon["kubectl"](line) for line in kubectl_out if line.startswith("pod/")) == {"pod/web-* evicted": 3, "pod/bare evicted": 1}
    # The warning: the same parts (kubectl's come from a Go map, in either order).
    kubectl_warning = next(line for line in kubectl_err if line.startswith("Warning: "))
    assert sorted(canon["kgen"](w) for w in ours.warnings) == sorted(
        canon["kubectl"](kubectl_warning.removeprefix("Warning: ")).split("; ")) == [
        "deleting Pods that declare no controller: NS/bare", "ignoring DaemonSet-managed Pods: NS/ds-*"]
    assert {canon["kgen"](line) for line in ours.output if line.startswith("error when")} <= {retry}
    assert {canon["kubectl"](line) for line in kubectl_err if line.startswith("error when")} <= {retry}
    outcomes = {canon["kgen"](p.name): (p.outcome, p.warning) for p in ours.pods}
    assert outcomes == {"ds-*": (DrainOutcome.SKIPPED, "ignoring DaemonSet-managed Pods"),
                        "web-*": (DrainOutcome.EVICTED, ""), "bare": (DrainOutcome.EVICTED, "deleting Pods that declare no controller")}
    assert Counter(p.outcome for p in ours.pods) == {DrainOutcome.EVICTED: 4, DrainOutcome.SKIPPED: 1}
    # Left on each node: the DaemonSet's pod only. The budget held: never fewer than 2 Ready.
    for side in SIDES:
        assert [canon[side](some(some(p.metadata).name)) for p in _on(cs, nodes[side])] == ["ds-*"]
        watch = watches[side]
        wait_for(f"web-{side} back to 3 Ready", functools.partial(lambda w: sum(w.ready.values()) == 3, watch))
        watch.stop()
        assert watch.fewest == 2, (side, watch.fewest)

    # 4b. --disable-eviction: a pod bound to the cordoned node by spec.nodeName (the scheduler's
    # cordon does not stop that) is deleted, not evicted, and waited for.
    for side in SIDES:
        cs.core_v1.pods(ns).create(Pod.from_dict({"metadata": {"name": f"late-{side}"}, "spec": {
            "nodeName": nodes[side], "terminationGracePeriodSeconds": 1, "containers": [{"name": "app", "image": "example.com/app:1"}]}}))
    wait_for("the late pods Ready", lambda: all(_ready(cs.core_v1.pods(ns).get(f"late-{side}")) for side in SIDES))
    ours, theirs = both(["--force", "--ignore-daemonsets", "--disable-eviction"], force=True, ignore_daemonsets=True,
                        disable_eviction=True)
    assert isinstance(ours, DrainResult) and theirs.returncode == 0, (ours, theirs)
    late = {side: re.compile(rf"\blate-{side}\b") for side in SIDES}
    assert [late["kgen"].sub("late", canon["kgen"](line)) for line in ours.output if not line.startswith("Warning: ")] == [
        late["kubectl"].sub("late", canon["kubectl"](line)) for line in theirs.stdout.splitlines()] == [
        "node/NODE already cordoned", "pod/late deleted", "node/NODE drained"]
    assert {p.name: p.outcome for p in ours.pods if p.outcome != DrainOutcome.SKIPPED} == {"late-kgen": DrainOutcome.DELETED}
    kubectl_warning = next(line for line in theirs.stderr.splitlines() if line.startswith("Warning: "))
    assert sorted(late["kgen"].sub("late", canon["kgen"](w)) for w in ours.warnings) == sorted(
        late["kubectl"].sub("late", canon["kubectl"](kubectl_warning.removeprefix("Warning: "))).split("; "))
    for side in SIDES:
        with pytest.raises(NotFound):
            cs.core_v1.pods(ns).get(f"late-{side}")

    # 5. uncordon and cordon: kubectl's patch bytes (its -v=8 log), the same stored spec.
    sent: list[httpx.Request] = []
    probe = Clientset(load_kubeconfig(kube_cluster.kubeconfig))
    probe.rest.http.event_hooks = {"request": [sent.append]}
    try:
        for ours_call, verb in ((uncordon, "uncordon"), (cordon, "cordon")):
            sent.clear()
            assert ours_call(probe, nodes["kgen"]) is True
            verbose = kube_cluster.kubectl(verb, nodes["kubectl"], "-v=8")
            assert verbose.returncode == 0 and f"node/{nodes['kubectl']} {verb}ed" in verbose.stdout, verbose
            patches = [r for r in sent if r.method == "PATCH"]
            assert len(patches) == 1 and patches[0].headers["content-type"] == "application/strategic-merge-patch+json"
            assert json.loads(patches[0].content) == _request_body(verbose.stderr)
            stored = [cs.core_v1.nodes().get(nodes[side]).to_dict()["spec"] for side in SIDES]
            assert stored[0].get("unschedulable") == stored[1].get("unschedulable") == (True if verb == "cordon" else None)
            assert ours_call(probe, nodes["kgen"]) is False  # already done: kubectl says "already <verb>ed"
            again = kube_cluster.kubectl(verb, nodes["kubectl"])
            assert f"node/{nodes['kubectl']} already {verb}ed" in again.stdout, again
    finally:
        probe.close()
        pool.shutdown()
