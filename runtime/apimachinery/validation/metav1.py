"""apimachinery's ``pkg/apis/meta/v1/validation``: labels and label selectors, as every kind checks them.

``validate_labels`` is ValidateLabels (each bad key or value reported at the map itself, not at
the key), ``validate_label_selector`` is ValidateLabelSelector (matchLabels, then each
matchExpressions requirement: its operator, values, key). Objects are plain JSON dicts as sent.
"""

from __future__ import annotations

from typing import Any

from kgen.runtime.apimachinery.validation.builtin import field
from kgen.runtime.apimachinery.validation.content import is_label_value, is_qualified_name
from kgen.runtime.apimachinery.validation.structural import FieldError, child

__all__ = ["validate_label_name", "validate_label_selector", "validate_labels"]


def validate_label_name(name: str, path: str) -> list[FieldError]:
    """ValidateLabelName: a qualified name, each problem at ``path``."""
    return [field.invalid(path, name, msg) for msg in is_qualified_name(name)]


def validate_labels(labels: Any, path: str) -> list[FieldError]:
    """ValidateLabels: every key a qualified name, every value a label value, reported at ``path``."""
    errors: list[FieldError] = []
    for key, value in (labels.items() if isinstance(labels, dict) else ()):
        errors.extend(validate_label_name(key, path))
        if isinstance(value, str):
            errors.extend(field.invalid(path, value, msg) for msg in is_label_value(value))
    return errors


def validate_label_selector(selector: Any, path: str, allow_invalid_label_value: bool = False) -> list[FieldError]:
    """ValidateLabelSelector (``metav1.LabelSelector``): matchLabels and each matchExpressions
    requirement."""
    if not isinstance(selector, dict):
        return []
    errors = validate_labels(selector.get("matchLabels"), child(path, "matchLabels"))
    for i, req in enumerate(selector.get("matchExpressions") or ()):
        if not isinstance(req, dict):
            continue
        at = child(child(path, "matchExpressions"), i)
        op, values = req.get("operator", ""), req.get("values") or []
        if op in ("In", "NotIn"):
            if not values:
                errors.append(field.required(child(at, "values"), "must be specified when `operator` is 'In' or 'NotIn'"))
        elif op in ("Exists", "DoesNotExist"):
            if values:
                errors.append(field.forbidden(child(at, "values"),
                                              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
        else:
            errors.append(field.invalid(child(at, "operator"), op, "not a valid selector operator"))
        errors.extend(validate_label_name(str(req.get("key", "")), child(at, "key")))
        if not allow_invalid_label_value:
            for j, value in enumerate(values):
                if isinstance(value, str):
                    errors.extend(field.invalid(child(child(at, "values"), j), value, m) for m in is_label_value(value))
    return errors
