"""Hub-and-spoke conversion (kgen.webhook.conversion.hub): controller-runtime's checks before
anything is served (exactly one hub, every other version convertible, errors naming the models),
and the webhook's conversions between any two versions through the hub. The real apiserver's
side is tests/integration/test_controller_kopf_features.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kgen.controller import Manager, webhook_managed_by
from kgen.runtime.apimachinery import Model
from kgen.runtime.rest import Config
from kgen.webhook.conversion import (
    ConversionRequest,
    ConversionWebhook,
    Convertible,
    Hub,
    PartialImplementationError,
    hub_and_spokes,
)

G = "hub.kgen.test"
STEPS: list[str] = []


class SpecA(Model, kw_only=True):
    n: int


class ThingV2(Model, Hub, kw_only=True):
    API_VERSION = f"{G}/v2"
    KIND = "Thing"
    spec: SpecA | None = None


class ThingV1(Model, kw_only=True):
    API_VERSION = f"{G}/v1"
    KIND = "Thing"
    spec: SpecA | None = None

    def convert_to(self) -> ThingV2:
        STEPS.append("v1→hub")
        return ThingV2(spec=SpecA(n=self.spec.n * 10) if self.spec else None)

    @classmethod
    def convert_from(cls, hub: ThingV2) -> ThingV1:
        STEPS.append("hub→v1")
        return cls(spec=SpecA(n=hub.spec.n // 10) if hub.spec else None)


class ThingV3(Model, kw_only=True):
    API_VERSION = f"{G}/v3"
    KIND = "Thing"
    spec: SpecA | None = None

    def convert_to(self) -> ThingV2:
        STEPS.append("v3→hub")
        return ThingV2(spec=SpecA(n=self.spec.n - 1) if self.spec else None)

    @classmethod
    def convert_from(cls, hub: ThingV2) -> ThingV3:
        STEPS.append("hub→v3")
        return cls(spec=SpecA(n=hub.spec.n + 1) if hub.spec else None)


class ThingV4(Model, kw_only=True):  # neither a hub nor convertible
    API_VERSION = f"{G}/v4"
    KIND = "Thing"


class OtherHub(Model, Hub, kw_only=True):
    API_VERSION = f"{G}/v5"
    KIND = "Thing"


class Elsewhere(Model, kw_only=True):
    API_VERSION = f"other.{G}/v1"
    KIND = "Thing"


def test_the_hub_and_spokes_are_found_whatever_the_order() -> None:
    assert hub_and_spokes([ThingV1, ThingV2, ThingV3]) == (ThingV2, [ThingV1, ThingV3])
    assert hub_and_spokes([ThingV3, ThingV1, ThingV2]) == (ThingV2, [ThingV3, ThingV1])
    assert isinstance(ThingV1(), Convertible) and not isinstance(ThingV4(), Convertible)


def test_versions_without_a_hub_are_refused() -> None:
    with pytest.raises(PartialImplementationError, match=rf"^no hub defined for group-kind Thing.{G}: mark one"):
        hub_and_spokes([ThingV1, ThingV3])


def test_two_hubs_are_refused_and_named() -> None:
    with pytest.raises(PartialImplementationError) as e:
        hub_and_spokes([ThingV1, ThingV2, OtherHub])
    assert str(e.value) == f"multiple(2) hubs defined for group-kind Thing.{G}: ThingV2 ({G}/v2), OtherHub ({G}/v5)"


def test_a_version_that_is_not_convertible_is_named() -> None:
    with pytest.raises(PartialImplementationError) as e:
        hub_and_spokes([ThingV1, ThingV2, ThingV4])
    assert str(e.value) == (
        f"1 inconvertible types detected for group-kind Thing.{G}: ThingV4 ({G}/v4) is neither the hub "
        f"(ThingV2 ({G}/v2)) nor Convertible (convert_to() and the class method convert_from(hub))"
    )


@pytest.mark.parametrize("models, message", [
    ([ThingV2], "at least two versions"),
    ([ThingV2, Elsewhere], "share a group and kind"),
    ([ThingV2, ThingV2], "a version is given twice"),
    ([ThingV2, SpecA], "not a model with API_VERSION and KIND"),
])
def test_models_that_are_not_versions_of_one_kind_are_refused(models: list[type[Model]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        hub_and_spokes(models)


def convert(webhook: ConversionWebhook, obj: dict[str, Any], desired: str) -> dict[str, Any]:
    response = webhook.convert(ConversionRequest(uid="u", desired_api_version=desired, objects=[obj]))
    assert response.result.status == "Success", response.result.message
    [converted] = response.converted_objects
    return converted


def test_the_webhook_converts_any_pair_through_the_hub() -> None:
    webhook = ConversionWebhook()
    webhook.register_hub_and_spokes(ThingV1, ThingV2, ThingV3)
    v1 = {"apiVersion": f"{G}/v1", "kind": "Thing", "spec": {"n": 4}}
    STEPS.clear()
    assert convert(webhook, v1, f"{G}/v3") == {"apiVersion": f"{G}/v3", "kind": "Thing", "spec": {"n": 41}}
    assert STEPS == ["v1→hub", "hub→v3"]
    STEPS.clear()
    v3 = {"apiVersion": f"{G}/v3", "kind": "Thing", "spec": {"n": 41}}
    assert convert(webhook, v3, f"{G}/v1") == {"apiVersion": f"{G}/v1", "kind": "Thing", "spec": {"n": 4}}
    assert convert(webhook, v3, f"{G}/v2") == {"apiVersion": f"{G}/v2", "kind": "Thing", "spec": {"n": 40}}
    v2 = {"apiVersion": f"{G}/v2", "kind": "Thing", "spec": {"n": 40}}
    assert convert(webhook, v2, f"{G}/v3") == {"apiVersion": f"{G}/v3", "kind": "Thing", "spec": {"n": 41}}
    assert STEPS == ["v3→hub", "hub→v1", "v3→hub", "hub→v3"]


def test_the_hub_is_preferred_over_an_earlier_registered_intermediate() -> None:
    """A per-direction pair registered first through v3 does not divert v1 → v4 from the hub."""

    class ThingV4c(Model, kw_only=True):
        API_VERSION = f"{G}/v4"
        KIND = "Thing"
        spec: SpecA | None = None

        def convert_to(self) -> ThingV2:
            return ThingV2(spec=self.spec)

        @classmethod
        def convert_from(cls, hub: ThingV2) -> ThingV4c:
            return cls(spec=hub.spec)

    webhook = ConversionWebhook()
    webhook.register(ThingV1, ThingV3, lambda s: ThingV3(spec=SpecA(n=-1)))
    webhook.register(ThingV3, ThingV4c, lambda s: ThingV4c(spec=SpecA(n=-1)))
    webhook.register_hub_and_spokes(ThingV1, ThingV2, ThingV3, ThingV4c)
    v1 = {"apiVersion": f"{G}/v1", "kind": "Thing", "spec": {"n": 2}}
    assert convert(webhook, v1, f"{G}/v4")["spec"] == {"n": 20}  # through the hub, not through v3's -1s


def test_the_webhook_refuses_a_partial_implementation_at_registration() -> None:
    with pytest.raises(PartialImplementationError, match="ThingV4"):
        ConversionWebhook().register_hub_and_spokes(ThingV1, ThingV2, ThingV4)


def test_the_webhook_builder_checks_when_told_not_when_started(tmp_path: Path) -> None:
    """controller-runtime checks at Complete(); kgen's builder at once, naming the fault."""
    manager = Manager(Config(host="https://127.0.0.1:1"), webhook_cert_dir=tmp_path)  # never dialled, never served
    with pytest.raises(PartialImplementationError, match=r"ThingV4 \(hub.kgen.test/v4\) is neither the hub"):
        webhook_managed_by(manager).for_(ThingV1).with_hub_and_spokes(ThingV2, ThingV4)
    with pytest.raises(PartialImplementationError, match="^no hub defined"):
        webhook_managed_by(manager).for_(ThingV1).with_hub_and_spokes(ThingV3)
    webhook_managed_by(manager).for_(ThingV1).with_hub_and_spokes(ThingV2, ThingV3)  # fine until complete()
