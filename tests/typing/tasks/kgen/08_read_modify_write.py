"""Read-modify-write: get a Deployment, set its replicas, update it; again on a conflict."""

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.runtime.util.retry import retry_on_conflict


def scale(cs: Clientset, namespace: str, name: str, replicas: int) -> int:
    deployments = cs.apps_v1.deployments(namespace)

    def attempt() -> Deployment:
        d = deployments.get(name)
        d.spec.replicas = replicas
        return deployments.update(d)

    updated = retry_on_conflict(attempt)
    return updated.spec.replicas or 0
