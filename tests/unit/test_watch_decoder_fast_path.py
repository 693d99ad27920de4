"""WatchDecoder's one-pass path for the lines the apiserver writes for ADDED, MODIFIED and
DELETED (the object sliced out of ``{"type":...,"object":...}``) against its full path (the event
parsed first, then its object): the same events for lines of that exact shape, and the full
path's verdict for every line that only looks like it."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.runtime.rest.watch import WatchDecoder, WatchEvent


def _events(lines: list[bytes], fast: bool) -> list[Any]:
    decoder = WatchDecoder(ConfigMap.from_json, "test")
    if not fast:
        decoder._object_event = lambda line: None  # type: ignore[method-assign]
    out: list[Any] = []
    for line in lines:
        try:
            out += [(e.type, e.object.to_dict()) if isinstance(e, WatchEvent) else e
                    for e in decoder.feed(line + b"\n")]
        except Exception as e:  # noqa: BLE001 - compared by type and message
            out.append((type(e).__name__, str(e)))
    return out


def _cm(rng: random.Random, i: int) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": f"cm-{i}", "namespace": "ns", "resourceVersion": str(i),
                         "labels": {"k": rng.choice(["a", "b", "} {"])}},
            "data": {"x": rng.choice(["1", '{"type":"ADDED"}', "}"])}}


def _lines(rng: random.Random) -> list[bytes]:
    lines = []
    for i in range(40):
        kind = rng.choice(["ADDED", "MODIFIED", "DELETED"])
        obj = _cm(rng, i)
        shape = rng.random()
        if shape < 0.6:  # as the apiserver writes it
            lines.append(msgspec.json.encode({"type": kind, "object": obj}))
        elif shape < 0.7:  # another key after the object: not the fast path's shape
            lines.append(msgspec.json.encode({"type": kind, "object": obj, "extra": 1}))
        elif shape < 0.8:  # spaces: json.dumps's separators
            lines.append(json.dumps({"type": kind, "object": obj}).encode())
        elif shape < 0.9:  # broken: the object cut short
            lines.append(msgspec.json.encode({"type": kind, "object": obj})[:-9] + b"}")
        else:  # an unknown field in the object, an explicit null
            obj["metadata"]["generateName"] = None
            obj["surprise"] = {"a": [1, None]}
            lines.append(msgspec.json.encode({"type": kind, "object": obj}))
    return lines


@pytest.mark.parametrize("seed", range(10))
def test_the_one_pass_path_decodes_what_the_full_path_does(seed: int) -> None:
    lines = _lines(random.Random(seed))
    fast, full = _events(lines, fast=True), _events(lines, fast=False)
    print(f"seed {seed}: {len(lines)} lines, {sum(isinstance(e[0], str) and e[0] in ('ADDED', 'MODIFIED', 'DELETED') for e in full)} events")
    assert fast == full


def test_a_line_of_the_shape_whose_object_does_not_decode_gets_the_full_paths_error() -> None:
    decoder = WatchDecoder(ConfigMap.from_json, "test")
    with pytest.raises(Exception) as fast:
        list(decoder.feed(b'{"type":"ADDED","object":{"metadata":}\n'))
    slow = WatchDecoder(ConfigMap.from_json, "test")
    slow._object_event = lambda line: None  # type: ignore[method-assign]
    with pytest.raises(Exception) as full:
        list(slow.feed(b'{"type":"ADDED","object":{"metadata":}\n'))
    assert (type(fast.value), str(fast.value)) == (type(full.value), str(full.value))


def test_the_one_pass_path_is_taken_for_the_apiservers_lines() -> None:
    calls: list[bytes] = []

    def decode(data: bytes) -> ConfigMap:
        calls.append(data)
        return ConfigMap.from_json(data)

    obj = _cm(random.Random(0), 1)
    line = msgspec.json.encode({"type": "MODIFIED", "object": obj})
    (event,) = WatchDecoder(decode, "test").feed(line + b"\n")
    assert isinstance(event, WatchEvent) and event.type == "MODIFIED"
    assert calls == [msgspec.json.encode(obj)], "decoded once, from the sliced bytes"
