"""Two versions of a kind, neither marked as the storage version."""

from __future__ import annotations

from kgen.runtime.apimachinery import Model
from kgen.runtime.apimachinery.markers import resource


@resource(group="bad.manifests.kgen.test", version="v1", kind="Thing")
class ThingV1(Model, kw_only=True):
    size: int | None = None


@resource(group="bad.manifests.kgen.test", version="v2", kind="Thing")
class ThingV2(Model, kw_only=True):
    size: int | None = None
