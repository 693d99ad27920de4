"""Hub-and-spoke conversion (controller-runtime's ``pkg/conversion``): one version of a kind is
the ``Hub``, every other version is ``Convertible`` to and from it, and the conversion webhook
converts between any two versions through the hub (spoke → hub → spoke).

    class WidgetV2(Model, Hub, kw_only=True): ...            # the hub: a marker, no methods

    class WidgetV1(Model, kw_only=True):                      # a spoke
        def convert_to(self) -> WidgetV2: ...
        @classmethod
        def convert_from(cls, hub: WidgetV2) -> WidgetV1: ...

    conversion.register_hub_and_spokes(WidgetV1, WidgetV2, WidgetV3)

With N versions that is 2(N-1) functions instead of N(N-1), and adding a version touches only
the new spoke. ``hub_and_spokes`` makes controller-runtime's checks (``IsConvertible`` and
``PartialImplementationError``) before anything is served: the versions are of one kind and
group, exactly one is a ``Hub``, and every other is ``Convertible``; an error names the models
at fault.

One deviation, for Python: Go's ``ConvertTo(dst Hub)`` fills a zero value the webhook allocated,
and ``ConvertFrom(src Hub)`` fills the receiver. A model whose schema has required fields has
no zero value to allocate, so here ``convert_to()`` returns the hub object and the class method
``convert_from(hub)`` returns the spoke. Both copy ``metadata`` across: the apiserver refuses a
converted object whose metadata changed (labels and annotations aside).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from kgen.runtime.apimachinery import Model

__all__ = ["Convertible", "Hub", "PartialImplementationError", "hub_and_spokes", "is_convertible", "is_hub"]


class Hub:
    """Marks a model as its kind's hub version (controller-runtime's ``conversion.Hub``):
    ``class FooV2(Model, Hub, kw_only=True)``. Every other version converts to and from it."""

    __slots__ = ()


@runtime_checkable
class Convertible(Protocol):
    """A spoke version (controller-runtime's ``conversion.Convertible``): converts itself to the
    hub, and is made from a hub object."""

    def convert_to(self) -> Any:
        """This object in the hub version (``metadata`` copied across)."""

    @classmethod
    def convert_from(cls, hub: Any) -> Any:
        """The object ``hub`` in this version (``metadata`` copied across)."""


class PartialImplementationError(ValueError):
    """The versions given do not make a hub and its spokes (controller-runtime's
    ``PartialImplementationError``): no hub, several hubs, or a version that is neither a hub
    nor convertible. The message names the models."""


def is_hub(model: type[Model]) -> bool:
    """Whether ``model`` is marked as its kind's hub."""
    return isinstance(model, type) and issubclass(model, Hub)


def is_convertible(model: type[Model]) -> bool:
    """Whether ``model`` has the ``Convertible`` methods: ``convert_to`` and a class method
    ``convert_from``."""
    return callable(getattr(model, "convert_to", None)) and callable(getattr(model, "convert_from", None))


def _name(model: type[Model]) -> str:
    return f"{model.__qualname__} ({model.API_VERSION})"


def hub_and_spokes(models: Sequence[type[Model]]) -> tuple[type[Model], list[type[Model]]]:
    """The hub among ``models`` (every version of one kind) and the spokes, in the given order.

    Raises ``PartialImplementationError`` as controller-runtime's ``IsConvertible`` does, naming
    the models: no hub, more than one hub, or a version that is neither the hub nor
    ``Convertible``; ``ValueError`` for models that are not versions of one kind."""
    if len(models) < 2:
        raise ValueError("a hub and its spokes are at least two versions of a kind")
    kinds: set[tuple[str, str]] = set()
    for model in models:
        if not isinstance(model, type) or not issubclass(model, Model) or not model.API_VERSION or not model.KIND:
            raise ValueError(f"{model!r} is not a model with API_VERSION and KIND: a conversion is between versions of a kind")
        kinds.add((model.API_VERSION.rpartition("/")[0], model.KIND))
    if len(kinds) != 1:
        raise ValueError(f"the versions of a hub and its spokes share a group and kind, not {sorted(kinds)}")
    versions = [m.API_VERSION for m in models]
    if len(set(versions)) != len(versions):
        raise ValueError(f"a version is given twice: {versions}")
    group, kind = kinds.pop()
    hubs = [m for m in models if is_hub(m)]
    where = f"group-kind {kind}.{group}" if group else f"kind {kind}"
    if not hubs:
        raise PartialImplementationError(f"no hub defined for {where}: mark one version's model with Hub")
    if len(hubs) > 1:
        raise PartialImplementationError(f"multiple({len(hubs)}) hubs defined for {where}: {', '.join(map(_name, hubs))}")
    spokes = [m for m in models if m is not hubs[0]]
    missing = [m for m in spokes if not is_convertible(m)]
    if missing:
        raise PartialImplementationError(
            f"{len(missing)} inconvertible types detected for {where}: {', '.join(map(_name, missing))} "
            f"{'is' if len(missing) == 1 else 'are'} neither the hub ({_name(hubs[0])}) nor Convertible "
            f"(convert_to() and the class method convert_from(hub))"
        )
    return hubs[0], spokes
