"""A model that contains itself: no finite structural schema."""

from __future__ import annotations

from kgen.runtime.apimachinery import Model
from kgen.runtime.apimachinery.markers import resource


class Node(Model, kw_only=True):
    children: list[Node] | None = None


@resource(group="bad.manifests.kgen.test", version="v1")
class Tree(Model, kw_only=True):
    root: Node | None = None
