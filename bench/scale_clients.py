"""One client of the scale bench, run alone in a fresh interpreter: its initial sync and its
resident memory per cached object, printed as one JSON line.

    python -m bench.scale_clients CLIENT KUBECONFIG NAMESPACE OBJECTS

Every client is set up first (imports done, client built and connected with a one-object
list), then a full collection runs and VmRSS is read from /proc/self/status (``before``); the
clock starts, the client fills its cache, the clock stops, a full collection runs with the
cache still held and VmRSS is read again (``after``). client-go's row (hack/oracle/scalebench)
reads the same line the same way, after runtime.GC and debug.FreeOSMemory. Clients:

- ``kgen-full``: the generated typed ``SharedInformerFactory``, Pods of the namespace; timed
  from ``start()`` until a handler has been handed every object and its registration synced
  (client-go's HasSyncedChecker), WatchList as users get it (kgen's default);
- ``kgen-metadata``: ``kgen.kubernetes.metadata.MetadataSharedInformerFactory`` for
  ``v1/pods``, timed the same way (client-go's metadatainformer);
- ``kgen-list``: kgen's bare paginated typed list (``list_all``, pages of 500), the floor an
  informer that decodes every object can hardly go below;
- ``wire-json``: the informer's own watch-list request (the reflector's options, gzip as every
  client asks for it), its body read and inflated until the initial-events-end bookmark, nothing
  decoded: how long the server takes to send the objects as JSON, the floor of any JSON client.
  No memory figure (it keeps nothing);
- ``official`` and ``lightkube``: neither has an informer, so their list-then-watch
  equivalent is measured: a paginated list (pages of 500) held in a dict keyed by
  namespace/name, which is the cache a user of them builds.

Every client runs unthrottled where it has a limiter (QPS -1), as in the other benches.
"""

from __future__ import annotations

import gc
import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

PAGE_SIZE = 500
TIMEOUT = 1800.0

#: Python clients, in the order the bench runs them.
CLIENTS = ("kgen-full", "kgen-metadata", "kgen-list", "wire-json", "official", "lightkube")


def resident_bytes() -> int:
    """VmRSS after a full collection: what the process holds, as the kernel counts it."""
    gc.collect()
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("/proc/self/status has no VmRSS line")


def _kgen_config(kubeconfig: str) -> Any:
    from kgen.runtime.rest import load_kubeconfig

    config = load_kubeconfig(kubeconfig)
    config.qps = -1
    return config


class _Synced:
    """A handler counting adds (one handler: one worker, no race); ``all_seen`` at the last."""

    def __init__(self, objects: int) -> None:
        self.objects, self.count, self.all_seen = objects, 0, threading.Event()

    def add(self, _: Any) -> None:
        self.count += 1
        if self.count == self.objects:
            self.all_seen.set()

    def wait(self, registration: Any) -> None:
        if not self.all_seen.wait(TIMEOUT):
            raise RuntimeError(f"{self.count} of {self.objects} objects after {TIMEOUT:.0f} s")
        while not registration.has_synced():
            time.sleep(0.001)


def _informer_run(factory: Any, informer: Any, objects: int) -> dict[str, Any]:
    """Times ``factory``'s initial sync of ``informer``: seconds, RSS before and after, and
    whether the cached objects kept their managedFields (a default transform may drop them)."""
    synced = _Synced(objects)
    registration = informer.add_event_handler(on_add=synced.add)
    before = resident_bytes()
    started = time.perf_counter()
    factory.start()
    synced.wait(registration)
    elapsed = time.perf_counter() - started
    after = resident_bytes()
    if len(informer.indexer.list_keys()) != objects:
        raise RuntimeError(f"the cache holds {len(informer.indexer.list_keys())} objects, not {objects}")
    kept = any(getattr(obj.metadata, "managed_fields", None) for obj in informer.indexer.list())
    return {"seconds": elapsed, "rssBefore": before, "rssAfter": after, "managedFields": kept}


def kgen_full(kubeconfig: str, namespace: str, objects: int) -> dict[str, Any]:
    from kgen.kubernetes import Clientset
    from kgen.kubernetes.informers.factory import SharedInformerFactory
    from kgen.runtime.tools.cache.reflector_state import watch_list_client_enabled

    clientset = Clientset(_kgen_config(kubeconfig))
    clientset.core_v1.pods(namespace).list(limit=1)
    factory = SharedInformerFactory(clientset, namespace=namespace)
    figures = _informer_run(factory, factory.core_v1.pods().informer, objects)
    factory.shutdown()
    return {**figures, "watchList": watch_list_client_enabled()}


def kgen_metadata(kubeconfig: str, namespace: str, objects: int) -> dict[str, Any]:
    from kgen.kubernetes.metadata import GroupVersionResource, MetadataClient, MetadataSharedInformerFactory
    from kgen.runtime.tools.cache.reflector_state import watch_list_client_enabled

    client = MetadataClient(_kgen_config(kubeconfig))
    pods = GroupVersionResource("", "v1", "pods")
    client.resource(pods).namespace(namespace).list(limit=1)
    factory = MetadataSharedInformerFactory(client, namespace=namespace)
    figures = _informer_run(factory, factory.for_resource(pods).informer(), objects)
    factory.shutdown()
    return {**figures, "watchList": watch_list_client_enabled()}


def _key(pod: Any) -> str:
    """The cache key client-go's informers use (MetaNamespaceKeyFunc), for every list client."""
    return f"{pod.metadata.namespace}/{pod.metadata.name}"


def _held(fill: Callable[[], dict[str, Any]], objects: int) -> dict[str, Any]:
    """Times ``fill`` and weighs what it returns, held until the second RSS reading."""
    before = resident_bytes()
    started = time.perf_counter()
    cache = fill()
    elapsed = time.perf_counter() - started
    after = resident_bytes()
    if len(cache) != objects:
        raise RuntimeError(f"the list returned {len(cache)} objects, not {objects}")
    return {"seconds": elapsed, "rssBefore": before, "rssAfter": after}


def kgen_list(kubeconfig: str, namespace: str, objects: int) -> dict[str, Any]:
    from kgen.kubernetes import Clientset

    clientset = Clientset(_kgen_config(kubeconfig))
    pods = clientset.core_v1.pods(namespace)
    pods.list(limit=1)

    def fill() -> dict[str, Any]:
        listed = pods.list_all(page_size=PAGE_SIZE)
        return {_key(p): p for p in listed.items or []}

    return _held(fill, objects)


def wire_json(kubeconfig: str, namespace: str, objects: int) -> dict[str, Any]:
    from kgen.kubernetes import Clientset
    from kgen.runtime.rest.content_encoding import decode_every_gzip_member
    from kgen.runtime.tools.cache.reflector_state import ReflectorState

    pods = Clientset(_kgen_config(kubeconfig)).core_v1.pods(namespace)
    pods.list(limit=1)
    marker = b"k8s.io/initial-events-end"
    started = time.perf_counter()
    resource = pods._client  # the ResourceClient a reflector drives
    req = resource._req.watch(60.0, **ReflectorState().watch_list_options())
    req.stream = True
    response = resource._rest.send(req)
    decode_every_gzip_member(response)
    size, tail = 0, b""
    try:
        for chunk in response.iter_bytes():
            size += len(chunk)
            if marker in tail + chunk:
                break
            tail = chunk[-len(marker):]
        else:
            raise RuntimeError("the watch-list ended before its initial-events-end bookmark")
    finally:
        response.close()
    elapsed = time.perf_counter() - started
    return {"seconds": elapsed, "rssBefore": 0, "rssAfter": 0, "noMemory": True, "bodyBytes": size}


def official(kubeconfig: str, namespace: str, objects: int) -> dict[str, Any]:
    from kubernetes import client, config

    api = client.CoreV1Api(config.new_client_from_config(config_file=kubeconfig))  # type: ignore[no-untyped-call]
    api.list_namespaced_pod(namespace, limit=1)

    def fill() -> dict[str, Any]:
        cache: dict[str, Any] = {}
        token = None
        while True:
            page = api.list_namespaced_pod(namespace, limit=PAGE_SIZE, _continue=token)
            for pod in page.items:
                cache[_key(pod)] = pod
            token = page.metadata._continue if page.metadata else None
            if not token:
                return cache

    return _held(fill, objects)


def lightkube(kubeconfig: str, namespace: str, objects: int) -> dict[str, Any]:
    import lightkube as lk
    from lightkube.config.kubeconfig import KubeConfig
    from lightkube.resources.core_v1 import Pod

    client = lk.Client(KubeConfig.from_file(kubeconfig))
    next(iter(client.list(Pod, namespace=namespace, chunk_size=1)))

    def fill() -> dict[str, Any]:
        return {_key(p): p for p in client.list(Pod, namespace=namespace, chunk_size=PAGE_SIZE)}

    return _held(fill, objects)


_RUNNERS: dict[str, Callable[[str, str, int], dict[str, Any]]] = {
    "kgen-full": kgen_full, "kgen-metadata": kgen_metadata, "kgen-list": kgen_list, "wire-json": wire_json,
    "official": official, "lightkube": lightkube,
}


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[0] not in _RUNNERS:
        print(f"usage: python -m bench.scale_clients {{{','.join(CLIENTS)}}} KUBECONFIG NAMESPACE OBJECTS",
              file=sys.stderr)
        return 2
    client, kubeconfig, namespace, objects = argv
    print(json.dumps(_RUNNERS[client](kubeconfig, namespace, int(objects))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
