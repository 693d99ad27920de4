"""Real CRDs of eight projects (tests/support/corpus.py) generate complete, typed packages.

Each project's package is generated once (``tests.support.packages.crd_package``), then:

- it imports, and the example objects the project ships round-trip (from_dict/to_dict and
  from_json/to_json);
- for every kind, ``<Kind>Spec``, ``<Kind>Status`` and ``<Kind>List`` import from the kind's own
  module (``<pkg>.models.<group>.<version>``) and are the classes of its fields, whatever class a
  shared sub-schema got (cert-manager's ``IssuerSpec`` is ``ClusterIssuerSpec``); the same for
  their apply configurations;
- one ``mypy --strict`` run over all eight packages (apply configurations included) and a file
  that imports those names from the kinds' modules and checks with ``assert_type`` that mypy
  sees each as the type of the kind's field: 0 errors.
"""

from __future__ import annotations

import functools
import importlib
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest

from kgen.generator.yamlfile import load_all
from tests.support.corpus import CRD_SOURCES, crds, module_dir
from tests.support.packages import REPO, crd_package, import_all, mypy_strict, resource_classes


def _example_objects(project: str, kinds: set[tuple[str, str]]) -> list[tuple[Path, dict]]:
    """Objects of the generated kinds found in the project's own YAML (examples, fixtures)."""
    return [(path, doc) for path, doc in _objects(project) if (doc["apiVersion"], doc["kind"]) in kinds]


@functools.cache
def _objects(project: str) -> tuple[tuple[Path, dict], ...]:
    """Every object (a map with a string apiVersion and kind) in the project's YAML files, read once."""
    source = CRD_SOURCES[project]
    root = module_dir(source.module, source.version)
    found = []
    for path in sorted(root.rglob("*.yaml")):
        if "crd" in path.name or "templates" in path.parts:
            continue
        try:
            docs = load_all(path.read_text())
        except Exception:
            continue  # templated or otherwise not plain YAML
        for doc in docs:
            if isinstance(doc, dict) and isinstance(doc.get("apiVersion"), str) and isinstance(doc.get("kind"), str):
                found.append((path, doc))
    return tuple(found)


#: The apiserver's complaint about a value of the wrong JSON type (not a format: ``ipv4``).
_JSON_TYPE = re.compile(r"must be of type (string|integer|number|boolean|object|array)\b")


def _typed_examples(examples: list[tuple[Path, dict]], package: str) -> tuple[list[tuple[Path, dict]], list[str]]:
    """The examples whose values have the types their schema gives, and the others' complaints.

    A project's docs may hold placeholders (external-secrets: ``appID: "**app ID goes here**"``
    where the schema says integer): the apiserver refuses such an object with
    ``FieldValueTypeInvalid`` (kgen's validation says so in its words), and no typed model can
    hold it. Every other example is round-tripped, invalid or not.
    """
    from kgen.runtime.apimachinery.validation import validate

    kept, refused = [], []
    for path, doc in examples:
        wrong = [e for e in validate(doc, package=package, cel=False)
                 if e.type == "FieldValueTypeInvalid" and _JSON_TYPE.search(e.message)]
        if wrong:
            refused.append(f"{path.name}: {wrong[0]}")
        else:
            kept.append((path, doc))
    return kept, refused


def _as_read(doc: Any, cls: type) -> Any:
    """``doc`` as a model of ``cls`` reads and writes it back (kgen.runtime.apimachinery.model):
    a ``null`` in an optional field whose schema does not say ``nullable`` is absent, as the
    apiserver prunes it (kubectl writes ``metadata.creationTimestamp: null`` for a zero
    metav1.Time, which Go reads as absent); a required field's ``null`` is written back."""
    return _pruned(doc, msgspec.inspect.type_info(cls))


def _pruned(value: Any, t: msgspec.inspect.Type) -> Any:
    members = t.types if isinstance(t, msgspec.inspect.UnionType) else (t,)
    if isinstance(value, dict):
        for m in members:
            if isinstance(m, msgspec.inspect.StructType):
                fields = {f.encode_name: f.type for f in m.fields}
                nullable = set(getattr(m.cls, "NULLABLE", ())) | {f.encode_name for f in m.fields if f.required}
                return {
                    k: _pruned(v, fields[k]) if k in fields else v
                    for k, v in value.items() if v is not None or k in nullable or k not in fields
                }
            if isinstance(m, msgspec.inspect.DictType):
                return {k: _pruned(v, m.value_type) for k, v in value.items()}
    if isinstance(value, list):
        for m in members:
            if isinstance(m, msgspec.inspect.ListType):
                return [_pruned(v, m.item_type) for v in value]
    return value


@functools.cache
def _kinds(project: str) -> dict[tuple[str, str], type]:
    """The kinds of the project's CRDs, every served version (the generator leaves the others
    out, as the apiserver does): (apiVersion, kind) -> model class."""
    folder, package = crd_package(project)
    classes = resource_classes(import_all(folder, package))
    kinds = {
        (f"{crd['spec']['group']}/{version['name']}", crd["spec"]["names"]["kind"])
        for crd in crds(project) for version in crd["spec"]["versions"] if version.get("served", True)
    }
    assert kinds <= set(classes), kinds - set(classes)
    return {key: classes[key] for key in kinds}


def _fields(cls: type) -> dict[str, msgspec.inspect.Type]:
    """``cls``'s fields' types, by wire name."""
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    return {f.encode_name: f.type for f in info.fields}


def _struct_of(cls: type, wire: str) -> type | None:
    """The class of ``cls``'s field ``wire`` (``T`` or ``T | None``); None: absent, or not a class."""
    t = _fields(cls).get(wire)
    types = t.types if isinstance(t, msgspec.inspect.UnionType) else (t,)
    structs = [m.cls for m in types if isinstance(m, msgspec.inspect.StructType)]
    return structs[0] if len(structs) == 1 else None


def _apply_module(module: ModuleType) -> ModuleType:
    package, _, rest = module.__name__.partition(".models.")
    return importlib.import_module(f"{package}.applyconfigurations.{rest}")


@pytest.mark.parametrize("project", sorted(CRD_SOURCES))
def test_crd_package_imports_and_round_trips_the_projects_examples(
    project: str, figure: Callable[[str], None]
) -> None:
    folder, package = crd_package(project)
    classes = resource_classes(import_all(folder, package))
    assert classes, "no resource classes generated"
    examples, refused = _typed_examples(_example_objects(project, set(classes)), package)
    for path, doc in examples:
        cls = classes[(doc["apiVersion"], doc["kind"])]
        expected = _as_read(doc, cls)
        assert cls.from_dict(doc).to_dict() == expected, path
        assert json.loads(cls.from_json(json.dumps(doc)).to_json()) == expected, path
    left_out = f"; {len(refused)} left out, as the apiserver refuses them ({'; '.join(refused[:2])}...)" if refused else ""
    figure(f"{project}: {len(classes)} kinds and lists, {len(examples)} example objects round-tripped{left_out}")
    assert examples, f"no example objects found for {project}"


@pytest.mark.parametrize("project", sorted(CRD_SOURCES))
def test_every_kinds_spec_status_and_list_import_from_the_kinds_own_module(
    project: str, figure: Callable[[str], None]
) -> None:
    counts = {"Spec": 0, "Status": 0, "List": 0}
    aliased: list[str] = []
    untyped: list[str] = []  # spec/status with no class of their own (a free-form map)
    kinds = _kinds(project)
    for (api_version, kind), cls in sorted(kinds.items()):
        module = sys.modules[cls.__module__]  # <pkg>.models.<group>.<version>: the kind's own module
        applies = _apply_module(module)
        twin = getattr(applies, kind + "ApplyConfiguration")
        for wire, part in (("spec", "Spec"), ("status", "Status")):
            field_class = _struct_of(cls, wire)
            if field_class is None:
                if wire in _fields(cls):
                    untyped.append(f"{api_version} {kind}.{wire}")
                continue
            assert getattr(module, kind + part, None) is field_class, f"{module.__name__}.{kind}{part}"
            assert getattr(applies, f"{kind}{part}ApplyConfiguration", None) is _struct_of(twin, wire), (
                f"{applies.__name__}.{kind}{part}ApplyConfiguration"
            )
            counts[part] += 1
            if field_class.__name__ != kind + part:
                aliased.append(f"{kind}{part} = {field_class.__name__}")
        listed = getattr(module, kind + "List", None)
        assert isinstance(listed, type) and listed.KIND == kind + "List", f"{module.__name__}.{kind}List"
        counts["List"] += 1
    aliases = f" ({', '.join(sorted(set(aliased))[:3])}...)" if aliased else ""
    free = f"; {len(untyped)} spec/status without a class of its own ({', '.join(untyped[:2])})" if untyped else ""
    figure(
        f"{project}: {len(kinds)} kinds; " + ", ".join(f"{n} <Kind>{p}" for p, n in counts.items())
        + f" from the kind's module, {len(aliased)} of them aliases{aliases}{free}"
    )
    assert counts["Spec"] and counts["List"] == len(kinds)


def _guess_file(projects: list[str]) -> str:
    """Python that imports every kind's ``<Kind>Spec``/``Status``/``List`` (and apply
    configurations) from the kind's module and asserts, for mypy, that they are its fields' types."""
    lines = ["from __future__ import annotations", "", "from typing import assert_type", ""]
    n = 0
    for project in projects:
        for (_, kind), cls in sorted(_kinds(project).items()):
            n += 1
            models, applies = cls.__module__, _apply_module(sys.modules[cls.__module__]).__name__
            lines.append(f"from {models} import {kind} as kind_{n}, {kind}List as list_{n}")
            lines.append(f"from {applies} import {kind}ApplyConfiguration as apply_{n}")
            body = [f"def check_{n}(obj: kind_{n}, objects: list_{n}, config: apply_{n}) -> None:",
                    f"    assert_type(objects.items, list[kind_{n}])"]
            for wire, part in (("spec", "Spec"), ("status", "Status")):
                if _struct_of(cls, wire) is None:
                    continue
                lines.append(f"from {models} import {kind}{part} as {wire}_{n}")
                lines.append(f"from {applies} import {kind}{part}ApplyConfiguration as apply_{wire}_{n}")
                body += [f"    if obj.{wire} is not None:", f"        assert_type(obj.{wire}, {wire}_{n})",
                         f"    if config.{wire} is not None:", f"        assert_type(config.{wire}, apply_{wire}_{n})"]
            lines += ["", "", *body, "", ""]
    return "\n".join(lines)


def test_crd_packages_type_check_strict_with_every_kinds_guessable_names(
    tmp_path: Path, figure: Callable[[str], None]
) -> None:
    projects = sorted(CRD_SOURCES)
    folders = [Path(crd_package(p)[0]) / crd_package(p)[1] for p in projects]
    guesses = tmp_path / "guesses" / "kind_names.py"
    guesses.parent.mkdir()
    guesses.write_text(_guess_file(projects))
    files = sum(len(list(f.rglob("*.py"))) for f in folders) + 1
    applies = sum(len(list((f / "applyconfigurations").rglob("*.py"))) for f in folders)
    checked = mypy_strict(tmp_path, *folders, guesses)
    assert checked.returncode == 0, checked.stdout[-3000:]
    # Every file was checked, the apply configurations among them.
    assert f"no issues found in {files} source files" in checked.stdout, checked.stdout[-500:]
    figure(f"mypy --strict: {len(projects)} CRD packages, {files} files ({applies} apply configurations), 0 errors")


def test_stock_package_runtime_and_generator_type_check_strict(tmp_path: Path) -> None:
    checked = mypy_strict(tmp_path, REPO / "generated" / "kubernetes")
    assert checked.returncode == 0, checked.stdout[-3000:]
    checked = mypy_strict(tmp_path, "-p", "kgen.runtime", "-p", "kgen.generator")
    assert checked.returncode == 0, checked.stdout[-3000:]


def test_stock_package_matches_the_generator() -> None:
    from kgen.generator.cli import main

    assert main(["generate", "--package", "kubernetes", "--out", str(REPO / "generated"), "--check"]) == 0
