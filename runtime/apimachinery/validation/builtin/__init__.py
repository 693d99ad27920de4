"""Go validation of the kinds Kubernetes itself serves (``k8s.io/kubernetes/pkg/apis/*/validation``).

A built-in kind's published OpenAPI says little of what the apiserver checks: after decoding the
object into Go structs and defaulting it, the kind's strategy runs hand-written Go validation
(``ValidateDeployment``, ``ValidatePodSpec``...). Each module of this package carries one API
group's (or one kind family's) rules, with the apiserver's field paths and messages, and
registers a validator per (group, kind) with ``register``; ``validate()`` runs the kind's
validator after its decode and enum walk (``builtin_errors``). A ``/status`` write is judged by
the kind's status validator (``register(..., subresource="status")``: its status strategy's
``ValidateXStatusUpdate``, on the object as its ``PrepareForUpdate`` leaves it); a kind without
one is judged as a full update.

A validator takes the object as sent (a plain JSON dict, *not* defaulted: a field the apiserver
defaults is checked only when present) and, on an update, the stored object; it returns
``FieldError``s. Modules are imported on first use (``_MODULES``): add a new module's name there.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from kgen.runtime.apimachinery.validation.builtin.decode import go_decode_error, is_null_item_error, nulls_decoded
from kgen.runtime.apimachinery.validation.builtin.quantity import first_decode_error
from kgen.runtime.apimachinery.validation.structural import FieldError

__all__ = ["Validator", "builtin_errors", "register", "validator_for"]

Validator = Callable[[dict[str, Any], "dict[str, Any] | None"], list[FieldError]]
"""(object, stored object on an update or None) -> the Go validation's errors."""

_MODULES = ("apps", "batch", "pod", "config", "networking", "service", "storage")
"""This package's modules that register validators, imported once on the first lookup."""
_VALIDATORS: dict[tuple[str, str, str], Validator] = {}
_loaded = False


def register(group: str, *kinds: str, subresource: str = "") -> Callable[[Validator], Validator]:
    """Decorator: the validator of ``kinds`` of API ``group`` (``""`` for the core group); with
    ``subresource="status"``, of their ``/status`` writes (it is always given the stored object)."""

    def decorate(fn: Validator) -> Validator:
        for kind in kinds:
            _VALIDATORS[(group, kind, subresource)] = fn
        return fn

    return decorate


def validator_for(group: str, kind: str, subresource: str = "") -> Validator | None:
    """The registered validator of a built-in kind (of its ``subresource`` writes: ``status``), or
    None (only decoding and enums are checked)."""
    global _loaded
    if not _loaded:
        for module in _MODULES:
            importlib.import_module(f"{__name__}.{module}")
        _loaded = True
    return _VALIDATORS.get((group, kind, subresource))


def builtin_errors(obj: dict[str, Any], old: Any, walked: list[FieldError], definition: str,
                   resolve: Callable[[str], dict[str, Any]], subresource: str | None = None) -> list[FieldError]:
    """The apiserver's answer for a built-in kind (``definition``, its schema's name; ``resolve``
    looks definitions up): Go's 400 for the first wrongly typed field (``decode.go_decode_error``),
    or ``walked`` (the schema walk's errors) when they are other decode errors
    (all but enums and required fields: wrong types, int32 overflow, formats; the Go decoder
    fails, nothing is validated); else the first quantity Go cannot
    parse (a 400 too); else the kind's Go validation joined with the walk's enum errors at
    fields where, and above which, the Go validation reports nothing (both check some enums: Go's
    error, which may list fewer values or sit at the enclosing struct, wins). The walk's other
    errors (``required`` lists) are the published schema's, not Go's: Go defaults or checks
    those fields itself. ``subresource="status"`` with a stored ``old``: the kind's status validator
    where it has one."""
    if any(is_null_item_error(e) for e in walked):  # decoded as zero values, which the Go validation judges
        walked = [e for e in walked if not is_null_item_error(e)]
        obj = nulls_decoded(obj, definition, resolve)
    if any(e.type not in ("FieldValueNotSupported", "FieldValueRequired") for e in walked):
        wrong_type = go_decode_error(obj, definition, resolve)
        return [wrong_type] if wrong_type is not None else walked
    undecodable = first_decode_error(obj, definition, resolve)
    if undecodable is not None:
        return [undecodable]
    api_version = obj.get("apiVersion")
    group = api_version.rpartition("/")[0] if isinstance(api_version, str) else ""
    kind = str(obj.get("kind"))
    status = validator_for(group, kind, "status") if subresource == "status" and isinstance(old, dict) else None
    fn = status or validator_for(group, kind)
    if fn is None:
        return walked
    errors = fn(obj, old if isinstance(old, dict) else None)
    if status is not None:  # the spec is the stored one's; no status rule reads the published enums
        return sorted(set(errors), key=lambda e: (e.field, e.message))
    # an enum Go reports at an enclosing field (a PVC's accessModes list, a Deployment's strategy
    # struct) is not reported again below it; the walk's required-field errors are not Go's
    # an empty string is Go's zero value, which defaulting fills or the Go code takes (a toleration's
    # "" operator is Equal): the published enum does not refuse it
    errors.extend(e for e in walked if e.type == "FieldValueNotSupported" and not _covered(e.field, errors)
                  and not e.message.startswith('Unsupported value: "":'))
    return sorted(set(errors), key=lambda e: (e.field, e.message))


def _covered(path: str, errors: list[FieldError]) -> bool:
    """Whether one of ``errors`` is at ``path`` or at a field enclosing it."""
    return any(path == e.field or path.startswith((e.field + ".", e.field + "[")) for e in errors)
