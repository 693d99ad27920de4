"""Client-side validation as the apiserver validates: apiextensions-apiserver's ``pkg/apiserver``.

``validate(obj)`` and ``validate_against(schema, obj)`` (module ``validation``: the walk, with
pruning and defaulting, apiextensions-apiserver's ``pkg/apiserver/validation`` and
``pkg/apiserver/schema/{pruning,defaulting}``); the checks of one node (``structural``); update
ratcheting (``ratcheting``); kube-openapi's string formats (``strfmt``); CEL rules (``cel``);
the generated package's schemas (``schemas``); the refusing ``Status`` (``refusal``).
Names load on first use.
"""

from typing import TYPE_CHECKING

from kgen.runtime._lazy import lazy_exports

if TYPE_CHECKING:
    from kgen.runtime.apimachinery.validation.validation import (
        FieldError,
        FieldValidation,
        Resolve,
        RuleCheck,
        validate,
        validate_against,
    )

_EXPORTS = {"validation": ["FieldError", "FieldValidation", "Resolve", "RuleCheck", "validate", "validate_against"]}
__getattr__ = lazy_exports(__name__, _EXPORTS)
__all__ = ["FieldError", "FieldValidation", "Resolve", "RuleCheck", "validate", "validate_against"]
