"""The apiserver's patch formats, applied to plain JSON values (apimachinery's jsonpatch and strategicpatch).

    json_patch(doc, ops)                 JSON patch, as the apiserver applies it (re-exported from
                                         ``jsonpatch``, which lists its deviations from RFC 6902)
    merge_patch(doc, patch)              JSON merge patch, likewise (from ``mergepatch``, RFC 7386's deviations)
    strategic_merge_patch(doc, patch)    Kubernetes' strategic merge patch, driven by the kind's
                                         merge schema (from ``strategicpatch_diff``; the engine is
                                         ``strategicpatch``, compared with apimachinery's own)

Inputs are never modified: every function returns a new value.
"""

from __future__ import annotations

from kgen.runtime.apimachinery.patch.jsonpatch import PatchError, json_patch
from kgen.runtime.apimachinery.patch.mergepatch import merge_patch
from kgen.runtime.apimachinery.util.strategicpatch.diff import strategic_merge_patch

__all__ = ["PatchError", "json_patch", "merge_patch", "strategic_merge_patch"]
