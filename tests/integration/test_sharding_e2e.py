"""Sharding end to end on the real apiserver (kgen.runtime.tools.sharding, issue 13): three
replicas of examples/sharded_controller as separate processes share 3,000 ConfigMaps.

Checked from outside the processes, on what they record (reconcile intervals on the machine's
CLOCK_MONOTONIC, their shard informers' keys) and what the server holds (the shard labels):

- steady state: every object carries the label of its rendezvous owner among the three, each
  replica's cache holds exactly the objects labelled for it, and over a window longer than a
  resync every object is reconciled, each by exactly the replica it is labelled for;
- a SIGKILL of one replica: every object it owned is labelled for a survivor and reconciled
  by it within lease duration + one resync of the kill; the survivors' caches hold their new
  shards;
- over the whole run, kill and re-assignment included, no two reconciles of one key by two
  replicas overlap in time (a reconcile the killed replica had started and not ended counts
  as running until the kill).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.tools.sharding import owner
from tests.conftest import Figure
from tests.support.apiserver import wait_for
from tests.support.packages import REPO
from tests.support.sharding import Interval, overlaps

OBJECTS = 3000
REPLICAS = ["replica-a", "replica-b", "replica-c"]
CONTROLLER = "cm-sharded"
LABEL = f"shard.kgen.io/{CONTROLLER}"
#: resync: sample-controller's 30 s (client-go's example controller).
LEASE, RENEW, RETRY, RESYNC = 6.0, 4.0, 1.0, 30.0

def _create_config_maps(admin: httpx.Client, namespace: str) -> None:
    def create(i: int) -> None:
        body = {"metadata": {"name": f"cm-{i:04d}"}, "data": {"i": str(i)}}
        admin.post(f"/api/v1/namespaces/{namespace}/configmaps", json=body).raise_for_status()

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(create, range(OBJECTS)))


def _labels(admin: httpx.Client, namespace: str) -> dict[str, str | None]:
    answer = admin.get(f"/api/v1/namespaces/{namespace}/configmaps")
    answer.raise_for_status()
    return {f"{namespace}/{cm['metadata']['name']}": (cm["metadata"].get("labels") or {}).get(LABEL)
            for cm in answer.json()["items"]}


class Replicas:
    """The replica processes and what they record."""

    def __init__(self, server: KubeAPIServer, namespace: str, folder: Path) -> None:
        self.server, self.namespace, self.folder = server, namespace, folder
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, identity: str) -> None:
        args = [sys.executable, "-m", "examples.sharded_controller", "--kubeconfig", self.server.kubeconfig,
                "--identity", identity, "--controller", CONTROLLER, "--namespace", self.namespace,
                "--lease-namespace", self.namespace, "--lease-duration", str(LEASE), "--renew-deadline", str(RENEW),
                "--retry-period", str(RETRY), "--resync", str(RESYNC), "--workers", "4", "--work-ms", "3",
                "--qps", "-1", "--moves-per-second", "2000", "--labeller-concurrency", "16", "--record", str(self.folder)]
        self.procs[identity] = subprocess.Popen(args, cwd=REPO, stdout=open(self.folder / f"{identity}.out", "wb"),
                                                stderr=subprocess.STDOUT)

    def cache(self, identity: str) -> set[str]:
        try:
            return set(json.loads((self.folder / f"{identity}.cache.json").read_text())["keys"])
        except (FileNotFoundError, json.JSONDecodeError):
            return set()

    def intervals(self, killed: dict[str, int]) -> list[Interval]:
        """Every reconcile recorded; one started and not ended yet ends now, or at its replica's kill."""
        now = time.monotonic_ns()
        out: list[Interval] = []
        for identity in self.procs:
            started: dict[tuple[str, int], None] = {}
            path = self.folder / f"{identity}.log"
            if not path.exists():
                continue
            for line in path.read_text().splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[0] == "S":
                    started[(parts[1], int(parts[2]))] = None
                elif len(parts) == 4 and parts[0] == "E":
                    started.pop((parts[1], int(parts[2])), None)
                    out.append((identity, parts[1], int(parts[2]), int(parts[3])))
            for key, start in started:
                out.append((identity, key, start, killed.get(identity, now)))
        return out

    def output(self, identity: str) -> str:
        return (self.folder / f"{identity}.out").read_text(errors="replace")[-3000:]

    def stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def replicas(kube_apiserver: KubeAPIServer, namespace: str, tmp_path: Path) -> Iterator[Replicas]:
    running = Replicas(kube_apiserver, namespace, tmp_path)
    yield running
    running.stop_all()


def test_overlap_check_sees_a_planted_overlap() -> None:
    """The checker itself: it must report two replicas on one key at once, and only that."""
    clean = [("a", "k", 0, 10), ("b", "k", 10, 20), ("a", "k", 20, 30), ("a", "j", 0, 50), ("a", "j", 5, 6)]
    assert overlaps(clean) == []
    planted = [*clean, ("c", "k", 25, 26)]
    assert overlaps(planted) == [(("a", "k", 20, 30), ("c", "k", 25, 26))]
    assert overlaps([("a", "k", 0, 100), ("a", "k", 1, 2), ("b", "k", 50, 60)]) == [
        (("a", "k", 0, 100), ("b", "k", 50, 60))]


def _steady(replicas: Replicas, admin: httpx.Client, namespace: str, live: list[str]) -> dict[str, str | None]:
    """Waits until every object is labelled for its owner among ``live`` and every live replica's
    cache holds exactly its label's objects; returns the labels."""
    def check() -> dict[str, str | None] | None:
        labels = _labels(admin, namespace)
        if any(labels[k] != owner(k, live) for k in labels):
            return None
        for identity in live:
            if replicas.cache(identity) != {k for k, v in labels.items() if v == identity}:
                return None
        return labels

    return wait_for(check, timeout=90, interval=0.5)


@pytest.mark.long
def test_three_replicas_share_3000_config_maps_and_survive_a_sigkill(
    kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str, replicas: Replicas, figure: Figure
) -> None:
    began = time.monotonic()
    _create_config_maps(admin, namespace)
    created = time.monotonic() - began
    for identity in REPLICAS:
        replicas.start(identity)

    # Steady state: labels, caches, and a resync window in which each object is reconciled,
    # by exactly the replica it is labelled for.
    labels = _steady(replicas, admin, namespace, REPLICAS)
    shares = Counter(labels.values())
    figure(f"sharding: steady shares {dict(sorted(shares.items()))} of {OBJECTS} "
           f"{time.monotonic() - began - created:.1f}s after start ({OBJECTS} created in {created:.1f}s)")
    assert all(abs(n - OBJECTS / 3) <= 0.1 * OBJECTS / 3 for n in shares.values()), shares
    window_start = time.monotonic_ns()
    time.sleep(RESYNC + 3)
    window_end = time.monotonic_ns()
    assert _labels(admin, namespace) == labels, "labels moved in the steady state"
    in_window: dict[str, set[str]] = defaultdict(set)
    for identity, key, start, end in replicas.intervals({}):
        if start >= window_start and end <= window_end:
            in_window[key].add(identity)
    assert set(in_window) == set(labels), f"{len(set(labels) - set(in_window))} objects not reconciled in the window"
    wrong = {k: v for k, v in in_window.items() if v != {labels[k]}}
    assert not wrong, f"{len(wrong)} objects reconciled by another replica or by two: {list(wrong.items())[:5]}"

    # SIGKILL one replica: the shard leader (the harder case: the labeller moves too).
    leader_lease = admin.get(f"/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{CONTROLLER}-shard-leader")
    victim = leader_lease.json()["spec"]["holderIdentity"]
    assert victim in REPLICAS
    survivors = [r for r in REPLICAS if r != victim]
    orphans = {k for k, v in labels.items() if v == victim}
    killed_at = time.monotonic_ns()
    replicas.procs[victim].send_signal(signal.SIGKILL)
    replicas.procs[victim].wait()

    def recovered() -> dict[str, int] | None:
        first: dict[str, int] = {}
        for identity, key, start, end in replicas.intervals({victim: killed_at}):
            if identity != victim and key in orphans and start > killed_at:
                first[key] = min(first.get(key, end), end)
        return first if len(first) == len(orphans) else None

    first = wait_for(recovered, timeout=LEASE + RESYNC + 30, interval=0.5)
    worst = (max(first.values()) - killed_at) / 1e9
    figure(f"sharding: SIGKILL of {victim} (shard leader, {len(orphans)} objects): all reconciled by the "
           f"survivors within {worst:.2f}s (bound: lease {LEASE:.0f}s + resync {RESYNC:.0f}s)")
    assert worst <= LEASE + RESYNC, worst

    after = _steady(replicas, admin, namespace, survivors)
    moved = {k for k in labels if after[k] != labels[k]}
    assert moved == orphans, "objects of live replicas moved when one died"

    # The whole run: never two replicas on one key at once.
    every = replicas.intervals({victim: killed_at})
    figure(f"sharding: {len(every)} reconciles recorded, {len(overlaps(every))} overlaps")
    assert overlaps(every) == [], overlaps(every)[:5]
    for identity in survivors:
        assert replicas.procs[identity].poll() is None, replicas.output(identity)
    replicas.stop_all()
    for identity in survivors:
        assert replicas.procs[identity].returncode == 0, replicas.output(identity)
