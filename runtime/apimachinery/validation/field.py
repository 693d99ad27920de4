"""apimachinery's ``util/validation/field``: the constructors of a 422's causes, in its words.

Go validation code builds its errors with ``field.Invalid``, ``field.Required``... and the
apiserver writes each cause's message with ``ErrorBody()``: the type's name, the bad value (``%v``
for numbers and booleans, ``%q`` for strings, JSON for the rest) and the detail. These
functions give kgen's ``FieldError`` the same reason, path and message, so a validator ported
from Go reads like its source: ``invalid(path, value, msg)`` for ``field.Invalid(path, value, msg)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import go_value
from kgen.runtime.apimachinery.validation.structural import FieldError, too_many

__all__ = ["duplicate", "forbidden", "invalid", "not_found", "not_supported", "required", "too_long", "too_many_items"]


def _body(kind: str, value: str | None, detail: str) -> str:
    text = kind if value is None else f"{kind}: {value}"
    return f"{text}: {detail}" if detail else text


def invalid(path: str, value: Any, detail: str) -> FieldError:
    """field.Invalid: ``Invalid value: <value>: <detail>``."""
    return FieldError("FieldValueInvalid", path, _body("Invalid value", go_value(value), detail))


def required(path: str, detail: str = "") -> FieldError:
    """field.Required: ``Required value`` (and the detail)."""
    return FieldError("FieldValueRequired", path, _body("Required value", None, detail))


def forbidden(path: str, detail: str) -> FieldError:
    """field.Forbidden: ``Forbidden: <detail>``."""
    return FieldError("FieldValueForbidden", path, _body("Forbidden", None, detail))


def not_supported(path: str, value: Any, supported: Iterable[str]) -> FieldError:
    """field.NotSupported: ``Unsupported value: <value>: supported values: "a", "b"`` (in the
    order given: Go code passes ``sets.List``, which sorts)."""
    quoted = ", ".join(go_value(str(v)) for v in supported)
    return FieldError("FieldValueNotSupported", path,
                      _body("Unsupported value", go_value(value), f"supported values: {quoted}" if quoted else ""))


def duplicate(path: str, value: Any) -> FieldError:
    """field.Duplicate: ``Duplicate value: <value>``."""
    return FieldError("FieldValueDuplicate", path, _body("Duplicate value", go_value(value), ""))


def not_found(path: str, value: Any) -> FieldError:
    """field.NotFound: ``Not found: <value>``."""
    return FieldError("FieldValueNotFound", path, _body("Not found", go_value(value), ""))


def too_long(path: str, most: int) -> FieldError:
    """field.TooLong: ``Too long: may not be more than <n> bytes`` (the value is never shown)."""
    return FieldError("FieldValueTooLong", path, f"Too long: may not be more than {most} {'byte' if most == 1 else 'bytes'}")


def too_many_items(path: str, count: int, most: int) -> FieldError:
    """field.TooMany: ``Too many: <count>: must have at most <n> items``."""
    return FieldError("FieldValueTooMany", path, too_many(count, most))
