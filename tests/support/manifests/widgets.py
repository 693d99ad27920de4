"""One kind, one version, with every marker the schema tests look at (tests/unit/test_manifests_*,
tests/integration/test_manifests_*)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from kgen.kubernetes.models.meta.v1 import Condition, ObjectMeta
from kgen.runtime.apimachinery import IntOrString, Model, Time, field
from kgen.runtime.apimachinery.markers import (
    Default,
    Format,
    ListType,
    Maximum,
    MaxItems,
    MaxLength,
    Minimum,
    MinItems,
    MinLength,
    Pattern,
    PreserveUnknownFields,
    PrinterColumn,
    Scale,
    XValidation,
    constraints,
    resource,
)

GROUP = "widgets.manifests.kgen.test"


class Port(Model, kw_only=True):
    """A named port."""

    name: Annotated[str, MaxLength(15)]
    """The port's name, unique in the list."""
    port: Annotated[int, Minimum(1), Maximum(65535)]
    protocol: Literal["TCP", "UDP"] = "TCP"


@constraints(XValidation(rule="self.min <= self.max", message="min must not exceed max"))
class Range(Model, kw_only=True):
    min: int
    max: int


class WidgetSpec(Model, kw_only=True):
    """WidgetSpec is what the user asks of a Widget."""

    replicas: Annotated[int, Minimum(0), Maximum(10), Format("int32")] = 1
    """How many copies run."""
    size: Annotated[str, Pattern(r"^[0-9]+(Ki|Mi|Gi)$")]
    """A size such as 10Gi."""
    owner_email: Annotated[str, MinLength(3), MaxLength(254)] | None = field(default=None, name="ownerEmail")
    mode: Literal["Fast", "Safe"] | None = None
    tags: Annotated[list[str], MinItems(1), MaxItems(5), ListType("set")] | None = None
    ports: Annotated[list[Port], ListType("map", keys=["name"])] | None = None
    labels: dict[str, str] | None = None
    limits: dict[str, int] | None = None
    target: IntOrString | None = None
    window: Range | None = None
    config: dict[str, Any] | None = None
    extra: Annotated[Any, PreserveUnknownFields()] = None
    paused: bool = False
    ratio: float | None = None
    start_time: Time | None = field(default=None, name="startTime")
    tier: Annotated[str, Default("gold")] | None = None


class WidgetStatus(Model, kw_only=True):
    replicas: int | None = None
    selector: str | None = None
    last_seen: Time | None = field(default=None, name="lastSeen")
    conditions: Annotated[list[Condition], ListType("map", keys=["type"])] | None = None


@resource(
    group=GROUP,
    version="v1",
    short_names=["wd"],
    categories=["all"],
    status=True,
    scale=Scale(".spec.replicas", ".status.replicas", ".status.selector"),
    printer_columns=[
        PrinterColumn("Replicas", "integer", ".spec.replicas"),
        PrinterColumn("Size", "string", ".spec.size", description="The size asked for", priority=1),
        PrinterColumn("Age", "date", ".metadata.creationTimestamp"),
    ],
    validations=[XValidation(rule="self.metadata.name.size() <= 40", message="name too long")],
    selectable_fields=[".spec.size"],
)
class Widget(Model, kw_only=True):
    """Widget is the Schema for the widgets API."""

    api_version: str | None = field(default=None, name="apiVersion")
    kind: str | None = None
    metadata: ObjectMeta | None = None
    spec: Annotated[WidgetSpec, XValidation(rule="!has(self.ownerEmail) || self.ownerEmail.contains('@')",
                                            message="ownerEmail must contain @")]
    status: WidgetStatus | None = None
