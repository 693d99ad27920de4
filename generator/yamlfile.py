"""YAML reading for CRD files, as Kubernetes reads them.

PyYAML follows YAML 1.1, where a bare ``=`` is the "value" tag and ``y``/``n``/``on``/``off``
are booleans; Kubernetes (sigs.k8s.io/yaml, YAML 1.2-like) reads ``=`` as a string. Real CRDs
carry ``=`` (prometheus-operator's enum of match operators), so the loader reads it as one.
"""

from __future__ import annotations

from typing import Any

import yaml


class _Loader(yaml.SafeLoader):
    pass


def _value_as_string(loader: yaml.SafeLoader, node: yaml.Node) -> str:
    return str(loader.construct_scalar(node))  # type: ignore[arg-type]


_Loader.add_constructor("tag:yaml.org,2002:value", _value_as_string)


def load_all(text: str) -> list[Any]:
    """Every document of a (multi-document) YAML text, empty documents dropped."""
    return [doc for doc in yaml.load_all(text, Loader=_Loader) if doc is not None]
