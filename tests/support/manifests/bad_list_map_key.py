"""A map-type list keyed by a field its items do not have."""

from __future__ import annotations

from typing import Annotated

from kgen.runtime.apimachinery import Model
from kgen.runtime.apimachinery.markers import ListType, resource


class Entry(Model, kw_only=True):
    name: str


@resource(group="bad.manifests.kgen.test", version="v1")
class Thing(Model, kw_only=True):
    entries: Annotated[list[Entry], ListType("map", keys=["id"])] | None = None
