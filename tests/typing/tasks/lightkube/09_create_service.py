"""Create a Service and read its cluster IP and ports."""

from lightkube import Client
from lightkube.models.core_v1 import ServicePort, ServiceSpec
from lightkube.models.meta_v1 import ObjectMeta
from lightkube.resources.core_v1 import Service


def expose(client: Client, namespace: str) -> tuple[str, list[int]]:
    svc = Service(
        metadata=ObjectMeta(name="web"),
        spec=ServiceSpec(selector={"app": "web"}, ports=[ServicePort(name="http", port=80, targetPort=8080)]),
    )
    created = client.create(svc, namespace=namespace)
    if created.spec is None:
        return "", []
    return created.spec.clusterIP or "", [p.port for p in created.spec.ports or []]
