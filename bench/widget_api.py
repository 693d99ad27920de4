"""Widget, the operator bench's custom resource (bench/operator.py), written with kgen's markers.

A namespaced ``widgets.bench.kgen.dev/v1`` with a status subresource: ``spec.data`` is copied by
each operator into a ConfigMap of the Widget's name (owned by it), and ``status.observed`` records
the ``metadata.generation`` that copy was made from, so the bench driver sees from the Widget
alone when an operator has caught up.

Regenerate the CRD (from the repository root); the client is generated from it at bench time
(bench/widget.py)::

    kgen manifests --module bench.widget_api --out bench/widget_crd
"""

from __future__ import annotations

from typing import Annotated, Any

from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import Model, field
from kgen.runtime.apimachinery.markers import PreserveUnknownFields, PrinterColumn, resource

GROUP = "bench.kgen.dev"


class WidgetSpec(Model, kw_only=True):
    """WidgetSpec is what the user asks of a Widget."""

    data: dict[str, str] | None = None
    """The data of the Widget's ConfigMap."""


class WidgetStatus(Model, kw_only=True):
    """WidgetStatus is what the operator did."""

    observed: int | None = None
    """The metadata.generation the ConfigMap was last written from."""
    config_map: str | None = field(default=None, name="configMap")
    """The name of the Widget's ConfigMap."""
    kopf: Annotated[dict[str, Any], PreserveUnknownFields()] | None = None
    """kopf's progress and last handled configuration, when kopf keeps them in the status (the tuned kopf row)."""


@resource(group=GROUP, version="v1", status=True,
          printer_columns=[PrinterColumn("Observed", "integer", ".status.observed")])
class Widget(Model, kw_only=True):
    """Widget is the operator bench's resource: a map of strings mirrored into a ConfigMap."""

    api_version: str | None = field(default=None, name="apiVersion")
    kind: str | None = None
    metadata: ObjectMeta | None = None
    spec: WidgetSpec | None = None
    status: WidgetStatus | None = None
