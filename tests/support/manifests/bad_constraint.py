"""A string constraint on an int field."""

from __future__ import annotations

from typing import Annotated

from kgen.runtime.apimachinery import Model
from kgen.runtime.apimachinery.markers import MinLength, resource


class ThingSpec(Model, kw_only=True):
    count: Annotated[int, MinLength(1)]


@resource(group="bad.manifests.kgen.test", version="v1")
class Thing(Model, kw_only=True):
    spec: ThingSpec | None = None
