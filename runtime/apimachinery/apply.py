"""Apply configurations: the partial objects of server-side apply, and ``extract``.

client-go keeps a second set of types for server-side apply (k8s.io/client-go/applyconfigurations):
every field optional, so an apply configuration holds exactly the fields its manager means to
own and nothing else. A model cannot play that role safely: schema-required fields are required
in its constructor (you would own fields you never meant to), and a model read from the server
holds every field every manager set (applying it claims them all). kgen generates the same
second set (``<package>.applyconfigurations.<group>.<version>``), one ``XApplyConfiguration``
per model class, all of them on ``ApplyConfiguration``::

    cs.apps_v1.deployments("ns").apply(
        DeploymentApplyConfiguration(
            metadata=ObjectMetaApplyConfiguration(name="web", namespace="ns"),
            spec=DeploymentSpecApplyConfiguration(replicas=3),
        ),
        field_manager="my-controller",
    )

Python's keyword constructor plays the part of client-go's ``Deployment(name, namespace)``
and ``WithX`` builders; as that constructor does, a kind's apply configuration sets its
``apiVersion`` and ``kind`` itself. ``None`` is absent and never sent.

``DeploymentApplyConfiguration.extract(live, "my-controller")`` is client-go's
``ExtractDeployment``: from a live object, the fields that manager owns through apply (per
``metadata.managedFields``), to modify and apply again without claiming fields other managers
own; ``subresource="status"`` is ``ExtractDeploymentStatus``. ``from_model(obj)`` converts a
model you built (every field it holds: for a model read from the server use ``extract``).
"""

from __future__ import annotations

import functools
import json
from typing import Any, ClassVar, Generic, Self, TypeVar

import msgspec

from kgen.runtime.apimachinery.model import Model

M = TypeVar("M", bound=Model)
"""The model an apply configuration is extracted for."""


class ApplyConfiguration(Model, Generic[M], kw_only=True):
    """A partial object for server-side apply; ``M`` is the model it configures.

    Generated classes name their model as a string (``ApplyConfiguration["models.Deployment"]``)
    that only type checkers resolve, so importing apply configurations never imports models.
    Being a ``Model``, it has ``from_dict``/``from_json``/``to_dict``/``to_json``, and fields a
    newer server sends that this code does not know survive ``extract`` and the apply after it.
    """

    ATOMIC: ClassVar[bool] = False
    """``x-kubernetes-map-type: atomic`` on the type (``LabelSelector``) or on fields of it
    (``nodeSelector``, by wire name): server-side apply owns them whole, and so does extract."""
    ATOMIC_FIELDS: ClassVar[tuple[str, ...]] = ()

    def __post_init__(self) -> None:
        # client-go's Deployment(name, namespace) sets TypeMeta; so does a kind's constructor here.
        if self.API_VERSION is not None and getattr(self, "api_version", "") is None:
            setattr(self, "api_version", self.API_VERSION)
        if self.KIND is not None and getattr(self, "kind", "") is None:
            setattr(self, "kind", self.KIND)

    @classmethod
    def from_model(cls, obj: M) -> Self:
        """Every field ``obj`` holds, as this apply configuration (``metadata.managedFields``,
        which the apiserver refuses in an apply, left out).

        For an object read from the server, ``extract`` is the safe way: this claims every
        field, including those other managers own.
        """
        data = obj.to_dict()
        metadata = data.get("metadata")
        if isinstance(metadata, dict):
            metadata.pop("managedFields", None)
        return cls.from_dict(data)

    @classmethod
    def extract(cls, live: M, field_manager: str, subresource: str = "") -> Self:
        """client-go's ``ExtractX``/``ExtractXStatus``: the fields of ``live`` that
        ``field_manager`` owns through apply (on ``subresource``), with its name, namespace,
        apiVersion and kind; nothing else."""
        return cls.from_dict(extract_fields(live, field_manager, subresource, cls))


def _prune(value: Any, fields: dict[str, Any], cls: type | None) -> Any:
    """The part of ``value`` that a FieldsV1 set covers, as structured-merge-diff extracts it.

    ``cls`` is the apply configuration class of ``value`` (None: unknown, e.g. ``dict[str, Any]``):
    a map or struct owned as a node alone (``"f:spec": {}``) is extracted whole only when the
    schema makes it atomic (``LabelSelector``, ``nodeSelector``); a granular one is extracted
    only if empty (``emptyDir: {}``), as client-go's ``ExtractX`` does (hack/oracle/extract).
    """
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, sub in fields.items():
            if key.startswith("f:") and key[2:] in value:
                name = key[2:]
                child, item = _child_classes(cls, name)
                if not _is_leaf(sub):
                    out[name] = _prune(value[name], sub, child or item)
                elif not isinstance(value[name], dict) or not value[name] or _atomic(cls, name, child):
                    out[name] = value[name]
        return out
    if isinstance(value, list):
        items: list[Any] = []
        for key, sub in fields.items():
            if key.startswith("k:"):
                wanted = json.loads(key[2:])
                for item in value:
                    if isinstance(item, dict) and all(item.get(k) == v for k, v in wanted.items()):
                        whole = cls is None or bool(getattr(cls, "ATOMIC", False))
                        kept = item if _is_leaf(sub) and whole else {**wanted, **_prune(item, sub, cls)}
                        items.append(kept)
            elif key.startswith("v:"):
                wanted_value = json.loads(key[2:])
                items += [item for item in value if item == wanted_value]
            elif key.startswith("i:"):
                index = int(key[2:])
                if index < len(value):
                    items.append(value[index] if _is_leaf(sub) else _prune(value[index], sub, cls))
        return items
    return value


def _is_leaf(fields: Any) -> bool:
    return not isinstance(fields, dict) or not [k for k in fields if k != "."]


def _atomic(cls: type | None, name: str, child: type | None) -> bool:
    """Whether field ``name`` of ``cls`` is owned whole (unknown types are: nothing to go by)."""
    if cls is None or name in getattr(cls, "ATOMIC_FIELDS", ()):
        return True
    if child is not None:
        return bool(getattr(child, "ATOMIC", False))
    kind = _field_kinds(cls).get(name)
    return kind is None or not kind[2]  # a typed map (labels) is granular; Any or unknown is not known to be


@functools.cache
def _field_kinds(cls: type) -> dict[str, tuple[type | None, type | None, bool]]:
    """wire name -> (struct class, list item struct class, typed map) of ``cls``'s fields."""
    kinds: dict[str, tuple[type | None, type | None, bool]] = {}
    info = msgspec.inspect.type_info(cls)
    if isinstance(info, msgspec.inspect.StructType):
        for f in info.fields:
            tp = f.type
            if isinstance(tp, msgspec.inspect.UnionType):
                tp = next((t for t in tp.types if not isinstance(t, msgspec.inspect.NoneType)), tp)
            struct = tp.cls if isinstance(tp, msgspec.inspect.StructType) else None
            item = tp.item_type if isinstance(tp, msgspec.inspect.ListType) else None
            item_struct = item.cls if isinstance(item, msgspec.inspect.StructType) else None
            kinds[f.encode_name] = (struct, item_struct, isinstance(tp, msgspec.inspect.DictType))
    return kinds


def _child_classes(cls: type | None, name: str) -> tuple[type | None, type | None]:
    if cls is None:
        return None, None
    struct, item, _ = _field_kinds(cls).get(name, (None, None, False))
    return struct, item


def extract_fields(obj: Model, field_manager: str, subresource: str = "", into: type | None = None) -> dict[str, Any]:
    """The wire form of what ``field_manager`` owns in ``obj`` through apply (see ``extract``);
    ``into``, the apply configuration class, tells atomic maps and structs from granular ones."""
    live = obj.to_dict()
    entries = (live.get("metadata") or {}).get("managedFields") or []
    owned: dict[str, Any] = {}
    for entry in entries:
        if (
            entry.get("manager") == field_manager
            and entry.get("operation") == "Apply"
            and (entry.get("subresource") or "") == subresource
        ):
            owned = entry.get("fieldsV1") or {}
    result: dict[str, Any] = _prune(live, owned, into)
    meta = live.get("metadata") or {}
    result.setdefault("metadata", {})
    for key in ("name", "namespace"):
        if key in meta:
            result["metadata"][key] = meta[key]
    for key in ("apiVersion", "kind"):
        if key in live:
            result[key] = live[key]
    return result


def extract(obj: M, field_manager: str, subresource: str = "") -> M:
    """``extract_fields`` read back as ``obj``'s own model (the untyped, dynamic style; typed
    code uses ``XApplyConfiguration.extract``, which returns the apply configuration)."""
    return type(obj).from_dict(extract_fields(obj, field_manager, subresource))
