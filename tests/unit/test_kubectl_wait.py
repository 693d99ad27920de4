"""kgen.runtime.kubectl.wait on the fake clientset, both flavours: what each keyword waits for
(create, delete, predicate, jsonpath without a value, timeout 0), the errors of bad keywords and
of a missing object, and what a timeout says. kubectl's own rules (condition folding and
generations, jsonpath printing) are checked against kubectl in tests/cluster/test_wait.py."""

from __future__ import annotations

from typing import Any

import pytest

from kgen.kubernetes.fake import AsyncFakeClientset, FakeClientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import NotFound
from kgen.runtime.kubectl import async_wait_for, async_wait_for_all, wait_for, wait_for_all
from kgen.runtime.tools.watch import WaitTimeout
from tests.support.flavours import Flavour


def cm(name: str, mode: str = "slow", labels: dict[str, str] | None = None, finalizers: list[str] | None = None) -> ConfigMap:
    return ConfigMap(metadata=ObjectMeta(name=name, namespace="ns", labels=labels, finalizers=finalizers), data={"mode": mode})


def setup(flavour: Flavour, *objects: ConfigMap) -> tuple[Any, Any]:
    cs = FakeClientset(*objects)
    client = AsyncFakeClientset(tracker=cs.tracker).core_v1.config_maps("ns") if flavour.is_async else cs.core_v1.config_maps("ns")
    return cs.core_v1.config_maps("ns"), client


def run(flavour: Flavour, client: Any, name: str, **kwargs: Any) -> Any:
    fn = flavour.pick(wait_for, async_wait_for)
    return flavour.call(lambda: fn(client, name, **kwargs), timeout=30)


def test_create_returns_the_object_once_it_is_there(flavour: Flavour) -> None:
    cms, client = setup(flavour)
    flavour.later(0.3, lambda: cms.create(cm("late")))
    assert run(flavour, client, "late", create=True, timeout=10).metadata.name == "late"


def test_create_then_a_predicate(flavour: Flavour) -> None:
    cms, client = setup(flavour)
    flavour.later(0.2, lambda: cms.create(cm("late")))
    flavour.later(0.4, lambda: cms.update(cm("late", "fast")))
    found = run(flavour, client, "late", create=True, predicate=lambda c: c.data["mode"] == "fast", timeout=10)
    assert found.data == {"mode": "fast"}


def test_delete_waits_for_the_finalizer_and_returns_none(flavour: Flavour) -> None:
    cms, client = setup(flavour, cm("held", finalizers=["example.com/hold"]))
    cms.delete("held")
    assert cms.get("held").metadata.deletion_timestamp is not None
    flavour.later(0.3, lambda: cms.update(cm("held")))  # the finalizer removed: the object goes
    assert run(flavour, client, "held", delete=True, timeout=10) is None
    with pytest.raises(NotFound):
        cms.get("held")


def test_delete_of_an_object_not_there_returns_at_once(flavour: Flavour) -> None:
    _, client = setup(flavour)
    assert run(flavour, client, "never", delete=True, timeout=0) is None
    assert run(flavour, client, "never", delete=True, timeout=5) is None


def test_jsonpath_without_a_value_waits_for_the_path_to_select_something(flavour: Flavour) -> None:
    cms, client = setup(flavour, cm("a"))
    flavour.later(0.3, lambda: cms.update(ConfigMap(metadata=ObjectMeta(name="a", namespace="ns", labels={"ready": "yes"}))))
    found = run(flavour, client, "a", jsonpath="metadata.labels.ready", timeout=10)
    assert found.metadata.labels == {"ready": "yes"}


def test_a_missing_object_is_not_found_for_a_condition(flavour: Flavour) -> None:
    _, client = setup(flavour)
    with pytest.raises(NotFound, match='configmaps "missing" not found'):
        run(flavour, client, "missing", condition="Ready", timeout=5)
    with pytest.raises(NotFound):
        run(flavour, client, "missing", condition="Ready", timeout=0)


def test_timeout_zero_checks_once(flavour: Flavour) -> None:
    _, client = setup(flavour, cm("a", "fast"))
    assert run(flavour, client, "a", jsonpath="{.data.mode}", value="fast", timeout=0).metadata.name == "a"
    with pytest.raises(WaitTimeout, match=r"timed out after 0s waiting for jsonpath=\{\.data\.mode\}=slow on configmaps/a"):
        run(flavour, client, "a", jsonpath="{.data.mode}", value="slow", timeout=0)


def test_timeout_names_the_wait_and_the_last_state(flavour: Flavour) -> None:
    _, client = setup(flavour, cm("a"))
    with pytest.raises(WaitTimeout) as caught:
        run(flavour, client, "a", predicate=lambda c: False, timeout=0.3)
    assert str(caught.value).startswith("timed out after 0.3s waiting for <lambda> on configmaps/a; last seen: ConfigMap ns/a")


def test_wait_for_all_waits_for_each_object_the_selector_matches(flavour: Flavour) -> None:
    cms, client = setup(flavour, cm("a", labels={"app": "x"}), cm("b", labels={"app": "x"}), cm("c"))
    flavour.later(0.2, lambda: cms.update(cm("a", "fast", labels={"app": "x"})))
    flavour.later(0.3, lambda: cms.update(cm("b", "fast", labels={"app": "x"})))
    fn = flavour.pick(wait_for_all, async_wait_for_all)
    found = flavour.call(lambda: fn(client, label_selector="app=x", jsonpath="{.data.mode}", value="fast", timeout=10))
    assert sorted(c.metadata.name for c in found) == ["a", "b"]
    with pytest.raises(LookupError, match="no matching resources found"):
        flavour.call(lambda: fn(client, label_selector="app=none", condition="Ready", timeout=1))
    assert flavour.call(lambda: fn(client, label_selector="app=none", delete=True, timeout=1)) == []


@pytest.mark.parametrize(("kwargs", "message"), [
    ({}, "expected what to wait for: condition=, jsonpath= .*"),
    ({"condition": "Ready", "jsonpath": "{.a}"}, "wait for one of condition=, .* not condition and jsonpath"),
    ({"delete": True, "create": True}, "delete=True cannot be combined with create=True"),
    ({"condition": ""}, "condition must name a condition type"),
    ({"value": "x"}, "value= goes with jsonpath="),
    ({"jsonpath": "{.a}", "value": " "}, "value must not be empty"),
    ({"jsonpath": ""}, "jsonpath expression cannot be empty"),
    ({"jsonpath": "{.a}}"}, "unexpected path string, expected a 'name1.name2'"),
    ({"jsonpath": "{.a[}"}, "unterminated array"),
])
def test_bad_keywords_are_refused_before_anything_is_sent(kwargs: dict[str, Any], message: str) -> None:
    cs = FakeClientset()
    with pytest.raises(ValueError, match=message):
        wait_for(cs.core_v1.config_maps("ns"), "a", **kwargs)
    assert cs.tracker.actions() == []


def test_not_a_client_is_refused_with_what_was_expected() -> None:
    with pytest.raises(TypeError, match=r"expected a resource client to watch .* not str"):
        wait_for("deployments", "web", condition="Available")  # type: ignore[call-overload]
