"""The RetryWatcher under fire, on the real apiserver: a fault-injecting proxy between it and the
server cuts connections and streams, stalls them and answers 429/500 at random, and the server
ends every watch after 2 s, while a writer updates ConfigMaps. Each object's updates must reach
the consumer exactly once and in order (the watch cache holds them all, so resuming from the last
resourceVersion loses none and repeats none), and the watcher ends holding the server's state.
Both flavours."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.rest.watch import WatchEvent
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.tools.cache.reflector_state import reflector_backoff
from kgen.runtime.tools.watch import AsyncRetryWatcher, RetryWatcher, RetryWatcherCore
from tests.support.apiserver import unthrottled_config
from tests.support.faultproxy import Chaos, FaultProxy

pytestmark = pytest.mark.timeout(120)

OBJECTS = 4
UPDATES = 25


@pytest.fixture
def short_watches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Watches the server ends after 2 s, and a backoff of tenths of seconds, so that a few seconds
    hold many resumes."""
    options = RetryWatcherCore.watch_options

    def two_seconds(self: RetryWatcherCore[Any]) -> dict[str, Any]:
        return {**options(self), "timeout_seconds": 2}
    monkeypatch.setattr(RetryWatcherCore, "watch_options", two_seconds)
    monkeypatch.setattr("kgen.runtime.tools.watch.retry_watcher_core.reflector_backoff",
                        lambda clock, rng: reflector_backoff(0.05, 0.3, clock=clock, rng=rng))


@pytest.fixture
def direct(kube_apiserver: KubeAPIServer) -> Iterator[Clientset]:
    """The writer's clientset: straight to the server."""
    with Clientset(unthrottled_config(kube_apiserver)) as cs:
        yield cs


def value(event: WatchEvent[ConfigMap]) -> int:
    return int((event.object.data or {}).get("n", "0"))


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_every_update_arrives_once_in_order_through_faults_and_server_timeouts(
    kube_apiserver: KubeAPIServer, namespace: str, direct: Clientset, short_watches: None, flavour: str
) -> None:
    cms = direct.core_v1.config_maps(namespace)
    names = [f"cm{i}" for i in range(OBJECTS)]
    for name in names:
        cms.create(ConfigMap(metadata=ObjectMeta(name=name), data={"n": "0"}))
    listed = cms.list()
    seen: dict[str, list[int]] = {name: [] for name in names}
    done = threading.Event()

    def write() -> None:
        for n in range(1, UPDATES + 1):
            for name in names:
                cms.patch(name, {"data": {"n": str(n)}})
            done.wait(0.15)  # a pace, so the writes span many watches

    def record(event: WatchEvent[ConfigMap]) -> bool:
        assert event.type == "MODIFIED", event.type
        assert event.object.metadata is not None and event.object.metadata.name is not None
        seen[event.object.metadata.name].append(value(event))
        return all(len(values) >= UPDATES for values in seen.values())

    with FaultProxy(kube_apiserver) as proxy:
        proxy.set_chaos(Chaos(seed=34, cut=0.2, too_many=0.1, server_error=0.1, cut_stream=0.1, stall=0.05,
                              stall_seconds=0.5))
        writer = threading.Thread(target=write)
        writer.start()
        rv = listed.metadata.resource_version  # type: ignore[union-attr]
        if flavour == "sync":
            with Clientset(proxy.config()) as cs, RetryWatcher(cs.core_v1.config_maps(namespace), rv, known=listed.items) as watcher:
                for event in watcher:
                    if record(event):
                        break
        else:
            async def watch() -> AsyncRetryWatcher[ConfigMap]:
                async with AsyncClientset(proxy.config()) as acs:
                    async with AsyncRetryWatcher(acs.core_v1.config_maps(namespace), rv, known=listed.items) as w:
                        async for event in w:
                            if record(event):
                                break
                return w
            watcher = asyncio.run(watch())  # type: ignore[arg-type]  # both flavours show the same state
        done.set()
        writer.join()
        watches = sum("watch=true" in r for r in proxy.requests)
        faults = dict(proxy.faults)
    print(f"{flavour}: {UPDATES * OBJECTS} updates through {watches} watches and faults {faults}; relists {watcher.relists}")
    assert seen == {name: list(range(1, UPDATES + 1)) for name in names}
    assert watcher.relists == 0 and watches >= 3 and sum(faults.values()) > 0
    server = {f"{namespace}/{c.metadata.name}": c.metadata.resource_version for c in cms.list().items}  # type: ignore[union-attr]
    assert {k: v.metadata.resource_version for k, v in watcher.objects.items()} == server  # type: ignore[union-attr]
