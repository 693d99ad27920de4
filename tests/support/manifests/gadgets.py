"""One kind in two versions, v1 stored; the v2 spec renamed a field and added one."""

from __future__ import annotations

from typing import Annotated

from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import Model, field
from kgen.runtime.apimachinery.markers import Minimum, resource

GROUP = "gadgets.manifests.kgen.test"


class GadgetSpecV1(Model, kw_only=True):
    color: str
    count: Annotated[int, Minimum(1)] = 1


class GadgetSpecV2(Model, kw_only=True):
    colour: str
    count: Annotated[int, Minimum(1)] = 1
    shiny: bool | None = None


@resource(group=GROUP, version="v1", kind="Gadget", storage=True, scope="Cluster")
class GadgetV1(Model, kw_only=True):
    api_version: str | None = field(default=None, name="apiVersion")
    kind: str | None = None
    metadata: ObjectMeta | None = None
    spec: GadgetSpecV1 | None = None


@resource(group=GROUP, version="v2", kind="Gadget", scope="Cluster", deprecation_warning=None)
class GadgetV2(Model, kw_only=True):
    api_version: str | None = field(default=None, name="apiVersion")
    kind: str | None = None
    metadata: ObjectMeta | None = None
    spec: GadgetSpecV2 | None = None
