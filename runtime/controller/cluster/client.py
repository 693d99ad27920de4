"""The manager's client: reads from the cache, writes to the server (controller-runtime's
default client, pkg/client, built by the manager with its cache as reader).

Typed by the model class it is given: ``client.get(Foo, "name", "ns")`` is a ``Foo`` and
``client.update(foo)`` sends a Foo to foos' endpoint, which ``scheme.resource_for`` finds from
the class. A controller's reads of its own objects come from the informers its watches already
feed, so a reconcile costs no GET; ``api_reader`` (controller-runtime's GetAPIReader) reads the
server itself, for the rare read that must not be stale (a retry after a Conflict).
"""

from __future__ import annotations

from typing import Any, TypeVar

from kgen.runtime.apimachinery.meta import namespace_of
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.gentype.client import ResourceClient
from kgen.runtime.gentype.resource import PatchType, PropagationPolicy
from kgen.runtime.rest.client import RESTClient

from kgen.runtime.controller.cluster.cache import Cache
from kgen.runtime.controller.cluster.scheme import Resource, resource_for

__all__ = ["APIReader", "Client"]

T = TypeVar("T", bound=Model)


def scoped(model: type[T], namespace: str | None) -> tuple[Resource[T], str | None]:
    """The resource of ``model`` and the namespace to address it in (checked against its scope)."""
    resource = resource_for(model)
    if resource.namespaced and not namespace:
        raise ValueError(f"{model.__name__} is namespaced: give a namespace (metadata.namespace)")
    return resource, namespace if resource.namespaced else None


def _resource_client(rest: RESTClient, model: type[T], namespace: str | None) -> ResourceClient[T, Any]:
    resource, namespace = scoped(model, namespace)
    return ResourceClient(rest, resource.info, namespace, resource.codec)


class APIReader:
    """Reads straight from the server."""

    def __init__(self, rest: RESTClient) -> None:
        self._rest = rest

    def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        """The object from the server (``NotFound`` if it is not there)."""
        return _resource_client(self._rest, model, namespace).get(name)

    def list(self, model: type[T], namespace: str | None = None, label_selector: str | None = None) -> list[T]:
        """Every object of ``model`` on the server (in ``namespace``, matching ``label_selector``), read
        page by page."""
        resource = resource_for(model)
        client = ResourceClient(self._rest, resource.info, namespace if resource.namespaced else None, resource.codec)
        return list(client.iter(label_selector=label_selector))


class Client:
    """Reads from ``cache``, writes through ``rest``."""

    def __init__(self, rest: RESTClient, cache: Cache) -> None:
        self._rest = rest
        self.cache = cache
        self.api_reader = APIReader(rest)

    # -- reads: the cache ---------------------------------------------------------------------

    def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        """The object from the cache (``NotFound`` as the server would answer)."""
        return self.cache.get(model, name, namespace)

    def list(self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None) -> list[T]:
        """The cached objects of ``model`` (in ``namespace``, matching ``label_selector``, if given)."""
        return self.cache.list(model, namespace, label_selector)

    # -- writes: the server -------------------------------------------------------------------

    def _for(self, obj: T) -> ResourceClient[T, Any]:
        return _resource_client(self._rest, type(obj), namespace_of(obj) or None)

    def create(self, obj: T, *, field_manager: str | None = None) -> T:
        """Create ``obj`` on the server; returns what the server stored."""
        return self._for(obj).create(obj, field_manager=field_manager)

    def update(self, obj: T, *, field_manager: str | None = None) -> T:
        """Update ``obj`` on the server (a ``Conflict`` if its resourceVersion is stale); returns what
        was stored."""
        return self._for(obj).update(obj, field_manager=field_manager)

    def update_status(self, obj: T, *, field_manager: str | None = None) -> T:
        """Update ``obj``'s status subresource; returns what the server stored."""
        return self._for(obj).update_status(obj, field_manager=field_manager)

    def patch(
        self, model: type[T], name: str, patch: Any, patch_type: PatchType = PatchType.MERGE,
        namespace: str | None = None, *, subresource: str | None = None,
    ) -> T:
        """Patch the object ``name`` of ``model`` (a merge patch unless ``patch_type`` says otherwise),
        or its ``subresource``; returns the patched object."""
        return _resource_client(self._rest, model, namespace).patch(name, patch, patch_type, subresource=subresource)

    def delete(self, obj: Model, *, propagation_policy: PropagationPolicy | str | None = None) -> None:
        """Delete ``obj`` (by its name and namespace), with ``propagation_policy`` if given."""
        name = getattr(getattr(obj, "metadata", None), "name", None)
        if not name:
            raise ValueError(f"cannot delete a {type(obj).__name__} without metadata.name")
        _resource_client(self._rest, type(obj), namespace_of(obj) or None).delete(
            name, propagation_policy=propagation_policy
        )
