"""The merge schema of a generated package: what strategic merge and apply know of each type.

apimachinery's ``strategicpatch`` looks up a field's ``patchStrategy`` and ``patchMergeKey``
(``LookupPatchMetadataForStruct``/``ForSlice``) and structured-merge-diff looks up its
``listType``, ``listMapKeys``, ``mapType`` and an atomic struct's ``elementRelationship``; both
from the type, never from the field's name. The generator writes those facts for every class of a
package into ``<package>.mergeschema`` (``generator/mergeschema.py`` describes the encoding);
this module reads them, each group-version's data on first use, so importing models or clients
never loads it.

Why Python modules and not JSON: the literal of a data module is one marshalled constant, so
an import from the bytecode cache is a single ``marshal.loads``; and a ``.py`` file ships in any
wheel that ships the package, where a JSON file needs package-data declared by every user.
Measured on core/v1 (the largest, 79 kB): 0.66 ms to import from ``__pycache__`` against
1.2 ms for ``json.loads`` of the same data (69 kB); without a bytecode cache
(``PYTHONDONTWRITEBYTECODE``) the import compiles the source, 59 ms, once per process.

Custom resources: ``is_crd(api_version)``; the apiserver answers 415 to a strategic merge patch
of a custom resource, and the merge code refuses it by this flag, not by guessing from the group.
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

TypeKind = Literal["scalar", "int-or-string", "untyped", "struct", "list", "map"]
"""What a type is, for merging."""

_REQUIRED, _NULLABLE, _PRESERVE, _EMBEDDED = 1, 2, 4, 8
"""Bits of a field's flags, as the generator writes them (generator/mergeschema.py FLAGS)."""
_LEAVES: dict[str, TypeKind] = {"scalar": "scalar", "int-or-string": "int-or-string", "untyped": "untyped"}


@dataclass(frozen=True)
class FieldType:
    """A field's value type: a leaf, a struct (``ref``: ``"<group>.<version>.<Class>"``), or a
    list or map of ``element``. An element's own schema facts (a list of atomic lists, a map of
    preserve-unknown-fields objects) are on its ``FieldType``; a field's are on its
    ``FieldSchema``."""

    kind: TypeKind
    ref: str | None = None
    element: FieldType | None = None
    list_type: str | None = None
    list_map_keys: tuple[str, ...] = ()
    map_type: str | None = None
    preserve_unknown_fields: bool = False
    embedded_resource: bool = False


@dataclass(frozen=True)
class FieldSchema:
    """One field of a struct: its wire name, type, whether it is required or nullable, and its merge
    markers (patch strategy and merge key, list type, preserve-unknown-fields, embedded resource)."""

    name: str  # the wire name
    type: FieldType
    required: bool = False
    nullable: bool = False
    preserve_unknown_fields: bool = False
    embedded_resource: bool = False
    patch_strategy: str | None = None  # as written: "merge", "retainKeys", "merge,retainKeys"
    patch_merge_key: str | None = None
    list_type: str | None = None  # "atomic", "set", "map"
    list_map_keys: tuple[str, ...] = ()
    map_type: str | None = None  # "atomic", "granular"

    @property
    def patch_strategies(self) -> frozenset[str]:
        """``patch_strategy`` split, as strategicpatch splits ``patchStrategy`` on commas."""
        return frozenset(self.patch_strategy.split(",")) if self.patch_strategy else frozenset()


@dataclass
class TypeSchema:
    """One class's facts; ``atomic``: the struct is replaced whole (``x-kubernetes-map-type``);
    ``preserve_unknown_fields``: a kind's root schema keeps fields it does not list (a
    schemaless CRD); for a nested object that fact is on the field holding it."""

    name: str
    ref: str
    atomic: bool
    fields: dict[str, FieldSchema] = dataclasses.field(repr=False)
    _schemas: MergeSchema = dataclasses.field(repr=False, compare=False)
    preserve_unknown_fields: bool = False

    def field(self, name: str) -> FieldSchema | None:
        """The field with wire name ``name``; None when the type has no such field."""
        return self.fields.get(name)

    def resolve(self, t: FieldType) -> TypeSchema | None:
        """The struct a field type holds (through lists and maps); None for a leaf."""
        while t.element is not None:
            t = t.element
        return self._schemas.type(t.ref) if t.ref is not None else None

    def child(self, name: str) -> TypeSchema | None:
        """The struct held by field ``name`` (an item's type for a list or map)."""
        f = self.fields.get(name)
        return self.resolve(f.type) if f is not None else None


def _field_type(raw: Any) -> FieldType:
    if isinstance(raw, tuple):
        if raw[0] == "with":
            _, inner, flags, list_type, keys, map_type = raw
            return dataclasses.replace(
                _field_type(inner), list_type=list_type, list_map_keys=tuple(keys or ()), map_type=map_type,
                preserve_unknown_fields=bool(flags & _PRESERVE), embedded_resource=bool(flags & _EMBEDDED),
            )
        return FieldType(raw[0], element=_field_type(raw[1]))
    leaf = _LEAVES.get(raw)
    return FieldType(leaf) if leaf is not None else FieldType("struct", ref=raw)


def _field_schema(raw: tuple[Any, ...]) -> FieldSchema:
    wire, kind, flags, strategy, key, list_type, keys, map_type = raw
    return FieldSchema(
        name=wire,
        type=_field_type(kind),
        required=bool(flags & _REQUIRED),
        nullable=bool(flags & _NULLABLE),
        preserve_unknown_fields=bool(flags & _PRESERVE),
        embedded_resource=bool(flags & _EMBEDDED),
        patch_strategy=strategy,
        patch_merge_key=key,
        list_type=list_type,
        list_map_keys=tuple(keys or ()),
        map_type=map_type,
    )


class MergeSchema:
    """The merge schema of one generated package (``"kgen.kubernetes"``, a user's ``"client"``)."""

    def __init__(self, package: str) -> None:
        self.package = package
        self._index: ModuleType | None = None
        self._raw: dict[str, dict[str, tuple[Any, ...]]] = {}  # module path -> class -> raw
        self._types: dict[str, TypeSchema] = {}

    def _load_index(self) -> ModuleType:
        if self._index is None:
            self._index = importlib.import_module(f"{self.package}.mergeschema")
        return self._index

    def schema_for(self, api_version: str, kind: str) -> TypeSchema | None:
        """The schema of ``kind`` in ``api_version``; None when the package does not have it."""
        found = self._load_index().INDEX.get(api_version, {}).get(kind)
        return self.type(f"{found[0]}.{found[1]}") if found is not None else None

    def is_crd(self, api_version: str) -> bool:
        """Whether ``api_version`` is a custom resource's (strategic merge patch is refused)."""
        return api_version in self._load_index().CRDS

    def type(self, ref: str) -> TypeSchema | None:
        """A class by reference, ``"<group>.<version>.<Class>"`` as field types name it, or
        ``"<package>:<group>.<version>.<Class>"`` for another package's (the stock types a CRD
        package imports from ``kgen.kubernetes``, generator/stock.py)."""
        found = self._types.get(ref)
        if found is not None:
            return found
        package, colon, stock_ref = ref.partition(":")
        if colon:  # "kgen.kubernetes:batch.v1.JobTemplateSpec": a stock type a CRD embeds
            return merge_schema(package).type(stock_ref)
        path, _, name = ref.rpartition(".")
        raw = self._raw.get(path)
        if raw is None:
            module = importlib.import_module(f"{self.package}.mergeschema.{path}")
            raw = self._raw[path] = {entry[0]: entry for entry in module.TYPES}
        entry = raw.get(name)
        if entry is None:
            return None
        fields = {f[0]: _field_schema(f) for f in entry[2]}
        found = self._types[ref] = TypeSchema(entry[0], ref, entry[1], fields, self, len(entry) > 3 and entry[3])
        return found


_packages: dict[str, MergeSchema] = {}


def merge_schema(package: str = "kgen.kubernetes") -> MergeSchema:
    """The (shared, lazily loaded) merge schema of a generated package."""
    found = _packages.get(package)
    if found is None:
        found = _packages[package] = MergeSchema(package)
    return found


def schema_for(api_version: str, kind: str, package: str = "kgen.kubernetes") -> TypeSchema | None:
    """``merge_schema(package).schema_for(api_version, kind)``."""
    return merge_schema(package).schema_for(api_version, kind)
