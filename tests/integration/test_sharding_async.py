"""AsyncShardedController on the real apiserver: two replicas in one asyncio loop share 150
ConfigMaps; reconciles are coroutines run on that loop; every object is reconciled by its owner
only; when one replica stops, its objects go to the other at once, with no overlap."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import httpx

from kgen.runtime.gentype.resource import ResourceInfo
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.testing import KubeAPIServer
from kgen.runtime.tools.sharding import AsyncShardedController, owner
from tests.conftest import Figure
from tests.support.apiserver import unthrottled_config
from tests.support.sharding import Interval, overlaps

CONFIG_MAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")
C = "async-shard"
LABEL = f"shard.kgen.io/{C}"
OBJECTS = 150


def _labels(admin: httpx.Client, namespace: str) -> dict[str, str | None]:
    items = admin.get(f"/api/v1/namespaces/{namespace}/configmaps").json()["items"]
    return {f"{namespace}/{cm['metadata']['name']}": (cm["metadata"].get("labels") or {}).get(LABEL) for cm in items}


def test_async_replicas_reconcile_on_the_loop_and_hand_over_on_stop(
    kube_apiserver: KubeAPIServer, admin: httpx.Client, namespace: str, figure: Figure
) -> None:
    for i in range(OBJECTS):
        admin.post(f"/api/v1/namespaces/{namespace}/configmaps", json={"metadata": {"name": f"cm-{i:03d}"}}
                   ).raise_for_status()
    record: list[Interval] = []
    threads: set[int] = set()

    async def scenario() -> None:
        loop_thread = threading.get_ident()
        rests = [RESTClient(unthrottled_config(kube_apiserver)) for _ in range(2)]
        stops = [asyncio.Event(), asyncio.Event()]

        def reconciler(identity: str) -> Any:
            async def reconcile(key: str, obj: Any) -> None:
                start = time.monotonic_ns()
                threads.add(threading.get_ident())
                await asyncio.sleep(0.005)
                record.append((identity, key, start, time.monotonic_ns()))
            return reconcile

        controllers = [AsyncShardedController(rest, CONFIG_MAPS, C, identity=identity, reconcile=reconciler(identity),
                                              namespace=namespace, lease_namespace=namespace, lease_duration=6.0,
                                              renew_deadline=4.0, retry_period=1.0, workers=3)
                       for rest, identity in zip(rests, ["x", "y"])]
        runs = [asyncio.ensure_future(c.run(s)) for c, s in zip(controllers, stops)]

        async def until(predicate: Any, timeout: float = 60) -> None:
            deadline = time.monotonic() + timeout
            while not await asyncio.to_thread(predicate):
                assert time.monotonic() < deadline, "condition not met"
                await asyncio.sleep(0.3)

        def steady(live: list[str]) -> bool:
            labels = _labels(admin, namespace)
            if any(v != owner(k, live) for k, v in labels.items()):
                return False
            return all({key for by, key, *_ in record if by == who} >= {k for k, v in labels.items() if v == who}
                       for who in live)

        await until(lambda: steady(["x", "y"]))
        before = _labels(admin, namespace)
        assert {who for who, *_ in record} == {"x", "y"}
        last = {key: who for who, key, *_ in sorted(record, key=lambda r: r[2])}  # (a startup move may precede)
        assert last == before, "a key last reconciled by a replica it is not labelled for"
        assert threads == {loop_thread}, "a reconcile ran off the loop"

        stopped = time.monotonic()
        stops[1].set()
        await runs[1]
        await until(lambda: steady(["x"]))
        took = time.monotonic() - stopped
        figure(f"sharding async: y stopped, its {sum(v == 'y' for v in before.values())} objects reconciled by x "
               f"after {took:.2f}s; {len(record)} reconciles, {len(overlaps(record))} overlaps")
        assert took < 6.0
        stops[0].set()
        await runs[0]
        for rest in rests:
            rest.close()

    asyncio.run(scenario())
    assert overlaps(record) == []
