"""controller-runtime's webhook builder (pkg/builder/webhook.go): a model's admission and
conversion webhooks, served by the manager's webhook server at controller-runtime's paths.

    webhook_managed_by(manager).for_(CronJob) \\
        .with_defaulter(CronJobDefaulter()) \\
        .with_validator(CronJobValidator()) \\
        .complete()

The paths are controller-runtime's ``generateMutatePath``/``generateValidatePath``, so webhook
configurations written for a kubebuilder project (controller-gen's, or ``kgen manifests``' from ``@webhook`` markers) find them:
``/mutate-<group, dots as dashes>-<version>-<lowercase kind>`` and ``/validate-...`` (the core
group is empty: ``/validate--v1-configmap``, two dashes, as controller-runtime writes it).
``with_defaulter_custom_path``/``with_validator_custom_path`` replace one, checked against
controller-runtime's pattern for a path. ``with_conversion(Other, to_other, from_other)``
registers both directions between the ``for_`` model and another version of its kind on the
manager's one conversion webhook, served at ``/convert`` for every type;
``with_hub_and_spokes(OtherV1, OtherV3)`` registers controller-runtime's hub-and-spoke form
(``kgen.webhook.conversion.Hub`` and ``Convertible``) for the ``for_`` model and those versions.

One deviation: a second webhook for a path already served is refused with an error, where
controller-runtime skips it without a word (the second validator would never run). ``/convert``
is shared on purpose. The builder works on a ``Manager`` and an ``AsyncManager`` alike: the
webhook server runs on threads in both, and validators and defaulters are plain functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, Self, TypeVar

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.webhook.admission import Defaulter, Validator, with_defaulter, with_validator
from kgen.runtime.webhook.conversion import hub_and_spokes

if TYPE_CHECKING:
    from kgen.runtime.controller.manager.manager import ManagerCore

__all__ = ["WebhookBuilder", "WebhookBuilderFor", "mutate_path", "validate_path", "webhook_managed_by"]

T = TypeVar("T", bound=Model)
D = TypeVar("D", bound=Model)

_PATH = re.compile(r"^((/[a-zA-Z0-9-_]+)+|/)$")
"""controller-runtime's webhookPathStringValidation."""


def _group_version_kind(model: type[Model]) -> tuple[str, str, str]:
    if not isinstance(model, type) or not issubclass(model, Model):
        raise TypeError(f"{model!r} is not a kgen model class: pass a generated model, such as Deployment")
    if not model.API_VERSION or not model.KIND:
        raise TypeError(
            f"{model.__qualname__} has no API_VERSION and KIND: webhooks serve a top-level resource's model"
        )
    group, _, version = model.API_VERSION.rpartition("/")
    return group, version, model.KIND


def _suffix(model: type[Model]) -> str:
    group, version, kind = _group_version_kind(model)
    return f"{group.replace('.', '-')}-{version}-{kind.lower()}"


def mutate_path(model: type[Model]) -> str:
    """controller-runtime's path of ``model``'s defaulting webhook: ``/mutate-apps-v1-deployment``."""
    return f"/mutate-{_suffix(model)}"


def validate_path(model: type[Model]) -> str:
    """controller-runtime's path of ``model``'s validating webhook: ``/validate--v1-configmap``."""
    return f"/validate-{_suffix(model)}"


def _custom_path(path: str) -> str:
    if not _PATH.match(path):
        raise ValueError(f"webhook path {path!r} does not match {_PATH.pattern}")
    return path


class WebhookBuilder(Generic[T]):
    """The webhooks of one model, registered on the manager's webhook server by ``complete``."""

    def __init__(self, manager: ManagerCore, model: type[T]) -> None:
        _group_version_kind(model)  # a clear error now, not at complete()
        self._manager = manager
        self._model = model
        self._validator: Validator[T] | None = None
        self._defaulter: Defaulter[T] | None = None
        self._validate_path: str | None = None
        self._mutate_path: str | None = None
        self._conversions: list[Callable[[], None]] = []

    def with_validator(self, validator: Validator[T]) -> Self:
        """Serve ``validator`` as the kind's validating webhook; returns the builder."""
        self._validator = validator
        return self

    def with_defaulter(self, defaulter: Defaulter[T]) -> Self:
        """Serve ``defaulter`` as the kind's mutating (defaulting) webhook; returns the builder."""
        self._defaulter = defaulter
        return self

    def with_validator_custom_path(self, path: str) -> Self:
        """Serve the validating webhook at ``path`` instead of the generated one; returns the builder."""
        self._validate_path = _custom_path(path)
        return self

    def with_defaulter_custom_path(self, path: str) -> Self:
        """Serve the mutating webhook at ``path`` instead of the generated one; returns the builder."""
        self._mutate_path = _custom_path(path)
        return self

    def with_conversion(self, other: type[D], to_other: Callable[[T], D], from_other: Callable[[D], T]) -> Self:
        """Convert between the ``for_`` model and ``other`` (another version of its kind), both ways."""
        _group_version_kind(other)

        def register() -> None:
            conversion = self._manager.conversion_webhook
            conversion.register(self._model, other, to_other)
            conversion.register(other, self._model, from_other)

        self._conversions.append(register)
        return self

    def with_hub_and_spokes(self, *others: type[Model]) -> Self:
        """Convert between the ``for_`` model and ``others`` (every other version of its kind)
        through the one marked ``Hub``, each other one ``Convertible``: controller-runtime's
        hub-and-spoke conversion, checked now as its ``IsConvertible`` checks (an error names the
        missing hub or the version that is not convertible)."""
        models: tuple[type[Model], ...] = (self._model, *others)
        hub_and_spokes(models)

        def register() -> None:
            self._manager.conversion_webhook.register_hub_and_spokes(*models)

        self._conversions.append(register)
        return self

    def complete(self) -> None:
        """Registers the webhooks (before the manager starts)."""
        if self._validator is None and self._defaulter is None and not self._conversions:
            raise ValueError(
                f"webhook_managed_by(...).for_({self._model.__qualname__}) has nothing to serve: "
                f"add with_validator, with_defaulter, with_conversion or with_hub_and_spokes"
            )
        server = self._manager.webhook_server
        if self._defaulter is not None:
            server.register(self._mutate_path or mutate_path(self._model), with_defaulter(self._model, self._defaulter))
        if self._validator is not None:
            server.register(
                self._validate_path or validate_path(self._model), with_validator(self._model, self._validator)
            )
        for register in self._conversions:
            register()


class WebhookBuilderFor:
    """``webhook_managed_by(manager)``: waits for the model (``for_``), which types the rest."""

    def __init__(self, manager: ManagerCore) -> None:
        self._manager = manager

    def for_(self, model: type[T]) -> WebhookBuilder[T]:
        """A ``WebhookBuilder`` for ``model``'s webhooks."""
        return WebhookBuilder(self._manager, model)


def webhook_managed_by(manager: ManagerCore) -> WebhookBuilderFor:
    """controller-runtime's ``NewWebhookManagedBy``, for a ``Manager`` or an ``AsyncManager``."""
    return WebhookBuilderFor(manager)
