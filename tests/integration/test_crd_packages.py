"""Real CRDs (gateway-api, cert-manager, prometheus-operator) generate complete, typed packages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgen.generator.yamlfile import load_all
from tests.support.corpus import CRD_SOURCES, crd_files, module_dir
from tests.support.packages import REPO, generate, import_all, mypy_strict, resource_classes


def _example_objects(project: str, kinds: set[tuple[str, str]]) -> list[tuple[Path, dict]]:
    """Objects of the generated kinds found in the project's own YAML (examples, fixtures)."""
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
            if isinstance(doc, dict) and (doc.get("apiVersion"), doc.get("kind")) in kinds:
                found.append((path, doc))
    return found


def _as_read(doc: dict) -> dict:
    """``doc`` as a model reads it: ``metadata.creationTimestamp: null`` (a zero metav1.Time, as
    kubectl writes it; not nullable, so the apiserver's Go types read it as absent) is absent."""
    metadata = doc.get("metadata")
    if isinstance(metadata, dict) and "creationTimestamp" in metadata and metadata["creationTimestamp"] is None:
        return {**doc, "metadata": {k: v for k, v in metadata.items() if k != "creationTimestamp"}}
    return doc


@pytest.mark.parametrize("project", sorted(CRD_SOURCES))
def test_crd_package_generates_imports_type_checks_and_round_trips(project: str, tmp_path: Path, capsys) -> None:
    package = project.replace("-", "_")
    args = [a for path in crd_files(project) for a in ("--crd", str(path))]
    generate(tmp_path / "out", package, *args)
    classes = resource_classes(import_all(tmp_path / "out", package))
    assert classes, "no resource classes generated"

    checked = mypy_strict(tmp_path, tmp_path / "out" / package)
    assert checked.returncode == 0, checked.stdout[-3000:]

    examples = _example_objects(project, set(classes))
    for path, doc in examples:
        cls = classes[(doc["apiVersion"], doc["kind"])]
        expected = _as_read(doc)
        assert cls.from_dict(doc).to_dict() == expected, path
        assert json.loads(cls.from_json(json.dumps(doc)).to_json()) == expected, path
    with capsys.disabled():
        print(f"\n{project}: {len(classes)} kinds, {len(examples)} example objects round-tripped")
    assert examples, f"no example objects found for {project}"


def test_stock_package_runtime_and_generator_type_check_strict(tmp_path: Path) -> None:
    checked = mypy_strict(tmp_path, REPO / "generated" / "kubernetes")
    assert checked.returncode == 0, checked.stdout[-3000:]
    checked = mypy_strict(tmp_path, "-p", "kgen.runtime", "-p", "kgen.generator")
    assert checked.returncode == 0, checked.stdout[-3000:]


def test_stock_package_matches_the_generator() -> None:
    from kgen.generator.cli import main

    assert main(["generate", "--package", "kubernetes", "--out", str(REPO / "generated"), "--check"]) == 0
