"""Get a Deployment; read its name, replicas and container images."""

from lightkube import Client
from lightkube.resources.apps_v1 import Deployment


def describe(client: Client, namespace: str, name: str) -> tuple[str, int, list[str]]:
    d = client.get(Deployment, name=name, namespace=namespace)
    dname = d.metadata.name if d.metadata is not None and d.metadata.name is not None else name
    replicas = d.spec.replicas if d.spec.replicas is not None else 1
    pod = d.spec.template.spec
    images = [c.image for c in pod.containers if c.image is not None] if pod is not None else []
    return dname, replicas, images
