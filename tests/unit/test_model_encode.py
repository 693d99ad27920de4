"""The encode path of models (``to_json``, ``to_dict``): one msgspec pass, and the fold of the
hidden bookkeeping exactly when some object in the tree carries it, wherever it sits and
whatever the values hold (``$`` bytes, the bookkeeping key's own text)."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

from bench.codec import without_nulls
from bench.pods import make_pod
from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import Container, Pod, PodList, PodSpec
from kgen.runtime.apimachinery import UNKNOWN_FIELDS_KEY, UnknownFields
from kgen.runtime.apimachinery import model as model_module
from kgen.runtime.apimachinery.lenient import fold

#: Many ``$`` bytes, as in containers' ``$(VAR)`` args.
MANY = 40


@pytest.fixture
def no_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_: Any) -> Any:
        raise AssertionError("folded")

    monkeypatch.setattr(model_module, "fold", refuse)


def test_a_payload_without_bookkeeping_is_not_folded(no_fold: None) -> None:
    pod = Pod.from_json(json.dumps(make_pod(random.Random(3), 3)))
    assert pod.to_json() == msgspec.json.encode(pod)
    assert pod.to_dict() == json.loads(pod.to_json())


def _pod_with_dollars(count: int) -> dict[str, Any]:
    raw = make_pod(random.Random(7), 7)
    container = raw["spec"]["containers"][0]
    container["args"] = [f"--flag-{i}=$(POD_NAME)" for i in range(count)]
    container["command"] = ["/bin/sh", "-c", 'exec app --home "$HOME"']
    return raw


@pytest.mark.parametrize("dollars", [1, MANY])
def test_values_with_dollar_and_no_bookkeeping_encode_as_msgspec_does(dollars: int, no_fold: None) -> None:
    pod = Pod.from_json(json.dumps(_pod_with_dollars(dollars)))
    assert pod.to_json() == msgspec.json.encode(pod)
    assert b"$(POD_NAME)" in pod.to_json()


def test_the_bookkeeping_key_as_text_in_values_and_map_keys_is_data(no_fold: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """An annotation named like the hidden field, and a value spelling it, are written as read."""
    raw = make_pod(random.Random(5), 5)
    raw["metadata"]["annotations"] = {UNKNOWN_FIELDS_KEY: "x", "note": f'"{UNKNOWN_FIELDS_KEY}":{{}}'}
    raw, _ = without_nulls(raw)  # lastProbeTime: null is read as absent (not nullable)
    pod = Pod.from_json(json.dumps(raw))
    assert pod.unknown_fields_ is None
    assert json.loads(pod.to_json()) == raw
    assert pod.to_dict() == raw
    raw["status"]["futureStatus"] = "x"  # now the tree holds bookkeeping: the fold walks it all
    pod = Pod.from_json(json.dumps(raw))
    assert pod.unknown_fields_ is None and pod.status and pod.status.unknown_fields_ == {"futureStatus": "x"}
    monkeypatch.setattr(model_module, "fold", fold)
    assert json.loads(pod.to_json()) == raw
    assert pod.to_dict() == raw


@pytest.mark.parametrize("dollars", [1, MANY])
def test_unknown_fields_after_many_dollars_are_folded_back(dollars: int) -> None:
    """The unknown fields sit in status, after every ``$`` of the spec's args in the bytes."""
    raw = _pod_with_dollars(dollars)
    raw["status"]["futureStatus"] = {"level": "$high"}
    raw["status"]["containerStatuses"][1]["futureField"] = "x"
    pod = Pod.from_json(json.dumps(raw))
    assert pod.status and pod.status.unknown_fields_ == {"futureStatus": {"level": "$high"}}
    assert isinstance(pod.status.unknown_fields_, UnknownFields)
    out = json.loads(pod.to_json())
    assert UNKNOWN_FIELDS_KEY.encode() not in pod.to_json()
    assert out["status"]["futureStatus"] == {"level": "$high"}
    assert out["status"]["containerStatuses"][1]["futureField"] == "x"
    assert out["spec"]["containers"][0]["args"] == raw["spec"]["containers"][0]["args"]
    assert pod.to_dict() == out


def test_bookkeeping_a_caller_sets_deep_in_a_built_tree_is_folded() -> None:
    """Set by hand (the documented way to send a null), behind many ``$`` in values."""
    args = [f"$(V{i})" for i in range(MANY)]
    late = Container(name="late").with_unknown_fields({"futureField": None})
    pods = PodList(items=[
        Pod(spec=PodSpec(containers=[Container(name="a", args=args)])),
        Pod(spec=PodSpec(containers=[Container(name="b", args=args), late])),
    ])
    out = pods.to_dict()
    assert out["items"][1]["spec"]["containers"][1] == {"name": "late", "futureField": None}
    assert json.loads(pods.to_json()) == out
    assert late.unknown_fields_ is not None
    late.unknown_fields_["other"] = 1  # changed in place: the next call sees it
    assert pods.to_dict()["items"][1]["spec"]["containers"][1] == {"name": "late", "futureField": None, "other": 1}
    assert pods.items[1].spec and pods.items[1].spec.containers
    pods.items[1].spec.containers[1] = late.with_unknown_fields(None)
    assert pods.to_dict()["items"][1]["spec"]["containers"][1] == {"name": "late"}


def test_a_raw_msgspec_encode_refuses_bookkeeping_instead_of_writing_it() -> None:
    """Only ``to_json``/``to_dict`` know the fold: another encoder fails loudly, never silently
    writes the hidden key."""
    late = Container(name="late").with_unknown_fields({"futureField": None})
    with pytest.raises(TypeError, match="UnknownFields"):
        msgspec.json.encode(late)
    assert late.to_json() == b'{"name":"late","futureField":null}'


def test_unknown_fields_read_like_a_dict() -> None:
    fields = UnknownFields({"a": 1})
    fields["b"] = None
    assert fields == {"a": 1, "b": None} and dict(fields) == fields.to_dict() and len(fields) == 2
    del fields["a"]
    assert list(fields) == ["b"] and repr(fields) == "UnknownFields({'b': None})"
    with_x = Container(name="c").with_unknown_fields({"x": 1})
    assert with_x == Container(name="c").with_unknown_fields(UnknownFields({"x": 1}))
    assert with_x != Container(name="c") and with_x.with_unknown_fields({}) == Container(name="c")


def test_only_objects_with_bookkeeping_hold_the_hidden_slot() -> None:
    """Nearly every object is of its model class exactly (no slot, nothing for the encoder to
    look at); one with bookkeeping is of a subclass made once per model, which pickles, copies
    and replaces as its model does."""
    import copy
    import pickle

    raw = without_nulls(make_pod(random.Random(9), 9))[0]
    plain = Pod.from_json(json.dumps(raw))
    assert "unknown_fields_" not in Pod.__struct_fields__ and type(plain) is Pod
    raw["spec"]["containers"][0]["futureField"] = [1]
    pod = Pod.from_json(json.dumps(raw))
    assert pod.spec and type(pod) is Pod and type(pod.spec) is PodSpec
    first = pod.spec.containers[0]
    assert type(first) is not Container and isinstance(first, Container) and type(first).__name__ == "Container"
    assert "unknown_fields_" in type(first).__struct_fields__ and first.unknown_fields_ == {"futureField": [1]}
    assert type(pod.spec.containers[1]) is Container and pod.spec.containers[1].unknown_fields_ is None
    assert type(Container(name="a").with_unknown_fields({"b": 1})) is type(first)  # made once
    for copied in (pickle.loads(pickle.dumps(pod)), copy.deepcopy(pod), msgspec.structs.replace(pod)):
        assert copied == pod and json.loads(copied.to_json()) == raw


def test_to_dict_and_to_json_agree_on_absent_and_null_required_fields() -> None:
    raw = {"spec": {"template": {"spec": {"containers": [{"image": "nginx"}]}}}, "status": None}
    d = Deployment.from_dict(raw)
    assert d.to_dict() == json.loads(d.to_json()) == {"spec": {"template": {"spec": {"containers": [{"image": "nginx"}]}}}}
    pods = PodList.from_json(b'{"items":null,"metadata":{"resourceVersion":"$1"}}')
    assert pods.to_dict() == json.loads(pods.to_json()) == {"items": None, "metadata": {"resourceVersion": "$1"}}
