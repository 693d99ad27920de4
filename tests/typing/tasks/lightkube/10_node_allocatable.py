"""List Nodes and read their allocatable cpu and memory."""

from lightkube import Client
from lightkube.resources.core_v1 import Node


def allocatable(client: Client) -> dict[str, tuple[str, str]]:
    out = {}
    for node in client.list(Node):
        if node.metadata is None or node.metadata.name is None or node.status is None:
            continue
        alloc = node.status.allocatable or {}
        out[node.metadata.name] = (alloc.get("cpu", "0"), alloc.get("memory", "0"))
    return out
