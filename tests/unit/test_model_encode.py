"""The encode path of models (``to_json``, ``to_dict``): one msgspec pass, and the fold of the
hidden bookkeeping exactly when some object in the tree carries it, wherever ``$`` appears."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

from bench.pods import make_pod
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import Container, Pod, PodList, PodSpec
from kgen.runtime.apimachinery import UNKNOWN_FIELDS_KEY
from kgen.runtime.apimachinery import model as model_module
from kgen.runtime.apimachinery.model import _UNKNOWN_JSON, _holds_bookkeeping

#: More ``$`` bytes than any in-place check would look at.
MANY = 40

KEY = _UNKNOWN_JSON  # b'"$kgen:unknown-fields"'


def _payload(dollars_before: int, key: bool, dollars_after: int = 0, decoy: bytes = b"") -> bytes:
    """A JSON-like payload with ``$`` bytes around an optional bookkeeping key."""
    before = b",".join(b'"a":"$(X%d)"' % i for i in range(dollars_before))
    after = b",".join(b'"b":"$%d"' % i for i in range(dollars_after))
    middle = KEY + b":{}" if key else b'"c":1'
    return b"{" + b",".join(p for p in (before, decoy, middle, after) if p) + b"}"


@pytest.mark.parametrize("before", [0, 1, 15, 16, 17, 200])
@pytest.mark.parametrize("key", [True, False])
@pytest.mark.parametrize("after", [0, 3, 40])
def test_the_bookkeeping_check_agrees_with_a_plain_substring_search(before: int, key: bool, after: int) -> None:
    """The oracle is the definition: the quoted key occurs in the bytes, wherever ``$`` are."""
    data = _payload(before, key, after)
    assert _holds_bookkeeping(data) is (KEY in data) is key


@pytest.mark.parametrize("decoy", [
    b'"x":"$kgen:unknown-fields"',  # the key's text as a value: a quote before it, like the key
    b'"x$kgen:unknown-fields":1',  # inside a longer key: no quote right before the $
    b'"$kgen:unknown-field":1',  # one letter short
    b'"$kgen:unknown-fieldsX":1',  # one letter long
])
@pytest.mark.parametrize("before", [0, MANY])
def test_near_misses_are_judged_as_the_substring_search_judges_them(decoy: bytes, before: int) -> None:
    data = _payload(before, False, 0, decoy)
    assert _holds_bookkeeping(data) is (KEY in data)


def test_a_payload_without_dollar_is_not_folded(monkeypatch: pytest.MonkeyPatch) -> None:
    pod = Pod.from_json(json.dumps(make_pod(random.Random(3), 3)))

    def refuse(_: Any) -> Any:
        raise AssertionError("folded")

    monkeypatch.setattr(model_module, "fold", refuse)
    assert pod.to_json() == msgspec.json.encode(pod)
    assert pod.to_dict() == json.loads(pod.to_json())


def _pod_with_dollars(count: int) -> dict[str, Any]:
    raw = make_pod(random.Random(7), 7)
    container = raw["spec"]["containers"][0]
    container["args"] = [f"--flag-{i}=$(POD_NAME)" for i in range(count)]
    container["command"] = ["/bin/sh", "-c", 'exec app --home "$HOME"']
    return raw


@pytest.mark.parametrize("dollars", [1, MANY])
def test_values_with_dollar_and_no_bookkeeping_encode_as_msgspec_does(dollars: int) -> None:
    pod = Pod.from_json(json.dumps(_pod_with_dollars(dollars)))
    assert pod.to_json() == msgspec.json.encode(pod)
    assert b"$(POD_NAME)" in pod.to_json()


@pytest.mark.parametrize("dollars", [1, MANY])
def test_unknown_fields_after_many_dollars_are_folded_back(dollars: int) -> None:
    """The unknown fields sit in status, after every ``$`` of the spec's args in the bytes."""
    raw = _pod_with_dollars(dollars)
    raw["status"]["futureStatus"] = {"level": "$high"}
    raw["status"]["containerStatuses"][1]["futureField"] = "x"
    pod = Pod.from_json(json.dumps(raw))
    assert pod.status and pod.status.unknown_fields_ == {"futureStatus": {"level": "$high"}}
    out = json.loads(pod.to_json())
    assert UNKNOWN_FIELDS_KEY.encode() not in pod.to_json()
    assert out["status"]["futureStatus"] == {"level": "$high"}
    assert out["status"]["containerStatuses"][1]["futureField"] == "x"
    assert out["spec"]["containers"][0]["args"] == raw["spec"]["containers"][0]["args"]
    assert pod.to_dict() == out


def test_bookkeeping_a_caller_sets_deep_in_a_built_tree_is_folded() -> None:
    """Set by hand (the documented way to send a null), behind many ``$`` in values."""
    args = [f"$(V{i})" for i in range(MANY)]
    late = Container(name="late", unknown_fields_={"futureField": None})
    pods = PodList(items=[
        Pod(spec=PodSpec(containers=[Container(name="a", args=args)])),
        Pod(spec=PodSpec(containers=[Container(name="b", args=args), late])),
    ])
    out = pods.to_dict()
    assert out["items"][1]["spec"]["containers"][1] == {"name": "late", "futureField": None}
    assert json.loads(pods.to_json()) == out
    late.unknown_fields_ = None  # no encoded output is cached: the next call sees the change
    assert pods.to_dict()["items"][1]["spec"]["containers"][1] == {"name": "late"}


def test_to_dict_and_to_json_agree_on_absent_and_null_required_fields() -> None:
    raw = {"spec": {"template": {"spec": {"containers": [{"image": "nginx"}]}}}, "status": None}
    d = Deployment.from_dict(raw)
    assert d.to_dict() == json.loads(d.to_json()) == {"spec": {"template": {"spec": {"containers": [{"image": "nginx"}]}}}}
    pods = PodList.from_json(b'{"items":null,"metadata":{"resourceVersion":"$1"}}')
    assert pods.to_dict() == json.loads(pods.to_json()) == {"items": None, "metadata": {"resourceVersion": "$1"}}
