"""A custom resource's client: get a Foo and list them all, reading their spec fields."""

from examples.sample_controller.client import Clientset


def wanted_replicas(cs: Clientset, namespace: str) -> dict[str, int]:
    foos = cs.samplecontroller_kgen_dev_v1alpha1.foos(namespace)
    first = foos.get("example")
    print(first.spec.deployment_name if first.spec is not None else None)
    return {foo.spec.deployment_name: foo.spec.replicas for foo in foos.list().items if foo.spec is not None}
