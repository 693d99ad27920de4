"""Nodes on the whole cluster: the scheduler honours a cordon, and the node lifecycle controller
notices a Node whose heartbeat stopped (kwok stops renewing its Lease, as a dead kubelet would).

kubectl cordons and uncordons (its own client-side rules) and reports node status; kgen's typed
clients read the Nodes and create the pods.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import Node
from kgen.runtime.apimachinery import NotFound
from kgen.runtime.testing import Cluster
from tests.cluster.conftest import some, wait_for

pytestmark = pytest.mark.timeout(180)


def _condition(node: Node, type_: str) -> str | None:
    for c in (node.status.conditions if node.status and node.status.conditions else []):
        if c.type == type_:
            return c.status
    return None


def _taints(node: Node) -> set[tuple[str, str]]:
    return {(t.key, t.effect) for t in (node.spec.taints if node.spec and node.spec.taints else [])}


@pytest.fixture
def cordoned(kube_cluster: Cluster, cs: Clientset) -> Iterator[str]:
    node = kube_cluster.node_names[0]
    done = kube_cluster.kubectl("cordon", node)
    assert done.returncode == 0 and f"node/{node} cordoned" in done.stdout, done
    yield node
    assert kube_cluster.kubectl("uncordon", node).returncode == 0
    wait_for(f"{node} schedulable again", lambda: not _taints(cs.core_v1.nodes().get(node)))


def test_a_cordoned_node_gets_no_new_pods(cs: Clientset, ns: str, kube_cluster: Cluster, cordoned: str) -> None:
    node = cs.core_v1.nodes().get(cordoned)
    assert some(node.spec).unschedulable is True
    wait_for(
        "the unschedulable taint",
        lambda: ("node.kubernetes.io/unschedulable", "NoSchedule") in _taints(cs.core_v1.nodes().get(cordoned)),
    )
    replicas = 3 * len(kube_cluster.node_names)
    cs.apps_v1.deployments(ns).create(
        Deployment.from_dict(
            {
                "metadata": {"name": "spread"},
                "spec": {
                    "replicas": replicas,
                    "selector": {"matchLabels": {"app": "spread"}},
                    "template": {
                        "metadata": {"labels": {"app": "spread"}},
                        "spec": {"containers": [{"name": "app", "image": "example.com/app:1"}]},
                    },
                },
            }
        )
    )

    def all_running() -> list[str] | None:
        pods = cs.core_v1.pods(ns).list(label_selector="app=spread").items
        if len(pods) != replicas or any(p.status is None or p.status.phase != "Running" for p in pods):
            return None
        return [some(p.spec).node_name or "" for p in pods]

    nodes = wait_for(f"{replicas} pods Running", all_running)
    assert cordoned not in nodes
    assert set(nodes) == set(kube_cluster.node_names) - {cordoned}  # the others took them all


def test_a_node_whose_heartbeat_stops_goes_not_ready_and_is_tainted(cs: Clientset, kube_cluster: Cluster) -> None:
    name = f"kwok-mortal-{uuid.uuid4().hex[:6]}"
    kube_cluster.add_node(name)
    try:
        kube_cluster.wait_for_node_ready([name])
        # A new Node carries the not-ready taint until the lifecycle controller sees it Ready.
        wait_for("the new node untainted", lambda: _taints(cs.core_v1.nodes().get(name)) == set())
        kube_cluster.stop_node_heartbeat(name)

        # After the grace period without a Lease renewal the node lifecycle controller sets the
        # conditions Unknown ("Kubelet stopped posting node status") and taints the node.
        node = wait_for(
            "the node NotReady",
            lambda: n if _condition(n := cs.core_v1.nodes().get(name), "Ready") == "Unknown" else None,
            timeout=kube_cluster.node_monitor_grace_period + 60,
        )
        ready = next(c for c in some(node.status).conditions or [] if c.type == "Ready")
        assert ready.reason == "NodeStatusUnknown"
        tainted = wait_for(
            "the unreachable taints",
            lambda: {("node.kubernetes.io/unreachable", "NoSchedule"), ("node.kubernetes.io/unreachable", "NoExecute")}
            <= _taints(cs.core_v1.nodes().get(name)),
        )
        assert tainted
        shown = kube_cluster.kubectl("get", "node", name, "--no-headers")
        assert shown.returncode == 0 and shown.stdout.split()[1] == "NotReady", shown
        # The others keep their heartbeat.
        assert all(_condition(cs.core_v1.nodes().get(n), "Ready") == "True" for n in kube_cluster.node_names)
    finally:
        try:
            cs.core_v1.nodes().delete(name)
        except NotFound:
            pass
