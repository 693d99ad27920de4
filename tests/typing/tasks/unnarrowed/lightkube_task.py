"""The issue's 20-line task as a lightkube user first writes it, with no narrowing at all: mypy
--strict's errors on it are measured (printed, not asserted) by tests/typing/test_peers.py."""

from lightkube import Client
from lightkube.resources.apps_v1 import Deployment
from lightkube.resources.core_v1 import ConfigMap


def report(client: Client, namespace: str) -> int:
    d = client.get(Deployment, "web", namespace=namespace)
    print(d.metadata.name, d.spec.replicas)
    images: list[str] = [c.image for c in d.spec.template.spec.containers]
    print(images)
    for cm in client.list(ConfigMap, namespace=namespace, labels={"app": "web"}):
        print(cm.metadata.name, len(cm.data))
        client.patch(ConfigMap, cm.metadata.name, {"data": {"seen": "yes"}}, namespace=namespace)
    ports = 0
    for dep in client.list(Deployment, namespace=namespace):
        for c in dep.spec.template.spec.containers:
            for p in c.ports:
                ports += p.containerPort
    return ports
