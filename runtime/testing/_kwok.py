"""kwok's side of the whole-cluster harness (_cluster.py): the names of its rule kinds and the
shapes of their documents, the label it selects Nodes by, and the kubelet's CRI log format its
ClusterLogs files are read in."""

from __future__ import annotations

import time
from collections.abc import Sequence

import httpx

KWOK_GROUP = "kwok.x-k8s.io"
KWOK_API_VERSION = f"{KWOK_GROUP}/v1alpha1"
NODE_LABEL = "kgen.dev/kwok-node"
"""The label kwok selects the Nodes it runs by: a Node without it gets no heartbeat."""
KWOK_CRDS = ("ClusterLogs", "ClusterExec", "ClusterPortForward", "ClusterAttach", "Logs", "Exec", "PortForward", "Attach")
"""kwok's rule kinds this harness enables as CRDs (its Stages come from files, see cluster.sh)."""
PLURALS = {
    "ClusterLogs": "clusterlogs", "ClusterExec": "clusterexecs", "ClusterPortForward": "clusterportforwards",
    "ClusterAttach": "clusterattaches", "Logs": "logs", "Exec": "execs", "PortForward": "portforwards",
    "Attach": "attaches",
}


def cri_log_line(text: str, stream: str = "stdout") -> str:
    """One line of the kubelet's CRI log format, as kwok's ClusterLogs files hold them."""
    ns = time.time_ns()
    now = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ns // 1_000_000_000))
    return f"{now}.{ns % 1_000_000_000:09d}Z {stream} F {text}\n"


def rule_selector(namespaces: Sequence[str], pods: Sequence[str]) -> dict[str, list[str]]:
    selector: dict[str, list[str]] = {}
    if namespaces:
        selector["matchNamespaces"] = list(namespaces)
    if pods:
        selector["matchNames"] = list(pods)
    return selector


def condition_true(response: httpx.Response, type_: str) -> bool:
    if response.status_code != 200:
        return False
    conditions = response.json().get("status", {}).get("conditions") or []
    return any(c.get("type") == type_ and c.get("status") == "True" for c in conditions)
