"""Webhook markers: controller-gen's ``+kubebuilder:webhook`` as a decorator, for ``kgen manifests``.

In a kubebuilder project a comment above the webhook's Go type tells controller-gen how the
apiserver is to call it (``mutating``, ``failurePolicy``, ``sideEffects``, the rules...), and
controller-gen writes the Mutating/ValidatingWebhookConfiguration from it (config/webhook/
manifests.yaml). Here the same facts sit on the defaulter or validator class::

    @webhook(CronJob, mutating=True, name="mcronjob-v1.kb.io")
    class CronJobDefaulter:
        def default(self, obj: CronJob) -> None: ...

``kgen manifests`` finds them in the modules it imports. What is left out comes from the model,
as kubebuilder's scaffold fills the marker in: ``groups``/``versions`` its API version,
``resources`` its plural (a model marked ``@resource``; a built-in kind names them), ``path``
controller-runtime's (``/mutate-<group>-<version>-<kind>``, what ``webhook_managed_by(...)`` serves
it at), and ``failure_policy="fail"``, ``side_effects="None"``, ``verbs=("create", "update")``,
``admission_review_versions=("v1",)``. ``conversion_webhook(Model)`` says the kind's CRD converts
between its versions through the manager's ``/convert`` webhook (the CRD's ``spec.conversion``).
The decorators change nothing at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["ConversionMarker", "WEBHOOK_ATTRIBUTE", "WebhookMarker", "conversion_webhook", "markers_of", "webhook"]

WEBHOOK_ATTRIBUTE = "__kgen_webhooks__"
"""Where ``@webhook`` and ``@conversion_webhook`` keep what they were given, on the object itself."""

T = TypeVar("T")


@dataclass(frozen=True)
class WebhookMarker:
    """One ``+kubebuilder:webhook`` marker: an admission webhook for ``model``. Fields left ``None``
    are filled in from the model by ``kgen manifests`` (see the module's docstring)."""

    model: type
    mutating: bool
    name: str
    failure_policy: str = "fail"
    side_effects: str = "None"
    verbs: tuple[str, ...] = ("create", "update")
    admission_review_versions: tuple[str, ...] = ("v1",)
    path: str | None = None
    groups: tuple[str, ...] | None = None
    resources: tuple[str, ...] | None = None
    versions: tuple[str, ...] | None = None
    match_policy: str | None = None
    timeout_seconds: int | None = None
    reinvocation_policy: str | None = None
    service_name: str | None = None
    service_namespace: str | None = None
    service_port: int | None = None
    url: str | None = None


@dataclass(frozen=True)
class ConversionMarker:
    """The CRD of ``model``'s kind converts through a webhook (kubebuilder's conversion patch)."""

    model: type
    path: str = "/convert"
    service_name: str | None = None
    service_namespace: str | None = None
    conversion_review_versions: tuple[str, ...] = ("v1",)


def _attach(marker: object) -> Callable[[T], T]:
    def mark(obj: T) -> T:
        own = vars(obj).get(WEBHOOK_ATTRIBUTE, ()) if hasattr(obj, "__dict__") else ()
        setattr(obj, WEBHOOK_ATTRIBUTE, (*own, marker))
        return obj

    return mark


def webhook(
    model: type,
    *,
    mutating: bool,
    name: str,
    failure_policy: str = "fail",
    side_effects: str = "None",
    verbs: Sequence[str] = ("create", "update"),
    admission_review_versions: Sequence[str] = ("v1",),
    path: str | None = None,
    groups: Sequence[str] | None = None,
    resources: Sequence[str] | None = None,
    versions: Sequence[str] | None = None,
    match_policy: str | None = None,
    timeout_seconds: int | None = None,
    reinvocation_policy: str | None = None,
    service_name: str | None = None,
    service_namespace: str | None = None,
    service_port: int | None = None,
    url: str | None = None,
) -> Callable[[T], T]:
    """Marks a defaulter (``mutating=True``) or validator class as ``model``'s admission webhook,
    as ``+kubebuilder:webhook`` does; repeatable. ``name`` is the webhook's (a DNS name with at
    least three segments, e.g. ``vcronjob-v1.kb.io``)."""
    tup: Callable[[Sequence[str] | None], tuple[str, ...] | None] = lambda s: None if s is None else tuple(s)  # noqa: E731
    return _attach(WebhookMarker(
        model=model, mutating=mutating, name=name, failure_policy=failure_policy, side_effects=side_effects,
        verbs=tuple(verbs), admission_review_versions=tuple(admission_review_versions), path=path, groups=tup(groups),
        resources=tup(resources), versions=tup(versions), match_policy=match_policy, timeout_seconds=timeout_seconds,
        reinvocation_policy=reinvocation_policy, service_name=service_name, service_namespace=service_namespace,
        service_port=service_port, url=url,
    ))


def conversion_webhook(
    model: type,
    *,
    path: str = "/convert",
    service_name: str | None = None,
    service_namespace: str | None = None,
    conversion_review_versions: Sequence[str] = ("v1",),
) -> Callable[[T], T]:
    """Marks an object (the function or class that registers the conversions, say) as saying that
    ``model``'s kind converts between its versions through the webhook at ``path`` (the manager's
    ``/convert``): ``kgen manifests`` writes ``spec.conversion: {strategy: Webhook, ...}`` into its CRD."""
    return _attach(ConversionMarker(model=model, path=path, service_name=service_name,
                                    service_namespace=service_namespace,
                                    conversion_review_versions=tuple(conversion_review_versions)))


def markers_of(obj: Any) -> tuple[WebhookMarker | ConversionMarker, ...]:
    """The webhook markers put on ``obj`` itself (not inherited), or ``()``."""
    try:
        found = vars(obj).get(WEBHOOK_ATTRIBUTE, ())
    except TypeError:
        return ()
    return tuple(k for k in found if isinstance(k, (WebhookMarker, ConversionMarker))) if isinstance(found, tuple) else ()
