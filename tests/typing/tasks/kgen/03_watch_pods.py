"""Watch Pods and print each event's type, the Pod's name and its phase."""

from kgen.kubernetes import Clientset


def watch_pods(cs: Clientset, namespace: str) -> None:
    for event in cs.core_v1.pods(namespace).watch(timeout_seconds=60):
        pod = event.object
        name = pod.metadata.name if pod.metadata is not None else None
        phase = pod.status.phase if pod.status is not None else None
        print(event.type, name, phase)
