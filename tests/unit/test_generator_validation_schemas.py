"""The validation schemas a package carries (generator/validation.py, read by
kgen.runtime.apimachinery.validation.schemas): a CRD kind's own schema as its manifest states it,
embedded stock types and all, with only what validation reads; every ``$ref`` of every kind of
kgen.kubernetes resolves; ``--groups`` narrows them; hostile schema text stays data."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from kgen.generator.validation import KEPT, pruned
from kgen.runtime.apimachinery.validation.schemas import ValidationSchemas, validation_schemas
from kgen.runtime.apimachinery.validation.subresources import SUBRESOURCES_KEY
from tests.unit.helpers import GROUP, crd, generate, imported, write_yaml

REPO = Path(__file__).resolve().parents[2]
CRONJOB_CRD = REPO / "examples" / "cronjob" / "config" / "crd" / "batch.tutorial.kgen.dev_cronjobs.yaml"


def _refs(schema: Any) -> list[str]:
    if isinstance(schema, dict):
        own = [schema["$ref"]] if isinstance(schema.get("$ref"), str) else []
        return own + [r for value in schema.values() for r in _refs(value)]
    if isinstance(schema, list):
        return [r for value in schema for r in _refs(value)]
    return []


def _keys(schema: Any) -> set[str]:
    """Every schema keyword used, property names and the data of rules and subresources left out."""
    if isinstance(schema, dict):
        keys = set(schema)
        for key, value in schema.items():
            if key in ("x-kubernetes-validations", SUBRESOURCES_KEY):
                continue  # rules ({rule, message}) and a CRD's subresources ({status, scale}) are data
            if key == "properties" and isinstance(value, dict):
                keys |= {k for sub in value.values() for k in _keys(sub)}
            else:
                keys |= _keys(value)
        return keys
    if isinstance(schema, list):
        return {k for value in schema for k in _keys(value)}
    return set()


def test_a_crd_kind_has_its_manifests_own_schema_not_the_stock_classes() -> None:
    manifest = yaml.safe_load(CRONJOB_CRD.read_text(encoding="utf-8"))
    stated = manifest["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    schema = validation_schemas("examples.cronjob.client").schema_for("batch.tutorial.kgen.dev/v1", "CronJob")
    assert schema is not None
    # spec and status as the manifest states them, JobTemplateSpec inlined (the models type it
    # as kgen.kubernetes' JobTemplateSpec: generator/stock.py), descriptions dropped
    assert schema["properties"]["spec"] == pruned(stated["properties"]["spec"])
    assert schema["properties"]["status"] == pruned(stated["properties"]["status"])
    assert "$ref" not in schema["properties"]["spec"]["properties"]["jobTemplate"]
    assert "description" not in _keys(schema) and _keys(schema) <= KEPT
    # metadata is ObjectMeta, as the apiserver validates a custom resource's metadata
    assert schema["properties"]["metadata"] == {"$ref": "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}


def test_every_ref_of_every_kind_of_the_stock_package_resolves() -> None:
    schemas = validation_schemas("kgen.kubernetes")
    kinds = schemas.kinds()
    assert kinds["v1"]["Pod"] == "io.k8s.api.core.v1.Pod" and kinds["apps/v1"]["Deployment"]
    seen: set[str] = set()
    todo = [name for by_kind in kinds.values() for name in by_kind.values()]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_refs(schemas.definition(name)))
    assert "io.k8s.api.core.v1.Container" in seen and "io.k8s.apimachinery.pkg.api.resource.Quantity" in seen
    container = schemas.definition("io.k8s.api.core.v1.Container")
    assert container["required"] == ["name"] and container["properties"]["ports"]["x-kubernetes-list-type"] == "map"
    assert "x-kubernetes-patch-strategy" not in _keys(container)  # a merge fact, not validation
    with pytest.raises(KeyError, match="no validation schema named 'io.k8s.api.core.v1.Nope'"):
        schemas.definition("io.k8s.api.core.v1.Nope")
    assert schemas.schema_for("v1", "Nope") is None and schemas.schema_for("nope/v1", "Pod") is None


def test_groups_narrow_the_kinds_and_keep_what_they_reach(tmp_path: Path) -> None:
    snapshot = REPO / "openapi" / "kubernetes-1.37.2"
    gen = generate(tmp_path, "--from", str(snapshot), "--groups", "batch/v1")
    with imported(gen):
        schemas = ValidationSchemas(gen.name)
        kinds = schemas.kinds()
        # batch's kinds, and the kinds the package's models still have for its subresources
        assert "CronJob" in kinds["batch/v1"] and "apps/v1" not in kinds and "Deployment" not in str(kinds)
        job = schemas.schema_for("batch/v1", "Job")
        assert job is not None
        assert schemas.definition("io.k8s.api.core.v1.PodSpec")["properties"]["containers"]["type"] == "array"
        with pytest.raises(KeyError):
            schemas.definition("io.k8s.api.apps.v1.Deployment")


def test_hostile_schema_text_is_data(tmp_path: Path) -> None:
    hostile = "'''\"\"\"\\\n__import__('os').system('false') # }"
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            hostile: {"type": "string", "pattern": hostile, "enum": [hostile], "default": hostile,
                      "x-kubernetes-validations": [{"rule": f"self != {hostile!r}", "message": hostile}]},
        }}},
    }
    gen = generate(tmp_path / "out", "--crd", str(write_yaml(tmp_path / "crd.yaml", crd(copy.deepcopy(schema)))))
    with imported(gen):
        loaded = ValidationSchemas(gen.name).schema_for(f"{GROUP}/v1", "Widget")
    assert loaded is not None
    assert loaded["properties"]["spec"] == schema["properties"]["spec"]
