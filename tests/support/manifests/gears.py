"""Gear: the markers issue 35 added to `kgen manifests`, beside their Go twin (hack/controller-gen/gear).

Two versions of one kind, v1 stored and giving the short names and categories once (v2 gives
none), a spec with one-of constraints (listed before the CEL rule: controller-gen orders them its
own way), a title and examples, an ``Int32``, an ``int`` (Go's int64) and a float (written only
with ``--allow-dangerous-types``), and embedded k8s.io/api types. The docstrings are the Go
comments, so that descriptions compare too (``--max-desc-len``). Admission webhooks with every
option of ``+kubebuilder:webhook``, and a conversion webhook for the kind.
"""

from __future__ import annotations

from typing import Annotated

from kgen.kubernetes.models.core.v1 import Affinity, LocalObjectReference, Pod
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import Model, field
from kgen.runtime.apimachinery.markers import (
    AtLeastOneOf, AtMostOneOf, ExactlyOneOf, Example, Int32, Title, XValidation, constraints, resource,
)
from kgen.runtime.webhook.markers import conversion_webhook, webhook

GROUP = "gears.kgen.dev"


class Endpoint(Model, kw_only=True):
    """Endpoint is where a gear is reached."""

    host: Annotated[str, Example("example.com")]
    """The host name."""
    port: Int32 | None = None
    """The port."""


@constraints(
    ExactlyOneOf("http", "https"),
    AtLeastOneOf("email", "phone"),
    XValidation("!has(self.size) || self.size >= 0", message="size is not negative"),
    AtMostOneOf("configMapRef", "secretRef"),
    Title("The gear's spec"),
)
class GearSpec(Model, kw_only=True):
    """GearSpec is what the user asks of a Gear."""

    size: Annotated[Int32, Title("Size"), Example(3)] | None = None
    """The size of the gear, in gear units; a long description cut by crd:maxDescLen. It goes on. And on, for a while yet."""
    count: int | None = None
    """A count."""
    ratio: float | None = None
    """A ratio, a float."""
    labels: Annotated[dict[str, str], Example({"team": "a"})] | None = None
    """Labels to put on what the gear makes."""
    http: Endpoint | None = None
    """Plain HTTP."""
    https: Endpoint | None = None
    """HTTP over TLS."""
    config_map_ref: LocalObjectReference | None = field(default=None, name="configMapRef")
    """A ConfigMap to read settings from."""
    secret_ref: LocalObjectReference | None = field(default=None, name="secretRef")
    """A Secret to read settings from."""
    email: str | None = None
    """Whom to mail."""
    phone: str | None = None
    """Whom to call."""
    affinity: Affinity | None = None
    """Where the gear's pods go."""


@resource(group=GROUP, version="v1", kind="Gear", short_names=("gr", "grs"), categories=("all",), storage=True)
class GearV1(Model, kw_only=True):
    """Gear is a thing with markers."""

    api_version: str | None = field(default=None, name="apiVersion")
    kind: str | None = None
    metadata: ObjectMeta | None = None
    spec: GearSpec


class GearSpecV2(Model, kw_only=True):
    """GearSpec is what the user asks of a Gear."""

    size: int | None = None
    """The size of the gear."""


@resource(group=GROUP, version="v2", kind="Gear")
class GearV2(Model, kw_only=True):
    """Gear is a thing with markers."""

    api_version: str | None = field(default=None, name="apiVersion")
    kind: str | None = None
    metadata: ObjectMeta | None = None
    spec: GearSpecV2


@webhook(GearV1, mutating=True, name="mgear.kgen.dev", failure_policy="Ignore", side_effects="NoneOnDryRun",
         verbs=("CREATE", "update", "delete"), timeout_seconds=5, reinvocation_policy="ifneeded", match_policy="equivalent",
         service_name="gears-webhook", service_namespace="gears", service_port=8443)
@webhook(Pod, mutating=False, name="vpod.kgen.dev", groups=("core",), resources=("pods",), path="/validate-pods", verbs=("*",))
@webhook(GearV1, mutating=False, name="agear.kgen.dev", url="https://gears.example.com/validate")
class GearWebhooks:
    """Admission webhooks with every option controller-gen's marker has (the Go twin's markers say the same)."""


@conversion_webhook(GearV1)
def convert_gears() -> None:
    """Where a real project would register v1 <-> v2 conversions (with_conversion) on its manager."""
