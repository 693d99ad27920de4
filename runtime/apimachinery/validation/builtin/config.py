"""ConfigMaps and Secrets as the apiserver validates them (``pkg/apis/core/validation``
ValidateConfigMap/ValidateSecret and their updates).

Keys are file names in a volume (IsConfigMapKey), reported at ``data[<key>]`` (Go's
``Path.Key``); the values of both bags count toward 1 MiB (``core.MaxSecretSize``). A Secret is
validated after conversion from v1 has merged ``stringData`` into ``data`` (a ``stringData`` key
overrides the same ``data`` key) and defaulting has set ``type: Opaque``; its ``data`` values are
base64 in JSON and count decoded. A Secret's type asks for its keys (``kubernetes.io/tls``:
``tls.crt`` and ``tls.key``; ``kubernetes.io/dockerconfigjson``: a JSON object in
``.dockerconfigjson``...). On an update, a Secret's type is immutable, and an ``immutable``
ConfigMap or Secret keeps its data and its flag.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from kgen.runtime.apimachinery.golang.gojson import map_unmarshal_error
from kgen.runtime.apimachinery.validation.builtin import field, register
from kgen.runtime.apimachinery.validation.builtin.meta import object_meta
from kgen.runtime.apimachinery.validation.content import is_config_map_key
from kgen.runtime.apimachinery.validation.structural import FieldError

__all__ = ["validate_config_map", "validate_secret"]

MAX_SIZE = 1024 * 1024
"""core.MaxSecretSize: a ConfigMap's or Secret's data, all values together, in bytes."""
_IMMUTABLE = "field is immutable when `immutable` is set"
_REDACTED = "<secret contents redacted>"


def _bag(obj: dict[str, Any], key: str) -> dict[str, Any]:
    bag = obj.get(key)
    return bag if isinstance(bag, dict) else {}


def _decoded_len(value: Any) -> int:
    """A ``[]byte`` field's length: its base64 text decoded (a bad one fails decoding before us)."""
    try:
        return len(base64.b64decode(str(value or ""), validate=False))
    except (binascii.Error, ValueError):
        return 0


def _key_errors(bag: dict[str, Any], name: str) -> list[FieldError]:
    return [field.invalid(f"{name}[{key}]", key, msg) for key in bag for msg in is_config_map_key(key)]


@register("", "ConfigMap")
def validate_config_map(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateConfigMap, and with ``old`` ValidateConfigMapUpdate (the name a DNS subdomain)."""
    errors = object_meta(obj, old, "")
    data, binary = _bag(obj, "data"), _bag(obj, "binaryData")
    if old is not None and old.get("immutable") is True:
        if obj.get("immutable") is not True:
            errors.append(field.forbidden("immutable", _IMMUTABLE))
        if data != _bag(old, "data"):
            errors.append(field.forbidden("data", _IMMUTABLE))
        if binary != _bag(old, "binaryData"):
            errors.append(field.forbidden("binaryData", _IMMUTABLE))
    errors += _key_errors(data, "data")
    errors += [field.invalid(f"data[{key}]", key, "duplicate of key present in binaryData") for key in data if key in binary]
    size = sum(len(str(v).encode()) for v in data.values()) + sum(_decoded_len(v) for v in binary.values())
    errors += _key_errors(binary, "binaryData")
    if size > MAX_SIZE:
        errors.append(field.too_long("[]", MAX_SIZE))  # field.NewPath("") prints as "[]"
    return errors


def _secret_data(obj: dict[str, Any]) -> dict[str, bytes]:
    """``data`` as the internal Secret holds it: decoded, with ``stringData`` merged over it."""
    data: dict[str, bytes] = {}
    for key, value in _bag(obj, "data").items():
        try:
            data[key] = base64.b64decode(str(value or ""), validate=False)
        except (binascii.Error, ValueError):
            data[key] = b""
    for key, value in _bag(obj, "stringData").items():
        data[key] = str(value or "").encode()
    return data


def _type_errors(kind: str, data: dict[str, bytes], annotations: dict[str, Any]) -> list[FieldError]:
    """What a Secret's type asks of its keys."""
    if kind == "kubernetes.io/service-account-token":
        if not annotations.get("kubernetes.io/service-account.name"):
            return [field.required("metadata.annotations[kubernetes.io/service-account.name]")]
    elif kind in ("kubernetes.io/dockercfg", "kubernetes.io/dockerconfigjson"):
        key = ".dockercfg" if kind == "kubernetes.io/dockercfg" else ".dockerconfigjson"
        if key not in data:
            return [field.required(f"data[{key}]")]
        problem = map_unmarshal_error(data[key])
        if problem is not None:
            return [field.invalid(f"data[{key}]", _REDACTED, problem)]
    elif kind == "kubernetes.io/basic-auth":
        if "username" not in data and "password" not in data:
            return [field.required("data[username]"), field.required("data[password]")]
    elif kind == "kubernetes.io/ssh-auth":
        if not data.get("ssh-privatekey"):
            return [field.required("data[ssh-privatekey]")]
    elif kind == "kubernetes.io/tls":
        return [field.required(f"data[{key}]") for key in ("tls.crt", "tls.key") if key not in data]
    return []


@register("", "Secret")
def validate_secret(obj: dict[str, Any], old: dict[str, Any] | None) -> list[FieldError]:
    """ValidateSecret, and with ``old`` ValidateSecretUpdate (the name a DNS subdomain)."""
    errors = object_meta(obj, old, "")
    data = _secret_data(obj)
    kind = obj.get("type") or "Opaque"
    if old is not None:
        old_kind = old.get("type") or "Opaque"
        if kind != old_kind:
            errors.append(field.invalid("type", kind, "field is immutable"))
        if old.get("immutable") is True:
            if obj.get("immutable") is not True:
                errors.append(field.forbidden("immutable", _IMMUTABLE))
            if data != _secret_data(old):
                errors.append(field.forbidden("data", _IMMUTABLE))
    errors += [field.invalid(f"data[{key}]", key, msg) for key in data for msg in is_config_map_key(key)]
    if sum(len(v) for v in data.values()) > MAX_SIZE:
        errors.append(field.too_long("data", MAX_SIZE))
    annotations = (obj.get("metadata") or {}).get("annotations") or {}
    return errors + _type_errors(str(kind), data, annotations if isinstance(annotations, dict) else {})
