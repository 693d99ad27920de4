"""apimachinery's meta/v1 types as controller-gen writes them into a CRD.

A CRD may use meta/v1 types from a kgen-generated package (``kgen.kubernetes.models.meta.v1``
or a CRD package's ``models.meta.v1``). Two are not written from their Python fields:

- ``ObjectMeta`` is ``type: object`` wherever it appears: the apiserver validates metadata
  itself, and controller-gen leaves it at that (unless asked for embedded object metadata).
- ``Condition`` carries validation markers on its Go fields (patterns, lengths, the status
  enum) that the OpenAPI a generated model comes from does not keep; controller-gen's schema
  of ``metav1.Condition`` is written here as it prints it, so a status's conditions are
  validated as every kubebuilder CRD validates them.
"""

from __future__ import annotations

from typing import Any

_META_MODULE_SUFFIX = ".models.meta.v1"

CONDITION: dict[str, Any] = {
    "description": "Condition contains details for one aspect of the current state of this API Resource.",
    "properties": {
        "lastTransitionTime": {
            "description": "lastTransitionTime is the last time the condition transitioned from one status to another.\n"
            "This should be when the underlying condition changed.  If that is not known, then using the time when "
            "the API field changed is acceptable.",
            "format": "date-time",
            "type": "string",
        },
        "message": {
            "description": "message is a human readable message indicating details about the transition.\n"
            "This may be an empty string.",
            "maxLength": 32768,
            "type": "string",
        },
        "observedGeneration": {
            "description": "observedGeneration represents the .metadata.generation that the condition was set based upon.\n"
            "For instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration "
            "is 9, the condition is out of date\nwith respect to the current state of the instance.",
            "format": "int64",
            "minimum": 0,
            "type": "integer",
        },
        "reason": {
            "description": "reason contains a programmatic identifier indicating the reason for the condition's "
            "last transition.\nProducers of specific condition types may define expected values and meanings for "
            "this field,\nand whether the values are considered a guaranteed API.\nThe value should be a CamelCase "
            "string.\nThis field may not be empty.",
            "maxLength": 1024,
            "minLength": 1,
            "pattern": "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
            "type": "string",
        },
        "status": {
            "description": "status of the condition, one of True, False, Unknown.",
            "enum": ["True", "False", "Unknown"],
            "type": "string",
        },
        "type": {
            "description": "type of condition in CamelCase or in foo.example.com/CamelCase.",
            "maxLength": 316,
            "pattern": r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
            "type": "string",
        },
    },
    "required": ["lastTransitionTime", "message", "reason", "status", "type"],
    "type": "object",
}

_KNOWN: dict[str, dict[str, Any]] = {
    "ObjectMeta": {"type": "object"},
    "Condition": CONDITION,
}


def known_schema(cls: type) -> dict[str, Any] | None:
    """The fixed schema of a meta/v1 class from a kgen-generated package, or None."""
    if not cls.__module__.endswith(_META_MODULE_SUFFIX):
        return None
    return _KNOWN.get(cls.__name__)
