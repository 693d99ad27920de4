"""IR models -> apply configurations: client-go's applyconfigurations, one class per model class.

client-go generates, beside each API type, an all-optional twin for server-side apply
(``appsv1.DeploymentApplyConfiguration``): an apply request must hold only the fields its
manager owns, which a type with required fields cannot express. This stage reads the same IR
modules the models were rendered from and writes ``applyconfigurations/<group>/<version>.py``:

- every model class gets ``<Name>ApplyConfiguration`` with the same fields and wire names, each
  ``T | None = None`` (``None`` is absent and never sent), nested classes replaced by their apply
  configurations, wherever they live (the same import aliases as the models module);
- a kind's apply configuration sets ``apiVersion`` and ``kind`` itself (``API_VERSION``/``KIND``,
  filled in by ``ApplyConfiguration.__post_init__``), as client-go's ``Deployment(name, ns)`` does;
- a kind's list type (``DeploymentList``) gets none, as in client-go: nothing applies a list;
- ``x-kubernetes-map-type: atomic`` on the type (``ATOMIC = True``: ``LabelSelector``) or on a
  field (``ATOMIC_FIELDS``: ``nodeSelector``) tells ``extract`` what an owner owns whole, as
  client-go's compiled-in schema tells structured-merge-diff;
- the model a class configures is named for type checkers only (``ApplyConfiguration["models.X"]``
  under ``TYPE_CHECKING``), so ``from_model``/``extract`` are typed and importing apply
  configurations never imports models.

Field docs stay on the models (the apply configuration's docstring points there): the twins
would otherwise double the package's size and formatting time.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

from .escape import Code, docstring, identifier, literal
from .ir import Model, Module, Package
from .render import HEADER, ImportView, _environment, _tuple, annotation, stock_imports

SUFFIX = "ApplyConfiguration"
_WORD = re.compile(r"\w+")


@dataclass
class ApplyFieldView:
    name: Code
    annotation: Code
    wire: Code | None


@dataclass
class ApplyClassView:
    name: Code
    model: Code
    doc: Code
    api_version: Code | None
    kind: Code | None
    atomic: bool  # the type is x-kubernetes-map-type: atomic
    atomic_fields: Code | None  # wire names of fields that are
    fields: list[ApplyFieldView]


@dataclass
class ApplyModuleView:
    doc: Code
    group_module: Code
    version_module: Code
    typing_names: Code | None
    uses_builtins: bool
    uses_field: bool
    type_names: Code | None
    imports: list[ImportView]
    classes: list[ApplyClassView]
    shared: list[tuple[Code, Code]]  # (class, module alias): re-exported as the models module does
    kind_aliases: list[tuple[Code, Code]]  # (``IssuerSpecApplyConfiguration``, its class), as the models'


def class_name(model: str) -> str:
    """The apply configuration of model class ``model``: ``Deployment`` -> ``DeploymentApplyConfiguration``."""
    return model + SUFFIX


def _list_types(module: Module) -> set[str]:
    """Classes of a kind's list (kind ``XList`` beside kind ``X``): nothing applies them."""
    kinds = {m.kind for m in module.models if m.kind}
    return {m.name for m in module.models if m.kind and m.kind.endswith("List") and m.kind[: -len("List")] in kinds}


def _retype(text: str, own: set[str], imported: dict[str, set[str]]) -> str:
    """A model field's annotation with every model class replaced by its apply configuration.

    ``own``: classes of this module (bare names); ``imported``: alias -> classes of the module
    it names (``corev1.Container``). Other names (``str``, ``Quantity``, ``builtins.list``) and
    string constants (``Literal["Deployment"]``) stay as they are.
    """
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.string.strip()]
    out: list[str] = []
    for i, token in enumerate(tokens):
        word = token.string
        if token.type == tokenize.NAME:
            before = tokens[i - 1].string if i > 0 else ""
            after = tokens[i + 1].string if i + 1 < len(tokens) else ""
            if before == "." and i >= 2 and word in imported.get(tokens[i - 2].string, ()):
                word = class_name(word)
            elif before != "." and after != "." and word in own:
                word = class_name(word)
        out.append(" | " if word == "|" else ", " if word == "," else word)
    return "".join(out)


def _class_view(m: Model, where: str, own: set[str], imported: dict[str, set[str]]) -> ApplyClassView:
    return ApplyClassView(
        name=identifier(class_name(m.name)),
        model=literal(f"models.{m.name}"),
        doc=docstring(f"``{m.name}`` ({where}) for server-side apply: its fields, all optional (``None`` is not sent)."),
        api_version=literal(m.api_version) if m.api_version else None,
        kind=literal(m.kind) if m.kind else None,
        atomic=m.atomic,
        atomic_fields=_tuple([f.wire_name for f in m.fields if f.facts.get("x-kubernetes-map-type") == "atomic"]),
        fields=[
            ApplyFieldView(
                name=identifier(f.py_name),
                annotation=annotation(_retype(f.annotation, own, imported) + " | None"),
                wire=literal(f.wire_name) if f.wire_name != f.py_name else None,
            )
            for f in m.fields
        ],
    )


def _stock_names(module: Module, alias: str) -> set[str]:
    """The names the module's annotations read under the stock module alias ``alias``."""
    return {
        name for m in module.models for f in m.fields
        for name in re.findall(rf"(?<![\w.]){re.escape(alias)}\.(\w+)", f.annotation)
    }


def _module_view(module: Module, classes: dict[str, set[str]]) -> ApplyModuleView:
    path = f"{module.group_module}.{module.version_module}"
    imported = {alias: classes.get(target, set()) for alias, target in module.imports.items()}
    # A stock type's module (kgen.kubernetes): every name read under its alias is a model class,
    # and that package has its apply configuration.
    imported.update({alias: _stock_names(module, alias) for alias in module.stock_imports})
    # Nested classes another module defines and the models module re-exports (``shared``, the
    # de-duplication of identical sub-schemas) are re-exported here too, so bare names resolve.
    shared = {name: alias for name, alias in module.shared.items() if name in imported.get(alias, ())}
    own = classes[path] | set(shared)
    where = f"{module.group or 'core'}/{module.version}" if module.group_module != "meta" else "meta/v1"
    views = [_class_view(m, where, own, imported) for m in module.models if m.name in classes[path]]
    typing = {"TYPE_CHECKING"}
    if module.uses_any:
        typing.add("Any")
    if module.uses_literal:
        typing.add("Literal")
    return ApplyModuleView(
        doc=docstring(f"Apply configurations of {where}: server-side apply's all-optional twins of its models."),
        group_module=identifier(module.group_module),
        version_module=identifier(module.version_module),
        typing_names=Code(", ".join(sorted(typing))),
        uses_builtins=module.uses_builtins,
        uses_field=any(f.wire for c in views for f in c.fields),
        type_names=Code(", ".join(sorted(module.aliases))) if module.aliases else None,
        imports=[
            ImportView(identifier(target.split(".")[0]), identifier(target.split(".")[1]), identifier(alias))
            for alias, target in sorted(module.imports.items())
        ] + stock_imports(module, "applyconfigurations"),
        classes=views,
        shared=[(identifier(class_name(name)), identifier(alias)) for name, alias in sorted(shared.items())],
        kind_aliases=[
            (identifier(class_name(name)), annotation(class_name(target)))
            for name, target in sorted(module.kind_aliases.items())
            if _configured(target, own, imported)
        ],
    )


def _configured(target: str, own: set[str], imported: dict[str, set[str]]) -> bool:
    """Whether the class ``target`` (``Name`` or ``alias.Name``) has an apply configuration here."""
    alias, _, name = target.rpartition(".")
    return name in (imported.get(alias, set()) if alias else own)


def render_apply_configurations(package: Package) -> dict[str, str]:
    """``applyconfigurations/`` of the package, by relative path, unformatted."""
    env = _environment()
    template = env.get_template("applyconfigurations.py.jinja")
    init = env.get_template("init.py.jinja")
    # Classes that get an apply configuration, per module path: a list type named in any field's
    # annotation (none is, in Kubernetes) keeps its class, so every reference resolves.
    named = {word for m in package.modules for c in m.models for f in c.fields for word in _WORD.findall(f.annotation)}
    classes = {
        f"{m.group_module}.{m.version_module}": {c.name for c in m.models} - (_list_types(m) - named)
        for m in package.modules
    }
    files = {
        "applyconfigurations/__init__.py": init.render(
            header=Code(HEADER),
            doc=docstring("Apply configurations for server-side apply, one module per group/version."),
        )
    }
    for module in package.modules:
        group_init = f"applyconfigurations/{module.group_module}/__init__.py"
        if group_init not in files:
            name = module.group or ("core" if module.group_module == "core" else "meta/v1 (apimachinery)")
            files[group_init] = init.render(header=Code(HEADER), doc=docstring(f"Apply configurations of the {name} API group."))
        files[f"applyconfigurations/{module.group_module}/{module.version_module}.py"] = template.render(
            header=Code(HEADER), module=_module_view(module, classes)
        )
    return files
