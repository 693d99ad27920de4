"""apimachinery's ``field.Error`` constructors (``k8s.io/apimachinery/pkg/util/validation/field``):
each returns a ``FieldError`` whose message is what ``ErrorBody`` prints, so Go validation
carried here reads as the apiserver's causes do (``Invalid value: -1: must be greater than or
equal to 0``, ``Required value``, ``Unsupported value: "x": supported values: "a", "b"``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import go_json, go_value
from kgen.runtime.apimachinery.validation.structural import FieldError, child

__all__ = [
    "Shown", "duplicate", "forbidden", "invalid", "not_found", "not_supported", "one_of", "required", "too_long",
    "too_many",
]


class Shown(str):
    """A bad value already printed as Go prints it (a Go struct's JSON, fields in declaration
    order), used as is."""


def _value(value: Any) -> str:
    """The bad value as ErrorBody prints it: ``%v`` for numbers and booleans, ``%q`` for strings,
    else its JSON (``encoding/json``: a map's keys sorted)."""
    if isinstance(value, Shown):
        return str(value)
    if isinstance(value, (dict, list)):
        return go_json(value)
    return go_value(value)


def _body(kind: str, detail: str) -> str:
    return f"{kind}: {detail}" if detail else kind


def invalid(path: str, value: Any, detail: str) -> FieldError:
    """field.Invalid: the value as ``%v``/``%q`` prints it, then the detail."""
    return FieldError("FieldValueInvalid", path, _body(f"Invalid value: {_value(value)}", detail))


def required(path: str, detail: str = "") -> FieldError:
    """field.Required: ``Required value``, no value printed."""
    return FieldError("FieldValueRequired", path, _body("Required value", detail))


def forbidden(path: str, detail: str) -> FieldError:
    """field.Forbidden: ``Forbidden: <detail>``."""
    return FieldError("FieldValueForbidden", path, _body("Forbidden", detail))


def duplicate(path: str, value: Any) -> FieldError:
    """field.Duplicate: ``Duplicate value: <value>``."""
    return FieldError("FieldValueDuplicate", path, f"Duplicate value: {_value(value)}")


def not_found(path: str, value: Any) -> FieldError:
    """field.NotFound: ``Not found: <value>``."""
    return FieldError("FieldValueNotFound", path, f"Not found: {_value(value)}")


def not_supported(path: str, value: Any, supported: Iterable[str]) -> FieldError:
    """field.NotSupported: the supported values quoted, in the order given (Go sorts none here:
    callers pass them as the Go code lists them)."""
    values = ", ".join(go_value(v) for v in supported)
    return FieldError("FieldValueNotSupported", path,
                      f"Unsupported value: {_value(value)}" + (f": supported values: {values}" if values else ""))


def too_long(path: str, most: int) -> FieldError:
    """field.TooLong (value omitted): ``Too long: may not be more than <most> bytes``."""
    return FieldError("FieldValueTooLong", path, f"Too long: may not be more than {most} bytes")


def too_many(path: str, actual: int, most: int) -> FieldError:
    """field.TooMany: ``Too many: <actual>: must have at most <most> items``."""
    return FieldError("FieldValueTooMany", path, f"Too many: {actual}: must have at most {most} items")


def one_of(obj: dict[str, Any], kinds: Iterable[str], path: str, what: str,
           ) -> tuple[tuple[str, dict[str, Any], str] | None, list[FieldError]]:
    """Go's "exactly one of" walk (validateVolumeSource, validateHandler): the first of ``kinds``
    (in that order) set to an object in ``obj``, as (kind, its value, its path), and a Forbidden
    ``may not specify more than 1 <what>`` for each later one. The caller puts the first's own
    errors before those, as Go's loop does."""
    first: tuple[str, dict[str, Any], str] | None = None
    errors: list[FieldError] = []
    for kind in kinds:
        value = obj.get(kind)
        if not isinstance(value, dict):
            continue
        at = child(path, kind)
        if first is None:
            first = (kind, value, at)
        else:
            errors.append(forbidden(at, f"may not specify more than 1 {what}"))
    return first, errors
