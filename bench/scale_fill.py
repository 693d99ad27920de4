"""The scale bench's objects: N realistic Pods in a fresh namespace of the real apiserver.

Each Pod is bench/pods.py's ``make_pod`` (a Deployment's pod as a real cluster holds it: two
containers with env, probes, mounts; projected service-account volume; tolerations; seeded),
created through the API, then given its status (Running, conditions, containerStatuses)
through the ``/status`` subresource, since a create drops the status: the caches then hold what
a real cluster's pods hold. envtest runs no kubelet or scheduler, so nothing changes them
afterwards. The fields the server sets (uid, resourceVersion, creationTimestamp) are left to it.
Creates and status writes go 8 at a time over kgen's async clientset (more only adds
contention on a 2-core machine: 32 at a time was slower than one at a time).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

from .pods import make_pod

CONCURRENCY = 8


def pod_bodies(objects: int, seed: int, namespace: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(the Pod to create, its status) for each of ``objects`` pods; names are unique."""
    rng = random.Random(seed)
    bodies = []
    for i in range(objects):
        pod = make_pod(rng, i)
        status = pod.pop("status")
        meta = pod["metadata"]
        for server_set in ("uid", "resourceVersion", "creationTimestamp"):
            del meta[server_set]
        meta["namespace"] = namespace
        meta["name"] = f"{meta['name']}-{i}"  # random suffixes may collide at 100,000
        bodies.append((pod, status))
    return bodies


def served_sizes(pod: dict[str, Any]) -> str:
    """How big one Pod is as the server sends it, and how much of it is metadata and
    managedFields (what a metadata-only cache still holds)."""
    def size(value: Any) -> str:
        return f"{len(json.dumps(value, separators=(',', ':'))) / 1000:.1f} KB"

    meta = pod.get("metadata", {})
    return (f"each Pod as served is {size(pod)} of JSON: metadata {size(meta)}, of which managedFields "
            f"{size(meta.get('managedFields', []))} ({len(meta.get('managedFields', []))} entries)")


async def fill(kubeconfig: str, namespace: str, objects: int, seed: int,
               progress: Callable[[str], None]) -> str:
    """Creates ``namespace`` and its ``objects`` Pods with their statuses; returns
    ``served_sizes`` of the last one written."""
    from kgen.kubernetes import AsyncClientset
    from kgen.kubernetes.models.core.v1 import Namespace, Pod
    from kgen.kubernetes.models.meta.v1 import ObjectMeta
    from kgen.runtime.rest import load_kubeconfig

    config = load_kubeconfig(kubeconfig)
    config.qps = -1
    bodies = pod_bodies(objects, seed, namespace)
    async with AsyncClientset(config) as cs:
        await cs.core_v1.namespaces().create(Namespace(metadata=ObjectMeta(name=namespace)))
        pods = cs.core_v1.pods(namespace)
        gate = asyncio.Semaphore(CONCURRENCY)
        done = 0
        last: Pod | None = None

        async def create(pod: dict[str, Any], status: dict[str, Any]) -> None:
            nonlocal done, last
            async with gate:
                created = await pods.create(Pod.from_dict(pod))
                assert created.metadata is not None and created.metadata.name is not None
                last = await pods.patch(created.metadata.name, {"status": status}, subresource="status")
            done += 1
            if done % 2_000 == 0:
                progress(f"scale: {done:,} of {objects:,} pods created with their status")

        await asyncio.gather(*(create(pod, status) for pod, status in bodies))
    assert last is not None
    return served_sizes(last.to_dict())
