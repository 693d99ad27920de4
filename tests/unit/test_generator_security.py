"""Hostile schemas cannot inject code: every schema string reaches the generated source as data.

The corpus below (an OpenAPI v3 document and a CRD, both built here) carries descriptions that
try to close docstrings, Jinja markup, control characters and a newline followed by code; enum
values and defaults with quotes, backslashes and newlines; property names that are keywords,
builtins, dunders, names the model base uses, or not identifiers at all; and kinds named like
what a models module imports. The generated package must compile cleanly, import without side
effects, hold only the statement forms the templates emit, and keep every string as it was.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import json
import keyword
import os
import subprocess
import sys
import typing
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest

from tests.unit.helpers import (
    Generated,
    ModuleLoader,
    generate,
    gvk,
    imported,
    openapi_v3,
    write_json,
    write_yaml,
)

GROUP = "hostile.example.io"
PREFIX = "io.example.hostile.v1"
CRD_GROUP = "crd-hostile.example.io"
META = "io.k8s.apimachinery.pkg.apis.meta.v1"

PAYLOAD = 'import os; os.system("touch PWNED")'
HOSTILE = (
    'Triple """double""" and \'\'\'single\'\'\' quotes; back\\slashes \\n \\" \\\\ and \\x41\n'
    "Jinja {{ 7 * 7 }} {% for x in y %}{% endfor %} {# comment #} {{ '}}' }}\n"
    "controls \x00 \x01 \x07 \x08 \x0b \x0c \x1b \x7f \r and \u2028 \u2029 \x85 \ufeff\n"
    "\ttabbed, and trailing spaces   \n"
    "    indented four\n"
    "   \n"
    f"{PAYLOAD}\n"
    f'"""; {PAYLOAD}; """\n'
    'ends with a quote"'
)
#: Descriptions that stress one end of a docstring each.
EDGES = {
    "StartsWithQuote": '"starts with a quote',
    "EndsWithBackslash": "ends with a backslash\\",
    "EndsWithTriple": 'ends with three quotes"""',
    "OnlyQuote": '"',
    "OnlyBackslash": "\\",
    "LeadingSpace": "   \n\n  leading blank lines and spaces\n   second line",
    "Payload": f"\n{PAYLOAD}",
}

#: Property names that cannot be Python attributes as they are.
HOSTILE_NAMES = [
    "class", "from", "continue", "import", "None",  # keywords
    "match", "type", "case", "_",  # soft keywords: legal attributes
    "id", "list", "str", "int", "dict", "bool", "float", "print", "__import__", "builtins",  # builtins
    "__init__", "__class__", "__dict__",  # dunders
    "to_dict", "from_dict", "to_json", "from_json", "unknown_fields_", "field", "annotations", "NULLABLE",  # the model's
    "API_VERSION", "KIND", "DEFAULTS", "UNSET", "Model", "ClassVar", "Literal", "Any",  # the module's
    "$ref", "$schema", "x-foo", "3d", "a.b", "a b", "", "-", "é", "nat-outgoing", "natOutgoing", "Foo", "foo",
]
ENUM = ['plain', 'a"b', "c'd", "e\\f", "g\nh", '"""', "'''", "{{ x }}", "\x00", f"\n{PAYLOAD}"]
DEFAULT = f'x"\\\n"""{PAYLOAD}'
CLASS_KINDS = ["Model", "Any", "UNSET", "ClassVar", "Literal", "None", "field", "str"]


def _hostile_document() -> dict[str, Any]:
    props: dict[str, Any] = {name: {"type": "string", "description": HOSTILE} for name in HOSTILE_NAMES}
    props["mode"] = {"type": "string", "enum": ENUM, "default": DEFAULT, "description": HOSTILE}
    props["count"] = {"type": "integer", "default": -1}
    props["nested"] = {
        "type": "object",
        "description": HOSTILE,
        "properties": {name: {"type": "integer"} for name in HOSTILE_NAMES},
    }
    schemas: dict[str, Any] = {}
    for kind in CLASS_KINDS:
        schemas[f"{PREFIX}.{kind}"] = {
            "type": "object",
            "description": HOSTILE,
            "properties": props if kind == "Model" else {"a": {"type": "string"}},
            "x-kubernetes-group-version-kind": gvk(kind, GROUP),
        }
    for name, text in EDGES.items():
        schemas[f"{PREFIX}.{name}"] = {"type": "object", "description": text, "properties": {"a": {"type": "string"}}}
    schemas[f"{META}.ObjectMeta"] = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "labels": {"type": "object", "additionalProperties": {"type": "string"}}},
    }
    schemas[f"{META}.ListMeta"] = {"type": "object", "properties": {"resourceVersion": {"type": "string"}}}
    return openapi_v3(schemas)


#: In the CRD's spec: fields whose explicit null is kept (NULLABLE lists their hostile wire names)
#: and required fields (``name: str = field(name=...)``, no default).
CRD_NULLABLE = HOSTILE_NAMES[::3]
CRD_REQUIRED = HOSTILE_NAMES[1::3]


def _hostile_crd() -> dict[str, Any]:
    spec_props: dict[str, Any] = {
        name: {"type": "string", "description": HOSTILE, **({"nullable": True} if name in CRD_NULLABLE else {})}
        for name in HOSTILE_NAMES
    }
    spec_props["mode"] = {"type": "string", "enum": ENUM, "default": DEFAULT}
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"models.{CRD_GROUP}"},
        "spec": {
            "group": CRD_GROUP,
            "scope": "Namespaced",
            "names": {"kind": "Model", "plural": "models", "listKind": "UNSET"},
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {
                        "openAPIV3Schema": {
                            "type": "object",
                            "description": HOSTILE,
                            "properties": {
                                "spec": {"type": "object", "description": HOSTILE, "properties": spec_props,
                                         "required": CRD_REQUIRED},
                                "class": {"type": "string", "description": HOSTILE},
                            },
                        }
                    },
                }
            ],
        },
    }


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    tmp = tmp_path_factory.mktemp("hostile")
    doc = write_json(tmp / "openapi.json", _hostile_document())
    crd = write_yaml(tmp / "crd.yaml", _hostile_crd())
    return generate(tmp / "out", "--from", str(doc), "--crd", str(crd))


@pytest.fixture(scope="module")
def loader(hostile: Generated) -> Iterator[ModuleLoader]:
    with imported(hostile) as modules:
        yield modules


def _models(loader: ModuleLoader, group_module: str) -> ModuleType:
    return loader.models(group_module, "v1")


def _py_files(gen: Generated) -> list[Path]:
    files = sorted(gen.folder.rglob("*.py"))
    assert len(files) >= 7  # __init__, models/__init__, three group __init__s, three modules
    return files


def test_the_corpus_lands_in_the_expected_modules(hostile: Generated) -> None:
    modules = {p.relative_to(hostile.folder).as_posix() for p in hostile.folder.rglob("*.py")}
    assert {"models/hostile_example_io/v1.py", "models/crd_hostile_example_io/v1.py", "models/meta/v1.py"} <= modules


def test_every_generated_file_compiles_with_warnings_as_errors(hostile: Generated) -> None:
    for path in _py_files(hostile):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(path.read_text(), str(path), "exec", dont_inherit=True)


def test_importing_under_python_W_error_has_no_side_effect(hostile: Generated, tmp_path: Path) -> None:
    before = hostile.files()
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    modules = []
    for path in _py_files(hostile):
        parts = path.relative_to(hostile.out).with_suffix("").parts
        modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    # Importing must do nothing; decoding an empty object of every class resolves every annotation.
    script = (
        f"import sys; sys.path.insert(0, {str(hostile.out)!r})\n"
        "import importlib, msgspec\n"
        f"for name in {modules!r}:\n"
        "    module = importlib.import_module(name)\n"
        "    for obj in list(vars(module).values()):\n"
        "        if isinstance(obj, type) and obj.__module__ == name and hasattr(obj, 'from_dict'):\n"
        "            obj.from_dict({})\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    result = subprocess.run(
        [sys.executable, "-W", "error", "-c", script], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""
    assert list(cwd.iterdir()) == []
    assert hostile.files() == before
    assert not list(hostile.out.rglob("PWNED")) and not (Path.cwd() / "PWNED").exists()


# -- only the statement forms the templates emit -------------------------------------------------

_IMPORTS = {
    "__future__": {"annotations"},
    "typing": {"Any", "ClassVar", "Literal"},
    "kgen.runtime.apimachinery": {"Model", "field", "IntOrString", "Quantity", "Time", "MicroTime"},
}
_TYPE_NAMES = {"str", "int", "float", "bool", "list", "dict", "Any", "Literal",
               "IntOrString", "Quantity", "Time", "MicroTime"}
#: The class constants the base Model declares; a generated class only assigns them.
_CLASSVARS = {"API_VERSION", "KIND", "DEFAULTS", "REDACTED", "NULLABLE"}
_BUILTIN_TYPES = {"str", "int", "float", "bool", "list", "dict"}


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _check_json_literal(node: ast.expr, where: str) -> None:
    if isinstance(node, ast.Constant):
        assert node.value is None or isinstance(node.value, (str, int, float, bool)), where
    elif isinstance(node, ast.UnaryOp):
        assert isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant), where
        assert isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool), where
    elif isinstance(node, ast.List):
        for item in node.elts:
            _check_json_literal(item, where)
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            assert isinstance(key, ast.Constant) and isinstance(key.value, str), where
            _check_json_literal(value, where)
    else:
        raise AssertionError(f"{where}: {ast.dump(node)} is not a JSON literal")


def _check_annotation(node: ast.expr, names: set[str], aliases: set[str], where: str) -> None:
    """A type expression: names, ``alias.Class``, subscripts, ``|`` and string or None constants."""
    if isinstance(node, ast.Name):
        assert node.id in names, f"{where}: unexpected name {node.id!r} in annotation"
    elif isinstance(node, ast.Attribute):
        assert isinstance(node.value, ast.Name), f"{where}: {ast.dump(node)}"
        builtin = node.value.id == "builtins" and node.attr in _BUILTIN_TYPES
        assert builtin or node.value.id in aliases, f"{where}: {ast.dump(node)}"
    elif isinstance(node, ast.Constant):
        assert node.value is None or isinstance(node.value, str), f"{where}: constant {node.value!r}"
    elif isinstance(node, ast.BinOp):
        assert isinstance(node.op, ast.BitOr), f"{where}: operator {ast.dump(node.op)}"
        _check_annotation(node.left, names, aliases, where)
        _check_annotation(node.right, names, aliases, where)
    elif isinstance(node, ast.Subscript):
        generic = ast.unparse(node.value)
        assert generic in {"list", "dict", "Literal", "builtins.list", "builtins.dict"}, where
        _check_annotation(node.slice, names, aliases, where)
    elif isinstance(node, ast.Tuple):
        for item in node.elts:
            _check_annotation(item, names, aliases, where)
    else:
        raise AssertionError(f"{where}: {ast.dump(node)} in an annotation")


def _check_class_constant(stmt: ast.Assign, where: str) -> None:
    assert len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name), where
    name = stmt.targets[0].id
    assert name in _CLASSVARS, f"{where}: class constant {name}"
    if name == "DEFAULTS":
        assert isinstance(stmt.value, ast.Dict), where
        _check_json_literal(stmt.value, where)
    elif name in ("REDACTED", "NULLABLE"):
        assert isinstance(stmt.value, ast.Tuple), where
        assert all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in stmt.value.elts), where
    else:
        assert isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str), where


def _check_field(stmt: ast.AnnAssign, names: set[str], aliases: set[str], where: str) -> None:
    """``name: T`` (required), ``name: T | None = None``, or either with ``field(...)`` naming the wire."""
    assert isinstance(stmt.target, ast.Name) and stmt.simple == 1, where
    assert stmt.target.id.isidentifier() and not keyword.iskeyword(stmt.target.id), where
    _check_annotation(stmt.annotation, names, aliases, where)
    value = stmt.value
    if value is None:
        return
    if isinstance(value, ast.Constant):
        assert value.value is None, where
        return
    assert isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "field", where
    keywords = [k.arg for k in value.keywords]
    assert value.args == [] and keywords in (["default", "name"], ["name"]), where
    if keywords == ["default", "name"]:
        default = value.keywords[0].value
        assert isinstance(default, ast.Constant) and default.value is None, where
    name = value.keywords[-1].value
    assert isinstance(name, ast.Constant) and isinstance(name.value, str), where


def _check_class_alias(
    stmt: ast.Assign, classes: set[str], aliases: set[str], kind_suffixes: tuple[str, ...], where: str
) -> None:
    """A module-level name for a class: a shared class's re-export (``Name = alias.Name``), or a
    kind's spec/status under the name a user would guess (``IssuerSpec = ClusterIssuerSpec`` or
    ``= alias.Name``, naming.py). Adds the name to ``classes``."""
    [target] = stmt.targets
    value = stmt.value
    assert isinstance(target, ast.Name), f"{where}: {ast.dump(stmt)[:200]}"
    if isinstance(value, ast.Attribute):
        assert isinstance(value.value, ast.Name) and value.value.id in aliases, f"{where}: {ast.dump(stmt)[:200]}"
        reexport = value.attr == target.id
    else:
        assert isinstance(value, ast.Name) and value.id in classes, f"{where}: {ast.dump(stmt)[:200]}"
        reexport = False
    assert reexport or target.id.endswith(kind_suffixes), f"{where}: {ast.dump(stmt)[:200]}"
    classes.add(target.id)


def _check_module(tree: ast.Module, where: str) -> None:
    assert tree.body and _is_docstring(tree.body[0]), f"{where}: no module docstring"
    aliases: set[str] = set()
    classes = {stmt.name for stmt in tree.body if isinstance(stmt, ast.ClassDef)}
    for stmt in tree.body[1:]:
        if isinstance(stmt, ast.Import):
            assert [(a.name, a.asname) for a in stmt.names] == [("builtins", None)], f"{where}: {ast.dump(stmt)}"
        elif isinstance(stmt, ast.ImportFrom):
            if stmt.level == 0:
                allowed = _IMPORTS.get(stmt.module or "")
                assert allowed is not None, f"{where}: import from {stmt.module}"
                assert all(a.name in allowed and a.asname is None for a in stmt.names), f"{where}: {ast.dump(stmt)}"
            else:
                assert stmt.level == 2 and stmt.module and stmt.module.isidentifier(), f"{where}: {ast.dump(stmt)}"
                assert len(stmt.names) == 1 and stmt.names[0].asname, f"{where}: {ast.dump(stmt)}"
                aliases.add(stmt.names[0].asname)
        elif isinstance(stmt, ast.ClassDef):
            continue
        elif isinstance(stmt, ast.Assign):
            _check_class_alias(stmt, classes, aliases, ("Spec", "Status"), where)
        else:
            raise AssertionError(f"{where}: unexpected statement {ast.dump(stmt)[:200]}")
    for stmt in tree.body:
        if not isinstance(stmt, ast.ClassDef):
            continue
        at = f"{where}: class {stmt.name}"
        assert [ast.unparse(b) for b in stmt.bases] == ["Model"], at
        assert [(k.arg, ast.unparse(k.value)) for k in stmt.keywords] == [("kw_only", "True")], at
        assert not stmt.decorator_list and not getattr(stmt, "type_params", []), at
        for item in stmt.body:
            if _is_docstring(item):
                continue
            if isinstance(item, ast.Assign):
                _check_class_constant(item, at)
                continue
            assert isinstance(item, ast.AnnAssign), f"{at}: unexpected statement {ast.dump(item)[:200]}"
            _check_field(item, _TYPE_NAMES | classes, aliases, at)


def _check_client_module(tree: ast.Module, where: str) -> None:
    """typed/, listers/, informers/, fake/ and __init__: schema text may only be a constant."""
    assert tree.body and _is_docstring(tree.body[0]), f"{where}: no module docstring"
    for stmt in tree.body[1:]:
        if isinstance(stmt, ast.ImportFrom):
            assert stmt.level > 0 or (stmt.module or "").split(".")[0] in {"__future__", "typing", "collections", "kgen", "functools"}, where
        elif isinstance(stmt, ast.Import):
            assert all(a.name in {"functools"} for a in stmt.names), where
        elif isinstance(stmt, ast.If):
            assert ast.unparse(stmt.test) == "TYPE_CHECKING", where
            assert all(isinstance(s, ast.ImportFrom) for s in stmt.body), where
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            value = stmt.value
            if isinstance(value, ast.Call) and ast.unparse(value.func) == "MetadataCodec":
                # metadata.py's one codec, of the two fixed meta/v1 models (no schema text).
                assert [ast.unparse(a) for a in value.args] == ["PartialObjectMetadata", "PartialObjectMetadataList"], where
                assert not value.keywords, where
            elif isinstance(value, ast.Call) and ast.unparse(value.func) == "TypeVar":
                # __init__'s Self types for __enter__ (fixed names, no schema text).
                assert [ast.unparse(a) for a in value.args] in (["'_Sync'"], ["'_Async'"]), where
                assert [(k.arg, ast.unparse(k.value)) for k in value.keywords] in (
                    [("bound", "'Clientset'")], [("bound", "'AsyncClientset'")]), where
            elif isinstance(value, ast.Call):
                assert ast.unparse(value.func) == "ResourceInfo", where
                # constants, and the package's source release by name (imported from __init__)
                assert all(isinstance(a, ast.Constant) or ast.unparse(a) == "KUBERNETES_VERSION"
                           for a in value.args), where
                assert not value.keywords, where
            elif isinstance(stmt, ast.Assign) and [ast.unparse(t) for t in stmt.targets] == ["KUBERNETES_VERSION"]:
                # __init__'s source release (a snapshot's version.json: schema-side text): one str constant.
                assert isinstance(value, ast.Constant) and isinstance(value.value, str), where
            else:
                assert isinstance(value, ast.List), where
                assert all(isinstance(e, (ast.Attribute, ast.Constant)) for e in value.elts), where
        elif isinstance(stmt, ast.Expr):
            # an attribute's docstring (KUBERNETES_VERSION's): inert text
            assert isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str), where
        else:
            assert isinstance(stmt, (ast.ClassDef, ast.FunctionDef)), f"{where}: unexpected {ast.dump(stmt)[:200]}"
    # Whatever a hostile schema said, it never became a name, a call or an attribute.
    for node in ast.walk(tree):
        for text in (getattr(node, "id", None), getattr(node, "attr", None), getattr(node, "name", None)):
            assert not (isinstance(text, str) and ("PWNED" in text or "system" in text)), f"{where}: {text}"


def _check_data_module(tree: ast.Module, where: str) -> None:
    """validation/: a docstring, then names bound to literals and nothing else."""
    assert tree.body and _is_docstring(tree.body[0]), f"{where}: no module docstring"
    for stmt in tree.body[1:]:
        assert isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets), where
        ast.literal_eval(stmt.value)  # ValueError for a call, a name, an attribute...


def test_generated_modules_hold_only_the_statement_forms_the_templates_emit(hostile: Generated) -> None:
    for path in _py_files(hostile):
        rel = path.relative_to(hostile.folder).as_posix()
        if rel.startswith(("applyconfigurations/", "mergeschema/")):
            continue  # their own statement checks: tests/unit/test_applyconfigs.py, test_merge_schema.py
        check = (_check_module if rel.startswith("models/")
                 else _check_data_module if rel.startswith("validation/") else _check_client_module)
        check(ast.parse(path.read_text()), str(path.relative_to(hostile.out)))


def test_the_statement_check_rejects_injected_code() -> None:
    injected = [
        'import os',
        'import builtins as os',
        'os.system("touch PWNED")',
        'class A(Model, kw_only=True):\n    x: int | None = None\n    import os',
        'class A(Model, kw_only=True):\n    x: int | None = os.system("x")',
        'class A(Model, kw_only=True):\n    x: int = field(name=os.system("x"))',
        'class A(Model, kw_only=True):\n    API_VERSION = os.system("x")',
        'class A(Model, kw_only=True):\n    NULLABLE = (os.system("x"),)',
        'class A(Model, kw_only=True):\n    x: builtins.exec = None',
        'class A(Model, kw_only=True):\n    def f(self): pass',
        'class A(Model, kw_only=True):\n    x: __import__("os") | None = None',
        'class A(Model, metaclass=M):\n    pass',
        '@decorator\nclass A(Model, kw_only=True):\n    pass',
        'from os import system',
    ]
    accepted = 'class A(Model, kw_only=True):\n    API_VERSION = "v1"\n    x: builtins.list[str] = field(name="X")\n    y: int | None = None'
    _check_module(ast.parse('"""Doc."""\nimport builtins\n' + accepted), "accepted")  # the checker is not just strict
    for source in injected:
        with pytest.raises(AssertionError):
            _check_module(ast.parse('"""Doc."""\n' + source), "injected")
    _check_data_module(ast.parse('"""Doc."""\nSCHEMAS = {"A": "{}"}'), "accepted")
    for source in ['SCHEMAS = {"A": os.system("x")}', 'import os', 'SCHEMAS.x = 1', 'SCHEMAS = f()']:
        with pytest.raises((AssertionError, ValueError)):
            _check_data_module(ast.parse('"""Doc."""\n' + source), "injected")


# -- hostile strings survive as data -------------------------------------------------------------


def _trimmed(text: str) -> str:
    """``inspect.cleandoc`` to its fixed point: no docstring can read as "a\\n b" once trimmed."""
    return inspect.cleandoc(inspect.cleandoc(text))


def test_class_docstrings_equal_their_descriptions(loader: ModuleLoader) -> None:
    hostile = _models(loader, "hostile_example_io")
    for name in ("Model_", "Any_", "UNSET", "ClassVar_", "Literal_", "None_", "Field", "Str", "ModelNested"):
        cls = getattr(hostile, name)
        assert inspect.cleandoc(cls.__doc__) == _trimmed(HOSTILE), name
    for name, text in EDGES.items():
        assert inspect.cleandoc(getattr(hostile, name).__doc__) == _trimmed(text), name
    crd = _models(loader, "crd_hostile_example_io")
    assert inspect.cleandoc(crd.Model_.__doc__) == _trimmed(HOSTILE)
    assert inspect.cleandoc(crd.ModelSpec.__doc__) == _trimmed(HOSTILE)


def _field_docs(path: Path, cls: str) -> dict[str, str]:
    """The string statement after each field of ``cls``, by field name."""
    tree = ast.parse(path.read_text())
    (node,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls]
    docs = {}
    for prev, item in zip(node.body, node.body[1:]):
        if isinstance(prev, ast.AnnAssign) and _is_docstring(item):
            assert isinstance(prev.target, ast.Name)
            docs[prev.target.id] = item.value.value  # type: ignore[attr-defined]
    return docs


def test_field_docstrings_equal_their_descriptions(hostile: Generated, loader: ModuleLoader) -> None:
    cls = _models(loader, "hostile_example_io").Model_
    docs = _field_docs(hostile.folder / "models/hostile_example_io/v1.py", "Model_")
    wire_to_py = {f.encode_name: f.name for f in msgspec.structs.fields(cls)}
    for wire in HOSTILE_NAMES:
        assert inspect.cleandoc(docs[wire_to_py[wire]]) == _trimmed(HOSTILE), wire
    mode_doc = docs["mode"]
    assert inspect.cleandoc(mode_doc).startswith(_trimmed(HOSTILE))
    assert json.dumps(DEFAULT, sort_keys=True) in mode_doc


def test_enum_values_and_defaults_keep_their_exact_text(loader: ModuleLoader) -> None:
    for cls in (_models(loader, "hostile_example_io").Model_, _models(loader, "crd_hostile_example_io").ModelSpec):
        hints = typing.get_type_hints(cls)
        (literal,) = [a for a in typing.get_args(hints["mode"]) if typing.get_origin(a) is typing.Literal]
        assert list(typing.get_args(literal)) == ENUM
        assert cls.DEFAULTS["mode"] == DEFAULT
        for value in [*ENUM, "not one of them"]:
            obj = cls.from_dict({"mode": value})
            assert obj.mode == value and obj.to_dict() == {"mode": value}
        assert cls.from_dict({}).to_dict() == {}  # the default is recorded, never injected
    assert _models(loader, "hostile_example_io").Model_.DEFAULTS["count"] == -1


def test_kinds_named_like_module_imports_keep_their_kind(loader: ModuleLoader) -> None:
    hostile = _models(loader, "hostile_example_io")
    found = {
        obj.KIND: name for name, obj in vars(hostile).items() if isinstance(obj, type) and obj.__module__ == hostile.__name__ and obj.KIND
    }
    assert sorted(found) == sorted(CLASS_KINDS)
    for kind, name in found.items():
        assert name.isidentifier() and not keyword.iskeyword(name) and not hasattr(builtins, name)
        cls = getattr(hostile, name)
        assert cls.API_VERSION == f"{GROUP}/v1"
        assert issubclass(cls, hostile.Model) and hostile.Model.__name__ == "Model"
        assert getattr(hostile, "Any", typing.Any) is typing.Any
    crd = _models(loader, "crd_hostile_example_io")
    assert crd.Model_.KIND == "Model" and crd.UNSET.KIND == "UNSET"
    assert crd.UNSET.from_dict({"items": [{"class": "x"}]}).items[0].class_ == "x"


def _wire_object() -> dict[str, Any]:
    values = [HOSTILE, *ENUM, DEFAULT, "", "\\"]
    return {name: values[i % len(values)] for i, name in enumerate(HOSTILE_NAMES)}


def test_hostile_property_names_are_distinct_safe_attributes(loader: ModuleLoader) -> None:
    model_attrs = set(dir(_models(loader, "hostile_example_io").Model))
    for cls in (_models(loader, "hostile_example_io").Model_, _models(loader, "crd_hostile_example_io").ModelSpec):
        fields = msgspec.structs.fields(cls)
        py_names = [f.name for f in fields]
        assert len(set(py_names)) == len(py_names)
        assert len({n.lower() for n in py_names}) == len(py_names)
        assert {f.encode_name for f in fields} >= set(HOSTILE_NAMES)
        for name in py_names:
            assert name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("__"), name
            assert name == "unknown_fields_" or name not in model_attrs, name
        # Legal attribute names stay as users expect them; only keywords and the model's own get a "_".
        wire_of = {f.name: f.encode_name for f in fields}
        for kept in ("type", "match", "case", "id", "list", "str", "int", "print"):
            assert wire_of[kept] == kept, kept
        for escaped in ("class_", "from_", "to_dict_", "field_", "unknown_fields", "builtins_"):
            assert escaped in wire_of, escaped


def test_objects_with_hostile_wire_names_round_trip(loader: ModuleLoader) -> None:
    hostile = _models(loader, "hostile_example_io")
    wire = _wire_object()
    obj = {
        **wire,
        "mode": ENUM[4],
        "count": 3,
        "nested": {name: i for i, name in enumerate(HOSTILE_NAMES)},
        "an unknown\nfield": {"with": ['"""', PAYLOAD]},
    }
    model = hostile.Model_.from_dict(obj)
    assert model.to_dict() == obj
    assert json.loads(model.to_json()) == obj
    assert hostile.Model_.from_json(json.dumps(obj)).to_dict() == obj
    by_wire = {f.encode_name: f.name for f in msgspec.structs.fields(hostile.Model_)}
    for name, value in wire.items():
        assert getattr(model, by_wire[name]) == value, name

    crd = _models(loader, "crd_hostile_example_io")
    resource = {
        "apiVersion": f"{CRD_GROUP}/v1",
        "kind": "Model",
        "metadata": {"name": "x", "labels": {'"""': PAYLOAD}},
        "class": HOSTILE,
        "spec": {**wire, "mode": f"\n{PAYLOAD}"},
    }
    assert crd.Model_.from_dict(resource).to_dict() == resource
    assert json.loads(crd.Model_.from_json(json.dumps(resource)).to_json()) == resource
    # Explicit nulls on the nullable hostile names, the required ones absent: still lossless.
    assert set(crd.ModelSpec.NULLABLE) == set(CRD_NULLABLE)
    required = {f.encode_name for f in msgspec.structs.fields(crd.ModelSpec) if f.required}
    assert required == set(CRD_REQUIRED)
    spec = {name: None if name in CRD_NULLABLE else value for name, value in wire.items() if name not in CRD_REQUIRED}
    sparse = {**resource, "spec": spec}
    assert crd.Model_.from_dict(sparse).to_dict() == sparse
    assert json.loads(crd.Model_.from_json(json.dumps(sparse)).to_json()) == sparse


# -- the escaping functions themselves -----------------------------------------------------------

_DOC_CASES = [HOSTILE, *EDGES.values(), '""', 'a""', '""""""', 'x\n"', '\\\\"', "a\u00a0\n\u3000b\u00a0", "\ud800 lone surrogate"]


def test_docstring_escape_survives_black_unchanged() -> None:
    import black

    from kgen.generator.escape import doc_text, docstring

    mode = black.Mode(line_length=100, target_versions={black.TargetVersion.PY310})
    for text in _DOC_CASES:
        source = f'class A:\n    {docstring(text, indent="    ")}\n\n    x: int\n'
        assert black.format_str(source, mode=mode) == source, text
        tree = ast.parse(source)
        value = ast.get_docstring(tree.body[0], clean=False)  # type: ignore[arg-type]
        assert inspect.cleandoc(value or "") == doc_text(text) == _trimmed(text), text
        source.encode()  # nothing unencodable (lone surrogates are escaped)


def test_literal_escape_evaluates_to_the_value() -> None:
    from kgen.generator.escape import literal

    value = {"a": [ENUM, DEFAULT, -1, 1.5, True, None], '"""': {"\n": HOSTILE}}
    assert ast.literal_eval(literal(value)) == value
    for bad in (float("nan"), float("inf"), object()):
        with pytest.raises(ValueError):
            literal(bad)


def test_identifier_refuses_anything_but_an_identifier() -> None:
    from kgen.generator.escape import identifier

    assert identifier("ok_name") == "ok_name"
    for bad in ("class", "a b", "3d", "", "x; import os", "a.b"):
        with pytest.raises(ValueError):
            identifier(bad)


def test_templates_refuse_raw_strings() -> None:
    from kgen.generator.render import _environment

    env = _environment()
    with pytest.raises(TypeError, match="raw str"):
        env.from_string("{{ value }}").render(value=PAYLOAD)
