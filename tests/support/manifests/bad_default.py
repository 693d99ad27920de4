"""A default that does not fit its field's type."""

from __future__ import annotations

from typing import Annotated

from kgen.runtime.apimachinery import Model
from kgen.runtime.apimachinery.markers import Default, resource


@resource(group="bad.manifests.kgen.test", version="v1")
class Thing(Model, kw_only=True):
    size: Annotated[int, Default("big")] | None = None
