"""What mypy accepts in snippets/model_fields.py is also safe at run time: the same functions on
objects whose optional fields are absent (``None``, the one absent state) and on full ones.
The mistakes mypy must reject, such as ``d.metadata.name`` without narrowing, are in
snippets/model_mistakes.py, checked by test_snippets.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMapList, PodCondition


@pytest.fixture(scope="module")
def snippet() -> ModuleType:
    path = Path(__file__).parent / "snippets" / "model_fields.py"
    spec = importlib.util.spec_from_file_location("model_fields_snippet", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_narrowed_access_is_safe_on_an_object_whose_optional_fields_are_absent(snippet: ModuleType) -> None:
    bare = Deployment.from_json(b'{"spec":{"selector":{},"template":{}}}')  # no metadata, no pod spec
    assert bare.metadata is None
    with pytest.raises(AttributeError):
        bare.metadata.name  # type: ignore[union-attr]  # what mypy rejects does fail at run time
    assert snippet.name_of(bare) is None
    assert snippet.replicas_and_images(bare) == (1, [])
    assert snippet.container_ports(bare) == 0
    assert snippet.names(ConfigMapList.from_dict({"items": [{}, {"metadata": {}}, {"metadata": {"name": "a"}}]})) == ["a"]


def test_the_same_functions_on_a_full_object(snippet: ModuleType) -> None:
    d = Deployment.from_dict(snippet.web().to_dict())
    assert snippet.name_of(d) == "web"
    assert snippet.replicas_and_images(d) == (2, ["nginx"])
    snippet.scale(d, 5)
    assert d.to_dict()["spec"]["replicas"] == 5
    assert snippet.ready([PodCondition(type="Ready", status="True")])


def test_a_server_object_missing_required_fields_reads_and_the_snippets_run(snippet: ModuleType) -> None:
    partial = Deployment.from_dict({"metadata": {"name": "p"}, "spec": {"template": {"spec": {"containers": [{}]}}}})
    assert snippet.replicas_and_images(partial) == (1, [""])
    assert snippet.container_ports(partial) == 0
    assert partial.to_dict() == {"metadata": {"name": "p"}, "spec": {"template": {"spec": {"containers": [{}]}}}}
