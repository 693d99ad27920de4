"""Delete a Pod, then every Pod with a label."""

from lightkube import ApiError, Client
from lightkube.resources.core_v1 import Pod


def clean_up(client: Client, namespace: str, name: str) -> None:
    try:
        client.delete(Pod, name=name, namespace=namespace, grace_period=0)
    except ApiError as e:
        if e.status.code != 404:
            raise
    for pod in client.list(Pod, namespace=namespace, labels={"job": "batch-1"}):
        if pod.metadata is not None and pod.metadata.name is not None:
            client.delete(Pod, name=pod.metadata.name, namespace=namespace)
