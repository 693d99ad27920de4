"""``diff`` (kgen.runtime.controller.patterns.diff): the changes between two states of an object,
kopf's diff items for a level-based reconciler.

The property: the changes, applied in order as JSON patch operations (add, remove, replace at
each path) by the apiserver's JSON patch library as kgen reproduces it (evanphx/json-patch v4,
checked against Go elsewhere), turn the old document into the new one, on the seeded random
document pairs of the webhook's JSON patch diff (awkward keys, lists growing and shrinking,
``1``/``1.0``/``True``); a self-test shows the property sees a planted bug. The real apiserver's
side (the server applying the patch) is in tests/integration/test_controller_kopf_features.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from kgen.kubernetes.models.apps.v1 import Deployment, DeploymentSpec
from kgen.kubernetes.models.core.v1 import Container, PodSpec, PodTemplateSpec
from kgen.kubernetes.models.meta.v1 import LabelSelector, ObjectMeta
from kgen.runtime.apimachinery.patch.jsonpatch import json_equal, json_patch
from kgen.runtime.controller.patterns import diff as diff_module
from kgen.runtime.controller.patterns.diff import Change, diff, dotted, parse_path
from kgen.runtime.webhook.json_patch_diff import escape_pointer_token
from tests.unit.test_webhook_json_patch_diff import SEED, random_pairs

PAIRS = 3000


def as_json_patch(changes: list[Change]) -> list[dict[str, Any]]:
    """The changes as RFC 6902 operations, one each, in order."""
    ops: list[dict[str, Any]] = []
    for change in changes:
        pointer = "".join(f"/{escape_pointer_token(str(t))}" for t in change.path)
        op = {"add": "add", "remove": "remove", "change": "replace"}[change.op]
        ops.append({"op": op, "path": pointer} | ({} if op == "remove" else {"value": change.new}))
    return ops


def mismatches(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[tuple[Any, Any, Any]]:
    bad = []
    for a, b in pairs:
        try:
            result = json_patch(a, as_json_patch(diff(a, b)))
        except Exception as e:  # a change the server could not apply is as wrong as a bad result
            bad.append((a, b, e))
            continue
        if not json_equal(result, b):
            bad.append((a, b, result))
    return bad


def test_the_changes_applied_as_a_json_patch_give_the_new_document() -> None:
    pairs = random_pairs(SEED, PAIRS)
    bad = mismatches(pairs)
    changes = sum(len(diff(a, b)) for a, b in pairs)
    print(f"diff: seed {SEED}, {len(pairs)} pairs, {changes} changes, {len(bad)} mismatches")
    assert bad == []


def test_the_property_sees_a_planted_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    """Self-test: list removals in ascending order (their indices shift) break the property."""
    original = diff_module._walk

    def ascending(a: Any, b: Any, path: Any, skipped: Any, out: list[Change]) -> None:
        start = len(out)
        original(a, b, path, skipped, out)
        out[start:] = sorted(out[start:], key=lambda c: (c.op != "remove", c.path))

    monkeypatch.setattr(diff_module, "_walk", ascending)
    assert len(mismatches(random_pairs(SEED, PAIRS))) > 0


def deployment(image: str, replicas: int, labels: dict[str, str]) -> Deployment:
    return Deployment(
        metadata=ObjectMeta(name="web", namespace="ns", labels=labels, resource_version="1"),
        spec=DeploymentSpec(
            replicas=replicas, selector=LabelSelector(match_labels={"app": "web"}),
            template=PodTemplateSpec(spec=PodSpec(containers=[Container(name="web", image=image)])),
        ),
    )


def test_typed_objects_are_compared_by_wire_names() -> None:
    old = deployment("nginx:1", 2, {"app": "web"})
    new = deployment("nginx:2", 3, {"app": "web", "app.kubernetes.io/name": "web"})
    assert diff(old, new) == [
        ("add", ("metadata", "labels", "app.kubernetes.io/name"), None, "web"),
        ("change", ("spec", "replicas"), 2, 3),
        ("change", ("spec", "template", "spec", "containers", 0, "image"), "nginx:1", "nginx:2"),
    ]
    assert [c.dotted for c in diff(old, new)] == [
        'metadata.labels["app.kubernetes.io/name"]', "spec.replicas", "spec.template.spec.containers[0].image",
    ]
    for op, path, before, after in diff(old, new):  # kopf's diff items unpack the same way
        assert op in ("add", "change") and path and before != after


def test_metadata_status_and_given_paths_can_be_left_out() -> None:
    old = {"metadata": {"resourceVersion": "1"}, "spec": {"a": 1, "b": {"c": 1}}, "status": {"ready": False}}
    new = {"metadata": {"resourceVersion": "2"}, "spec": {"a": 2, "b": {"c": 2}}, "status": {"ready": True}}
    assert [c.dotted for c in diff(old, new)] == ["metadata.resourceVersion", "spec.a", "spec.b.c", "status.ready"]
    assert [c.dotted for c in diff(old, new, ignore_metadata=True, ignore_status=True)] == ["spec.a", "spec.b.c"]
    assert [c.dotted for c in diff(old, new, ignore=["spec.b", ("metadata", "resourceVersion")])] == ["spec.a", "status.ready"]


def test_creation_and_deletion_are_one_change_at_the_top() -> None:
    obj = {"spec": {"a": 1}}
    assert diff(None, obj) == [Change("add", (), None, obj)]
    assert diff(obj, None) == [Change("remove", (), obj, None)]
    assert diff(None, None) == [] and diff(obj, {"spec": {"a": 1}}) == []


def test_values_compare_as_json_does() -> None:
    assert [c.op for c in diff({"a": 1}, {"a": True})] == ["change"]
    assert diff({"a": None}, {}) == [Change("remove", ("a",), None, None)]  # a null member is not an absent one


def test_is_under_selects_a_subtree() -> None:
    change = Change("change", ("spec", "template", "spec", "containers", 0, "image"), "a", "b")
    assert change.is_under("spec.template") and change.is_under(("spec",)) and change.is_under("spec.template.spec.containers[0]")
    assert not change.is_under("spec.replicas") and not change.is_under("status")


@pytest.mark.parametrize("path", [(), ("a",), ("a", 0, "b"), ("metadata", "labels", "x.y/z"), ("", "a b", 'q"'), ("k-1", "_x", 3)])
def test_dotted_paths_read_back(path: tuple[str | int, ...]) -> None:
    assert parse_path(dotted(path)) == path


@pytest.mark.parametrize("text", [".a", "a..b", "a[x]", "a b", "a[0]b", 'a["x]'])
def test_a_path_that_cannot_be_read_is_named(text: str) -> None:
    with pytest.raises(ValueError, match="cannot read the field path"):
        parse_path(text)


def test_other_values_are_refused() -> None:
    with pytest.raises(TypeError, match="diff compares kgen models or JSON dicts, not list"):
        diff([1], [2])  # type: ignore[arg-type]
