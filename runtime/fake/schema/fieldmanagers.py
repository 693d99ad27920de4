"""The field manager of a route: which kind, schema and reset fields the apiserver's has.

The apiserver builds one ``FieldManager`` per resource and subresource
(``kgen.runtime.apimachinery.util.managedfields.fieldmanager``), over the kind's schema and with the strategy's
``GetResetFields``: a resource with a status subresource resets ``status`` on its main
resource, and its status subresource resets what its status strategy does
(``status_reset_fields``: a custom resource's ``metadata`` and ``spec``, a built-in kind's
``spec`` and, for some kinds, parts of its metadata). A custom resource's schema is the merge schema of
the generated package its model comes from; a kind with no generated model (registered on the
tracker without one) is read as the common CRD that declares ``spec`` and ``status`` and
preserves unknown fields inside them (``smdschema.SCHEMALESS``). A multi-version custom resource's
field manager knows its other registered versions' schemas, which entries recorded there convert
to (``kgen.runtime.fake.schema.versions.other_versions``).
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.util.managedfields.fieldmanager import FieldManager
from kgen.runtime.apimachinery.structured_merge_diff.fieldpath import Path, PathElement
from kgen.runtime.apimachinery.mergeschema import schema_for
from kgen.runtime.apimachinery.util.managedfields.scalehandler import SCALE_API_VERSION, to_parent, to_subresource
from kgen.runtime.fake.schema.decode import model_for
from kgen.runtime.fake.schema.versions import other_versions
from kgen.runtime.fake.store import Store, builtin
from kgen.runtime.gentype.resource import ResourceInfo

__all__ = ["field_manager", "record_scale_update", "status_reset_fields"]


def field_manager(store: Store, info: ResourceInfo, subresource: str) -> FieldManager:
    """The field manager of ``info``'s resource (``subresource`` "" for the main resource)."""
    with_status = info not in store.without_status
    if subresource == "status":
        reset: tuple[tuple[str, ...], ...] = status_reset_fields(info)
    elif not subresource and with_status:
        reset = (("status",),)
    else:
        reset = ()
    api_version, kind = info.api_version, info.kind
    if builtin(info.group) and schema_for(api_version, kind) is not None:
        return FieldManager(api_version, kind, subresource, reset_fields=reset)
    model = model_for(api_version, kind)
    package = model.__module__.split(".models.")[0] if model is not None else None
    ts = schema_for(api_version, kind, package=package) if package else None
    if ts is None:
        return FieldManager(api_version, kind, subresource, schemaless=True, reset_fields=reset)
    return FieldManager(api_version, kind, subresource, schema=ts, reset_fields=reset, versions=other_versions(store, info))


_STATUS_RESETS: dict[tuple[str, str], tuple[tuple[str, ...], ...]] = {
    ("apps", "deployments"): (("spec",), ("metadata", "labels")),
    ("", "pods"): (("spec",), ("metadata", "deletionTimestamp"), ("metadata", "ownerReferences")),
}
"""Built-in status strategies that reset more than the spec (pkg/registry/<group>/<kind>/strategy.go,
the status strategy's ``PrepareForUpdate`` and ``GetResetFields``, the same on 1.34 and 1.37)."""


def status_reset_fields(info: ResourceInfo) -> tuple[tuple[str, ...], ...]:
    """What a ``/status`` write of the resource cannot change, the status strategy's reset fields:
    a built-in kind's spec (StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, Service, Node,
    Namespace, PersistentVolumeClaim and the rest), a Deployment's labels too, a Pod's
    deletionTimestamp and ownerReferences too; the rest of the metadata it sends is written and
    owned. A custom resource's status write takes only the status (apiextensions' statusStrategy
    copies the stored object and puts the status back): metadata and spec."""
    if not builtin(info.group):
        return (("metadata",), ("spec",))
    return _STATUS_RESETS.get((info.group, info.plural), (("spec",),))


_REPLICAS: Path = (PathElement.field("spec"), PathElement.field("replicas"))


def _scale(obj: dict[str, Any], entries: Any) -> dict[str, Any]:
    """The Scale the apiserver builds of ``obj`` for its field manager (its status is nobody's)."""
    metadata = {k: v for k, v in (obj.get("metadata") or {}).items() if k in ("name", "namespace", "uid")}
    if entries:
        metadata["managedFields"] = entries
    return {"apiVersion": SCALE_API_VERSION, "kind": "Scale", "metadata": metadata,
            "spec": {"replicas": (obj.get("spec") or {}).get("replicas")}}


def record_scale_update(api_version: str, old: dict[str, Any], new: dict[str, Any], manager: str, now: str) -> Any:
    """The parent's managedFields after a write through ``/scale`` (the registries'
    ``scaleUpdatedObjectInfo``): the parent's entries as a Scale's (``ToSubresource``), the
    Scale's field manager's update, and back (``ToParent``). Every apiVersion of the parent
    keeps its replicas at ``spec.replicas``, as the built-in kinds' path mappings say."""
    parent_entries = (old.get("metadata") or {}).get("managedFields")
    versions = {api_version, *(str(e.get("apiVersion")) for e in parent_entries or [] if isinstance(e, dict))}
    mappings = {v: _REPLICAS for v in versions}
    try:
        scale_entries = to_subresource(parent_entries, mappings)
        fm = FieldManager(SCALE_API_VERSION, "Scale", "scale")
        updated = fm.update(_scale(old, scale_entries), _scale(new, None), manager, now=now)
        return to_parent(parent_entries, (updated.get("metadata") or {}).get("managedFields"), mappings, api_version,
                         unstructured=not builtin(api_version.rpartition("/")[0]))
    except ValueError:  # undecodable entries: the handler's error, the parent's entries stay
        return parent_entries
