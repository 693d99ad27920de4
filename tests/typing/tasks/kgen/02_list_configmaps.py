"""List ConfigMaps by label and read their data."""

from kgen.kubernetes import Clientset


def settings(cs: Clientset, namespace: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for cm in cs.core_v1.config_maps(namespace).list(label_selector="app=web").items:
        if cm.data is not None:
            merged.update(cm.data)
    return merged
