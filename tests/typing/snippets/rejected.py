"""Mistakes mypy --strict must reject: each line marked ``# E: <code>`` must get exactly that
error, and no other line any (tests/typing/test_snippets.py checks both)."""

from __future__ import annotations

from kgen.kubernetes import Clientset
from kgen.kubernetes.informers.factory import SharedInformerFactory
from kgen.kubernetes.models.core.v1 import ConfigMap, Pod
from kgen.runtime.util.workqueue import RateLimitingQueue, default_controller_rate_limiter


def on_pod(pod: Pod) -> None: ...
def on_one(cm: ConfigMap) -> None: ...
def on_two(old: ConfigMap, new: ConfigMap) -> None: ...


def mistakes(cs: Clientset) -> None:
    cms = SharedInformerFactory(cs).core_v1.config_maps()
    cms.informer.add_event_handler(on_add=on_pod)  # E: arg-type
    cms.informer.add_event_handler(on_update=on_one)  # E: arg-type
    cms.informer.add_event_handler(on_delete=on_one)  # E: arg-type
    cms.informer.add_event_handler(on_add=on_two)  # E: arg-type
    pod: Pod = cms.lister.config_maps("default").get("x")  # E: assignment
    pods: list[Pod] = cms.informer.indexer.by_index("namespace", "default")  # E: assignment

    for ev in cs.core_v1.config_maps("default").watch():
        if ev.type == "BOOKMARK":  # E: comparison-overlap
            continue
        other: Pod = ev.object  # E: assignment
    for e in cs.core_v1.config_maps("default").watch(bookmarks=True):
        print(e.object)  # E: union-attr

    queue: RateLimitingQueue[str] = RateLimitingQueue(default_controller_rate_limiter())
    queue.add(3)  # E: arg-type
    key, shutdown = queue.get()
    if not shutdown:
        number: int = key  # E: assignment
