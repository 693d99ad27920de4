"""Two versions of a kind, both marked as the storage version."""

from __future__ import annotations

from kgen.runtime.apimachinery import Model
from kgen.runtime.apimachinery.markers import resource


@resource(group="bad.manifests.kgen.test", version="v1", kind="Thing", storage=True)
class ThingV1(Model, kw_only=True):
    size: int | None = None


@resource(group="bad.manifests.kgen.test", version="v2", kind="Thing", storage=True)
class ThingV2(Model, kw_only=True):
    size: int | None = None
