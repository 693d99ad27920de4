"""apimachinery's unstructured.Nested* helpers on plain dicts."""

from __future__ import annotations

from typing import Any

import pytest

from kgen.runtime.apimachinery.unstructured import get_nested, remove_nested, set_nested


def _pod() -> dict[str, Any]:
    return {"metadata": {"name": "p", "labels": {"app": "web"}}, "spec": {"containers": [{"name": "c"}], "nodeName": ""}}


def test_get_nested_follows_the_path() -> None:
    pod = _pod()
    assert get_nested(pod, "metadata", "labels", "app") == "web"
    assert get_nested(pod, "spec", "containers") == [{"name": "c"}]
    assert get_nested(pod) is pod


def test_get_nested_returns_default_for_a_missing_step() -> None:
    pod = _pod()
    assert get_nested(pod, "status", "phase") is None
    assert get_nested(pod, "status", "phase", default="Pending") == "Pending"
    assert get_nested(pod, "spec", "nodeName", default="x") == ""  # present but falsy is not missing


def test_get_nested_returns_default_when_a_step_is_not_a_map() -> None:
    pod = _pod()
    assert get_nested(pod, "metadata", "name", "first", default=0) == 0
    assert get_nested(pod, "spec", "containers", "0", default=0) == 0  # lists are not indexed by path


def test_set_nested_creates_missing_maps() -> None:
    pod = _pod()
    set_nested(pod, "true", "metadata", "annotations", "kgen.test/x")
    assert pod["metadata"]["annotations"] == {"kgen.test/x": "true"}
    set_nested(pod, "db", "metadata", "labels", "tier")
    assert pod["metadata"]["labels"] == {"app": "web", "tier": "db"}


def test_set_nested_replaces_a_leaf_of_any_type() -> None:
    pod = _pod()
    set_nested(pod, {"replaced": True}, "spec", "containers")
    assert pod["spec"]["containers"] == {"replaced": True}


def test_set_nested_refuses_to_walk_through_a_non_map() -> None:
    pod = _pod()
    with pytest.raises(ValueError, match=r"metadata\.name is a str, not a map"):
        set_nested(pod, "x", "metadata", "name", "first")
    assert pod == _pod()


def test_set_nested_needs_a_path() -> None:
    with pytest.raises(ValueError):
        set_nested({}, "x")


def test_remove_nested_removes_only_the_leaf() -> None:
    pod = _pod()
    remove_nested(pod, "metadata", "labels", "app")
    assert pod["metadata"] == {"name": "p", "labels": {}}
    remove_nested(pod, "spec")
    assert "spec" not in pod


def test_remove_nested_of_a_missing_path_is_a_no_op() -> None:
    pod = _pod()
    remove_nested(pod, "status", "phase")
    remove_nested(pod, "metadata", "name", "first")  # name is a string: nothing below it
    remove_nested(pod, "nothing")
    assert pod == _pod()


def test_remove_nested_needs_a_path() -> None:
    with pytest.raises(ValueError):
        remove_nested(_pod())
