"""DeltaFIFO: ports of client-go's tools/cache/delta_fifo_test.go (one test per Go test, named
after it), plus the transform and asyncio behaviours kgen adds."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from typing import Any

import pytest

from kgen.runtime.tools.cache.delta_fifo import (
    ADDED, DELETED, REPLACED, SYNC, UPDATED, AsyncDeltaFIFO, Delta, DeletedFinalStateUnknown, DeltaFIFO,
    FIFOClosed, Requeue,
)


@dataclass(frozen=True)
class FifoObj:
    name: str
    val: Any


def mk(name: str, val: Any) -> FifoObj:
    return FifoObj(name, val)


def key_of(obj: FifoObj) -> str:
    return obj.name


class LiteralLister:
    """client-go's literalListerGetter: known objects from a fixed list."""

    def __init__(self, *objs: FifoObj) -> None:
        self.objs = list(objs)

    def list_keys(self) -> list[str]:
        return [o.name for o in self.objs]

    def get_by_key(self, key: str) -> FifoObj | None:
        return next((o for o in self.objs if o.name == key), None)


def fifo(*known: FifoObj, lister: bool = True, replaced: bool = False) -> DeltaFIFO:
    return DeltaFIFO(key_of, LiteralLister(*known) if lister else None, emit_delta_type_replaced=replaced)


def pop(f: DeltaFIFO) -> list[Delta]:
    deltas = f.pop(lambda deltas, initial: None, timeout=1)
    assert deltas is not None, "nothing to pop"
    return deltas


def pop_newest(f: DeltaFIFO) -> FifoObj:
    return pop(f)[-1].object


def tombstone(key: str, obj: Any) -> Delta:
    return Delta(DELETED, DeletedFinalStateUnknown(key, obj))


def test_delta_fifo_basic() -> None:
    f = fifo(lister=False)
    amount = 500

    def producer(prefix: str) -> None:
        for i in range(amount):
            f.add(mk(f"{prefix}{i}", (prefix, i + 1)))

    threads = [threading.Thread(target=producer, args=(p,)) for p in "ab"]
    for t in threads:
        t.start()
    last = {"a": 0, "b": 0}
    for _ in range(amount * 2):
        prefix, val = pop_newest(f).val
        assert val > last[prefix], f"{prefix}{val} out of order after {last[prefix]}"
        last[prefix] = val
    for t in threads:
        t.join()


def test_delta_fifo_replace_with_delete_delta_in() -> None:
    old, new = mk("foo", 1), mk("foo", 2)
    f = fifo(old)
    f.delete(old)
    f.replace([new], "")
    assert pop(f) == [Delta(DELETED, old), Delta(SYNC, new)]


@pytest.mark.parametrize("with_known_objects", [True, False])
@pytest.mark.parametrize(
    "operations, expected",
    [
        pytest.param(
            lambda f, o, o2: (f.add(o), f.replace([], "0")),
            lambda o, o2: [Delta(ADDED, o), tombstone("foo", o)],
            id="added object should be deleted on replace",
        ),
        pytest.param(
            lambda f, o, o2: (setattr(f, "emit_delta_type_replaced", True), f.add(o), f.replace([o], "0"), f.replace([], "0")),
            lambda o, o2: [Delta(ADDED, o), Delta(REPLACED, o), tombstone("foo", o)],
            id="replaced object should have only a single delete",
        ),
        pytest.param(
            lambda f, o, o2: (f.add(o), f.delete(o), f.replace([], "0")),
            lambda o, o2: [Delta(ADDED, o), Delta(DELETED, o)],
            id="deleted object should have only a single delete",
        ),
        pytest.param(
            lambda f, o, o2: (f.add(o), f.replace([o], "0"), f.replace([o], "0"), f.replace([], "0")),
            lambda o, o2: [Delta(ADDED, o), Delta(SYNC, o), Delta(SYNC, o), tombstone("foo", o)],
            id="synced objects should have a single delete",
        ),
        pytest.param(
            lambda f, o, o2: (f.add(o), f.replace([], "0"), f.replace([], "1")),
            lambda o, o2: [Delta(ADDED, o), tombstone("foo", o)],
            id="added objects should have a single delete on multiple replaces",
        ),
        pytest.param(
            lambda f, o, o2: (f.add(o), f.delete(o), f.add(o2), f.replace([], "0")),
            lambda o, o2: [Delta(ADDED, o), Delta(DELETED, o), Delta(ADDED, o2), tombstone("foo", o2)],
            id="added and deleted and added object should be deleted",
        ),
    ],
)
def test_delta_fifo_replace_makes_deletions_for_objects_only_in_queue(
    with_known_objects: bool, operations: Any, expected: Any
) -> None:
    obj, obj_v2 = mk("foo", 2), mk("foo", 3)
    f = fifo(lister=with_known_objects)
    operations(f, obj, obj_v2)
    assert pop(f) == expected(obj, obj_v2)
    assert f.list_keys() == [], "no extra deltas"


def test_delta_fifo_requeue_on_pop() -> None:
    f = fifo(lister=False)
    f.add(mk("foo", 10))

    def requeue(deltas: list[Delta], initial: bool) -> None:
        assert deltas[0].object.name == "foo"
        raise Requeue()

    f.pop(requeue)
    assert f.get_by_key("foo") is not None, "object should have been requeued"

    def requeue_with_error(deltas: list[Delta], initial: bool) -> None:
        raise Requeue(ValueError("test error"))

    with pytest.raises(ValueError, match="test error"):
        f.pop(requeue_with_error)
    assert f.get_by_key("foo") is not None, "object should have been requeued"

    f.pop(lambda deltas, initial: None)
    assert f.get_by_key("foo") is None, "object should have been removed"


def test_delta_fifo_add_update() -> None:
    f = fifo(lister=False)
    f.add(mk("foo", 10))
    f.update(mk("foo", 12))
    f.delete(mk("foo", 15))
    assert f.list() == [mk("foo", 15)]
    assert f.list_keys() == ["foo"]
    assert pop_newest(f).val == 15
    assert f.pop(lambda d, i: None, timeout=0.05) is None, "got a second value"
    assert f.get(mk("foo", "")) is None, "item did not get removed"


def test_delta_fifo_enqueueing_no_lister() -> None:
    f = fifo(lister=False)
    f.add(mk("foo", 10))
    f.update(mk("bar", 15))
    f.add(mk("qux", 17))
    f.delete(mk("qux", 18))
    f.delete(mk("baz", 20))  # enqueues nothing: baz does not exist
    assert [pop_newest(f).val for _ in range(3)] == [10, 15, 18]
    assert len(f) == 0


def test_delta_fifo_enqueueing_with_lister() -> None:
    f = fifo(mk("foo", 5), mk("bar", 6), mk("baz", 7))
    f.add(mk("foo", 10))
    f.update(mk("bar", 15))
    f.delete(mk("baz", 20))  # enqueued: baz is a known object
    assert [pop_newest(f).val for _ in range(3)] == [10, 15, 20]
    assert len(f) == 0


def test_delta_fifo_add_replace() -> None:
    f = fifo(lister=False)
    f.add(mk("foo", 10))
    f.replace([mk("foo", 15)], "0")
    assert pop_newest(f).val == 15
    assert f.pop(lambda d, i: None, timeout=0.05) is None, "got a second value"
    assert f.get(mk("foo", "")) is None, "item did not get removed"


def test_delta_fifo_resync_non_existing() -> None:
    f = fifo(mk("foo", 5))
    f.delete(mk("foo", 10))
    f.resync()
    assert f.get_by_key("foo") == [Delta(DELETED, mk("foo", 10))]


def test_delta_fifo_resync() -> None:
    f = fifo(mk("foo", 5))
    f.resync()
    assert f.get_by_key("foo") == [Delta(SYNC, mk("foo", 5))]


def test_delta_fifo_delete_existing_non_propagated() -> None:
    f = fifo()
    f.add(mk("foo", 5))
    f.delete(mk("foo", 6))
    assert f.get_by_key("foo") == [Delta(ADDED, mk("foo", 5)), Delta(DELETED, mk("foo", 6))]


KNOWN = (mk("foo", 5), mk("bar", 6), mk("baz", 7))


def test_delta_fifo_replace_makes_deletions() -> None:
    # A pre-existing Delete.
    f = fifo(*KNOWN)
    f.delete(mk("baz", 10))
    f.replace([mk("foo", 5)], "0")
    assert [pop(f) for _ in range(3)] == [
        [Delta(DELETED, mk("baz", 10))],
        [Delta(SYNC, mk("foo", 5))],
        [tombstone("bar", mk("bar", 6))],  # no delete event, not in the list: tombstone
    ]

    # A pre-existing Add.
    f = fifo(*KNOWN)
    f.add(mk("baz", 10))
    f.replace([mk("foo", 5)], "0")
    assert [pop(f) for _ in range(3)] == [
        [Delta(ADDED, mk("baz", 10)), tombstone("baz", mk("baz", 10))],
        [Delta(SYNC, mk("foo", 5))],
        [tombstone("bar", mk("bar", 6))],
    ]

    # Deleted and recreated in the queue, then deleted by a Replace: the tombstone carries the
    # newest object from the queue, not the known one.
    f = fifo(*KNOWN)
    f.delete(mk("bar", 6))
    f.add(mk("bar", 100))
    f.replace([mk("foo", 5)], "0")
    assert [pop(f) for _ in range(3)] == [
        [Delta(DELETED, mk("bar", 6)), Delta(ADDED, mk("bar", 100)), tombstone("bar", mk("bar", 100))],
        [Delta(SYNC, mk("foo", 5))],
        [tombstone("baz", mk("baz", 7))],
    ]

    # Synced first: the delete uses the latest version.
    f = fifo(*KNOWN)
    f.replace([mk("bar", 100), mk("foo", 5)], "0")
    f.replace([mk("foo", 5)], "0")
    assert [pop(f) for _ in range(3)] == [
        [Delta(SYNC, mk("bar", 100)), tombstone("bar", mk("bar", 100))],
        [Delta(SYNC, mk("foo", 5)), Delta(SYNC, mk("foo", 5))],
        [tombstone("baz", mk("baz", 7))],
    ]

    # Without known objects.
    f = fifo(lister=False)
    f.add(mk("baz", 10))
    f.replace([mk("foo", 5)], "0")
    assert [pop(f) for _ in range(2)] == [
        [Delta(ADDED, mk("baz", 10)), tombstone("baz", mk("baz", 10))],
        [Delta(SYNC, mk("foo", 5))],
    ]


def test_delta_fifo_replace_makes_deletions_replaced() -> None:
    f = fifo(*KNOWN, replaced=True)
    f.delete(mk("baz", 10))
    f.replace([mk("foo", 6)], "0")
    assert [pop(f) for _ in range(3)] == [
        [Delta(DELETED, mk("baz", 10))],
        [Delta(REPLACED, mk("foo", 6))],
        [tombstone("bar", mk("bar", 6))],
    ]


def test_delta_fifo_replace_delta_type() -> None:
    f = fifo(mk("foo", 5), replaced=True)
    f.replace([mk("foo", 5)], "0")
    assert pop(f) == [Delta(REPLACED, mk("foo", 5))]


def test_delta_fifo_update_resync_race() -> None:
    f = fifo(mk("foo", 5))
    f.update(mk("foo", 6))
    f.resync()  # foo has a pending change: no stale Sync behind it
    assert pop(f) == [Delta(UPDATED, mk("foo", 6))]


def test_delta_fifo_has_synced_correct_on_deletion() -> None:
    f = fifo(*KNOWN)
    f.replace([mk("foo", 5)], "0")
    expected = [
        [Delta(SYNC, mk("foo", 5))],
        [tombstone("bar", mk("bar", 6))],
        [tombstone("baz", mk("baz", 7))],
    ]
    for deltas in expected:
        assert not f.has_synced()
        assert pop(f) == deltas
    assert f.has_synced()


def test_delta_fifo_detect_line_jumpers() -> None:
    f = fifo(lister=False)
    f.add(mk("foo", 10))
    f.add(mk("bar", 1))
    f.add(mk("foo", 11))
    f.add(mk("foo", 13))
    f.add(mk("zab", 30))
    assert pop_newest(f).val == 13
    f.add(mk("foo", 14))  # foo must not jump back in line
    assert [pop_newest(f).val for _ in range(3)] == [1, 30, 14]


def test_delta_fifo_add_if_not_present() -> None:
    f = fifo(lister=False)
    with pytest.raises(ValueError, match="zero-length"):
        f.add_if_not_present([])
    f.add(mk("b", 3))
    b3 = pop(f)
    f.add(mk("c", 4))
    c4 = pop(f)
    assert len(f) == 0
    f.add(mk("a", 1))
    f.add(mk("b", 2))
    f.add_if_not_present(b3)  # b has newer deltas queued: ignored
    f.add_if_not_present(c4)
    assert len(f) == 3
    assert [pop_newest(f).val for _ in range(3)] == [1, 2, 4]


def test_delta_fifo_key_of() -> None:
    f = fifo(lister=False)
    assert f.key_of(FifoObj("A", None)) == "A"
    assert f.key_of(DeletedFinalStateUnknown("B", None)) == "B"
    assert f.key_of([Delta(ADDED, FifoObj("C", None))]) == "C"
    assert f.key_of([Delta(DELETED, DeletedFinalStateUnknown("D", None))]) == "D"


@pytest.mark.parametrize(
    "actions, synced",
    [
        ([], False),
        ([lambda f: f.add(mk("a", 1))], True),
        ([lambda f: f.replace([], "0")], True),
        ([lambda f: f.replace([mk("a", 1), mk("b", 2)], "0")], False),
        ([lambda f: f.replace([mk("a", 1), mk("b", 2)], "0"), pop], False),
        ([lambda f: f.replace([mk("a", 1), mk("b", 2)], "0"), pop, pop], True),
        # Duplicate keys cannot come from a real list, but count once.
        ([lambda f: f.replace([mk("a", 1), mk("a", 2)], "0"), pop], True),
    ],
)
def test_delta_fifo_has_synced(actions: list[Any], synced: bool) -> None:
    f = fifo(lister=False)
    for action in actions:
        action(f)
    assert f.has_synced() is synced


def test_delta_fifo_pop_should_unblock_when_closed() -> None:
    f = fifo(mk("foo", 5))
    outcomes: list[str] = []

    def popper() -> None:
        try:
            f.pop(lambda d, i: None)
            outcomes.append("popped")
        except FIFOClosed:
            outcomes.append("closed")

    threads = [threading.Thread(target=popper) for _ in range(10)]
    for t in threads:
        t.start()
    time.sleep(0.05)
    f.close()
    for t in threads:
        t.join(0.5)
        assert not t.is_alive(), "pop did not return after close"
    assert outcomes == ["closed"] * 10


def test_two_deletions_collapse_to_the_older_unless_it_is_a_tombstone() -> None:
    f = fifo(mk("foo", 1))
    f.delete(mk("foo", 2))
    f.delete(mk("foo", 3))
    assert f.get_by_key("foo") == [Delta(DELETED, mk("foo", 2))]

    f = fifo(mk("foo", 1))
    f.replace([], "0")  # foo vanished: tombstone
    f.delete(mk("foo", 3))  # then the real delete arrives: it carries the final state
    assert f.get_by_key("foo") == [Delta(DELETED, mk("foo", 3))]


def test_transformer_runs_once_per_object_and_never_on_tombstones_or_sync() -> None:
    seen: list[Any] = []

    def transform(obj: Any) -> Any:
        assert not isinstance(obj, DeletedFinalStateUnknown)
        seen.append(obj)
        return FifoObj(obj.name, ("t", obj.val))

    f = DeltaFIFO(key_of, LiteralLister(mk("known", ("t", 1)), mk("gone", ("t", 9))), transformer=transform)
    f.add(mk("new", 1))
    f.update(mk("new", 2))
    f.replace([mk("known", 3), mk("new", 4)], "5")  # gone -> tombstone, untransformed
    assert pop(f) == [
        Delta(ADDED, mk("new", ("t", 1))), Delta(UPDATED, mk("new", ("t", 2))), Delta(SYNC, mk("new", ("t", 4)))
    ]
    assert pop(f) == [Delta(SYNC, mk("known", ("t", 3)))]
    assert pop(f) == [tombstone("gone", mk("gone", ("t", 9)))]
    seen.clear()
    f.resync()  # Sync deltas come from the (already transformed) known objects
    assert pop(f) == [Delta(SYNC, mk("known", ("t", 1)))]
    assert seen == []


def test_async_delta_fifo_pop_waits_for_a_producer_and_unblocks_on_close() -> None:
    async def scenario() -> None:
        f = AsyncDeltaFIFO(key_of)
        popped = asyncio.ensure_future(f.pop(lambda d, i: None))
        await asyncio.sleep(0.01)
        assert not popped.done()
        f.add(mk("a", 1))
        assert (await asyncio.wait_for(popped, 1))[-1].object == mk("a", 1)

        threading.Thread(target=f.add, args=(mk("b", 2),)).start()  # from another thread too
        assert (await asyncio.wait_for(f.pop(lambda d, i: None), 1))[-1].object == mk("b", 2)

        waiting = asyncio.ensure_future(f.pop(lambda d, i: None))
        await asyncio.sleep(0.01)
        f.close()
        with pytest.raises(FIFOClosed):
            await asyncio.wait_for(waiting, 1)

    asyncio.run(scenario())
