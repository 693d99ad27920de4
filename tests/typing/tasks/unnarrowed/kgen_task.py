"""The issue's 20-line task as a user first writes it, with no narrowing at all: mypy --strict's
errors on it are measured (printed, not asserted) by tests/typing/test_peers.py."""

from kgen.kubernetes import Clientset


def report(cs: Clientset, namespace: str) -> int:
    d = cs.apps_v1.deployments(namespace).get("web")
    print(d.metadata.name, d.spec.replicas)
    images: list[str] = [c.image for c in d.spec.template.spec.containers]
    print(images)
    for cm in cs.core_v1.config_maps(namespace).list(label_selector="app=web").items:
        print(cm.metadata.name, len(cm.data))
        cs.core_v1.config_maps(namespace).patch(cm.metadata.name, {"data": {"seen": "yes"}})
    ports = 0
    for dep in cs.apps_v1.deployments(namespace).list().items:
        for c in dep.spec.template.spec.containers:
            for p in c.ports:
                ports += p.container_port
    return ports
