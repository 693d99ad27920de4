"""Where the retained bytes of a decoded PodList go, per pod, kgen next to lightkube.

``python -m bench.retained_breakdown [--pods N]`` walks each client's decoded pods (each object
counted once, by identity) and sums ``sys.getsizeof`` by kind: model objects (Structs), strings,
lists, dicts, ints, datetimes. For Structs it also shows the two per-object costs that differ
between the clients: kgen's hidden bookkeeping slot (8 bytes, ``Model.unknown_fields_``, held
only by objects that carry bookkeeping, so none of the bench's pods) and the garbage collector's
header (16 bytes on CPython 3.11, absent with msgspec's ``gc=False``,
which every kgen model inherits). The last lines say what sharing repeated string values would
save. Both clients run in this one interpreter: sizes, unlike timings, do not depend on it.

kgen's pods are weighed three times: as decoded, as an informer caches them (its
``default_transform``: no managedFields — these pods carry none — and the namespace, label
values and owner references interned), and with the opt-in ``intern_strings`` on top. Next to
each transform, its cost per pod against the decode's (timings: medians of 3 passes): what it
would add to an informer's initial sync.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from .peers import kgen_peer, lightkube_peer
from .pods import pod_list_json

#: CPython 3.11's PyGC_Head: what a GC-tracked object carries before its own fields.
GC_HEADER = 16
SLOT = 8


def breakdown(pods: Iterable[Any]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """(bytes by kind, objects by kind, string values with how often each occurs)."""
    size: Counter[str] = Counter()
    count: Counter[str] = Counter()
    strings: Counter[str] = Counter()
    seen: set[int] = set()
    stack: list[Any] = list(pods)
    while stack:
        obj = stack.pop()
        if obj is None or isinstance(obj, bool) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, msgspec.Struct):
            kind = "struct"
            config = obj.__struct_config__
            count["gc header"] += config.gc
            count["hidden slot"] += "unknown_fields_" in obj.__struct_fields__
            stack.extend(getattr(obj, name) for name in obj.__struct_fields__)
        elif isinstance(obj, list):
            kind = "list"
            stack.extend(obj)
        elif isinstance(obj, dict):
            kind = "dict"
            stack.extend(obj.keys())
            stack.extend(obj.values())
        else:
            kind = type(obj).__name__
            if isinstance(obj, str):
                strings[obj] += 1
        size[kind] += sys.getsizeof(obj)
        count[kind] += 1
    return size, count, strings


def report(name: str, pods: list[Any]) -> list[str]:
    n = len(pods)
    size, count, strings = breakdown(pods)
    lines = [f"{name}: {sum(size.values()) / n:,.0f} B per pod (sys.getsizeof, each object once)"]
    for kind, total in size.most_common():
        lines.append(f"  {kind:9s} {count[kind] / n:7.1f} objects  {total / n:8,.0f} B")
    lines.append(f"  of the structs: GC headers {count['gc header'] * GC_HEADER / n:,.0f} B, "
                 f"hidden bookkeeping slots {count['hidden slot'] * SLOT / n:,.0f} B")
    shared = sum((c - 1) * sys.getsizeof(s) for s, c in strings.items())
    lines.append(f"  sharing repeated string values would save {shared / n:,.0f} B per pod "
                 f"({len(strings):,} distinct of {sum(strings.values()):,})")
    return lines


def _median_seconds(run: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def transformed(decode: Callable[[bytes], Any], data: bytes) -> list[str]:
    """kgen's pods as an informer caches them, and with ``intern_strings``: bytes and cost."""
    from kgen.runtime.tools.cache.transform import default_transform, intern_strings

    decode_time = _median_seconds(lambda: decode(data))
    lines = []
    for label, transforms in (("as an informer caches them (default_transform)", (default_transform,)),
                              ("with intern_strings as well (opt-in)", (default_transform, intern_strings))):
        def fresh() -> list[Any]:
            return list(decode(data).items)

        def run() -> None:  # called within its own iteration: the loop variables are this one's
            pods = fresh()
            started = time.perf_counter()
            for pod in pods:
                for transform in transforms:  # noqa: B023
                    transform(pod)
            spent.append(time.perf_counter() - started)  # noqa: B023

        spent: list[float] = []
        for _ in range(3):
            run()
        pods = fresh()
        for pod in pods:
            for transform in transforms:
                transform(pod)
        lines += report(f"kgen, {label}", pods)
        lines.append(f"  transform time {statistics.median(spent) / decode_time:.2f}x the decode's "
                     f"({statistics.median(spent) * 1e6 / len(pods):,.1f} us per pod)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.retained_breakdown", description=__doc__.splitlines()[0])
    parser.add_argument("--pods", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=20240301)
    args = parser.parse_args(argv)
    data = pod_list_json(args.pods, args.seed)
    kgen, lightkube = kgen_peer(), lightkube_peer()
    for line in report(f"kgen {kgen.version}", list(kgen.decode(data).items)):
        print(line)
    for line in transformed(kgen.decode, data):
        print(line)
    for line in report(f"lightkube {lightkube.version}", list(lightkube.decode(data)[2])):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
