"""From a model class to its resource: what controller-runtime's Scheme and RESTMapper answer.

controller-runtime finds a Go type's GroupVersionKind in the Scheme, then its resource (plural,
scope) with the RESTMapper, which asks discovery. kgen's generated packages already hold both
facts, side by side, by a fixed layout (DESIGN.md, "Generated package contract"):

- ``<package>.models.<group>.<version>`` defines the model (``Deployment``, with ``API_VERSION``
  and ``KIND``) and its list (``DeploymentList``);
- ``<package>.typed.<group>.<version>`` defines its ``ResourceInfo`` (``DEPLOYMENTS``: group,
  version, plural, scope, kind), the one the generated typed clients and informers use.

So ``resource_for(Deployment)`` reads the typed module next to the model's, which works for any
generated package (the stock client, a CRD package) with no discovery request and no registry to
fill in by hand. A class that is not a top-level resource (``DeploymentSpec``, a list, a class
from elsewhere) is refused with a message that says why.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.gentype.resource import ResourceInfo

__all__ = ["NotAResourceError", "Resource", "resource_for"]

T = TypeVar("T", bound=Model)


class NotAResourceError(TypeError):
    """The class given where a top-level resource's model was expected is not one."""


@dataclass(frozen=True)
class Resource(Generic[T]):
    """A model class with what the client and the cache need to serve it."""

    model: type[T]
    info: ResourceInfo
    codec: ModelCodec[T, Any]

    @property
    def namespaced(self) -> bool:
        """Whether the resource is namespaced."""
        return self.info.namespaced

    def describe(self) -> str:
        """The resource as ``plural.group`` (``plural`` for the core group), for messages."""
        return f"{self.info.plural}.{self.info.group}" if self.info.group else self.info.plural


def resource_for(model: type[T]) -> Resource[T]:
    """The resource of a generated top-level model class; ``NotAResourceError`` otherwise."""
    found: Resource[T] = _resource_for(model)
    return found


@functools.lru_cache(maxsize=None)
def _resource_for(model: type[Any]) -> Resource[Any]:
    name = getattr(model, "__qualname__", repr(model))
    if not isinstance(model, type) or not issubclass(model, Model):
        raise NotAResourceError(f"{name} is not a kgen model class: pass a generated model, such as Deployment")
    kind, api_version = model.KIND, model.API_VERSION
    if not kind or not api_version:
        raise NotAResourceError(
            f"{name} is not a top-level resource: it has no API_VERSION/KIND (a nested type such as a spec?)"
        )
    module = model.__module__
    package, sep, group_version = module.rpartition(".models.")
    if not sep:
        raise NotAResourceError(
            f"{name} ({module}) is not in a kgen-generated package: expected a module <package>.models.<group>.<version>"
        )
    typed_name = f"{package}.typed.{group_version}"
    try:
        typed = importlib.import_module(typed_name)
    except ImportError as err:
        raise NotAResourceError(f"{name}: no typed module {typed_name} next to {module} ({err})") from None
    infos = [v for v in vars(typed).values() if isinstance(v, ResourceInfo) and v.kind == kind]
    if len(infos) != 1:
        what = "no resource" if not infos else f"{len(infos)} resources"
        raise NotAResourceError(f"{name} is not a top-level resource: {typed_name} has {what} of kind {kind!r}")
    list_model = getattr(importlib.import_module(module), f"{kind}List", None)
    if not (isinstance(list_model, type) and issubclass(list_model, Model)):
        raise NotAResourceError(f"{name}: {module} has no {kind}List model to decode lists with")
    return Resource(model, infos[0], ModelCodec(model, list_model))
