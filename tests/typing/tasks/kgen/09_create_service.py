"""Create a Service and read its cluster IP and ports."""

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import Service, ServicePort, ServiceSpec
from kgen.kubernetes.models.meta.v1 import ObjectMeta


def expose(cs: Clientset, namespace: str) -> tuple[str, list[int]]:
    svc = Service(
        metadata=ObjectMeta(name="web"),
        spec=ServiceSpec(selector={"app": "web"}, ports=[ServicePort(name="http", port=80, target_port=8080)]),
    )
    created = cs.core_v1.services(namespace).create(svc)
    if created.spec is None:
        return "", []
    return created.spec.cluster_ip or "", [p.port for p in created.spec.ports or []]
