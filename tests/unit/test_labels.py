"""Label selector parsing and matching: ports of apimachinery pkg/labels selector_test.go
(TestSelectorParse, TestSelectorMatches), the grammar listers and the fake apiserver use."""

from __future__ import annotations

import pytest

from kgen.runtime.apimachinery.labels import SelectorError, parse, parse_requirements
from kgen.runtime.apimachinery.meta import labels_of
from kgen.runtime.apimachinery.selectors import labels


@pytest.mark.parametrize(
    "selector",
    ["x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5",
     "x in (a)", "x in (a,b), y notin (c)", "example.com/role==db", " x = a , y ",
     "x in ()"],  # the empty value: the apiserver accepts it (tests/integration/test_fake_vs_server_meta.py)
)
def test_selector_parse_accepts(selector: str) -> None:
    parse(selector)


@pytest.mark.parametrize(
    "selector",
    ["x=a||y=b", "x==a==b", "!x=a", "x<a", "x>", "a,", ",a", "a,,b", "x in (a b)", "x=a b", "x in a"],
)
def test_selector_parse_rejects(selector: str) -> None:
    with pytest.raises(SelectorError):
        parse(selector)


@pytest.mark.parametrize(
    "selector, labels_, matches",
    [
        ("", {"x": "y"}, True),
        ("x=y", {"x": "y"}, True),
        ("x=y,z=w", {"x": "y", "z": "w"}, True),
        ("x!=y,z!=w", {"x": "z", "z": "a"}, True),
        ("notin=in", {"notin": "in"}, True),  # in and notin as plain keys and values
        ("x", {"x": "z"}, True),
        ("!x", {"y": "z"}, True),
        ("x>1", {"x": "2"}, True),
        ("x<1", {"x": "0"}, True),
        ("x=z", {}, False),
        ("x=y", {"x": "z"}, False),
        ("x=y,z=w", {"x": "w", "z": "w"}, False),
        ("x!=y,z!=w", {"x": "z", "z": "w"}, False),
        ("x", {"y": "z"}, False),
        ("!x", {"x": "z"}, False),
        ("x>1", {"x": "0"}, False),
        ("x<1", {"x": "2"}, False),
        ("x>1", {"x": "many"}, False),
        ("foo=bar,foobar=bar,baz=blah", {"foo": "bar", "baz": "blah"}, False),
        ("x!=y", {}, True),  # != and notin also match objects without the label
        ("x notin (a,b)", {}, True),
        ("x notin (a,b)", {"x": "b"}, False),
        ("x in (a, b)", {"x": "b"}, True),
        ("x in (a,b)", {}, False),
    ],
)
def test_selector_matches(selector: str, labels_: dict[str, str], matches: bool) -> None:
    assert parse(selector)(labels_) is matches


def test_selector_builder_output_parses_to_the_same_requirements() -> None:
    built = labels(app="web").in_("tier", ["fe", "be"]).exists("canary").does_not_exist("legacy")
    assert [(r.key, r.op, sorted(r.values)) for r in parse_requirements(built)] == [
        ("app", "=", ["web"]), ("tier", "in", ["be", "fe"]), ("canary", "exists", []), ("legacy", "!", []),
    ]


def test_labels_of_typed_and_unstructured_objects() -> None:
    from kgen.kubernetes.models.core.v1 import ConfigMap
    from kgen.kubernetes.models.meta.v1 import ObjectMeta

    assert labels_of({"metadata": {"labels": {"a": "1"}}}) == {"a": "1"}
    assert labels_of({"metadata": {}}) == {}
    assert labels_of(ConfigMap(metadata=ObjectMeta(name="x", labels={"a": "1"}))) == {"a": "1"}
    assert labels_of(ConfigMap(metadata=ObjectMeta(name="x"))) == {}
