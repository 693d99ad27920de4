"""Label and field selectors on list, the same on both sides (client-go's fake ignores field selectors)."""

from __future__ import annotations

import pytest

from kgen.kubernetes import Clientset
from kgen.runtime.apimachinery.errors import BadRequest
from kgen.runtime.apimachinery.selectors import fields, labels

from .builders import config_map


def names(cs: Clientset, ns: str, **options: object) -> list[str]:
    return [str(item.metadata.name) for item in cs.core_v1.config_maps(ns).list(**options).items if item.metadata]


@pytest.fixture
def labelled(cs: Clientset, ns: str) -> str:
    cms = cs.core_v1.config_maps(ns)
    cms.create(config_map("web-fe", labels={"app": "web", "tier": "fe"}))
    cms.create(config_map("web-be", labels={"app": "web", "tier": "be", "canary": "true"}))
    cms.create(config_map("db", labels={"app": "db"}))
    cms.create(config_map("bare"))
    return ns


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ("app=web", ["web-be", "web-fe"]),
        ("app==web,tier=fe", ["web-fe"]),
        ("app!=web", ["bare", "db"]),  # != also selects objects without the label
        ("tier in (fe,be)", ["web-be", "web-fe"]),
        ("tier notin (fe)", ["bare", "db", "web-be"]),
        ("canary", ["web-be"]),
        ("!tier", ["bare", "db"]),
        (labels(app="web").does_not_exist("canary"), ["web-fe"]),
    ],
)
def test_label_selectors(cs: Clientset, labelled: str, selector: object, expected: list[str]) -> None:
    assert names(cs, labelled, label_selector=selector) == expected


def test_field_selectors_on_name_and_namespace(cs: Clientset, labelled: str) -> None:
    assert names(cs, labelled, field_selector="metadata.name=db") == ["db"]
    assert names(cs, labelled, field_selector="metadata.name==db") == ["db"]
    assert names(cs, labelled, field_selector="metadata.name!=db") == ["bare", "web-be", "web-fe"]
    assert names(cs, labelled, field_selector=fields(**{"metadata.name": "db"}).ne("metadata.namespace", "x")) == ["db"]
    assert names(cs, labelled, field_selector="metadata.name=db", label_selector="app=web") == []


def test_field_selector_on_namespace_across_all_namespaces(cs: Clientset, labelled: str) -> None:
    everywhere = cs.core_v1.config_maps("").list(field_selector=f"metadata.namespace={labelled}")
    assert sorted(str(i.metadata.name) for i in everywhere.items if i.metadata) == ["bare", "db", "web-be", "web-fe"]
    assert {i.metadata.namespace for i in everywhere.items if i.metadata} == {labelled}


def test_invalid_label_selector_is_a_bad_request(cs: Clientset, ns: str) -> None:
    with pytest.raises(BadRequest) as caught:
        cs.core_v1.config_maps(ns).list(label_selector="a in (")
    assert caught.value.code == 400
