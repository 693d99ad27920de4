"""PyYAML set to read plain scalars as kubectl does, so a manifest sends what ``kubectl apply`` sends.

kubectl reads YAML with sigs.k8s.io/yaml (go-yaml v2, then YAML to JSON); PyYAML follows YAML 1.1
to the letter. Where they differ, kubectl's reading is taken (each checked against
``kubectl label --local -o json`` in tests/cluster/test_apply.py):

- ``y``, ``Y``, ``n``, ``N`` are booleans (as ``yes``/``no``/``on``/``off``, which both read so);
- no base-60 numbers: ``1:20`` is a string, not 80;
- ``0o17`` is an octal int (Go's ``ParseInt`` base 0), ``017`` too, ``1_000`` is 1000;
- ``1e3`` and ``1.`` are floats (go-yaml's float syntax; PyYAML wants a dot and a signed exponent);
- a timestamp (``2024-01-01``) stays the text it is written as, and ``=`` is a string;
- on the wire a float with an integral value is that integer (Go's JSON writes ``1`` for 1.0);
  ``.inf`` and ``.nan`` cannot be sent (kubectl refuses them the same way);
- map keys become strings as sigs.k8s.io/yaml's ``YAMLToJSON`` makes them (``8080`` → ``"8080"``).

The dumper shares the loader's resolvers, so a string such as ``"y"`` is written quoted and reads
back (by kgen or by kubectl) as the string it was. This module never imports PyYAML: manifests.py
hands it the module, so the optional dependency stays in one place.
"""

from __future__ import annotations

import math
import re
from typing import Any

from kgen.runtime.apimachinery.lenient import yaml_to_json

_TAG = "tag:yaml.org,2002:"
_BOOL = re.compile(r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$")
_INT = re.compile(r"^[-+]?(?:0b[01_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9][0-9_]*(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*(?:\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+))"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
_TRUE = {"y", "yes", "true", "on"}
_LARGEST_PLAIN = 1e21  # Go's JSON writes floats from here on with an exponent: keep them floats


def _resolvers(base: Any) -> dict[str, list[tuple[str, Any]]]:
    """PyYAML's implicit resolvers without its bool, int and float ones, then go-yaml's."""
    out: dict[str, list[tuple[str, Any]]] = {
        first: [(tag, rx) for tag, rx in entries if tag not in (_TAG + "bool", _TAG + "int", _TAG + "float")]
        for first, entries in base.yaml_implicit_resolvers.items()
    }
    for tag, rx, firsts in (("bool", _BOOL, "yYnNtTfFoO"), ("int", _INT, "-+0123456789"), ("float", _FLOAT, "-+0123456789.")):
        for first in firsts:
            out.setdefault(first, []).append((_TAG + tag, rx))
    return out


def _bool(loader: Any, node: Any) -> bool:
    return str(loader.construct_scalar(node)).lower() in _TRUE


def _int(loader: Any, node: Any) -> int | float:
    text = str(loader.construct_scalar(node)).replace("_", "")
    sign, digits = (-1, text[1:]) if text[0] == "-" else (1, text.lstrip("+"))
    prefix = digits[:2].lower()
    if prefix in ("0b", "0o", "0x"):
        return sign * int(digits[2:], {"0b": 2, "0o": 8, "0x": 16}[prefix])
    if len(digits) > 1 and digits[0] == "0":
        try:
            return sign * int(digits, 8)  # Go's base 0: a leading 0 is octal
        except ValueError:
            return sign * float(digits)  # not octal: go-yaml then reads it as a float
    return sign * int(digits)


def _text(loader: Any, node: Any) -> str:
    return str(loader.construct_scalar(node))


def classes(yaml: Any) -> tuple[type, type]:
    """(Loader, Dumper) for the PyYAML module ``yaml``: the C ones when PyYAML has them."""
    cached = _CLASSES.get(id(yaml))
    if cached is not None:
        return cached
    base_loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    base_dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    resolvers = _resolvers(base_loader)
    loader: type = type("KubectlLoader", (base_loader,), {"yaml_implicit_resolvers": resolvers})
    dumper: type = type("KubectlDumper", (base_dumper,), {"yaml_implicit_resolvers": resolvers})
    loader.add_constructor(_TAG + "bool", _bool)  # type: ignore[attr-defined]
    loader.add_constructor(_TAG + "int", _int)  # type: ignore[attr-defined]
    loader.add_constructor(_TAG + "timestamp", _text)  # type: ignore[attr-defined]
    loader.add_constructor(_TAG + "value", _text)  # type: ignore[attr-defined]
    _CLASSES[id(yaml)] = (loader, dumper)
    return loader, dumper


_CLASSES: dict[int, tuple[type, type]] = {}


def to_json(doc: Any) -> Any:
    """A decoded document as kubectl sends it: keys strings, integral floats integers. ``ValueError``
    (naming the path) for what JSON cannot carry: a key that is a list or null, an infinity, a NaN."""
    return _numbers(yaml_to_json(doc), "")


def _numbers(value: Any, path: str) -> Any:
    if isinstance(value, dict):
        return {k: _numbers(v, f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, list):
        return [_numbers(v, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, float):
        if math.isinf(value) or math.isnan(value):
            raise ValueError(f"{path.lstrip('.') or 'the document'}: {value} cannot be sent as JSON")
        if value.is_integer() and abs(value) < _LARGEST_PLAIN:
            return int(value)
    return value
