"""Patch some ConfigMaps: a merge patch on each, then a strategic one on a Deployment."""

from lightkube import Client
from lightkube.resources.apps_v1 import Deployment
from lightkube.resources.core_v1 import ConfigMap
from lightkube.types import PatchType


def stamp(client: Client, namespace: str, names: list[str], version: str) -> list[str]:
    patched = []
    for name in names:
        cm = client.patch(ConfigMap, name, {"data": {"version": version}}, namespace=namespace, patch_type=PatchType.MERGE)
        if cm.metadata is not None and cm.metadata.resourceVersion is not None:
            patched.append(cm.metadata.resourceVersion)
    client.patch(
        Deployment, "web", {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": f"app:{version}"}]}}}},
        namespace=namespace,
    )
    return patched
