"""The CRD conversion webhook: typed functions between a CRD's versions, chosen by
(from apiVersion, to apiVersion, kind).

controller-runtime's ``conversion.Webhook`` converts through a hub version: every spoke type
implements ``ConvertTo(hub)`` and ``ConvertFrom(hub)``. Both forms are here:
``register_hub_and_spokes(FooV1, FooV2, FooV3)`` takes that form (hub.py: a ``Hub`` marker and
``Convertible`` spokes, checked as controller-runtime checks them), and ``register(FooV1, FooV2,
v1_to_v2)`` a plain typed function for one direction. With no direct function, the webhook
composes two through the kind's hub, or (per-direction functions only) through the first version
registered that has both. What it does with a review:
- The body must be a JSON ``ConversionReview`` of apiextensions.k8s.io/v1 (or v1beta1, same
  shape) with a ``request``; anything else is a plain-text 400 (controller-runtime answers 400
  without a body).
- Each object is decoded as the model registered for its ``apiVersion`` and ``kind``, converted,
  and encoded; ``apiVersion`` and ``kind`` are set to the target's even if the function left
  them empty. An object already in the desired version is passed through unchanged.
- Any object that cannot be converted fails the whole review (``result.status: Failure`` with
  the reason as ``message``, which the apiserver shows the client), as controller-runtime does:
  the apiserver needs every object or none. A function may raise ``ConversionError`` with a
  message for the client; any other exception is reported by its type only (and logged).
- The answer is a ``ConversionReview`` in the request's apiVersion, with the request's ``uid``.

The apiserver checks the answer too: the same number of objects, each in the desired version,
with unchanged ``metadata`` apart from labels and annotations. So a conversion function copies
``metadata`` across (``dst = FooV2(metadata=src.metadata, ...)``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from kgen.runtime.apimachinery import Model, ModelError
from kgen.runtime.webhook.conversion.hub import hub_and_spokes
from kgen.runtime.webhook.conversion.review import ConversionRequest, ConversionResponse, ConversionReview
from kgen.runtime.webhook.endpoint import Reply, read_review
from kgen.runtime.webhook.metrics import NO_WEBHOOK_METRICS, WebhookMetrics
from kgen.runtime.webhook.review_meta import Status

__all__ = ["ConversionError", "ConversionWebhook"]

_log = logging.getLogger("kgen.webhook.conversion")

REVIEW_VERSIONS = ("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1")

S = TypeVar("S", bound=Model)
D = TypeVar("D", bound=Model)

_Key = tuple[str, str]  # (apiVersion, kind)


class ConversionError(Exception):
    """Raised by a conversion function: the object cannot be converted, for this reason (shown
    to the client)."""


class _Failed(Exception):
    """One object of the review could not be converted; the message is the client's."""


def _type_of(model: type[Model]) -> _Key:
    if not model.API_VERSION or not model.KIND:
        raise ValueError(
            f"{model.__module__}.{model.__qualname__} has no API_VERSION and KIND: a conversion is "
            f"registered between the models of a custom resource's versions"
        )
    return model.API_VERSION, model.KIND


class ConversionWebhook:
    """An ``Endpoint`` converting custom resources between versions with registered functions."""

    def __init__(self, name: str = "conversion") -> None:
        self.name = name
        self._models: dict[_Key, type[Model]] = {}
        self._functions: dict[tuple[_Key, _Key], Callable[[Any], Model]] = {}
        self._hubs: dict[tuple[str, str], _Key] = {}  # (group, kind) → its hub, from register_hub_and_spokes
        self._metrics: WebhookMetrics = NO_WEBHOOK_METRICS

    def report_panics_to(self, metrics: WebhookMetrics) -> None:
        """Count a conversion function's unexpected exceptions (controller-runtime's recovered
        panics, ``controller_runtime_conversion_webhook_panics_total``) in ``metrics``."""
        self._metrics = metrics

    def register(self, source: type[S], target: type[D], convert: Callable[[S], D]) -> None:
        """Convert ``source`` objects to ``target`` with ``convert`` (one direction; register the
        other one too)."""
        src, dst = _type_of(source), _type_of(target)
        if src[1] != dst[1]:
            raise ValueError(f"a conversion changes the version, not the kind: {src[1]} → {dst[1]}")
        if src == dst:
            raise ValueError(f"a conversion from {src[0]} to itself is never asked for")
        for key, model in ((src, source), (dst, target)):
            known = self._models.setdefault(key, model)
            if known is not model:
                raise ValueError(f"{key[1]} of {key[0]} is already registered as {known.__qualname__}")
        self._functions[(src, dst)] = convert

    def register_hub_and_spokes(self, *models: type[Model]) -> None:
        """Convert between every pair of ``models`` (all versions of one kind) through the one
        marked ``Hub``: each spoke's ``convert_to()`` and ``convert_from(hub)`` (hub.py). The
        checks are controller-runtime's, made now: an error names the missing hub or the version
        that is not ``Convertible``."""
        hub, spokes = hub_and_spokes(models)
        for spoke in spokes:
            self.register(spoke, hub, _to_hub)
            self.register(hub, spoke, spoke.convert_from)  # type: ignore[attr-defined]  # checked: Convertible
        self._hubs[_group_kind(_type_of(hub))] = _type_of(hub)

    def serve(self, body: bytes, content_type: str) -> Reply:
        """Answer one POSTed ConversionReview with the converted objects, in the review's version."""
        review = read_review(body, content_type, ConversionReview, REVIEW_VERSIONS)
        if isinstance(review, Reply):
            return review
        assert review.request is not None  # read_review answers a review without one
        answer = ConversionReview(api_version=review.api_version, kind="ConversionReview", response=self.convert(review.request))
        return Reply(200, answer.to_json())

    def convert(self, request: ConversionRequest) -> ConversionResponse:
        """The response to ``request``: every object converted, or a failure naming why."""
        try:
            converted = [self._convert_one(obj, request.desired_api_version) for obj in request.objects]
        except _Failed as e:
            return ConversionResponse(uid=request.uid, converted_objects=[], result=Status(status="Failure", message=str(e)))
        return ConversionResponse(uid=request.uid, converted_objects=converted, result=Status(status="Success"))

    def _convert_one(self, obj: dict[str, Any], desired: str) -> dict[str, Any]:
        api_version, kind = obj.get("apiVersion"), obj.get("kind")
        if not isinstance(api_version, str) or not isinstance(kind, str):
            raise _Failed("an object without apiVersion or kind cannot be converted")
        if api_version == desired:
            return obj
        src, dst = (api_version, kind), (desired, kind)
        steps = self._path(src, dst)
        if steps is None:
            raise _Failed(f"no conversion of {kind} from {api_version} to {desired} is registered")
        where = _describe(obj)
        try:
            value: Model = self._models[src].from_dict(obj)
        except ModelError as e:
            raise _Failed(f"{where} is not a {kind} of {api_version}: {e}") from None
        for step in steps:
            try:
                value = self._functions[step](value)
            except ConversionError as e:
                raise _Failed(f"converting {where} from {step[0][0]} to {step[1][0]}: {e}") from None
            except Exception as e:
                self._metrics.conversion_panic()
                _log.error("conversion webhook %s failed on %s (%s → %s)", self.name, where, step[0][0], step[1][0], exc_info=e)
                raise _Failed(f"converting {where} from {step[0][0]} to {step[1][0]} failed: {type(e).__name__}") from None
            if not isinstance(value, self._models[step[1]]):
                raise _Failed(
                    f"the conversion of {where} to {step[1][0]} returned a {type(value).__name__}, "
                    f"not a {self._models[step[1]].__name__}"
                )
        result = value.to_dict()
        result["apiVersion"], result["kind"] = desired, kind
        return result

    def _path(self, src: _Key, dst: _Key) -> list[tuple[_Key, _Key]] | None:
        """The registered steps from ``src`` to ``dst``: one direct function, or two through a
        hub: the kind's ``Hub`` if it has one, else the first such version in registration order,
        so the choice is deterministic."""
        if (src, dst) in self._functions:
            return [(src, dst)]
        marked = self._hubs.get(_group_kind(src))
        for hub in ([marked] if marked is not None else []) + list(self._models):
            if (src, hub) in self._functions and (hub, dst) in self._functions:
                return [(src, hub), (hub, dst)]
        return None


def _group_kind(key: _Key) -> tuple[str, str]:
    return key[0].rpartition("/")[0], key[1]


def _to_hub(spoke: Any) -> Model:
    """A spoke's conversion to its hub (``Convertible.convert_to``)."""
    hub: Model = spoke.convert_to()
    return hub


def _describe(obj: dict[str, Any]) -> str:
    """``namespace/name`` of an object for messages (never its content)."""
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        return "an object"
    name, namespace = meta.get("name"), meta.get("namespace")
    return f"{namespace}/{name}" if namespace else str(name)
