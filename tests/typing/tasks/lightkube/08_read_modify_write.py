"""Read-modify-write: get a Deployment, set its replicas, update it; again on a conflict."""

from lightkube import ApiError, Client
from lightkube.resources.apps_v1 import Deployment


def scale(client: Client, namespace: str, name: str, replicas: int) -> int:
    while True:
        d = client.get(Deployment, name=name, namespace=namespace)
        d.spec.replicas = replicas
        try:
            updated = client.replace(d)
        except ApiError as e:
            if e.status.code == 409:
                continue
            raise
        return updated.spec.replicas or 0
