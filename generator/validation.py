"""Sources -> validation schema data: what the apiserver validates an object against, per kind.

``kgen.runtime.apimachinery.validation.schemas`` reads this data and client-side validation (issue
15) walks it. It is the schemas as the sources state them, not the IR's classes: the model
builder shares one class between subschemas of one shape whatever their patterns, bounds or CEL
rules (generator/nested.py), and types a CRD's embedded stock type as the stock class
(generator/stock.py), while the apiserver validates a custom resource against its CRD's own
schema. So this stage keeps, for every definition the package's kinds reach, its schema with
what validation and structural defaulting read (types, formats, enums, bounds, lengths,
patterns, required, nullable, defaults, items and properties, ``x-kubernetes-*`` facts of
validation and CEL) and drops the rest (descriptions, examples, patch strategies).

Output, beside ``mergeschema/`` (same ``UNFORMATTED`` rule, format.py)::

    validation/__init__.py        KINDS: apiVersion -> kind -> definition name;
                                  MODULES: definition namespace -> data module
    validation/<namespace>.py     SCHEMAS: short name -> the definition's schema as JSON text

A definition name is ``<namespace>.<short name>`` (``io.k8s.api.core.v1.Pod``); ``$ref``s name
definitions (``{"$ref": "io.k8s.api.core.v1.PodSpec"}``), whatever the source wrote
(``#/components/schemas/...``, ``#/definitions/...``). The schema of one definition is one JSON
string, parsed on first use: an import stays one ``marshal.loads`` of string constants.
Only definitions reachable from the package's kinds are written (``--groups`` narrows both).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from kgen.runtime.apimachinery.validation.subresources import SUBRESOURCES_KEY
from kgen.runtime.apimachinery.validation.versions import STORAGE_KEY

from .escape import Code, docstring, literal
from .ir import Package
from .render import HEADER, _environment
from .sources import SourceSet

#: Schema keywords validation and structural defaulting read; every other key is dropped.
KEPT = frozenset({
    "type", "format", "enum", "nullable", "default", "properties", "additionalProperties", "items",
    "required", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength",
    "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
    "allOf", "anyOf", "oneOf", "not", "$ref",
    "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
    "x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type", "x-kubernetes-validations",
    SUBRESOURCES_KEY,  # a CRD kind's root: its status and scale subresources (generator/sources/crd.py)
    STORAGE_KEY,  # a CRD kind's root in a version that is not the storage one: the storage version's kind
})
#: Keys whose value is a map of names to schemas, and keys whose value is a schema or a list of them.
_SCHEMA_MAPS = ("properties",)
_SCHEMAS = ("additionalProperties", "items", "not")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
_REF = re.compile(r"^#/(?:components/schemas|definitions)/")


def pruned(schema: Any) -> Any:
    """The schema with only ``KEPT`` keys, recursively, and ``$ref``s by definition name."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key not in KEPT:
            continue
        if key == "$ref" and isinstance(value, str):
            out[key] = _REF.sub("", value)
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: pruned(sub) for name, sub in value.items()}
        elif key in _SCHEMAS:
            out[key] = pruned(value)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [pruned(sub) for sub in value]
        else:
            out[key] = value
    return out


def _refs(schema: Any) -> Iterable[str]:
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            yield ref
        for value in schema.values():
            yield from _refs(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _refs(value)


def namespace_module(namespace: str) -> str:
    """The data module of a definition namespace: ``io.k8s.api.core.v1`` -> ``io_k8s_api_core_v1``."""
    return re.sub(r"\W", "_", namespace)


def render_validation(package: Package, sources: SourceSet) -> dict[str, str]:
    """``validation/`` of the package: the index and one data module per definition namespace."""
    kinds = {(m.api_version, m.kind) for module in package.modules for m in module.models if m.kind and m.api_version}
    index: dict[str, dict[str, str]] = {}
    todo: list[str] = []
    for name, d in sorted(sources.definitions.items()):
        for gvk in d.schema.get("x-kubernetes-group-version-kind") or []:
            if not isinstance(gvk, dict):
                continue
            group, version, kind = gvk.get("group", ""), gvk.get("version", ""), gvk.get("kind", "")
            api_version = f"{group}/{version}" if group else str(version)
            if (api_version, kind) in kinds:
                index.setdefault(api_version, {})[str(kind)] = name
                todo.append(name)
    schemas: dict[str, Any] = {}
    while todo:
        name = todo.pop()
        if name in schemas:
            continue
        raw = sources.validation_schemas.get(name)
        if raw is None:
            found = sources.definitions.get(name)
            if found is None:
                continue  # a dangling $ref: the model builder reports it
            raw = found.schema
        schemas[name] = pruned(raw)
        todo.extend(ref for ref in _refs(schemas[name]) if ref not in schemas)
    by_namespace: dict[str, dict[str, str]] = {}
    for name in sorted(schemas):
        namespace, _, short = name.rpartition(".")
        by_namespace.setdefault(namespace, {})[short] = json.dumps(
            schemas[name], sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
    modules = {namespace: namespace_module(namespace) for namespace in by_namespace}
    if len(set(modules.values())) != len(modules):  # "a-b" and "a_b": never in practice, but never silently
        seen: dict[str, str] = {}
        for namespace, module in sorted(modules.items()):
            modules[namespace] = module if module not in seen else f"{module}_{len(seen)}"
            seen[modules[namespace]] = namespace
    env = _environment()
    data = env.get_template("validation.py.jinja")
    files = {
        f"validation/{modules[namespace]}.py": data.render(
            header=Code(HEADER),
            doc=docstring(f"Validation schemas of the {namespace} definitions: read by "
                          "kgen.runtime.apimachinery.validation.schemas."),
            schemas=[(literal(short), literal(text)) for short, text in definitions.items()],
        )
        for namespace, definitions in by_namespace.items()
    }
    files["validation/__init__.py"] = env.get_template("validation_index.py.jinja").render(
        header=Code(HEADER),
        doc=docstring(
            "Validation schemas of every kind (kgen.runtime.apimachinery.validation.schemas reads them).\n\n"
            "KINDS: apiVersion -> kind -> definition name; MODULES: definition namespace -> data module."
        ),
        kinds=literal({gv: dict(sorted(k.items())) for gv, k in sorted(index.items())}),
        modules=literal(dict(sorted(modules.items()))),
    )
    return files
