"""The informer under fire: for KGEN_FAULT_SECONDS (default 120) a fault-injecting proxy
between the informer and the real apiserver cuts connections, stalls answers and streams and
answers 429/500 at random, while writers create, update and delete 1,000 ConfigMaps. Then the
faults stop, and the informer must converge: its cache equals the server's list, every deleted
object produced a delete or tombstone callback, and no handler saw a resourceVersion go back."""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator

import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.tools.cache.reflector_state import reflector_backoff
from kgen.runtime.tools.cache.shared_informer import SharedIndexInformer
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.gentype import ResourceClient, ResourceInfo
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.testing import KubeAPIServer
from tests.support.faultproxy import Chaos, FaultProxy
from tests.support.handler_log import HandlerLog

CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
DURATION = float(os.environ.get("KGEN_FAULT_SECONDS", "120"))
OBJECTS = 1000
WRITERS = 4


def chaos() -> Chaos:
    return Chaos(
        seed=20240601, cut=0.15, too_many=0.15, server_error=0.15, stall=0.1, stall_seconds=2.0,
        cut_stream=0.05, stall_stream=0.01,
    )


def calm(proxy: FaultProxy, chaos: Chaos) -> None:
    """No more faults, also for the streams already open (they read the same Chaos object)."""
    proxy.set_chaos(None)
    for name in ("cut", "too_many", "server_error", "stall", "cut_stream", "stall_stream"):
        setattr(chaos, name, 0.0)


def configmaps(rest: RESTClient, ns: str) -> ResourceClient[ConfigMap, ConfigMapList]:
    return ResourceClient(rest, CONFIGMAPS, ns, ModelCodec(ConfigMap, ConfigMapList))


class Writers:
    """Threads that create OBJECTS ConfigMaps at an even pace over ``duration``, update live
    ones and delete about half of them — only objects the informer has already reported, so
    that every deletion is one the informer must report too."""

    def __init__(self, client: ResourceClient[ConfigMap, ConfigMapList], namespace: str, log: HandlerLog,
                 duration: float) -> None:
        self.client, self.namespace, self.log, self.duration = client, namespace, log, duration
        self.created: set[str] = set()
        self.deleted: set[str] = set()
        self.updates = 0
        self.failures: list[BaseException] = []
        self._lock = threading.Lock()

    def run(self) -> None:
        threads = [threading.Thread(target=self._write, args=(n,), name=f"writer-{n}") for n in range(WRITERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def _write(self, n: int) -> None:
        rng = random.Random(n)
        live: list[str] = []
        per_writer = OBJECTS // WRITERS
        started = time.monotonic()
        try:
            for i in range(per_writer):
                name = f"w{n}-{i:03d}"
                self.client.create(ConfigMap(metadata=ObjectMeta(name=name), data={"n": "0"}))
                live.append(name)
                with self._lock:
                    self.created.add(name)
                for _ in range(rng.randint(0, 2)):
                    self._update(rng.choice(live), rng)
                if rng.random() < 0.5:
                    self._delete_one_seen(live, rng)
                time.sleep(max(0.0, started + (i + 1) * self.duration / per_writer - time.monotonic()))
        except BaseException as e:  # noqa: BLE001 - reported by the test
            self.failures.append(e)

    def _update(self, name: str, rng: random.Random) -> None:
        self.client.patch(name, {"data": {"n": str(rng.randint(1, 10**6))}})
        with self._lock:
            self.updates += 1

    def _delete_one_seen(self, live: list[str], rng: random.Random) -> None:
        seen = [name for name in live if self.log.has_seen(f"{self.namespace}/{name}")]
        if not seen:
            return
        name = rng.choice(seen)
        try:
            self.client.delete(name)
        except NotFound:  # pragma: no cover - never deleted twice
            raise
        live.remove(name)
        with self._lock:
            self.deleted.add(name)


@pytest.fixture
def direct(kube_apiserver: KubeAPIServer) -> Iterator[RESTClient]:
    config = load_kubeconfig(kube_apiserver.kubeconfig)
    config.qps = -1
    with RESTClient(config) as rest:
        yield rest


@pytest.mark.long
def test_informer_converges_after_minutes_of_random_faults(
    kube_apiserver: KubeAPIServer, direct: RESTClient, namespace: str, capsys: pytest.CaptureFixture[str]
) -> None:
    writer_client = configmaps(direct, namespace)
    with FaultProxy(kube_apiserver) as proxy, RESTClient(proxy.config()) as through_proxy:
        informer = SharedIndexInformer(configmaps(through_proxy, namespace))
        informer.reflector.backoff = reflector_backoff(initial=0.1, cap=2.0)  # client-go's would take minutes
        watch_errors: Counter[str] = Counter()
        informer.set_watch_error_handler(lambda e: watch_errors.update([type(e).__name__]))
        log = HandlerLog()
        log.register(informer)
        faults = chaos()
        proxy.set_chaos(faults)  # from the first list on
        informer.run()
        try:
            assert informer.wait_for_cache_sync(timeout=60)
            writers = Writers(writer_client, namespace, log, DURATION)
            started = time.monotonic()
            writers.run()
            elapsed = time.monotonic() - started
            calm(proxy, faults)
            assert writers.failures == []

            expected = {f"{namespace}/{o.metadata.name}": o.metadata.resource_version
                        for o in writer_client.list().items or []}
            deadline = time.monotonic() + 120
            cached: dict[str, str] = {}
            while time.monotonic() < deadline:
                cached = {k: o.metadata.resource_version for k in informer.indexer.list_keys()
                          if (o := informer.indexer.get_by_key(k)) is not None}
                if cached == expected:
                    break
                time.sleep(0.2)
            converged = time.monotonic() - started - elapsed
        finally:
            informer.stop()
        injected = dict(proxy.faults)
        lists = [r for r in proxy.requests if r.startswith("GET") and "/configmaps" in r and "watch=" not in r]
        watches = [r for r in proxy.requests if r.startswith("GET") and "watch=true" in r]
        # The proxy notices a departed client only when it next forwards an event.
        writer_client.create(ConfigMap(metadata=ObjectMeta(name="bye")))
        writer_client.delete("bye")
        time.sleep(0.2)

    deleted = {f"{namespace}/{name}" for name in writers.deleted}
    reported_deleted = log.keys("delete", "tombstone")
    with capsys.disabled():
        print(
            f"\n[informer under faults] {elapsed:.0f}s of chaos, converged {converged:.1f}s later; "
            f"faults injected: {injected}; informer requests: {len(lists)} lists, {len(watches)} watches; "
            f"watch errors: {dict(watch_errors)}; writers: {len(writers.created)} created, {writers.updates} updated, "
            f"{len(writers.deleted)} deleted; handler calls: {Counter(c[0] for c in log.snapshot())}"
        )

    assert len(writers.created) == OBJECTS and len(deleted) > OBJECTS // 4
    assert cached == expected, (
        f"cache differs from the server: missing {sorted(set(expected) - set(cached))[:5]}, "
        f"extra {sorted(set(cached) - set(expected))[:5]}, "
        f"stale {[k for k in expected if k in cached and cached[k] != expected[k]][:5]}"
    )
    assert deleted <= reported_deleted, f"deletions never reported: {sorted(deleted - reported_deleted)[:10]}"
    assert reported_deleted <= deleted, f"deletions reported for live objects: {sorted(reported_deleted - deleted)[:10]}"
    assert log.regressions == [], f"resourceVersions went backwards: {log.regressions[:10]}"
    assert sum(injected.values()) >= 10 and len(injected) >= 3, f"too few faults to mean anything: {injected}"
