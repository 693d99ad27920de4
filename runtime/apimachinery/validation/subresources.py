"""What a custom resource's ``status`` and ``scale`` subresources change in its validation (issue 35).

apiextensions-apiserver's strategy, for a CRD version whose ``subresources`` declare them:

- **status.** A create drops the object's ``status`` before validating it (``PrepareForCreate``:
  "create cannot set status"); an update of the main resource keeps the stored object's status
  (or none, when it has none) whatever the body says (``PrepareForUpdate``). Only a write to
  ``/status`` sets it. So an invalid status in a create or an update is no error at all.
- **scale.** Beside the schema, the validator reads the integer at ``specReplicasPath`` and at
  ``statusReplicasPath`` and the string at ``labelSelectorPath`` with unstructured's accessors
  (``NestedInt64``, ``NestedString``): a value that is not an int64 *as decoded* (``1.0`` and
  integers past int64 decode as float64) is ``accessor error``, a negative replica count ``should
  be a non-negative integer``, one past int32 ``should be less than or equal to 2147483647``. The
  field path is the CRD's JSON path as written (``.spec.replicas``, with its leading dot). A
  main-resource write checks both paths, a ``/status`` write only the status ones
  (``ValidateStatusUpdate``); none of these errors ratchets.

kgen learns a kind's subresources from its CRD: ``kgen generate --crd`` and ``kgen validate --crd``
record them on the kind's root schema under ``SUBRESOURCES_KEY`` (the CRD version's
``subresources`` as written), which the walk reads.
"""

from __future__ import annotations

import copy
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import INT64, go_type, go_v, go_value
from kgen.runtime.apimachinery.validation.structural import FieldError

__all__ = ["SUBRESOURCES_KEY", "prepared", "scale_errors"]

SUBRESOURCES_KEY = "x-kgen-subresources"
"""The root-schema key carrying a CRD version's ``subresources`` (``{"status": {}, "scale": {...}}``)."""
_INT32_MAX = 2**31 - 1


def _subresources(schema: Any) -> dict[str, Any]:
    found = schema.get(SUBRESOURCES_KEY) if isinstance(schema, dict) else None
    return found if isinstance(found, dict) else {}


def prepared(schema: Any, obj: dict[str, Any], old: Any, subresource: str | None) -> dict[str, Any]:
    """``obj`` as the strategy hands it to validation: with a status subresource, a create's
    status dropped and a main-resource update's status the stored one's (``old``: the stored
    object, None for a create). A ``/status`` write (``subresource="status"``) is left as it is."""
    if subresource == "status" or "status" not in _subresources(schema):
        return obj
    out = {k: v for k, v in obj.items() if k != "status"}
    if isinstance(old, dict) and "status" in old:
        out["status"] = copy.deepcopy(old["status"])
    return out


def scale_errors(schema: Any, obj: Any, subresource: str | None) -> list[FieldError]:
    """The scale subresource's errors on ``obj`` (pruned and defaulted, as validated): the
    replica counts and the label selector, as ``ValidateScaleSpec`` and ``ValidateScaleStatus`` find them."""
    scale = _subresources(schema).get("scale")
    if not isinstance(scale, dict) or not isinstance(obj, dict):
        return []
    errors: list[FieldError] = []
    paths = ["specReplicasPath", "statusReplicasPath"] if subresource != "status" else ["statusReplicasPath"]
    for key in paths:
        path = scale.get(key)
        if isinstance(path, str):
            errors.extend(_replicas(obj, path))
    selector = scale.get("labelSelectorPath")
    if isinstance(selector, str):
        value, found, error = _nested(obj, selector)
        if error is None and found and not isinstance(value, str):
            error = f"{_json_path(selector)} accessor error: {go_v(value)} is of the type {_go_type(value)}, expected string"
        if error is not None:
            errors.append(FieldError("FieldValueInvalid", selector, f'Invalid value: "": {error}'))
    return errors


def _replicas(obj: dict[str, Any], path: str) -> list[FieldError]:
    value, found, error = _nested(obj, path)
    if error is None and found and not _is_int64(value):
        error = f"{_json_path(path)} accessor error: {go_v(_decoded(value))} is of the type {_go_type(value)}, expected int64"
    if error is not None:
        return [FieldError("FieldValueInvalid", path, f"Invalid value: 0: {error}")]
    if not found:
        return []
    if value < 0:
        return [FieldError("FieldValueInvalid", path, f"Invalid value: {go_value(value)}: should be a non-negative integer")]
    if value > _INT32_MAX:
        return [FieldError("FieldValueInvalid", path,
                           f"Invalid value: {go_value(value)}: should be less than or equal to {_INT32_MAX}")]
    return []


def _nested(obj: dict[str, Any], path: str) -> tuple[Any, bool, str | None]:
    """unstructured.NestedFieldNoCopy along the path's dot-separated fields (its leading dot
    ignored): (value, found, the accessor error's text or None)."""
    fields = path.removeprefix(".").split(".")
    value: Any = obj
    for i, name in enumerate(fields):
        if value is None:
            return None, False, None
        if not isinstance(value, dict):
            return None, False, (f"{_json_path('.'.join(fields[:i + 1]))} accessor error: {go_v(_decoded(value))} is of "
                                 f"the type {_go_type(value)}, expected map[string]interface{{}}")
        if name not in value:
            return None, False, None
        value = value[name]
    return value, True, None


def _json_path(path: str) -> str:
    return "." + path.removeprefix(".")


def _is_int64(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -INT64 <= value < INT64


def _decoded(value: Any) -> Any:
    """The value as Go's JSON decoder holds it: an integer past int64 is a float64."""
    if isinstance(value, int) and not isinstance(value, bool) and not -INT64 <= value < INT64:
        return float(value)
    return value


def _go_type(value: Any) -> str:
    return go_type(_decoded(value))
