"""A field whose type has no CRD schema (a set)."""

from __future__ import annotations

from kgen.runtime.apimachinery import Model
from kgen.runtime.apimachinery.markers import resource


class ThingSpec(Model, kw_only=True):
    names: set[str]


@resource(group="bad.manifests.kgen.test", version="v1")
class Thing(Model, kw_only=True):
    spec: ThingSpec | None = None
