"""Build small OpenAPI documents and CRDs, generate a package from them into a temp folder, import it.

Every generated package gets a unique name (``pkg_<hex>``) so tests never clash with
``kgen.kubernetes`` or with each other; ``imported`` takes it off ``sys.path`` and out of
``sys.modules`` again.
"""

from __future__ import annotations

import copy
import importlib
import json
import sys
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from kgen.generator.cli import main

GROUP = "widgets.example.io"
PREFIX = "io.example.widgets.v1"  # definition-name prefix of GROUP/v1
MODULE = ("widgets_example_io", "v1")  # models/<group module>/<version module>.py of GROUP/v1


def unique_package() -> str:
    return f"pkg_{uuid.uuid4().hex[:12]}"


def gvk(kind: str, group: str = GROUP, version: str = "v1") -> list[dict[str, str]]:
    return [{"group": group, "version": version, "kind": kind}]


def openapi_v3(schemas: dict[str, Any], paths: dict[str, Any] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {"openapi": "3.0.0", "info": {"title": "test", "version": "v1"}}
    doc["components"] = {"schemas": schemas}
    if paths is not None:
        doc["paths"] = paths
    return doc


def swagger_v2(definitions: dict[str, Any], paths: dict[str, Any] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {"swagger": "2.0", "info": {"title": "test", "version": "v1"}, "definitions": definitions}
    if paths is not None:
        doc["paths"] = paths
    return doc


def widget_document(schema: dict[str, Any], kind: str = "Widget", **extra: dict[str, Any]) -> dict[str, Any]:
    """An OpenAPI v3 document whose one resource kind ``kind`` (in GROUP/v1) has ``schema``."""
    return openapi_v3({f"{PREFIX}.{kind}": {**schema, "x-kubernetes-group-version-kind": gvk(kind)}, **extra})


def crd(
    schema: dict[str, Any], *, kind: str = "Widget", plural: str = "widgets", group: str = GROUP,
    versions: Sequence[str] = ("v1",),
) -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{plural}.{group}"},
        "spec": {
            "group": group,
            "scope": "Namespaced",
            "names": {"kind": kind, "plural": plural},
            "versions": [
                {"name": v, "served": True, "storage": i == 0, "schema": {"openAPIV3Schema": copy.deepcopy(schema)}}
                for i, v in enumerate(versions)
            ],
        },
    }


def write_json(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1))
    return path


def write_yaml(path: Path, *docs: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return path


@dataclass
class Generated:
    out: Path  # the --out folder (goes on sys.path)
    name: str  # the package name

    @property
    def folder(self) -> Path:
        return self.out / self.name

    def files(self) -> dict[str, bytes]:
        return {p.relative_to(self.folder).as_posix(): p.read_bytes() for p in sorted(self.folder.rglob("*")) if p.is_file()}

    def module_name(self, group_module: str, version_module: str) -> str:
        return f"{self.name}.models.{group_module}.{version_module}"

    def source(self, group_module: str = MODULE[0], version_module: str = MODULE[1]) -> str:
        return (self.folder / "models" / group_module / f"{version_module}.py").read_text()


def generate(out: Path, *args: str, package: str | None = None) -> Generated:
    """``kgen generate --out out --package <unique> args...``; fails the test unless it exits 0."""
    name = package or unique_package()
    code = main(["generate", "--out", str(out), "--package", name, *args])
    assert code == 0, f"kgen generate exited {code}"
    return Generated(out, name)


def generate_document(tmp_path: Path, doc: dict[str, Any], *, suffix: str = ".json") -> Generated:
    """Writes one OpenAPI document (JSON, or YAML for ``suffix=".yaml"``) and generates from it."""
    source = tmp_path / f"openapi{suffix}"
    if suffix == ".json":
        write_json(source, doc)
    else:
        write_yaml(source, doc)
    return generate(tmp_path / "out", "--from", str(source))


@contextmanager
def imported(gen: Generated) -> Iterator[ModuleLoader]:
    """Imports modules of a generated package; forgets them (and its sys.path entry) after."""
    sys.path.insert(0, str(gen.out))
    try:
        yield ModuleLoader(gen)
    finally:
        sys.path.remove(str(gen.out))
        for name in [n for n in sys.modules if n == gen.name or n.startswith(gen.name + ".")]:
            del sys.modules[name]
        importlib.invalidate_caches()


@dataclass
class ModuleLoader:
    gen: Generated

    def models(self, group_module: str = MODULE[0], version_module: str = MODULE[1]) -> ModuleType:
        return importlib.import_module(self.gen.module_name(group_module, version_module))

    def all_modules(self) -> list[ModuleType]:
        found = []
        for path in sorted(self.gen.folder.rglob("*.py")):
            parts = path.relative_to(self.gen.out).with_suffix("").parts
            found.append(importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts)))
        return found
