"""Where encoding a decoded PodList spends its time, kgen next to lightkube, in one interpreter.

``python -m bench.encode_breakdown [pods] [rounds]`` (lightkube installed: ``make bench`` does it).

The codec table (bench/codec_table.py) times ``to_json`` of the whole list in separate
interpreters. This breaks the same work down by wire path: for every struct path that occurs in
every pod (``.spec.containers[]``, ``.status.conditions[]``, ...) it encodes the list of all
those objects with one plain ``msgspec.json.Encoder`` for both clients, interleaved in random
order, and prints the medians. Both clients' models are msgspec Structs with ``omit_defaults``
and the same fields, and they write the same JSON (same length; only the key order differs), so the differences left are in how the
decoded objects sit in memory.

The last lines show what that means: the same 10,000 timestamp strings encode several times
faster once copied into fresh, adjacent objects than where the decoder left them, and
lightkube's ``datetime`` values (one size class, packed together) encode fast where they are.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

import msgspec

from .pods import pod_list_json


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _paths(obj: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every struct under ``obj`` with its wire path (list items ``[]``, map values ``{}``)."""
    if isinstance(obj, msgspec.Struct):
        yield path, obj
        for name, wire in zip(obj.__struct_fields__, obj.__struct_encode_fields__):
            yield from _paths(getattr(obj, name), f"{path}.{wire}")
    elif isinstance(obj, list):
        for item in obj:
            yield from _paths(item, f"{path}[]")
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from _paths(item, f"{path}{{}}")


def _by_path(pods: list[Any]) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for pod in pods:
        for path, obj in _paths(pod):
            found.setdefault(path or ".", []).append(obj)
    return found


def _interleaved(cases: dict[str, tuple[Any, Any]], rounds: int) -> dict[str, tuple[float, float]]:
    encode = msgspec.json.Encoder().encode
    samples: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in cases}
    rng = random.Random(1)
    for _ in range(rounds):
        for name, pair in cases.items():
            for side in rng.sample((0, 1), 2):
                started = time.perf_counter()
                encode(pair[side])
                samples[name][side].append(time.perf_counter() - started)
    return {name: (_median_ms(k), _median_ms(lk)) for name, (k, lk) in samples.items()}


def main(argv: list[str]) -> int:
    pods = int(argv[0]) if argv else 5000
    rounds = int(argv[1]) if len(argv) > 1 else 25
    from lightkube.core.decoders import decode_list
    from lightkube.models.core_v1 import PodList as LightkubePodList
    from lightkube.models.meta_v1 import ListMeta
    from lightkube.resources.core_v1 import Pod

    from kgen.kubernetes.models.core.v1 import PodList

    data = pod_list_json(pods)
    kgen = PodList.from_json(data)
    _, resource_version, items = decode_list(data, Pod)
    lightkube = LightkubePodList(items=items, metadata=ListMeta(resourceVersion=resource_version))
    if msgspec.json.decode(kgen.to_json()) != msgspec.json.decode(msgspec.json.encode(lightkube)):
        print("the two clients encode different JSON; the breakdown would compare different work")
        return 1
    kgen_paths, lightkube_paths = _by_path(kgen.items), _by_path(items)
    cases: dict[str, tuple[Any, Any]] = {"whole PodList": (kgen, lightkube)}
    for path, objs in kgen_paths.items():
        if len(objs) >= pods and len(lightkube_paths.get(path, ())) == len(objs):
            cases[path] = (objs, lightkube_paths[path])
    timings = _interleaved(cases, rounds)
    print(f"{pods} pods, {len(data) / 1e6:.1f} MB; medians of {rounds} interleaved encodes (ms)")
    print(f"{'path':<64} {'kgen':>8} {'lightkube':>10} {'ratio':>7}")
    for path, (k, lk) in sorted(timings.items(), key=lambda item: item[1][0] - item[1][1]):
        print(f"{path[:64]:<64} {k:8.2f} {lk:10.2f} {k / lk:6.3f}×")

    pods_read: list[Any] = kgen.items  # the bench's pods all have a status
    running = [c.state.running for p in pods_read for c in p.status.container_statuses if c.state.running]
    where_decoded = [r.started_at for r in running]
    copied = [(s + ".")[:-1] for s in where_decoded]
    datetimes = [c.state.running.startedAt for p in items for c in p.status.containerStatuses if c.state.running]
    layout = _interleaved({"timestamps": (where_decoded, copied), "datetimes": (datetimes, datetimes)}, rounds * 4)
    (decoded_ms, copied_ms), (lk_ms, _) = layout["timestamps"], layout["datetimes"]
    print(f"\n{len(where_decoded)} startedAt values: kgen strings where decoded {decoded_ms:.2f} ms, "
          f"the same strings copied {copied_ms:.2f} ms; lightkube datetimes where decoded {lk_ms:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
