"""An informer feeding a workqueue, a worker reading the lister's cache."""

from kgen.kubernetes import Clientset
from kgen.kubernetes.informers.factory import SharedInformerFactory
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.tools.cache import DeletedFinalStateUnknown, meta_namespace_key
from kgen.runtime.util.workqueue import RateLimitingQueue, default_controller_rate_limiter


def run(cs: Clientset) -> None:
    factory = SharedInformerFactory(cs, resync=30)
    cms = factory.core_v1.config_maps()
    queue: RateLimitingQueue[str] = RateLimitingQueue(default_controller_rate_limiter())

    def on_add(cm: ConfigMap) -> None:
        queue.add(meta_namespace_key(cm))

    def on_update(old: ConfigMap, new: ConfigMap) -> None:
        queue.add(meta_namespace_key(new))

    def on_delete(cm: ConfigMap | DeletedFinalStateUnknown[ConfigMap]) -> None:
        queue.add(meta_namespace_key(cm))

    cms.informer.add_event_handler(on_add=on_add, on_update=on_update, on_delete=on_delete)
    factory.start()
    factory.wait_for_cache_sync(timeout=30)
    while True:
        key, shutdown = queue.get()
        if shutdown:
            break
        try:
            namespace, name = key.split("/")
            cm = cms.lister.config_maps(namespace).get(name)
            print(name, len(cm.data or {}))
            queue.forget(key)
        except Exception:
            queue.add_rate_limited(key)
        finally:
            queue.done(key)
    factory.shutdown()
