"""A snapshot folder in the layout ``kgen snapshot`` writes (see generator/snapshot.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import InputError
from ..ir import Resource
from . import SourceSet, files
from .discovery import from_aggregated, from_legacy
from .openapi import from_document, read_document


def is_snapshot(path: Path) -> bool:
    return (path / "openapi" / "v3").is_dir() or (path / "openapi" / "v2.json").is_file()


def group_version_documents(folder: Path) -> list[Path]:
    """The OpenAPI v3 documents of group-versions: api/<v>.json and apis/<g>/<v>.json."""
    v3 = folder / "openapi" / "v3"
    return sorted([*v3.glob("api/*.json"), *v3.glob("apis/*/*.json")])


def load(folder: Path) -> SourceSet:
    layout = "a snapshot folder holding openapi/v3/, as kgen snapshot writes"
    if not is_snapshot(folder):
        raise InputError(folder, "", layout, problem="is a folder but not a snapshot")
    out = SourceSet()
    documents = group_version_documents(folder)
    if documents:
        for path in documents:
            out.merge(from_document(read_document(path), str(path)))
    elif (folder / "openapi" / "v2.json").is_file():
        out.merge(from_document(read_document(folder / "openapi" / "v2.json"), str(folder / "openapi" / "v2.json")))
    else:
        raise InputError(
            folder, "", "openapi/v3/api/<version>.json, openapi/v3/apis/<group>/<version>.json or openapi/v2.json",
            problem="holds no OpenAPI document",
        )
    discovered = _discovery(folder)
    if discovered:
        out.resources = discovered  # discovery wins over x-kubernetes-action
    out.kubernetes_version = _kubernetes_version(folder)
    return out


def _kubernetes_version(folder: Path) -> str:
    """The server's ``gitVersion`` from the snapshot's version.json, without its ``v``; "" when the
    snapshot has none (older snapshots, hand-made folders)."""
    path = folder / "version.json"
    if not path.is_file():
        return ""
    version = _json_object(path).get("gitVersion")
    return version.removeprefix("v") if isinstance(version, str) else ""


def _discovery(folder: Path) -> dict[tuple[str, str], list[Resource]]:
    aggregated = folder / "discovery" / "aggregated"
    result: dict[tuple[str, str], list[Resource]] = {}
    if aggregated.is_dir():
        for root in ("api.json", "apis.json"):
            path = aggregated / root
            if path.is_file():
                result.update(from_aggregated(_json_object(path), str(path)))
        if result:
            return result
    legacy = folder / "discovery" / "legacy"
    for path in sorted([*legacy.glob("api/*.json"), *legacy.glob("apis/*/*.json")]):
        gv, resources = from_legacy(_json_object(path), str(path))
        result[gv] = resources
    return result


def _json_object(path: Path) -> dict[str, Any]:
    doc = files.parse_json(files.read_text(path), path)
    if not isinstance(doc, dict):
        raise InputError(path, "", "a discovery document, a JSON object", problem=f"holds {files.describe(doc)}")
    return doc
