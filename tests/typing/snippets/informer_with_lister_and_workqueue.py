"""An informer with typed handlers, its lister and a workqueue, written as a client-go user writes
them: no casts, no isinstance checks but the tombstone's, no narrowing of the queue's key."""

from __future__ import annotations

from typing import assert_type

from kgen.kubernetes import Clientset
from kgen.kubernetes.informers.factory import SharedInformerFactory
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.tools.cache import DeletedFinalStateUnknown, meta_namespace_key
from kgen.runtime.util.workqueue import RateLimitingQueue, default_controller_rate_limiter


def controller(cs: Clientset) -> None:
    factory = SharedInformerFactory(cs, resync=30)
    cms = factory.core_v1.config_maps()
    queue: RateLimitingQueue[str] = RateLimitingQueue(default_controller_rate_limiter(), name="configmaps")

    def on_add(cm: ConfigMap) -> None:
        queue.add(meta_namespace_key(cm))

    def on_update(old: ConfigMap, new: ConfigMap) -> None:
        if old.data != new.data:
            queue.add(meta_namespace_key(new))

    def on_delete(obj: ConfigMap | DeletedFinalStateUnknown[ConfigMap]) -> None:
        last = obj.obj if isinstance(obj, DeletedFinalStateUnknown) else obj
        assert_type(last, ConfigMap)
        queue.add(meta_namespace_key(last))

    registration = cms.informer.add_event_handler(on_add=on_add, on_update=on_update, on_delete=on_delete)
    # Lambdas get the model from the informer, as a Go closure would.
    cms.informer.add_event_handler(on_update=lambda old, new: print(old.data, new.data))
    factory.start()
    factory.wait_for_cache_sync(timeout=30)
    assert registration.has_synced()

    while True:
        key, shutdown = queue.get()
        if shutdown:
            break
        assert_type(key, str)
        try:
            namespace, name = key.split("/")
            cm = cms.lister.config_maps(namespace).get(name)
            assert_type(cm, ConfigMap)
            print(cm.data)
            assert_type(cms.lister.list(selector="app=web"), list[ConfigMap])
            assert_type(cms.lister.config_maps(namespace).list(), list[ConfigMap])
            assert_type(cms.informer.indexer.by_index("namespace", namespace), list[ConfigMap])
            assert_type(cms.informer.indexer.get_by_key(key), ConfigMap | None)
            queue.forget(key)
        except Exception:
            queue.add_rate_limited(key)
        finally:
            queue.done(key)
    factory.shutdown()
