"""client-go's tools/events (runtime/tools/events) against the real apiserver: an
``events.k8s.io/v1`` Event as recorder.go makes it, a repeat turned into a series on the same
Event, later repeats counted and written when the series finishes (a clock the test moves past
the 6 minutes), and the asyncio flavour."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable
from typing import Any

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.tools.events import AsyncEventBroadcaster, EventBroadcaster
from kgen.runtime.tools.events.core import FINISH_TIME
from tests.support.apiserver import unthrottled_config


def _eventually(probe: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := probe()):
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.1)
    return value


class Clock:
    def __init__(self) -> None:
        self.now = time.time_ns()

    def __call__(self) -> int:
        return self.now


def test_repeats_become_a_series_on_one_event(kube_apiserver: KubeAPIServer, rest: RESTClient, namespace: str) -> None:
    cs = Clientset(unthrottled_config(kube_apiserver))
    cm = cs.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="settings")))
    clock = Clock()
    broadcaster = EventBroadcaster(rest, clock=clock)
    recorder = broadcaster.new_recorder("settings-controller")
    events = cs.events_v1.events(namespace)

    def synced() -> list[Any]:
        return [e for e in events.list().items if e.reason == "Synced"]

    try:
        recorder.eventf(cm, None, "Normal", "Synced", "Sync", "synced %s", "settings")
        (first,) = _eventually(synced)
        assert (first.action, first.note, first.type, first.reporting_controller, first.reporting_instance) == (
            "Sync", "synced settings", "Normal", "settings-controller", f"settings-controller-{socket.gethostname()}")
        assert first.regarding is not None and cm.metadata is not None
        assert (first.regarding.kind, first.regarding.name, first.regarding.uid) == ("ConfigMap", "settings", cm.metadata.uid)
        assert first.series is None and first.event_time

        clock.now += 10**9
        recorder.eventf(cm, None, "Normal", "Synced", "Sync", "synced %s", "settings")
        (series,) = _eventually(lambda: [e for e in synced() if e.series is not None])
        assert series.metadata is not None and first.metadata is not None
        assert series.metadata.name == first.metadata.name and series.series is not None and series.series.count == 2

        clock.now += 10**9
        recorder.eventf(cm, None, "Normal", "Synced", "Sync", "synced %s", "settings")  # counted, not written
        clock.now += FINISH_TIME + 10**9
        recorder.eventf(cm, cm, "Warning", "Other", "Check", "a related one")  # wakes the worker: the series finishes
        _eventually(lambda: [e for e in synced() if e.series is not None and e.series.count == 3])
        (other,) = _eventually(lambda: [e for e in events.list().items if e.reason == "Other"])
        assert other.related is not None and other.related.name == "settings" and other.type == "Warning"
        assert len(synced()) == 1  # one Event for the whole series
    finally:
        broadcaster.shutdown()
        cs.close()


def test_the_async_broadcaster_writes_too(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    config = unthrottled_config(kube_apiserver)

    async def scenario() -> list[str]:
        async with AsyncClientset(config) as cs, AsyncRESTClient(config) as rest:
            cm = await cs.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="settings")))
            broadcaster = AsyncEventBroadcaster(rest)
            broadcaster.new_recorder("async-controller").eventf(cm, None, "Normal", "Synced", "Sync", "ok")
            await broadcaster.shutdown()
            return [e.note or "" for e in (await cs.events_v1.events(namespace).list()).items]

    assert asyncio.run(scenario()) == ["ok"]
