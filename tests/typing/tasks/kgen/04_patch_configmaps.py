"""Patch some ConfigMaps: a merge patch on each, then a strategic one on a Deployment."""

from kgen.kubernetes import Clientset
from kgen.runtime.gentype import PatchType


def stamp(cs: Clientset, namespace: str, names: list[str], version: str) -> list[str]:
    cms = cs.core_v1.config_maps(namespace)
    patched = []
    for name in names:
        cm = cms.patch(name, {"data": {"version": version}})
        if cm.metadata is not None and cm.metadata.resource_version is not None:
            patched.append(cm.metadata.resource_version)
    cs.apps_v1.deployments(namespace).patch(
        "web", {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": f"app:{version}"}]}}}},
        PatchType.STRATEGIC,
    )
    return patched
