"""Update a status condition: find it by type, set its status and lastTransitionTime."""

from datetime import datetime, timezone

from kgen.kubernetes import Clientset
from kgen.kubernetes.models.apps.v1 import DeploymentCondition, DeploymentStatus


def mark_available(cs: Clientset, namespace: str, name: str, available: bool) -> None:
    deployments = cs.apps_v1.deployments(namespace)
    d = deployments.get(name)
    if d.status is None:
        d.status = DeploymentStatus()
    if d.status.conditions is None:
        d.status.conditions = []
    status = "True" if available else "False"
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    for c in d.status.conditions:
        if c.type == "Available":
            if c.status != status:
                c.status = status
                c.last_transition_time = now
            break
    else:
        d.status.conditions.append(DeploymentCondition(type="Available", status=status, last_transition_time=now))
    deployments.update_status(d)
