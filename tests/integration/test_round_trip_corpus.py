"""Every k8s.io/api fixture whose kind the snapshot defines round-trips through the stock models."""

from __future__ import annotations

import importlib
import json

from kgen.generator import build
from kgen.generator.generate import embedded_snapshot
from kgen.generator.sources import snapshot_dir
from tests.support.corpus import api_fixtures


def _classes_by_gvk() -> dict[tuple[str, str], type]:
    """Every (apiVersion, kind) the snapshot's schemas declare, mapped to its stock class."""
    sources = snapshot_dir.load(embedded_snapshot())
    package = build.build(sources, "kubernetes")
    found: dict[tuple[str, str], type] = {}
    for module in package.modules:
        imported = importlib.import_module(f"kgen.kubernetes.models.{module.group_module}.{module.version_module}")
        for model in module.models:
            definition = sources.definitions.get(model.schema_name)
            for gvk in (definition.schema.get("x-kubernetes-group-version-kind") or []) if definition else []:
                api_version = f"{gvk['group']}/{gvk['version']}" if gvk.get("group") else gvk["version"]
                found.setdefault((api_version, gvk["kind"]), getattr(imported, model.name))
    return found


def test_api_fixtures_round_trip_json_equal(capsys) -> None:
    classes = _classes_by_gvk()
    covered, diffs = [], []
    fixtures = api_fixtures()
    for path in fixtures:
        raw = path.read_bytes()
        expected = json.loads(raw)
        cls = classes.get((expected.get("apiVersion"), expected.get("kind")))
        if cls is None:
            continue  # a kind this server does not serve (alpha/beta, internal)
        covered.append(path.name)
        if cls.from_json(raw).to_dict() != expected:
            diffs.append(f"{path.name}: from_json -> to_dict")
        if json.loads(cls.from_dict(expected).to_json()) != expected:
            diffs.append(f"{path.name}: from_dict -> to_json")
    with capsys.disabled():
        print(f"\nround-trip corpus: {len(covered)} of {len(fixtures)} k8s.io/api fixtures are kinds in the snapshot")
    assert diffs == []
    assert len(covered) >= 70, covered
