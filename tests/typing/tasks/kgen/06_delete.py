"""Delete a Pod, then every Pod with a label."""

from kgen.kubernetes import Clientset
from kgen.runtime.apimachinery import NotFound


def clean_up(cs: Clientset, namespace: str, name: str) -> None:
    pods = cs.core_v1.pods(namespace)
    try:
        pods.delete(name, grace_period_seconds=0)
    except NotFound:
        pass
    pods.delete_collection(label_selector="job=batch-1")
