"""PersistentVolumeClaims as the apiserver validates them (``pkg/apis/core/validation``
ValidatePersistentVolumeClaim/ValidatePersistentVolumeClaimUpdate).

Before validating, the PVC strategy drops a ``dataSource`` that is neither a PVC nor a
VolumeSnapshot when no ``dataSourceRef`` is given (KEP 1495's backwards compatibility), then
copies ``dataSource`` to ``dataSourceRef`` or back when only one is set; v1 defaulting sets
``volumeMode: Filesystem``. The rules: at least one supported access mode (ReadWriteOncePod
alone), the label selector, a positive ``resources.requests.storage``, class names that are
DNS subdomains, data sources (kind and name required, a core-group one a PVC, a DNS-subdomain
API group, the two references agreeing). On an update the spec is immutable except
``resources.requests`` and ``volumeAttributesClassName`` of a bound claim, ``volumeName`` set
once, and ``storageClassName`` set once from nil; storage requests may not shrink.
"""

from __future__ import annotations

import copy
from typing import Any

from kgen.runtime.apimachinery.validation.builtin import field, quantity, register
from kgen.runtime.apimachinery.validation.builtin.meta import object_meta, spec_kept
from kgen.runtime.apimachinery.validation.content import is_dns1123_label, is_dns1123_subdomain, is_qualified_name
from kgen.runtime.apimachinery.validation.metav1 import validate_label_selector
from kgen.runtime.apimachinery.validation.structural import FieldError

__all__ = [
    "prepare_claim_spec", "validate_persistent_volume_claim", "validate_persistent_volume_claim_spec",
    "validate_persistent_volume_claim_status",
]

_ACCESS_MODES = ("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod")
_VOLUME_MODES = ("Block", "Filesystem")
_IMMUTABLE_SPEC = "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"


def _is_pvc_or_snapshot(source: Any) -> bool:
    if not isinstance(source, dict):
        return False
    group = source.get("apiGroup") or ""
    return ((source.get("kind") == "PersistentVolumeClaim" and group == "")
            or (source.get("kind") == "VolumeSnapshot" and group == "snapshot.storage.k8s.io"))


def prepare_claim_spec(spec: dict[str, Any], old: dict[str, Any] | None = None) -> dict[str, Any]:
    """A copy of a claim's spec as the strategy and defaulting leave it (data sources, volumeMode)."""
    spec = copy.deepcopy(spec)
    if not (old or {}).get("dataSource") and spec.get("dataSourceRef") is None and not _is_pvc_or_snapshot(spec.get("dataSource")):
        spec.pop("dataSource", None)
    source, ref = spec.get("dataSource"), spec.get("dataSourceRef")
    if isinstance(source, dict) and ref is None:
        spec["dataSourceRef"] = {k: source[k] for k in ("apiGroup", "kind", "name") if k in source}
    elif isinstance(ref, dict) and source is None and not ref.get("namespace"):
        spec["dataSource"] = {k: ref[k] for k in ("apiGroup", "kind", "name") if k in ref}
    if spec.get("volumeMode") is None:
        spec["volumeMode"] = "Filesystem"
    return spec


def _reference_errors(ref: dict[str, Any], path: str) -> list[FieldError]:
    """validateDataSource / validateDataSourceRef."""
    errors: list[FieldError] = []
    if not ref.get("name"):
        errors.append(field.required(f"{path}.name"))
    if not ref.get("kind"):
        errors.append(field.required(f"{path}.kind"))
    group = ref.get("apiGroup") or ""
    if not group and ref.get("kind") != "PersistentVolumeClaim":
        errors.append(field.invalid(path, ref.get("kind", ""), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
    if group:
        errors += [field.invalid(f"{path}.apiGroup", group, m) for m in is_dns1123_subdomain(group)]
    namespace = ref.get("namespace")
    if path.endswith("dataSourceRef") and namespace:
        errors += [field.invalid(f"{path}.namespace", namespace, m) for m in is_dns1123_label(namespace)]
    return errors


def _storage_errors(requests: Any, path: str) -> list[FieldError]:
    """resources.requests.storage: present and positive (reported at ``resources[storage]``)."""
    at = f"{path}.resources[storage]"
    if not isinstance(requests, dict) or "storage" not in requests:
        return [field.required(at)]
    try:
        amount, _ = quantity.parse(requests["storage"])
        shown = quantity.canonical(requests["storage"])
    except ValueError:
        return []  # a decode error, reported before validation
    if amount <= 0:
        return [field.invalid(at, shown, "must be greater than zero")]
    return []


def _path_invalid(path: str, detail: str) -> FieldError:
    """field.Invalid whose value is a ``*field.Path`` (json.Marshal prints its unexported struct as ``{}``)."""
    return FieldError("FieldValueInvalid", path, f"Invalid value: {{}}: {detail}")


def validate_persistent_volume_claim_spec(spec: dict[str, Any], path: str) -> list[FieldError]:
    """ValidatePersistentVolumeClaimSpec of a prepared spec (``prepare_claim_spec``); also a
    StatefulSet's volumeClaimTemplates' and an ephemeral volume's."""
    errors: list[FieldError] = []
    modes = spec.get("accessModes") or []
    if not modes:
        errors.append(field.required(f"{path}.accessModes", "at least 1 access mode is required"))
    if spec.get("selector") is not None:
        errors += validate_label_selector(spec["selector"], f"{path}.selector")
    rwop = other = False
    for mode in modes:
        if mode not in _ACCESS_MODES:
            errors.append(field.not_supported(f"{path}.accessModes", mode, _ACCESS_MODES))
        elif mode == "ReadWriteOncePod":
            rwop = True
        else:
            other = True
    if rwop and other:
        errors.append(field.forbidden(f"{path}.accessModes", "may not use ReadWriteOncePod with other access modes"))
    errors += _storage_errors((spec.get("resources") or {}).get("requests"), path)
    name = spec.get("storageClassName")
    if isinstance(name, str) and name:
        errors += [field.invalid(f"{path}.storageClassName", name, m) for m in is_dns1123_subdomain(name)]
    mode = spec.get("volumeMode")
    if mode is not None and mode not in _VOLUME_MODES:
        errors.append(field.not_supported(f"{path}.volumeMode", mode, _VOLUME_MODES))
    source, ref = spec.get("dataSource"), spec.get("dataSourceRef")
    if isinstance(source, dict):
        errors += _reference_errors(source, f"{path}.dataSource")
    if isinstance(ref, dict):
        errors += _reference_errors(ref, f"{path}.dataSourceRef")
    if isinstance(ref, dict) and ref.get("namespace"):
        if source is not None:
            errors.append(_path_invalid(path, "may not be specified when dataSourceRef.namespace is specified"))
    elif isinstance(source, dict) and isinstance(ref, dict):
        if any((source.get(k) or None) != (ref.get(k) or None) for k in ("apiGroup", "kind", "name")):
            errors.append(_path_invalid(path, "must match dataSourceRef"))
    name = spec.get("volumeAttributesClassName")
    if isinstance(name, str) and name:
        errors += [field.invalid(f"{path}.volumeAttributesClassName", name, m) for m in is_dns1123_subdomain(name)]
    return errors


def _quantity(value: Any) -> Any:
    try:
        return quantity.parse(value)[0]
    except ValueError:
        return 0


def _storage_amount(spec: dict[str, Any]) -> Any:
    return _quantity(((spec.get("resources") or {}).get("requests") or {}).get("storage", "0"))


@register("", "PersistentVolumeClaim")
def validate_persistent_volume_claim(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidatePersistentVolumeClaim, and with ``old`` ValidatePersistentVolumeClaimUpdate (the name a DNS subdomain)."""
    old_spec = (old or {}).get("spec") if old is not None else None
    raw = obj.get("spec")
    spec = prepare_claim_spec(raw if isinstance(raw, dict) else {}, old_spec if isinstance(old_spec, dict) else None)
    errors = object_meta(obj, old, "") + validate_persistent_volume_claim_spec(spec, "spec")
    if not isinstance(old_spec, dict):
        return errors
    before = prepare_claim_spec(old_spec)
    after = copy.deepcopy(spec)
    if not before.get("volumeName"):
        before["volumeName"] = after.get("volumeName")
    if before.get("storageClassName") is None and after.get("storageClassName") is not None:
        before["storageClassName"] = after["storageClassName"]
    if ((obj.get("status") or {}).get("phase") or ((old or {}).get("status") or {}).get("phase")) == "Bound":
        after.setdefault("resources", {}).setdefault("requests", {})
        if isinstance(after["resources"].get("requests"), dict):
            after["resources"]["requests"]["storage"] = ((before.get("resources") or {}).get("requests") or {}).get("storage")
        after["volumeAttributesClassName"] = before.get("volumeAttributesClassName")
    if _normal(after) != _normal(before):
        errors.append(FieldError("FieldValueForbidden", "spec", f"Forbidden: {_IMMUTABLE_SPEC}\n"))
    # RecoverVolumeExpansionFailure (GA, locked on): a request may shrink down to, not to or
    # below, the capacity the status records
    capacity = ((old or {}).get("status") or {}).get("capacity") or {}
    if _storage_amount(spec) < _storage_amount(before) and _storage_amount(spec) <= _quantity(capacity.get("storage", "0")):
        errors.append(field.forbidden("spec.resources.requests.storage", "field can not be less than status.capacity"))
    if spec.get("volumeMode") != before.get("volumeMode"):
        errors.append(field.invalid("volumeMode", spec.get("volumeMode"), "field is immutable"))
    return errors


def _normal(spec: dict[str, Any]) -> Any:
    """A spec for semantic comparison: quantities by value, empty values as absent."""
    def norm(v: Any, key: str = "") -> Any:
        if isinstance(v, dict):
            return {k: norm(x, k) for k, x in v.items() if x not in (None, "", [], {})}
        if isinstance(v, list):
            return [norm(x) for x in v]
        return v
    out = norm(spec)
    requests = (out.get("resources") or {}).get("requests")
    if isinstance(requests, dict):
        for k, v in list(requests.items()):
            try:
                requests[k] = quantity.parse(v)[0]
            except ValueError:
                pass
    return out


# -- /status writes -------------------------------------------------------------------------------

_RESIZE_STATUSES = ("ControllerResizeInProgress", "ControllerResizeInfeasible", "NodeResizeInProgress",
                    "NodeResizeInfeasible", "NodeResizePending")
"""resizeStatusSet, as sets.List sorts it."""


def _go_value_of(value: Any) -> int | None:
    """Quantity.Value(): rounded up away from zero to an integer (None: not a quantity)."""
    try:
        amount = quantity.parse(value)[0]
    except ValueError:
        return None
    whole = int(amount)
    return whole + (1 if amount > whole else -1 if amount < whole else 0)


def _claim_resource_key(key: str, path: str) -> list[FieldError]:
    """validatePersistentVolumeClaimResourceKey: a qualified name; a native one (no ``/``, or
    ``kubernetes.io/``) only ``storage``."""
    errors = [field.invalid(path, key, m) for m in is_qualified_name(key)]
    if not errors and ("/" not in key or "kubernetes.io/" in key) and key != "storage":
        errors.append(field.not_supported(path, key, ("storage",)))
    return errors


def _basic_resource(value: Any, path: str) -> list[FieldError]:
    """validateBasicResource: Value() not negative."""
    whole = _go_value_of(value)
    return [field.invalid(path, whole, "must be a valid resource quantity")] if whole is not None and whole < 0 else []


@register("", "PersistentVolumeClaim", subresource="status")
def validate_persistent_volume_claim_status(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidatePersistentVolumeClaimStatusUpdate (RecoverVolumeExpansionFailure locked on), after the
    status strategy kept the stored spec: capacities not negative, allocated resources' keys and
    resize statuses known, allocated amounts not negative."""
    old = old or {}
    obj = spec_kept(obj, old)
    raw = obj.get("status")
    status: dict[str, Any] = raw if isinstance(raw, dict) else {}
    errors = object_meta(obj, old, "")
    for key, value in (status.get("capacity") or {}).items():
        errors += _basic_resource(value, f"status.capacity[{key}]")
    for key, value in (status.get("allocatedResourceStatuses") or {}).items():
        path = "status.allocatedResourceStatuses"
        errors += _claim_resource_key(str(key), path)
        if value not in _RESIZE_STATUSES:
            errors.append(field.not_supported(path, str(key), _RESIZE_STATUSES))
    for key, value in (status.get("allocatedResources") or {}).items():
        path = "status.allocatedResources"
        key_errors = _claim_resource_key(str(key), path)
        # not carried: ValidateResourceQuantityValue's "must be an integer" for an extended resource's fraction
        errors += key_errors or _basic_resource(value, f"{path}[{key}]")
    return errors
