"""Go validation of the kinds Kubernetes itself serves (``k8s.io/kubernetes/pkg/apis/*/validation``).

A built-in kind's published OpenAPI says little of what the apiserver checks: after decoding the
object into Go structs and defaulting it, the kind's strategy runs hand-written Go validation
(``ValidateDeployment``, ``ValidatePodSpec``...). Each module of this package carries one API
group's (or one kind family's) rules, with the apiserver's field paths and messages, and
registers a validator per (group, kind) with ``register``; ``validate()`` runs the kind's
validator after its decode and enum walk (``builtin_errors``).

A validator takes the object as sent (a plain JSON dict, *not* defaulted: a field the apiserver
defaults is checked only when present) and, on an update, the stored object; it returns
``FieldError``s. Modules are imported on first use (``_MODULES``): add a new module's name there.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from kgen.runtime.apimachinery.validation.structural import FieldError

__all__ = ["Validator", "builtin_errors", "register", "validator_for"]

Validator = Callable[[dict[str, Any], "dict[str, Any] | None"], list[FieldError]]
"""(object, stored object on an update or None) -> the Go validation's errors."""

_MODULES = ("apps", "batch", "config", "networking", "service")
"""This package's modules that register validators, imported once on the first lookup."""
_VALIDATORS: dict[tuple[str, str], Validator] = {}
_loaded = False


def register(group: str, *kinds: str) -> Callable[[Validator], Validator]:
    """Decorator: the validator of ``kinds`` of API ``group`` (``""`` for the core group)."""

    def decorate(fn: Validator) -> Validator:
        for kind in kinds:
            _VALIDATORS[(group, kind)] = fn
        return fn

    return decorate


def validator_for(group: str, kind: str) -> Validator | None:
    """The registered validator of a built-in kind, or None (only decoding and enums are checked)."""
    global _loaded
    if not _loaded:
        for module in _MODULES:
            importlib.import_module(f"{__name__}.{module}")
        _loaded = True
    return _VALIDATORS.get((group, kind))


def builtin_errors(obj: dict[str, Any], old: Any, walked: list[FieldError]) -> list[FieldError]:
    """The apiserver's answer for a built-in kind: ``walked`` (the schema walk's errors) when they
    are decode errors (wrong types: the Go decoder fails, nothing is validated), else the kind's Go validation joined with
    the walk's enum errors at fields the Go validation does not report itself (both check some
    enums; Go's message, which may list fewer values, wins)."""
    if any(e.type in ("BadRequest", "FieldValueTypeInvalid") for e in walked):
        return walked
    api_version = obj.get("apiVersion")
    group = api_version.rpartition("/")[0] if isinstance(api_version, str) else ""
    fn = validator_for(group, str(obj.get("kind")))
    if fn is None:
        return walked
    errors = fn(obj, old if isinstance(old, dict) else None)
    seen = {e.field for e in errors}
    errors.extend(e for e in walked if e.field not in seen)
    return sorted(set(errors), key=lambda e: (e.field, e.message))
