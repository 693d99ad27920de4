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
- ``wire-protobuf``: the same watch-list asking for protobuf, as client-go's typed informers
  do, read to its end bookmark, nothing decoded: the server's floor for protobuf;
- ``kgen-protobuf``: that protobuf watch-list with every object decoded: upb parses it (C), a
  Python walk turns each message into the dict its JSON would be (bench/protobuf_wire.py) and
  ``Pod.from_dict`` into kgen's typed Pod, held in a dict keyed by namespace/name. No informer
  around it: the floor of a protobuf-reading kgen informer. After the clock stops, every object
  is checked equal to the JSON list's;
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
from collections.abc import Callable, Iterator
from typing import Any

PAGE_SIZE = 500
TIMEOUT = 1800.0

#: Python clients, in the order the bench runs them.
CLIENTS = ("kgen-full", "kgen-metadata", "kgen-list", "wire-json", "wire-protobuf", "kgen-protobuf", "official",
           "lightkube")


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


def _watch_list(kubeconfig: str, namespace: str, accept: str, read: Callable[[Iterator[bytes]], None]) -> float:
    """Seconds to open the informer's own watch-list request (the reflector's options, gzip as
    every client asks for it) asking for ``accept``, and have ``read`` take its inflated body
    up to the initial-events-end bookmark."""
    from kgen.kubernetes import Clientset
    from kgen.runtime.rest.content_encoding import decode_every_gzip_member
    from kgen.runtime.tools.cache.reflector_state import ReflectorState

    pods = Clientset(_kgen_config(kubeconfig)).core_v1.pods(namespace)
    pods.list(limit=1)
    started = time.perf_counter()
    resource = pods._client  # the ResourceClient a reflector drives
    req = resource._req.watch(60.0, **ReflectorState().watch_list_options())
    req.stream, req.accept = True, accept
    response = resource._rest.send(req)
    decode_every_gzip_member(response)
    try:
        read(response.iter_bytes())
    finally:
        response.close()
    return time.perf_counter() - started


def _read_to_marker(chunks: Iterator[bytes]) -> None:
    marker, tail = b"k8s.io/initial-events-end", b""
    for chunk in chunks:
        if marker in tail + chunk:
            return
        tail = chunk[-len(marker):]
    raise RuntimeError("the watch-list ended before its initial-events-end bookmark")


def _wire(accept: str) -> Callable[[str, str, int], dict[str, Any]]:
    def run(kubeconfig: str, namespace: str, objects: int) -> dict[str, Any]:
        elapsed = _watch_list(kubeconfig, namespace, accept, _read_to_marker)
        return {"seconds": elapsed, "rssBefore": 0, "rssAfter": 0, "noMemory": True}
    return run


def kgen_protobuf(kubeconfig: str, namespace: str, objects: int) -> dict[str, Any]:
    from kgen.kubernetes import Clientset
    from kgen.kubernetes.models.core.v1 import Pod

    from . import protobuf_wire

    protobuf_wire.decode(_pod_envelope(kubeconfig, namespace))  # tables loaded before the clock
    cache: dict[str, Any] = {}

    def read(chunks: Iterator[bytes]) -> None:
        frames = protobuf_wire.WatchFrames()
        for chunk in chunks:
            for event_type, raw in frames.feed(chunk):
                if event_type == "BOOKMARK":
                    return
                pod = Pod.from_dict(protobuf_wire.decode(raw, "v1", "Pod"))
                cache[_key(pod)] = pod
        raise RuntimeError("the watch-list ended before its initial-events-end bookmark")

    gc.disable()  # as kgen's informers hold the collector during a sync (sync_gc.py)
    before = resident_bytes()
    elapsed = _watch_list(kubeconfig, namespace, protobuf_wire.CONTENT_TYPE, read)
    after = resident_bytes()
    gc.enable()
    if len(cache) != objects:
        raise RuntimeError(f"the protobuf watch-list gave {len(cache)} objects, not {objects}")
    listed = Clientset(_kgen_config(kubeconfig)).core_v1.pods(namespace).list_all(page_size=PAGE_SIZE)
    def body(pod: Any) -> dict[str, Any]:  # a list's items carry no kind/apiVersion, a watch's objects do
        return {k: v for k, v in pod.to_dict().items() if k not in ("kind", "apiVersion")}

    differ = [_key(p) for p in listed.items or [] if _key(p) not in cache or body(cache[_key(p)]) != body(p)]
    if differ:
        raise RuntimeError(f"{len(differ)} pods read from protobuf differ from their JSON, {differ[0]} first")
    return {"seconds": elapsed, "rssBefore": before, "rssAfter": after}


def _pod_envelope(kubeconfig: str, namespace: str) -> bytes:
    """One Pod of the namespace as protobuf: a first decode loads the tables off the clock."""
    from kgen.kubernetes import Clientset

    from . import protobuf_wire

    resource = Clientset(_kgen_config(kubeconfig)).core_v1.pods(namespace)._client
    req = resource._req.list(limit=1)
    req.accept = protobuf_wire.CONTENT_TYPE
    body: bytes = resource._rest.send(req).content
    return body


def official(kubeconfig: str, namespace: str, objects: int) -> dict[str, Any]:
    from kubernetes import client, config

    api = client.CoreV1Api(config.new_client_from_config(config_file=kubeconfig))  # type: ignore[no-untyped-call, unused-ignore]
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
    "kgen-full": kgen_full, "kgen-metadata": kgen_metadata, "kgen-list": kgen_list, "wire-json": _wire("application/json"),
    "wire-protobuf": _wire("application/vnd.kubernetes.protobuf"), "kgen-protobuf": kgen_protobuf,
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
