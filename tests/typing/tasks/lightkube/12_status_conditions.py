"""Update a status condition: find it by type, set its status and lastTransitionTime."""

from datetime import datetime, timezone

from lightkube import Client
from lightkube.models.apps_v1 import DeploymentCondition, DeploymentStatus
from lightkube.resources.apps_v1 import Deployment


def mark_available(client: Client, namespace: str, name: str, available: bool) -> None:
    d = client.get(Deployment, name=name, namespace=namespace)
    if d.status is None:
        d.status = DeploymentStatus()
    if d.status.conditions is None:
        d.status.conditions = []
    status = "True" if available else "False"
    now = datetime.now(timezone.utc)
    for c in d.status.conditions:
        if c.type == "Available":
            if c.status != status:
                c.status = status
                c.lastTransitionTime = now
            break
    else:
        d.status.conditions.append(DeploymentCondition(type="Available", status=status, lastTransitionTime=now))
    client.replace(Deployment.Status(metadata=d.metadata, spec=d.spec, status=d.status), name, namespace=namespace)
