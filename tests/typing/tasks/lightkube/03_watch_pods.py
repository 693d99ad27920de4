"""Watch Pods and print each event's type, the Pod's name and its phase."""

from lightkube import Client
from lightkube.resources.core_v1 import Pod


def watch_pods(client: Client, namespace: str) -> None:
    for op, pod in client.watch(Pod, namespace=namespace, server_timeout=60):
        name = pod.metadata.name if pod.metadata is not None else None
        phase = pod.status.phase if pod.status is not None else None
        print(op, name, phase)
