"""IR models -> merge schema data: what a merge needs to know of every type, per group-version.

The apiserver merges (strategic merge patch, server-side apply) by the schema, never by field
names: apimachinery's ``strategicpatch`` reads the Go struct tags (``patchStrategy``,
``patchMergeKey``) through ``PatchMetaFromStruct`` / ``PatchMetaFromOpenAPI``, and
structured-merge-diff reads ``x-kubernetes-list-type``, ``-list-map-keys`` and ``-map-type``
from the OpenAPI the apiserver publishes (client-go compiles the same into
``applyconfigurations/internal``). This stage writes those facts for every model class, so the
runtime's merge code (``kgen.runtime.apimachinery.mergeschema``) reads them and guesses nothing.

Output, one module per models module plus an index::

    mergeschema/__init__.py               INDEX: apiVersion -> kind -> (module, class); CRDS
    mergeschema/<group>/<version>.py      TYPES: one constant tuple of every class's facts

Each data module holds one assignment of a literal made only of tuples, strings, ints and
``None``: CPython marshals such a literal as one constant, so a cached import is a single
``marshal.loads`` (measured against a JSON file read through importlib.resources; see the
module docstring of the reader). The literal is written by ``escape.literal`` alone: schema
strings (names, keys, strategies) are data, never code. black is not run on these modules
(``format.UNFORMATTED``): one line per class is what they are, and formatting a literal of
core/v1's size costs seconds for no reader.

Encoding of a class: ``(name, atomic, fields)``, or ``(name, atomic, fields, True)`` when its
definition preserves unknown fields; of a field:
``(wire, type, flags, patchStrategy, patchMergeKey, listType, listMapKeys, mapType)``, where
``type`` is ``"scalar"``, ``"int-or-string"``, ``"untyped"`` (any JSON: ``Any`` or an object
with no properties), ``"<group>.<version>.<Class>"`` (a class, by its models module; ``"kgen.kubernetes:<group>.<version>.<Class>"``
for a stock type a CRD embeds, generator/stock.py), or
``("list", type)`` / ``("map", type)``, an element with facts of its own being
``("with", type, flags, listType, listMapKeys, mapType)``; ``flags`` is a bit set of ``FLAGS``.

Built-in types come from the OpenAPI snapshot (v3 documents; a v2 document, read when it is the
only source, carries the same extensions and gives the same data for every type both define);
CRDs from their structural schemas, and their group-versions are listed in ``CRDS``: the
apiserver refuses strategic merge patch on custom resources (415), so the runtime must too.
(Group-versions read from a cluster's OpenAPI are not marked: it does not say which are CRDs.)
Not carried: ``x-kubernetes-unions`` and ``-validations`` (not merge facts). Rendering the stock package's data takes 0.1 s.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .escape import Code, docstring, literal
from .ir import Field, Model, Module, Package
from .render import HEADER, _environment
from .stock import STOCK_PACKAGE

#: Bits of a field's ``flags``.
FLAGS = {"required": 1, "nullable": 2, "preserveUnknownFields": 4, "embeddedResource": 8}
_SCALARS = {"str", "int", "float", "bool", "Quantity", "Time", "MicroTime", "None"}
_FACTS = (
    "x-kubernetes-patch-strategy",
    "x-kubernetes-patch-merge-key",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
)


@dataclass
class DataModuleView:
    header: Code
    doc: Code
    group_version: Code
    crd: bool
    types: list[Code]  # one literal per class: a line each


def _type(node: ast.expr, module: Module, own: set[str]) -> Any:
    """The merge type of an annotation the model builder wrote (``generator/models.py``)."""
    if isinstance(node, ast.Name):
        if node.id == "IntOrString":
            return "int-or-string"
        if node.id == "Any":
            return "untyped"
        if node.id in _SCALARS:
            return "scalar"
        if node.id in module.shared:  # a nested class another module defines
            return f"{module.imports[module.shared[node.id]]}.{node.id}"
        if node.id in own:
            return f"{module.group_module}.{module.version_module}.{node.id}"
        raise ValueError(f"unknown name {node.id!r} in an annotation of {module.key}")
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "builtins":
            return _type(ast.Name(node.attr), module, own)
        if node.value.id in module.stock_imports:  # a stock type: the stock package's schema
            return f"{STOCK_PACKAGE}:{module.stock_imports[node.value.id]}.{node.attr}"
        return f"{module.imports[node.value.id]}.{node.attr}"
    if isinstance(node, ast.Constant) and node.value is None:
        return "scalar"
    if isinstance(node, ast.Subscript):
        generic = ast.unparse(node.value).removeprefix("builtins.")
        if generic == "list":
            return ("list", _type(node.slice, module, own))
        if generic == "dict" and isinstance(node.slice, ast.Tuple):
            return ("map", _type(node.slice.elts[1], module, own))
        if generic == "Literal":
            return "scalar"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        # ``T | None`` (a map of times) is T; ``Literal[...] | str`` and ``int | float`` are scalars.
        parts = [_type(side, module, own) for side in (node.left, node.right)]
        kept = [p for p in parts if p != "scalar"] or ["scalar"]
        if len(kept) == 1:
            return kept[0]
    raise ValueError(f"unexpected annotation {ast.unparse(node)!r} in {module.key}")


def _field(f: Field, module: Module, own: set[str]) -> tuple[Any, ...]:
    facts = f.facts
    kind = _type(ast.parse(f.annotation, mode="eval").body, module, own)
    if facts.get("x-kubernetes-int-or-string") is True:
        kind = "int-or-string"
    kind = _with_element_facts(kind, f.element_facts)
    strategy, key, list_type, keys, map_type = _facts(facts)
    return (f.wire_name, kind, _flags(facts) | FLAGS["required"] * f.required | FLAGS["nullable"] * f.nullable,
            strategy, key, list_type, keys, map_type)


def _flags(facts: dict[str, Any]) -> int:
    return (
        FLAGS["preserveUnknownFields"] * (facts.get("x-kubernetes-preserve-unknown-fields") is True)
        | FLAGS["embeddedResource"] * (facts.get("x-kubernetes-embedded-resource") is True)
    )


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _facts(facts: dict[str, Any]) -> tuple[str | None, str | None, str | None, tuple[str, ...] | None, str | None]:
    """(patchStrategy, patchMergeKey, listType, listMapKeys, mapType) as written in the schema."""
    keys = facts.get("x-kubernetes-list-map-keys")
    if keys is not None:
        keys = tuple(str(k) for k in keys) if isinstance(keys, list) else (str(keys),)
    strategy, key, list_type, _, map_type = (_text(facts.get(name)) for name in _FACTS)
    return strategy, key, list_type, keys, map_type


def _with_element_facts(kind: Any, levels: list[dict[str, Any]]) -> Any:
    """``("list", ("with", element, flags, listType, listMapKeys, mapType))`` where an element
    level has facts of its own (a list of atomic lists, a list of preserve-unknown objects)."""
    if not levels or not isinstance(kind, tuple):
        return kind
    element = _with_element_facts(kind[1], levels[1:])
    facts = levels[0]  # may hold only facts of no merge (validations): then no "with"
    _, _, list_type, keys, map_type = _facts(facts)
    flags = _flags(facts)
    if flags or list_type or keys or map_type:
        element = ("with", element, flags, list_type, keys, map_type)
    return (kind[0], element)


def _class(m: Model, module: Module, own: set[str]) -> tuple[Any, ...]:
    fields = tuple(_field(f, module, own) for f in m.fields)
    # A root schema that preserves unknown fields (a schemaless CRD) says so in a fourth item.
    return (m.name, m.atomic, fields, True) if m.preserve_unknown_fields else (m.name, m.atomic, fields)


def _tupled(value: Any) -> Any:
    """Lists as tuples: the literal is then one marshalled constant."""
    if isinstance(value, (list, tuple)):
        return tuple(_tupled(v) for v in value)
    return value


def _group_version(module: Module) -> str:
    if module.group_module == "meta":
        return "meta/v1"
    return f"{module.group}/{module.version}" if module.group else module.version


def render_merge_schema(package: Package, crd_group_versions: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``mergeschema/`` of the package: one data module per models module, and the index."""
    env = _environment()
    data = env.get_template("mergeschema.py.jinja")
    crds = set(crd_group_versions)
    files: dict[str, str] = {}
    index: dict[str, dict[str, tuple[str, str]]] = {}
    crd_versions: list[str] = []
    for module in package.modules:
        path = f"{module.group_module}.{module.version_module}"
        gv = _group_version(module)
        is_crd = (module.group, module.version) in crds and module.group_module != "meta"
        if is_crd:
            crd_versions.append(gv)
        own = {m.name for m in module.models}
        for m in module.models:
            if m.kind and m.api_version:
                index.setdefault(m.api_version, {})[m.kind] = (path, m.name)
        files.setdefault(
            f"mergeschema/{module.group_module}/__init__.py",
            env.get_template("init.py.jinja").render(header=Code(HEADER), doc=docstring("Merge schema data.")),
        )
        files[f"mergeschema/{module.group_module}/{module.version_module}.py"] = data.render(
            view=DataModuleView(
                header=Code(HEADER),
                doc=docstring(f"Merge schema of {gv}: read by kgen.runtime.apimachinery.mergeschema."),
                group_version=literal(gv),
                crd=is_crd,
                types=[literal(_tupled(_class(m, module, own))) for m in module.models],
            )
        )
    files["mergeschema/__init__.py"] = env.get_template("mergeschema_index.py.jinja").render(
        header=Code(HEADER),
        doc=docstring(
            "Merge schema of every group-version (kgen.runtime.apimachinery.mergeschema reads it).\n\n"
            "INDEX: apiVersion -> kind -> (models module, class); CRDS: custom resources' group-versions."
        ),
        index=literal({gv: dict(sorted(kinds.items())) for gv, kinds in sorted(index.items())}),
        crds=literal(tuple(sorted(crd_versions))),
    )
    return files
