"""List ConfigMaps by label and read their data."""

from lightkube import Client
from lightkube.resources.core_v1 import ConfigMap


def settings(client: Client, namespace: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for cm in client.list(ConfigMap, namespace=namespace, labels={"app": "web"}):
        if cm.data is not None:
            merged.update(cm.data)
    return merged
