"""One kind whose fields take every shape the round trip must give back: nested lists, maps of
models, int and Enum enums, int-or-string, any JSON, a nullable field, a model used twice."""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import IntOrString, Model, field
from kgen.runtime.apimachinery.markers import Nullable, resource

GROUP = "shapes.manifests.kgen.test"


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Point(Model, kw_only=True):
    x: int
    y: int = 0


class ShapeSpec(Model, kw_only=True):
    grid: list[list[int]]
    named_points: dict[str, Point] | None = field(default=None, name="namedPoints")
    path: list[Point] | None = None
    origin: Point | None = None
    level: Literal[1, 2, 3] | None = None
    color: Color = Color.RED
    width: IntOrString | None = None
    anything: Any = None
    note: Annotated[str | None, Nullable()] = None
    weights: dict[str, float] | None = None
    flags: list[bool] | None = None


@resource(group=GROUP, version="v1beta1")
class Shape(Model, kw_only=True):
    api_version: str | None = field(default=None, name="apiVersion")
    kind: str | None = None
    metadata: ObjectMeta | None = None
    spec: ShapeSpec | None = None
