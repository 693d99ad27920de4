"""A custom resource's client: get a Foo and list them all, reading their spec fields."""

from lightkube import Client
from lightkube.generic_resource import create_namespaced_resource

Foo = create_namespaced_resource("samplecontroller.kgen.dev", "v1alpha1", "Foo", "foos")


def wanted_replicas(client: Client, namespace: str) -> dict[str, int]:
    first = client.get(Foo, name="example", namespace=namespace)
    print(first.spec["deploymentName"])
    return {foo.spec["deploymentName"]: foo.spec["replicas"] for foo in client.list(Foo, namespace=namespace)}
