"""The labeller's writes (kgen.runtime.tools.sharding.labeller), with a recording client: moves are
conditional merge patches at most ``moves_per_second``, the epoch is published only after
every move of a round with handoffs was written, and not at all when leadership ends first."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from kgen.runtime.apimachinery.errors import Conflict
from kgen.runtime.gentype.resource import PatchType, ResourceInfo
from kgen.runtime.tools.sharding import assignment
from kgen.runtime.tools.sharding.labeller import Labeller
from kgen.runtime.tools.sharding.membership import Members
from tests.unit.test_sharding_gate import FROM, LABEL, EPOCH, C, Clock, lease, obj

CONFIG_MAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")


class Writes:
    def __init__(self, conflict: set[str] = frozenset(), stop_after: int | None = None,
                 leading: threading.Event | None = None) -> None:
        self.calls: list[tuple[str, str, Any, float]] = []  # (resource, name, body, at)
        self.lock = threading.Lock()
        self.conflict, self.stop_after, self.leading = conflict, stop_after, leading

    def client(self, resource: str) -> Any:
        writes = self

        class Client:
            def patch(self, name: str, body: Any, patch_type: PatchType) -> dict[str, Any]:
                assert patch_type is PatchType.MERGE
                with writes.lock:
                    writes.calls.append((resource, name, body, time.monotonic()))
                    if writes.stop_after is not None and len(writes.calls) >= writes.stop_after:
                        assert writes.leading is not None
                        writes.leading.set()
                if name in writes.conflict:
                    raise Conflict("the object has been modified")
                return {}

        return Client()


class Informer:
    def __init__(self, objects: list[dict[str, Any]]) -> None:
        self.objects = objects

    def get_indexer(self) -> "Informer":
        return self

    def list(self) -> list[dict[str, Any]]:
        return self.objects


def labeller(writes: Writes, members: Members, moves_per_second: float = 1000.0) -> Labeller:
    made = Labeller(None, CONFIG_MAPS, C, members, lambda: None, namespace="ns", lease_namespace="ns",  # type: ignore[arg-type]
                    lease_duration=6, retry_period=1, moves_per_second=moves_per_second, concurrency=4)
    made._client = lambda namespace, resource=None: writes.client(resource.plural if resource else "configmaps")  # type: ignore[method-assign]
    return made


@pytest.fixture
def members() -> Members:
    made = Members(C, clock=Clock())
    made.refresh([lease("a", "1"), lease("b", "1")])
    return made


def test_moves_are_conditional_merge_patches_and_a_handoff_round_publishes_its_epoch_last(
        members: Members) -> None:
    names = [f"o{i}" for i in range(30)]
    writes = Writes(conflict={"o3"})
    leading = threading.Event()
    epoch, moves = labeller(writes, members)._round(Informer([obj(n, "7", "a") for n in names]), 5, leading)
    to_b = [n for n in names if assignment.owner(f"ns/{n}", ["a", "b"]) == "b"]
    assert to_b and [m.name for m in moves] == to_b
    patches = [c for c in writes.calls if c[0] == "configmaps"]
    assert sorted(c[1] for c in patches) == sorted(to_b)
    assert all(c[2] == {"metadata": {"labels": {LABEL: "b"}, "resourceVersion": "7",
                                     "annotations": {FROM: "a", EPOCH: "5"}}} for c in patches)
    assert writes.calls[-1][:3] == ("leases", f"{C}-shard-leader",
                                    {"metadata": {"annotations": {"shard.kgen.io/epoch": "5"}}})
    assert epoch == 6


def test_new_objects_are_labelled_without_an_epoch_and_nothing_is_published(members: Members) -> None:
    writes = Writes()
    epoch, _ = labeller(writes, members)._round(Informer([obj("new", "3")]), 2, threading.Event())
    assert [c[0] for c in writes.calls] == ["configmaps"]
    assert "annotations" not in writes.calls[0][2]["metadata"] and epoch == 2


def test_no_epoch_is_published_when_leadership_ends_half_way(members: Members) -> None:
    leading = threading.Event()
    writes = Writes(stop_after=3, leading=leading)
    epoch, _ = labeller(writes, members)._round(Informer([obj(f"o{i}", "7", "a") for i in range(60)]), 5, leading)
    assert all(c[0] == "configmaps" for c in writes.calls) and epoch == 5
    assert len(writes.calls) < 3 + 4  # what was in flight when it ended, at most


def test_moves_are_rate_limited(members: Members) -> None:
    writes = Writes()
    objects = [obj(f"o{i}", "7") for i in range(30)]
    started = time.monotonic()
    labeller(writes, members, moves_per_second=20)._round(Informer(objects), 1, threading.Event())
    took = time.monotonic() - started
    # A burst of 20, then 10 more at 20/s: at least 0.5 s.
    assert len(writes.calls) == 30 and took >= 0.45, took
