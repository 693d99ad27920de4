"""Field indexes of the manager's cache: controller-runtime's ``IndexField`` and its cached lists
by field (pkg/cache/informer_cache.go ``indexByField``, internal/cache_reader.go ``byIndexes``).

``index_field(Pod, "spec.nodeName", lambda pod: [pod.spec.node_name])`` adds an index named
``field:spec.nodeName`` to the kind's informer. Each object is indexed under its values twice over,
as controller-runtime does: ``<namespace>/<value>`` answers a list in one namespace and
``__all_namespaces/<value>`` a list across all (a cluster-scoped object only under the latter).
``list(Pod, matching_fields={"spec.nodeName": "n1"})`` reads the first field's index and keeps,
of what it found, the objects every other field's index function also gives the value: an exact
match per field, nothing else (controller-runtime refuses non-exact field selectors in a cache).

``list(Pod, field_selector="spec.nodeName=n1")`` is the same read (controller-runtime's
MatchingFieldsSelector): a selector of equalities alone, parsed as apimachinery's
fields.ParseSelector parses one; any other (``!=``, or no term at all) is controller-runtime's
"non-exact field matches are not supported by the cache".

A field no index was registered for is an error, as in controller-runtime, whose words (client-go's
"Index with name field:<f> does not exist") open the message; kgen's adds how to register one.
controller-runtime checks the fields one at a time and stops at the first that matches nothing,
so an unindexed later field can go unnoticed there; kgen checks every field first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from kgen.runtime.apimachinery.selectors import parse_fields
from kgen.runtime.tools.cache.listers import namespace_of
from kgen.runtime.tools.cache.store import Indexer, IndexFunc

__all__ = ["ALL_NAMESPACES_KEY", "NON_EXACT", "IndexNotFoundError", "by_fields", "exact_fields", "field_index_func",
           "field_index_name", "namespaced_key"]

T = TypeVar("T")

ALL_NAMESPACES_KEY = "__all_namespaces"
"""controller-runtime's allNamespacesNamespace: the index key prefix of a list across namespaces."""

NON_EXACT = "non-exact field matches are not supported by the cache"
"""controller-runtime's error for a cached list by a field selector that is not all equalities."""

Extract = Callable[[Any], Iterable[str]]
"""An object's values of an indexed field (controller-runtime's client.IndexerFunc)."""


class IndexNotFoundError(LookupError):
    """A cached list asked for a field no index was registered for."""


def field_index_name(field: str) -> str:
    """controller-runtime's FieldIndexName: the informer index of ``field``."""
    return "field:" + field


def namespaced_key(namespace: str, value: str) -> str:
    """controller-runtime's KeyToNamespacedKey: ``value`` under ``namespace``, or under every
    namespace when it is ''."""
    return f"{namespace or ALL_NAMESPACES_KEY}/{value}"


def field_index_func(extract: Extract) -> IndexFunc:
    """The index function of a field: each value ``extract`` gives, keyed by the object's namespace
    and, for a namespaced object, by every namespace too (indexByField)."""

    def index(obj: Any) -> list[str]:
        namespace = namespace_of(obj)
        values = [str(v) for v in extract(obj)]
        keys = [namespaced_key(namespace, v) for v in values]
        if namespace:
            keys += [namespaced_key("", v) for v in values]
        return keys

    return index


def _missing(field: str, kind: str, only_metadata: bool) -> IndexNotFoundError:
    how = f"manager.index_field({kind}, {field!r}, extract{', only_metadata=True' if only_metadata else ''})"
    return IndexNotFoundError(
        f"Index with name {field_index_name(field)} does not exist: no field index for {field!r} on the cache's "
        f"{kind}{' metadata' if only_metadata else ''}; register one with {how} before reading by it"
    )


def exact_fields(selector: str | object) -> dict[str, str]:
    """The field -> value equalities of a field selector (a string, or anything whose ``str()`` is
    one, such as ``selectors.fields(...)``); ``ValueError`` with controller-runtime's words for a
    selector that is not all equalities, and with apimachinery's for one that does not parse."""
    text = str(selector)
    fields: dict[str, str] = {}
    for term in parse_fields(text):
        if not term.equal:
            raise ValueError(f"{NON_EXACT}: {term.field + term.operator + term.value!r} is not an equality "
                             "(the cache reads an index by value)")
        fields[term.field] = term.value
    if not fields:
        raise ValueError(f"{NON_EXACT}: the selector {text!r} has no term")
    return fields


def by_fields(
    indexer: Indexer[T], matching_fields: Mapping[str, str], namespace: str, kind: str, only_metadata: bool = False
) -> list[T]:
    """The objects whose indexed fields hold each value of ``matching_fields`` (in ``namespace``,
    or every namespace when it is ''): byIndexes."""
    if not matching_fields:
        raise ValueError(f"{NON_EXACT}: matching_fields is empty (give at least one field and its value)")
    indexers = indexer.get_indexers()
    for field in matching_fields:
        if field_index_name(field) not in indexers:
            raise _missing(field, kind, only_metadata)
    (first, value), *rest = matching_fields.items()
    objects = indexer.by_index(field_index_name(first), namespaced_key(namespace, str(value)))
    for field, value in rest:
        func, key = indexers[field_index_name(field)], namespaced_key(namespace, str(value))
        objects = [obj for obj in objects if key in func(obj)]
    return objects
