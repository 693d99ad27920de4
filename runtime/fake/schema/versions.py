"""A multi-version custom resource served from one storage, as the apiserver serves it (conversion ``None``).

The apiserver keeps one object per name for all the versions of a CRD, in etcd, in the storage
version; each version's REST storage converts on the way in and out (with strategy ``None`` only
``apiVersion`` changes). Measured on the real apiserver (1.37.2 and 1.34.4:
tests/integration/test_fake_vs_server_multiversion.py):

- a write in version vR is decoded in vR (vR's pruning and defaults, which the field manager
  sees: an entry of vR may own a field the storage version lacks), validated in vR, then stored
  in the storage version vS: ``apiVersion`` rewritten, vS's pruning and defaults applied
  (``as_stored``): a field only vR has is gone, one only vS has and defaults is set;
- a read, a list, a watch event and a write's answer in vR are the stored object with
  ``apiVersion`` rewritten and vR's pruning applied, not vR's defaults (``as_read``): so an
  update through vR starts from an object lacking vR's defaults, and its decoding adds them: every
  write through vR changes the spec and moves the generation, and a field only vS has is lost;
- resourceVersions, events and generated names are the one storage's, whichever version asks;
  managedFields entries keep the apiVersion of the request that wrote them (the field manager's
  other-version check is ``merge.Updater.check_conversions``).

The fake learns the versions of a resource from what is registered (the ``ResourceInfo``s of one
group, plural and kind) and the storage version from their generated package: ``kgen generate
--crd`` records, on the root schema of every version that is not the storage version, the
storage version's definition under ``x-kgen-storage-version``
(``kgen.runtime.apimachinery.validation.versions``). Versions registered without a generated
package, or whose storage version is not registered, keep a storage each.
"""

from __future__ import annotations

from kgen.runtime.apimachinery.mergeschema import TypeSchema
from kgen.runtime.apimachinery.validation.schemas import validation_schemas
from kgen.runtime.apimachinery.validation.versions import STORAGE_KEY
from kgen.runtime.fake.schema.decode import decoded, model_for
from kgen.runtime.fake.schema.pruning import crd_schema
from kgen.runtime.fake.store import Key, Obj, Store, builtin, copy
from kgen.runtime.gentype.resource import ResourceInfo

__all__ = ["as_read", "as_stored", "link", "other_versions", "read"]


def link(store: Store, info: ResourceInfo) -> None:
    """Shares one storage among the registered versions of ``info``'s resource when their
    package names a storage version among them (``Store.storage``); the caller holds the lock.
    A version already holding objects of its own keeps them apart."""
    if builtin(info.group) or not info.kind:
        return
    versions = [i for i in store.objects if (i.group, i.plural, i.kind) == (info.group, info.plural, info.kind)]
    storage = _storage_version(versions)
    if storage is None:
        return
    for version in versions:
        if version != storage and store.storage.get(version) != storage and not store.objects[version]:
            store.storage[version] = storage
            store.objects[version] = store.objects[storage]


def _storage_version(versions: list[ResourceInfo]) -> ResourceInfo | None:
    """The registered version the package of any of ``versions`` names as the storage version."""
    for info in versions:
        package = _package(info)
        if package is None:
            continue
        schemas = validation_schemas(package)
        try:
            root = schemas.schema_for(info.api_version, info.kind)
        except (ImportError, KeyError):
            continue
        name = (root or {}).get(STORAGE_KEY)
        if not isinstance(name, str):
            continue
        for candidate in versions:
            if schemas.definition_of(candidate.api_version, candidate.kind) == name:
                return candidate
    return None


def _package(info: ResourceInfo) -> str | None:
    model = model_for(info.api_version, info.kind)
    if model is None or ".models." not in model.__module__:
        return None
    return model.__module__.split(".models.")[0]


def as_stored(store: Store, info: ResourceInfo, obj: Obj) -> Obj:
    """``obj``, written in ``info``'s version, as its storage version stores it: ``apiVersion``
    rewritten, pruned and defaulted by the storage version's schema. ``obj`` itself when ``info``
    is its own storage."""
    storage = store.storage_of(info)
    if storage == info:
        return obj
    return decoded(storage, {**copy(obj), "apiVersion": storage.api_version})


def as_read(store: Store, info: ResourceInfo, obj: Obj) -> Obj:
    """A stored object as ``info``'s version reads it: ``apiVersion`` rewritten, pruned (not
    defaulted) by that version's schema. ``obj`` itself when ``info`` is its own storage."""
    if store.storage_of(info) == info:
        return obj
    return decoded(info, {**copy(obj), "apiVersion": info.api_version}, defaults=False)


def read(store: Store, info: ResourceInfo, key: Key) -> Obj:
    """The stored object at ``key`` (404 if none) in ``info``'s version."""
    return as_read(store, info, store.get(info, key))


def other_versions(store: Store, info: ResourceInfo) -> dict[str, TypeSchema]:
    """The merge schemas of the other registered versions sharing ``info``'s storage, by
    apiVersion: what the field manager converts an object to for entries recorded there."""
    storage = store.storage_of(info)
    found: dict[str, TypeSchema] = {}
    for other in store.objects:
        if other == info or store.storage_of(other) != storage or other.version == info.version:
            continue
        package = _package(other)
        ts = crd_schema(other.api_version, other.kind, package) if package is not None else None
        if ts is not None:
            found[other.api_version] = ts
    return found
