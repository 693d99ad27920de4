"""Listers: read the informer's cache, never the server (client-go listers/generic_helpers.go).

``list(selector)`` filters by label selector; ``get(name)`` of a namespaced resource is asked
through ``namespaced(ns)``, and a missing object raises ``NotFound`` as the server would.
Returned objects are the cached ones: copy before modifying.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.apimachinery.labels import parse
from kgen.runtime.apimachinery.meta import labels_of
from kgen.runtime.tools.cache.store import NAMESPACE_INDEX, Indexer, meta_namespace_index


def namespace_of(obj: Any) -> str:
    """The object's namespace ("" for a cluster-scoped object)."""
    return meta_namespace_index(obj)[0]

T = TypeVar("T")
"""The type of the listed objects."""


def _not_found(resource: str, name: str) -> NotFound:
    return NotFound(
        {"kind": "Status", "code": 404, "reason": "NotFound", "message": f'{resource} "{name}" not found',
         "details": {"name": name, "kind": resource}},
        404,
    )


class Lister(Generic[T]):
    """client-go's generic lister: reads from an informer's indexer, never from the server."""

    def __init__(self, indexer: Indexer[T], resource: str = "", namespaced: bool = True) -> None:
        self.indexer = indexer
        self.resource = resource
        self.is_namespaced = namespaced

    def list(self, selector: str | object | None = None) -> list[T]:
        """Every cached object (all namespaces) whose labels match ``selector``."""
        match = parse(selector)
        return [obj for obj in self.indexer.list() if match(labels_of(obj))]

    def get(self, name: str) -> T:
        """A cluster-scoped object by name."""
        if self.is_namespaced:
            raise TypeError(f"{self.resource} is namespaced: use .namespaced(namespace).get(name)")
        obj = self.indexer.get_by_key(name)
        if obj is None:
            raise _not_found(self.resource, name)
        return obj

    def namespaced(self, namespace: str) -> "NamespaceLister[T]":
        """A lister of the objects in ``namespace``."""
        return NamespaceLister(self.indexer, self.resource, namespace)


class NamespaceLister(Generic[T]):
    """A lister of one namespace's objects ("" for all namespaces)."""

    def __init__(self, indexer: Indexer[T], resource: str, namespace: str) -> None:
        self.indexer = indexer
        self.resource = resource
        self.namespace = namespace

    def list(self, selector: str | object | None = None) -> list[T]:
        """The objects in the namespace matching the label ``selector`` (all without one)."""
        match = parse(selector)
        if not self.namespace:  # NamespaceAll
            candidates = self.indexer.list()
        elif NAMESPACE_INDEX in self.indexer.get_indexers():
            candidates = self.indexer.by_index(NAMESPACE_INDEX, self.namespace)
        else:  # no namespace index: the slow way, as client-go's ListAllByNamespace
            candidates = [obj for obj in self.indexer.list() if namespace_of(obj) == self.namespace]
        return [obj for obj in candidates if match(labels_of(obj))]

    def get(self, name: str) -> T:
        """The object ``name`` in the namespace; ``NotFound`` as the server would answer."""
        obj = self.indexer.get_by_key(f"{self.namespace}/{name}")
        if obj is None:
            raise _not_found(self.resource, name)
        return obj
