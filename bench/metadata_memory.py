"""Retained bytes per cached object: the metadata-only informer's objects vs the typed Pod's.

The same realistic pods (bench/pods.py; no managedFields there: a server's pods carry them in
both forms, which adds the same bytes to both figures) decoded as the typed informer holds them
(``Pod``) and as the metadata informer holds them
(``PartialObjectMetadata``: the apiserver's metadata projection of each pod, i.e. TypeMeta
``meta.k8s.io/v1 PartialObjectMetadata`` plus the pod's whole ``metadata``), measured with
bench/memory.py's ``retained_bytes``. A figure for helper C's scale bench to check against its
whole-process one; run ``python -m bench.metadata_memory [COUNT]``.
"""

from __future__ import annotations

import json
import sys

from .memory import retained_bytes
from .pods import make_pod_list


def per_object(count: int = 2000) -> dict[str, float]:
    """{"typed": bytes per Pod, "metadata": bytes per PartialObjectMetadata, "ratio": metadata / typed}."""
    from kgen.kubernetes.models.core.v1 import PodList
    from kgen.kubernetes.models.meta.v1 import PartialObjectMetadataList

    pods = make_pod_list(count)
    full = json.dumps(pods, separators=(",", ":")).encode()
    partial = json.dumps({
        "kind": "PartialObjectMetadataList", "apiVersion": "meta.k8s.io/v1", "metadata": pods["metadata"],
        "items": [{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": p["metadata"]}
                  for p in pods["items"]],
    }, separators=(",", ":")).encode()
    typed = retained_bytes(PodList.from_json, full) / count
    metadata = retained_bytes(PartialObjectMetadataList.from_json, partial) / count
    return {"typed": typed, "metadata": metadata, "ratio": metadata / typed}


if __name__ == "__main__":
    figures = per_object(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
    print(f"typed Pod: {figures['typed']:.0f} B/object; PartialObjectMetadata: {figures['metadata']:.0f} B/object; "
          f"ratio {figures['ratio']:.3f}")
