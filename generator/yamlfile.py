"""YAML reading for CRD files, as Kubernetes reads them.

PyYAML follows YAML 1.1, where a bare ``=`` is the "value" tag and ``y``/``n``/``on``/``off``
are booleans; Kubernetes (sigs.k8s.io/yaml, YAML 1.2-like) reads ``=`` as a string. Real CRDs
carry ``=`` (prometheus-operator's enum of match operators), so the loader reads it as one.
A plain scalar that YAML 1.1 reads as a timestamp (``lastTransitionTime: 2024-01-01T00:00:00Z``)
stays the string it is written as: go-yaml, under sigs.k8s.io/yaml, keeps a timestamp decoded
into ``interface{}`` as its text, so kubectl sends it as a JSON string.
Map keys that YAML reads as numbers or booleans (a property named ``8080:``) become the strings
``YAMLToJSON`` makes of them, which is what kubectl sends to the apiserver for that file.

A parse error is reported as compilers report them: ``crd.yaml:12:3: could not parse YAML: ...``.
"""

from __future__ import annotations

from typing import Any

import yaml

from kgen.runtime.apimachinery.lenient import yaml_to_json

from .errors import InputError


class _Loader(yaml.SafeLoader):
    pass


def _value_as_string(loader: yaml.SafeLoader, node: yaml.Node) -> str:
    return str(loader.construct_scalar(node))  # type: ignore[arg-type]


_Loader.add_constructor("tag:yaml.org,2002:value", _value_as_string)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", _value_as_string)


def documents(text: str, source: object = "<text>") -> list[tuple[int, Any]]:
    """(number, document) for every document of a (multi-document) YAML text, counted from 1
    as they appear (empty ones count, then are dropped).

    Text that is not YAML raises an ``InputError`` placed at the problem's line and column, in
    words ("could not parse YAML document 2: mapping values are not allowed here"); PyYAML's own
    message is not shown, since it quotes the offending lines (which may hold a secret).
    """
    out: list[tuple[int, Any]] = []
    loader = _Loader(text)
    number = 0
    try:
        while loader.check_node():
            number += 1
            node = loader.get_node()
            doc = loader.construct_document(node)
            if doc is not None:
                out.append((number, _json_keys(doc, source, number, node)))
    except yaml.YAMLError as e:
        raise _parse_error(e, source, number) from None
    finally:
        loader.dispose()
    return out


def _json_keys(doc: Any, source: object, number: int, node: yaml.Node | None) -> Any:
    try:
        return yaml_to_json(doc)
    except ValueError as e:
        which = f" document {number}" if number > 1 else ""
        problem = f"YAML{which} cannot be read as JSON: {e}"
        if node is None:
            raise InputError(source, "", "", problem=problem) from None
        mark = node.start_mark
        raise InputError(source, "", "", problem=problem, line=mark.line + 1, column=mark.column + 1) from None


def _parse_error(e: yaml.YAMLError, source: object, number: int) -> InputError:
    which = f" document {number}" if number > 1 else ""
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        what = e.problem or e.context or "not YAML"
        if mark is not None:
            return InputError(source, "", "", problem=f"could not parse YAML{which}: {what}", line=mark.line + 1, column=mark.column + 1)
        return InputError(source, "", "", problem=f"could not parse YAML{which}: {what}")
    return InputError(source, "", "", problem=f"could not parse YAML{which}: {type(e).__name__}")


def load_all(text: str, source: object = "<text>") -> list[Any]:
    """Every document of a (multi-document) YAML text, empty documents dropped."""
    return [doc for _, doc in documents(text, source)]
