"""What the manager's cache holds: controller-runtime's ``cache.Options`` and ``cache.ByObject``.

    CacheOptions(
        namespaces=["team-a", "team-b"],                       # DefaultNamespaces
        by_object={ConfigMap: ByObject(label_selector="app=web"),
                   Secret: ByObject(namespaces=["vault"], transform=keep_objects)},
        default_transform=strip_managed_fields,                # DefaultTransform
    )

Every setting of a kind is resolved once, as controller-runtime's ``defaultOpts`` does: a
``ByObject`` field left ``None`` falls back to the cache-wide default (``namespaces``,
``default_label_selector``, ``default_field_selector``, ``default_transform``). Selectors go to
the list and watch requests, so the server filters (nothing else reaches the cache). A kind cached
in named namespaces gets one informer per namespace, as controller-runtime's multiNamespaceCache;
its reads outside them are errors (``cache.UnknownNamespaceError``). A cluster-scoped kind ignores
``namespaces`` and refuses a ``ByObject.namespaces`` (controller-runtime: "type ... is not
namespaced, but its ByObject.Namespaces setting is not nil").

A kind's ``ByObject`` applies to its metadata-only informer too (controller-runtime keys ByObject
by the object's GroupVersionKind, PartialObjectMetadata's included). Not carried: per-namespace
settings (controller-runtime's ``DefaultNamespaces``/``ByObject.Namespaces`` map a namespace to its
own ``Config``; here every namespace of a kind shares the kind's) and ``AllNamespaces`` beside named
namespaces.

``default_transform=None`` leaves kgen's informer default (``kgen.runtime.tools.cache.transform.
default_transform``: managedFields stripped, repeated metadata strings interned); ``keep_objects``
keeps each object as the server sent it, managedFields included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kgen.runtime.controller.cluster.scheme import resource_for
from kgen.runtime.tools.cache.transform import Transform, strip_managed_fields

__all__ = ["ByObject", "CacheOptions", "KindConfig", "strip_managed_fields"]


@dataclass(frozen=True)
class ByObject:
    """The cache's settings for one kind (controller-runtime's ``cache.ByObject``); ``None`` takes
    the ``CacheOptions`` default. ``namespaces`` must stay ``None`` for a cluster-scoped kind."""

    label_selector: str | None = None
    field_selector: str | None = None
    namespaces: Sequence[str] | None = None
    transform: Transform | None = None


@dataclass(frozen=True)
class KindConfig:
    """One kind's settings once resolved: ``namespaces`` is ``None`` for every namespace (or a
    cluster-scoped kind), else the sorted namespaces it is cached in."""

    namespaces: tuple[str, ...] | None
    label_selector: str | None
    field_selector: str | None
    transform: Transform | None

    def list_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The informer's list and watch options with this kind's selectors (server-side filtering)."""
        if self.label_selector:
            options = {**options, "label_selector": self.label_selector}
        if self.field_selector:
            options = {**options, "field_selector": self.field_selector}
        return options


def _namespaces(where: str, namespaces: Sequence[str] | None) -> tuple[str, ...] | None:
    if namespaces is None:
        return None
    if isinstance(namespaces, str):
        raise TypeError(f"{where}: a list of namespace names, not the string {namespaces!r}")
    names = tuple(sorted(set(namespaces)))
    if not names:
        raise ValueError(f"{where}: an empty list caches nothing; leave it None for every namespace")
    if "" in names:
        raise ValueError(f"{where}: '' (every namespace) cannot be listed beside names; leave it None for every namespace")
    return names


@dataclass(frozen=True)
class CacheOptions:
    """The manager's cache settings (controller-runtime's ``cache.Options``): which namespaces,
    which selectors and which transform each kind's informers use; see the module docstring."""

    namespaces: Sequence[str] | None = None
    by_object: Mapping[type[Any], ByObject] = field(default_factory=dict)
    default_label_selector: str | None = None
    default_field_selector: str | None = None
    default_transform: Transform | None = None
    reader_fail_on_missing_informer: bool = False
    """controller-runtime's ReaderFailOnMissingInformer: a read of a kind no controller watches and
    no index was made for is an error (``ResourceNotCachedError``) instead of starting an informer."""

    def __post_init__(self) -> None:
        _namespaces("CacheOptions.namespaces", self.namespaces)
        for model, by_object in self.by_object.items():
            resource = resource_for(model)  # NotAResourceError for anything else
            if not isinstance(by_object, ByObject):
                raise TypeError(f"CacheOptions.by_object[{model.__name__}]: a ByObject, not {type(by_object).__name__}")
            if not resource.namespaced and by_object.namespaces is not None:
                raise ValueError(
                    f"type {model.__name__} is not namespaced, but its ByObject.namespaces setting is not None"
                )
            _namespaces(f"CacheOptions.by_object[{model.__name__}].namespaces", by_object.namespaces)

    def for_kind(self, model: type[Any]) -> KindConfig:
        """``model``'s settings: its ``ByObject``'s, each unset one taken from the defaults."""
        by_object = self.by_object.get(model, ByObject())
        namespaced = resource_for(model).namespaced
        namespaces = by_object.namespaces if by_object.namespaces is not None else self.namespaces
        return KindConfig(
            namespaces=_namespaces(f"{model.__name__} namespaces", namespaces) if namespaced else None,
            label_selector=by_object.label_selector if by_object.label_selector is not None else self.default_label_selector,
            field_selector=by_object.field_selector if by_object.field_selector is not None else self.default_field_selector,
            transform=by_object.transform if by_object.transform is not None else self.default_transform,
        )
