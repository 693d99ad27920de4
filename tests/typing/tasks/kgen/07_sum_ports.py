"""Sum the container ports of all Deployments."""

from kgen.kubernetes import Clientset


def total_ports(cs: Clientset) -> int:
    total = 0
    for d in cs.apps_v1.deployments("").iter():
        pod = d.spec.template.spec
        if pod is None:
            continue
        for c in pod.containers:
            for p in c.ports or []:
                total += p.container_port
    return total
