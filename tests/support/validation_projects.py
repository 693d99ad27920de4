"""Six more real projects' CRDs for issue 35's validation acceptance run, none of which the other
tests use: KubeRay, MetalLB, Karpenter, Kyverno, Knative Serving and ExternalDNS, at pinned
versions, fetched from the Go module proxy as tests/support/corpus.py fetches its eight (and never
committed). Their example objects are every YAML document in the module, outside the CRD folders,
whose apiVersion and kind one of the project's CRDs serves (the list kept in kgen's cache once
found); the apiserver decides which are valid.

(Argo CD, Argo Workflows, Crossplane, CloudNativePG, Tekton, jobset, LeaderWorkerSet and the
OpenTelemetry operator were tried: the proxy refuses the last six, and Argo CD's releases need a
newer Go than the one here; Karpenter and ExternalDNS are pinned below their newest releases for
the same reason.)
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from kgen.runtime.util.paths import cache_root
from tests.support.corpus import load_documents, module_dir


@dataclass(frozen=True)
class Project:
    module: str
    version: str
    crd_folders: tuple[str, ...]  # searched recursively


PROJECTS = {
    "kuberay": Project("github.com/ray-project/kuberay/ray-operator", "v1.5.0", ("config/crd/bases",)),
    "metallb": Project("go.universe.tf/metallb", "v0.16.2", ("config/crd/bases",)),
    "karpenter": Project("sigs.k8s.io/karpenter", "v1.14.1", ("pkg/apis/crds",)),
    "kyverno": Project("github.com/kyverno/kyverno", "v1.19.1", ("config/crds",)),
    "knative-serving": Project("knative.dev/serving", "v0.51.0", ("config/core/300-resources",)),
    "external-dns": Project("sigs.k8s.io/external-dns", "v0.22.0", ("config/crd/standard",)),
}

_MAX_EXAMPLE_FILE = 256 * 1024  # bigger YAMLs are bundles of rendered manifests, not examples


def root(project: str) -> Path:
    source = PROJECTS[project]
    return module_dir(source.module, source.version)


@functools.cache
def crd_files(project: str) -> tuple[Path, ...]:
    """The project's CRD files (YAMLs of its CRD folders holding a CustomResourceDefinition)."""
    base = root(project)
    return tuple(p for folder in PROJECTS[project].crd_folders for p in sorted((base / folder).rglob("*.yaml"))
                 if "CustomResourceDefinition" in p.read_text(encoding="utf-8") and any(_is_crd(d) for d in _documents(p)))


def crds(project: str) -> list[dict[str, Any]]:
    """The project's CRDs, each once (by name)."""
    found: dict[str, dict[str, Any]] = {}
    for path in crd_files(project):
        for doc in _documents(path):
            if _is_crd(doc):
                found.setdefault(doc["metadata"]["name"], doc)
    return list(found.values())


def examples(project: str, served: set[tuple[str, str]]) -> list[tuple[str, dict[str, Any]]]:
    """(file, object) for every document of the module outside its CRD folders whose
    (apiVersion, kind) is in ``served``, in file order."""
    source = PROJECTS[project]
    key = hashlib.sha256(json.dumps(sorted(served)).encode()).hexdigest()[:12]
    cached = cache_root() / "validation-projects" / f"{project}-{source.version}-{key}.json"
    if cached.is_file():  # scanning a module's YAMLs (Kyverno's thousands) takes half a minute
        return [(f, d) for f, d in json.loads(cached.read_text(encoding="utf-8"))]
    out = _scan_examples(project, served)
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".tmp")
    partial.write_text(json.dumps(out), encoding="utf-8")
    partial.replace(cached)
    return out


def _scan_examples(project: str, served: set[tuple[str, str]]) -> list[tuple[str, dict[str, Any]]]:
    base = root(project)
    crd_folders = tuple(base / f for f in PROJECTS[project].crd_folders)
    out = []
    for path in sorted(base.rglob("*.yaml")):
        if path.is_relative_to(crd_folders[0]) or any(path.is_relative_to(f) for f in crd_folders):
            continue
        try:
            if path.stat().st_size > _MAX_EXAMPLE_FILE:
                continue
            docs = _documents(path)
        except Exception:  # templates ({{ }}), broken YAML: not examples
            continue
        for doc in docs:
            if (doc.get("apiVersion"), doc.get("kind")) in served and isinstance(doc.get("metadata"), dict):
                out.append((str(path.relative_to(base)), doc))
    return out


@functools.cache
def _documents(path: Path) -> list[dict[str, Any]]:
    """The mappings of a YAML file: libyaml's loader (fast) where it can read the file, kgen's otherwise."""
    text = path.read_text(encoding="utf-8")
    try:
        return [d for d in yaml.load_all(text, Loader=yaml.CSafeLoader) if isinstance(d, dict)]
    except yaml.YAMLError:
        return load_documents(path)


def fast_crds(module: str, version: str, folder: str) -> list[dict[str, Any]]:
    """The CRDs in ``folder`` (recursively) of ``module@version``: the corpus's eight projects
    read as this module reads its six (a few seconds instead of a minute)."""
    base = module_dir(module, version) / folder
    return [d for p in sorted(base.rglob("*.yaml")) if "CustomResourceDefinition" in p.read_text(encoding="utf-8")
            for d in _documents(p) if _is_crd(d)]


def _is_crd(doc: dict[str, Any]) -> bool:
    return doc.get("kind") == "CustomResourceDefinition" and str(doc.get("apiVersion", "")).startswith(
        "apiextensions.k8s.io/")
