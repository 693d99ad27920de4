"""Get a Deployment; read its name, replicas and container images."""

from kgen.kubernetes import Clientset


def describe(cs: Clientset, namespace: str, name: str) -> tuple[str, int, list[str]]:
    d = cs.apps_v1.deployments(namespace).get(name)
    dname = d.metadata.name if d.metadata is not None and d.metadata.name is not None else name
    replicas = d.spec.replicas if d.spec.replicas is not None else 1
    pod = d.spec.template.spec
    images = [c.image for c in pod.containers if c.image is not None] if pod is not None else []
    return dname, replicas, images
