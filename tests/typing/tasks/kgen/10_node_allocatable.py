"""List Nodes and read their allocatable cpu and memory."""

from kgen.kubernetes import Clientset


def allocatable(cs: Clientset) -> dict[str, tuple[str, str]]:
    out = {}
    for node in cs.core_v1.nodes().list().items:
        if node.metadata is None or node.metadata.name is None or node.status is None:
            continue
        alloc = node.status.allocatable or {}
        out[node.metadata.name] = (alloc.get("cpu", "0"), alloc.get("memory", "0"))
    return out
