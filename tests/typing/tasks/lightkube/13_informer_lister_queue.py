"""The nearest lightkube idiom to an informer, a lister and a workqueue: a watch loop filling a
dict cache and a queue, a worker thread reading the cache."""

import queue
import threading

from lightkube import Client
from lightkube.resources.core_v1 import ConfigMap


def run(client: Client) -> None:
    cache: dict[str, ConfigMap] = {}
    keys: queue.Queue[str] = queue.Queue()

    def worker() -> None:
        while True:
            key = keys.get()
            cm = cache.get(key)
            if cm is not None:
                print(key, len(cm.data or {}))
            keys.task_done()

    threading.Thread(target=worker, daemon=True).start()
    for op, cm in client.watch(ConfigMap, namespace="*"):
        if cm.metadata is None:
            continue
        key = f"{cm.metadata.namespace}/{cm.metadata.name}"
        if op == "DELETED":
            cache.pop(key, None)
        else:
            cache[key] = cm
        keys.put(key)
