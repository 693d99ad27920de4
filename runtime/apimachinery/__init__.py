"""apimachinery for Python: the values every layer above shares, with no I/O.

Models and their codec, quantities and times, labels and selectors, API errors, unstructured
access, patches (JSON, merge, strategic merge), managed fields (server-side apply) and
client-side validation as the apiserver validates (``validate``). Nothing
here knows about HTTP; see docs/architecture.md for the layers. Names load on first use, so a
models module that imports ``Model`` pays for the model module alone.
"""

from typing import TYPE_CHECKING

from kgen.runtime._lazy import lazy_exports

if TYPE_CHECKING:
    from kgen.runtime.apimachinery.apply import (
        ApplyConfiguration,
        extract,
        extract_fields,
    )
    from kgen.runtime.apimachinery.codec import (
        ModelCodec,
    )
    from kgen.runtime.apimachinery.errors import (
        AlreadyExists,
        ApiError,
        BadRequest,
        Conflict,
        Expired,
        Forbidden,
        Gone,
        InternalError,
        Invalid,
        MethodNotAllowed,
        NotFound,
        ServerTimeout,
        ServiceUnavailable,
        StatusCause,
        TooManyRequests,
        Unauthorized,
        VersionSkewError,
        error_from_response,
        error_from_status,
    )
    from kgen.runtime.apimachinery.model import (
        UNKNOWN_FIELDS_KEY,
        Model,
        ModelError,
        UnknownFields,
        field,
    )
    from kgen.runtime.apimachinery.patch import (
        PatchError,
        json_patch,
        merge_patch,
        strategic_merge_patch,
    )
    from kgen.runtime.apimachinery.selectors import (
        FieldSelector,
        LabelSelector,
        fields,
        labels,
    )
    from kgen.runtime.apimachinery.util.strategicpatch.diff import (
        MergingConflict,
        PreconditionFailed,
        create_three_way_merge_patch,
        create_two_way_merge_patch,
        require_key_unchanged,
        require_metadata_key_unchanged,
    )
    from kgen.runtime.apimachinery.types import (
        IntOrString,
        MicroTime,
        Quantity,
        Time,
    )
    from kgen.runtime.apimachinery.validation.validation import (
        FieldError,
        validate,
        validate_against,
    )

_EXPORTS = {
    "apply": ["ApplyConfiguration", "extract", "extract_fields"],
    "codec": ["ModelCodec"],
    "errors": ["AlreadyExists", "ApiError", "BadRequest", "Conflict", "Expired", "Forbidden", "Gone", "InternalError", "Invalid",
               "MethodNotAllowed", "NotFound", "ServerTimeout", "ServiceUnavailable", "StatusCause", "TooManyRequests", "VersionSkewError",
               "Unauthorized", "error_from_response", "error_from_status"],
    "model": ["UNKNOWN_FIELDS_KEY", "Model", "ModelError", "UnknownFields", "field"],
    "patch": ["PatchError", "json_patch", "merge_patch", "strategic_merge_patch"],
    "selectors": ["FieldSelector", "LabelSelector", "fields", "labels"],
    "util.strategicpatch.diff": ["MergingConflict", "PreconditionFailed", "create_three_way_merge_patch",
                            "create_two_way_merge_patch", "require_key_unchanged", "require_metadata_key_unchanged"],
    "types": ["IntOrString", "MicroTime", "Quantity", "Time"],
    "validation.validation": ["FieldError", "validate", "validate_against"],
}
__getattr__ = lazy_exports(__name__, _EXPORTS)
__all__ = [
    "AlreadyExists", "ApplyConfiguration", "ApiError", "BadRequest", "Conflict", "Expired", "FieldError", "FieldSelector",
    "Forbidden", "Gone",
    "IntOrString", "InternalError", "Invalid", "LabelSelector", "MergingConflict", "MethodNotAllowed", "MicroTime", "Model",
    "ModelCodec", "ModelError", "NotFound", "PatchError", "PreconditionFailed", "Quantity", "ServerTimeout", "ServiceUnavailable",
    "StatusCause", "Time", "TooManyRequests", "UNKNOWN_FIELDS_KEY", "Unauthorized", "UnknownFields", "VersionSkewError",
    "create_three_way_merge_patch", "create_two_way_merge_patch",
    "error_from_response", "error_from_status", "extract", "extract_fields", "field", "fields", "json_patch", "labels", "merge_patch",
    "require_key_unchanged", "require_metadata_key_unchanged", "strategic_merge_patch", "validate", "validate_against",
]
