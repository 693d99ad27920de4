"""The manager's client: reads from the cache, writes to the server (controller-runtime's
default client, pkg/client, built by the manager with its cache as reader).

Typed by the model class it is given: ``client.get(Foo, "name", "ns")`` is a ``Foo`` and
``client.update(foo)`` sends a Foo to foos' endpoint, which ``scheme.resource_for`` finds from
the class. A controller's reads of its own objects come from the informers its watches already
feed, so a reconcile costs no GET; ``api_reader`` (controller-runtime's GetAPIReader) reads the
server itself, for the rare read that must not be stale (a retry after a Conflict).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast, overload

from kgen.runtime.apimachinery.meta import name_of, namespace_of
from kgen.runtime.apimachinery.selectors import FieldSelector, LabelSelector
from kgen.runtime.apimachinery.model import Model
from kgen.runtime.gentype.client import ResourceClient
from kgen.runtime.gentype.resource import PatchType, PropagationPolicy
from kgen.runtime.rest.client import RESTClient

from kgen.runtime.controller.cluster.cache import Cache
from kgen.runtime.controller.cluster.patch import MergeFrom
from kgen.runtime.controller.cluster.scheme import Resource, resource_for

__all__ = ["APIReader", "Client"]

T = TypeVar("T", bound=Model)


def scoped(model: type[T], namespace: str | None) -> tuple[Resource[T], str | None]:
    """The resource of ``model`` and the namespace to address it in (checked against its scope)."""
    resource = resource_for(model)
    if resource.namespaced and not namespace:
        raise ValueError(f"{model.__name__} is namespaced: give a namespace (metadata.namespace)")
    return resource, namespace if resource.namespaced else None


def _selector(equal: Mapping[str, str] | None, given: str | object | None, make: type[LabelSelector] | type[FieldSelector],
              what: str) -> str | None:
    if equal is not None and given is not None:
        raise ValueError(f"give matching_{what} or {what[:-1]}_selector, not both")
    if equal is None:
        return None if given is None else str(given)
    built = make()
    for key, value in sorted(equal.items()):
        built.eq(key, value)
    return str(built)


def delete_all_of_options(
    matching_labels: Mapping[str, str] | None, label_selector: str | object | None,
    matching_fields: Mapping[str, str] | None, field_selector: str | object | None,
) -> dict[str, Any]:
    """The list options of a DeleteAllOf: MatchingLabels/MatchingFields as selectors of equalities
    (keys sorted, as labels.SelectorFromSet and fields.SelectorFromSet print them), or the
    selectors given; none selects every object."""
    options: dict[str, Any] = {}
    labels = _selector(matching_labels, label_selector, LabelSelector, "labels")
    fields = _selector(matching_fields, field_selector, FieldSelector, "fields")
    if labels:
        options["label_selector"] = labels
    if fields:
        options["field_selector"] = fields
    return options


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

    def get_metadata(self, model: type[T], name: str, namespace: str | None = None) -> Any:
        """The cached PartialObjectMetadata of ``model``'s object (controller-runtime's Get of a
        ``metav1.PartialObjectMetadata``): the cache's metadata-only informer of ``model``."""
        return self.cache.get_metadata(model, name, namespace)

    def list_metadata(
        self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None, *,
        matching_labels: Mapping[str, str] | None = None, matching_fields: Mapping[str, str] | None = None,
        field_selector: str | object | None = None,
    ) -> list[Any]:
        """``list``, of the cached PartialObjectMetadata of ``model``'s objects."""
        return self.cache.list_metadata(
            model, namespace, label_selector, matching_labels=matching_labels, matching_fields=matching_fields,
            field_selector=field_selector)

    def list(
        self, model: type[T], namespace: str | None = None, label_selector: str | object | None = None, *,
        matching_labels: Mapping[str, str] | None = None, matching_fields: Mapping[str, str] | None = None,
        field_selector: str | object | None = None,
    ) -> list[T]:
        """The cached objects of ``model`` (in ``namespace``, matching ``label_selector`` or
        ``matching_labels``, with each field of ``matching_fields`` equal to its value, read from the
        field's index: ``Manager.index_field``; or of ``field_selector``, equalities only)."""
        return self.cache.list(
            model, namespace, label_selector, matching_labels=matching_labels, matching_fields=matching_fields,
            field_selector=field_selector)

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

    @overload
    def patch(self, target: T, patch: MergeFrom, /, *, subresource: str | None = None) -> T: ...

    @overload
    def patch(
        self, target: type[T], name: str, patch: Any, patch_type: PatchType = PatchType.MERGE,
        namespace: str | None = None, *, subresource: str | None = None,
    ) -> T: ...

    def patch(
        self, target: type[T] | T, name: Any, patch: Any = None, patch_type: PatchType = PatchType.MERGE,
        namespace: str | None = None, *, subresource: str | None = None,
    ) -> T:
        """Patch the object ``name`` of ``model`` (a merge patch unless ``patch_type`` says otherwise),
        or its ``subresource``; returns the patched object. ``patch(obj, merge_from(original))`` is
        controller-runtime's ``Patch(ctx, obj, client.MergeFrom(original))``: the merge patch from
        ``original`` to ``obj``, sent to ``obj``'s name."""
        if isinstance(name, MergeFrom):
            obj, merge = cast(T, target), name
            return self._for(obj).patch(name_of(obj), merge.data(obj), merge.patch_type, subresource=subresource)
        model = cast("type[T]", target)
        return _resource_client(self._rest, model, namespace).patch(name, patch, patch_type, subresource=subresource)

    def delete_all_of(
        self, model: type[Model], *, namespace: str | None = None, matching_labels: Mapping[str, str] | None = None,
        label_selector: str | object | None = None, matching_fields: Mapping[str, str] | None = None,
        field_selector: str | object | None = None, propagation_policy: PropagationPolicy | str | None = None,
        grace_period_seconds: int | None = None,
    ) -> None:
        """Delete every object of ``model`` the selectors match, in ``namespace`` (controller-runtime's
        ``DeleteAllOf`` with ``InNamespace``, ``MatchingLabels``, ``MatchingLabelsSelector``,
        ``MatchingFields``, ``MatchingFieldsSelector``): one DELETE of the collection."""
        _resource_client(self._rest, model, namespace).delete_collection(
            propagation_policy=propagation_policy, grace_period_seconds=grace_period_seconds,
            **delete_all_of_options(matching_labels, label_selector, matching_fields, field_selector),
        )

    def delete(self, obj: Model, *, propagation_policy: PropagationPolicy | str | None = None) -> None:
        """Delete ``obj`` (by its name and namespace), with ``propagation_policy`` if given."""
        name = getattr(getattr(obj, "metadata", None), "name", None)
        if not name:
            raise ValueError(f"cannot delete a {type(obj).__name__} without metadata.name")
        _resource_client(self._rest, type(obj), namespace_of(obj) or None).delete(
            name, propagation_policy=propagation_policy
        )
