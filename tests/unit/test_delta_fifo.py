"""DeltaFIFO: ports of client-go's tools/cache/delta_fifo_test.go (one test per Go test, named
after it), plus the transform and wake-up behaviours kgen adds. Every test runs on both flavours
(``flavour``, tests/support/flavours.py): ``DeltaFIFO`` with a blocking ``pop`` and
``AsyncDeltaFIFO`` popped on the flavour's event loop. Producers call from the test's thread,
which is the asyncio flavour's cross-thread path."""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Any

import pytest

from kgen.runtime.tools.cache.delta_fifo import (
    ADDED, DELETED, REPLACED, SYNC, UPDATED, AsyncDeltaFIFO, Delta, DeletedFinalStateUnknown,
    DeltaFIFO, FIFOClosed,
)
from kgen.runtime.tools.cache import delta_fifo
from tests.support.flavours import Flavour
from tests.support.oracle import oracle_binary


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


AnyDeltaFIFO = DeltaFIFO | AsyncDeltaFIFO


def fifo(flavour: Flavour, *known: FifoObj, lister: bool = True, replaced: bool = False) -> AnyDeltaFIFO:
    cls = flavour.pick(DeltaFIFO, AsyncDeltaFIFO)
    f: AnyDeltaFIFO = cls(key_of, LiteralLister(*known) if lister else None, emit_delta_type_replaced=replaced)
    return f


def noop(deltas: list[Delta], initial: bool) -> None:
    pass


def try_pop(flavour: Flavour, f: AnyDeltaFIFO, process: Any = noop, timeout: float | None = None) -> list[Delta] | None:
    """``f.pop(process, timeout)`` on the flavour (the loop for asyncio). The timeout is pop's,
    so it is passed by position: ``Flavour.call`` keeps its own ``timeout`` keyword."""
    deltas: list[Delta] | None = flavour.call(f.pop, process, timeout)
    return deltas


def pop(flavour: Flavour, f: AnyDeltaFIFO) -> list[Delta]:
    deltas = try_pop(flavour, f, timeout=1)
    assert deltas is not None, "nothing to pop"
    return deltas


def pop_newest(flavour: Flavour, f: AnyDeltaFIFO) -> FifoObj:
    obj: FifoObj = pop(flavour, f)[-1].object
    return obj


def tombstone(key: str, obj: Any) -> Delta:
    return Delta(DELETED, DeletedFinalStateUnknown(key, obj))


def test_delta_fifo_basic(flavour: Flavour) -> None:
    f = fifo(flavour, lister=False)
    amount = 500

    def producer(prefix: str) -> None:
        for i in range(amount):
            f.add(mk(f"{prefix}{i}", (prefix, i + 1)))

    threads = [threading.Thread(target=producer, args=(p,)) for p in "ab"]
    for t in threads:
        t.start()
    last = {"a": 0, "b": 0}
    for _ in range(amount * 2):
        prefix, val = pop_newest(flavour, f).val
        assert val > last[prefix], f"{prefix}{val} out of order after {last[prefix]}"
        last[prefix] = val
    for t in threads:
        t.join()


def test_delta_fifo_replace_with_delete_delta_in(flavour: Flavour) -> None:
    old, new = mk("foo", 1), mk("foo", 2)
    f = fifo(flavour, old)
    f.delete(old)
    f.replace([new], "")
    assert pop(flavour, f) == [Delta(DELETED, old), Delta(SYNC, new)]


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
    flavour: Flavour, with_known_objects: bool, operations: Any, expected: Any
) -> None:
    obj, obj_v2 = mk("foo", 2), mk("foo", 3)
    f = fifo(flavour, lister=with_known_objects)
    operations(f, obj, obj_v2)
    assert pop(flavour, f) == expected(obj, obj_v2)
    assert f.list_keys() == [], "no extra deltas"


def test_delta_fifo_add_update(flavour: Flavour) -> None:
    f = fifo(flavour, lister=False)
    f.add(mk("foo", 10))
    f.update(mk("foo", 12))
    f.delete(mk("foo", 15))
    assert f.list() == [mk("foo", 15)]
    assert f.list_keys() == ["foo"]
    assert pop_newest(flavour, f).val == 15
    assert try_pop(flavour, f, timeout=0.05) is None, "got a second value"
    assert f.get(mk("foo", "")) is None, "item did not get removed"


def test_delta_fifo_enqueueing_no_lister(flavour: Flavour) -> None:
    f = fifo(flavour, lister=False)
    f.add(mk("foo", 10))
    f.update(mk("bar", 15))
    f.add(mk("qux", 17))
    f.delete(mk("qux", 18))
    f.delete(mk("baz", 20))  # enqueues nothing: baz does not exist
    assert [pop_newest(flavour, f).val for _ in range(3)] == [10, 15, 18]
    assert len(f) == 0


def test_delta_fifo_enqueueing_with_lister(flavour: Flavour) -> None:
    f = fifo(flavour, mk("foo", 5), mk("bar", 6), mk("baz", 7))
    f.add(mk("foo", 10))
    f.update(mk("bar", 15))
    f.delete(mk("baz", 20))  # enqueued: baz is a known object
    assert [pop_newest(flavour, f).val for _ in range(3)] == [10, 15, 20]
    assert len(f) == 0


def test_delta_fifo_add_replace(flavour: Flavour) -> None:
    f = fifo(flavour, lister=False)
    f.add(mk("foo", 10))
    f.replace([mk("foo", 15)], "0")
    assert pop_newest(flavour, f).val == 15
    assert try_pop(flavour, f, timeout=0.05) is None, "got a second value"
    assert f.get(mk("foo", "")) is None, "item did not get removed"


def test_delta_fifo_resync_non_existing(flavour: Flavour) -> None:
    f = fifo(flavour, mk("foo", 5))
    f.delete(mk("foo", 10))
    f.resync()
    assert f.get_by_key("foo") == [Delta(DELETED, mk("foo", 10))]


def test_delta_fifo_resync(flavour: Flavour) -> None:
    f = fifo(flavour, mk("foo", 5))
    f.resync()
    assert f.get_by_key("foo") == [Delta(SYNC, mk("foo", 5))]


def test_delta_fifo_delete_existing_non_propagated(flavour: Flavour) -> None:
    f = fifo(flavour)
    f.add(mk("foo", 5))
    f.delete(mk("foo", 6))
    assert f.get_by_key("foo") == [Delta(ADDED, mk("foo", 5)), Delta(DELETED, mk("foo", 6))]


KNOWN = (mk("foo", 5), mk("bar", 6), mk("baz", 7))


def test_delta_fifo_replace_makes_deletions(flavour: Flavour) -> None:
    # A pre-existing Delete.
    f = fifo(flavour, *KNOWN)
    f.delete(mk("baz", 10))
    f.replace([mk("foo", 5)], "0")
    assert [pop(flavour, f) for _ in range(3)] == [
        [Delta(DELETED, mk("baz", 10))],
        [Delta(SYNC, mk("foo", 5))],
        [tombstone("bar", mk("bar", 6))],  # no delete event, not in the list: tombstone
    ]

    # A pre-existing Add.
    f = fifo(flavour, *KNOWN)
    f.add(mk("baz", 10))
    f.replace([mk("foo", 5)], "0")
    assert [pop(flavour, f) for _ in range(3)] == [
        [Delta(ADDED, mk("baz", 10)), tombstone("baz", mk("baz", 10))],
        [Delta(SYNC, mk("foo", 5))],
        [tombstone("bar", mk("bar", 6))],
    ]

    # Deleted and recreated in the queue, then deleted by a Replace: the tombstone carries the
    # newest object from the queue, not the known one.
    f = fifo(flavour, *KNOWN)
    f.delete(mk("bar", 6))
    f.add(mk("bar", 100))
    f.replace([mk("foo", 5)], "0")
    assert [pop(flavour, f) for _ in range(3)] == [
        [Delta(DELETED, mk("bar", 6)), Delta(ADDED, mk("bar", 100)), tombstone("bar", mk("bar", 100))],
        [Delta(SYNC, mk("foo", 5))],
        [tombstone("baz", mk("baz", 7))],
    ]

    # Synced first: the delete uses the latest version.
    f = fifo(flavour, *KNOWN)
    f.replace([mk("bar", 100), mk("foo", 5)], "0")
    f.replace([mk("foo", 5)], "0")
    assert [pop(flavour, f) for _ in range(3)] == [
        [Delta(SYNC, mk("bar", 100)), tombstone("bar", mk("bar", 100))],
        [Delta(SYNC, mk("foo", 5)), Delta(SYNC, mk("foo", 5))],
        [tombstone("baz", mk("baz", 7))],
    ]

    # Without known objects.
    f = fifo(flavour, lister=False)
    f.add(mk("baz", 10))
    f.replace([mk("foo", 5)], "0")
    assert [pop(flavour, f) for _ in range(2)] == [
        [Delta(ADDED, mk("baz", 10)), tombstone("baz", mk("baz", 10))],
        [Delta(SYNC, mk("foo", 5))],
    ]


def test_delta_fifo_replace_makes_deletions_replaced(flavour: Flavour) -> None:
    f = fifo(flavour, *KNOWN, replaced=True)
    f.delete(mk("baz", 10))
    f.replace([mk("foo", 6)], "0")
    assert [pop(flavour, f) for _ in range(3)] == [
        [Delta(DELETED, mk("baz", 10))],
        [Delta(REPLACED, mk("foo", 6))],
        [tombstone("bar", mk("bar", 6))],
    ]


def test_delta_fifo_replace_delta_type(flavour: Flavour) -> None:
    f = fifo(flavour, mk("foo", 5), replaced=True)
    f.replace([mk("foo", 5)], "0")
    assert pop(flavour, f) == [Delta(REPLACED, mk("foo", 5))]


def test_delta_fifo_update_resync_race(flavour: Flavour) -> None:
    f = fifo(flavour, mk("foo", 5))
    f.update(mk("foo", 6))
    f.resync()  # foo has a pending change: no stale Sync behind it
    assert pop(flavour, f) == [Delta(UPDATED, mk("foo", 6))]


def test_delta_fifo_has_synced_correct_on_deletion(flavour: Flavour) -> None:
    f = fifo(flavour, *KNOWN)
    f.replace([mk("foo", 5)], "0")
    expected = [
        [Delta(SYNC, mk("foo", 5))],
        [tombstone("bar", mk("bar", 6))],
        [tombstone("baz", mk("baz", 7))],
    ]
    for deltas in expected:
        assert not f.has_synced()
        assert pop(flavour, f) == deltas
    assert f.has_synced()


def test_delta_fifo_detect_line_jumpers(flavour: Flavour) -> None:
    f = fifo(flavour, lister=False)
    f.add(mk("foo", 10))
    f.add(mk("bar", 1))
    f.add(mk("foo", 11))
    f.add(mk("foo", 13))
    f.add(mk("zab", 30))
    assert pop_newest(flavour, f).val == 13
    f.add(mk("foo", 14))  # foo must not jump back in line
    assert [pop_newest(flavour, f).val for _ in range(3)] == [1, 30, 14]


def test_delta_fifo_key_of(flavour: Flavour) -> None:
    f = fifo(flavour, lister=False)
    assert f.key_of(FifoObj("A", None)) == "A"
    assert f.key_of(DeletedFinalStateUnknown("B", None)) == "B"
    assert f.key_of([Delta(ADDED, FifoObj("C", None))]) == "C"
    assert f.key_of([Delta(DELETED, DeletedFinalStateUnknown("D", None))]) == "D"


POP = "pop"  # an action of test_delta_fifo_has_synced: pop on the flavour


@pytest.mark.parametrize(
    "actions, synced",
    [
        ([], False),
        ([lambda f: f.add(mk("a", 1))], True),
        ([lambda f: f.replace([], "0")], True),
        ([lambda f: f.replace([mk("a", 1), mk("b", 2)], "0")], False),
        ([lambda f: f.replace([mk("a", 1), mk("b", 2)], "0"), POP], False),
        ([lambda f: f.replace([mk("a", 1), mk("b", 2)], "0"), POP, POP], True),
        # Duplicate keys cannot come from a real list, but count once.
        ([lambda f: f.replace([mk("a", 1), mk("a", 2)], "0"), POP], True),
    ],
)
def test_delta_fifo_has_synced(flavour: Flavour, actions: list[Any], synced: bool) -> None:
    f = fifo(flavour, lister=False)
    for action in actions:
        if action is POP:
            pop(flavour, f)
        else:
            action(f)
    assert f.has_synced() is synced


def test_delta_fifo_pop_should_unblock_when_closed(flavour: Flavour) -> None:
    f = fifo(flavour, mk("foo", 5))
    poppers = [flavour.start(f.pop, noop) for _ in range(10)]  # threads, or tasks on the loop
    time.sleep(0.05)
    f.close()
    outcomes: list[str] = []
    for popper in poppers:
        popper.join(0.5)
        assert not popper.is_alive(), "pop did not return after close"
        try:
            popper.result()
            outcomes.append("popped")
        except FIFOClosed:
            outcomes.append("closed")
    assert outcomes == ["closed"] * 10


def test_two_deletions_collapse_to_the_older_unless_it_is_a_tombstone(flavour: Flavour) -> None:
    f = fifo(flavour, mk("foo", 1))
    f.delete(mk("foo", 2))
    f.delete(mk("foo", 3))
    assert f.get_by_key("foo") == [Delta(DELETED, mk("foo", 2))]

    f = fifo(flavour, mk("foo", 1))
    f.replace([], "0")  # foo vanished: tombstone
    f.delete(mk("foo", 3))  # then the real delete arrives: it carries the final state
    assert f.get_by_key("foo") == [Delta(DELETED, mk("foo", 3))]


def test_transformer_runs_once_per_object_and_never_on_tombstones_or_sync(flavour: Flavour) -> None:
    seen: list[Any] = []

    def transform(obj: Any) -> Any:
        assert not isinstance(obj, DeletedFinalStateUnknown)
        seen.append(obj)
        return FifoObj(obj.name, ("t", obj.val))

    cls = flavour.pick(DeltaFIFO, AsyncDeltaFIFO)
    f = cls(key_of, LiteralLister(mk("known", ("t", 1)), mk("gone", ("t", 9))), transformer=transform)
    f.add(mk("new", 1))
    f.update(mk("new", 2))
    f.replace([mk("known", 3), mk("new", 4)], "5")  # gone -> tombstone, untransformed
    assert pop(flavour, f) == [
        Delta(ADDED, mk("new", ("t", 1))), Delta(UPDATED, mk("new", ("t", 2))), Delta(SYNC, mk("new", ("t", 4)))
    ]
    assert pop(flavour, f) == [Delta(SYNC, mk("known", ("t", 3)))]
    assert pop(flavour, f) == [tombstone("gone", mk("gone", ("t", 9)))]
    seen.clear()
    f.resync()  # Sync deltas come from the (already transformed) known objects
    assert pop(flavour, f) == [Delta(SYNC, mk("known", ("t", 1)))]
    assert seen == []


def test_pop_waits_for_a_producer_on_any_thread_and_unblocks_on_close(flavour: Flavour) -> None:
    f = fifo(flavour, lister=False)
    popped = flavour.start(f.pop, noop)
    time.sleep(0.01)
    assert popped.is_alive()
    flavour.do(f.add, mk("a", 1))  # from the consumer's side: the loop's thread for asyncio
    assert popped.result(1)[-1].object == mk("a", 1)

    popped = flavour.start(f.pop, noop)
    time.sleep(0.01)
    assert popped.is_alive()
    threading.Thread(target=f.add, args=(mk("b", 2),)).start()  # from another thread too
    assert popped.result(1)[-1].object == mk("b", 2)

    waiting = flavour.start(f.pop, noop)
    time.sleep(0.01)
    flavour.do(f.close)
    with pytest.raises(FIFOClosed):
        waiting.result(1)


# -- against client-go's DeltaFIFO (the Go oracle hack/oracle/deltafifo) -----------------------


@pytest.fixture(scope="module")
def client_go() -> dict[str, Any]:
    """What client-go's DeltaFIFO offers (its exported methods) and does when a Pop fails."""
    done = subprocess.run([str(oracle_binary("deltafifo"))], capture_output=True, text=True, timeout=60, check=True)
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def described(deltas: list[Delta]) -> list[str]:
    """Deltas as the oracle prints them: "<type> <name> <val>"."""
    return [f"{d.type} {d.object.name} {d.object.val}" for d in deltas]


#: Every exception class the module defines, and one any handler may raise: whatever a process
#: function raises, pop hands it to the caller and the deltas stay popped.
PROCESS_ERRORS = [
    RuntimeError,
    *(v for v in vars(delta_fifo).values()
      if isinstance(v, type) and issubclass(v, Exception) and v.__module__ == delta_fifo.__name__),
]


@pytest.mark.parametrize("error", PROCESS_ERRORS, ids=lambda cls: cls.__name__)
def test_a_failed_pop_never_puts_its_deltas_back_as_in_client_go(
    flavour: Flavour, client_go: dict[str, Any], error: type[Exception]
) -> None:
    f = fifo(flavour, lister=False)
    f.add(mk("foo", 1))
    f.update(mk("foo", 2))
    handed: list[list[Delta]] = []

    def failing(deltas: list[Delta], initial: bool) -> None:
        handed.append(list(deltas))
        raise error()

    with pytest.raises(error):
        try_pop(flavour, f, failing, timeout=1)
    assert [described(d) for d in handed] == [client_go["failed_pop"]["popped"]]
    f.add(mk("foo", 3))
    assert described(pop(flavour, f)) == client_go["next_pop"], "the failed deltas came back"
    assert len(f) == 0


def _snake(go_name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", go_name).lower()


#: What kgen keeps beyond client-go's DeltaFIFO: read-only views of the queue (tests and debugging
#: look at them), and ``pop_batch``, client-go's QueueWithBatch.PopBatch (RealFIFO's, used by
#: informers under InOrderInformersBatchProcess, beta and on since 1.35). None of them can put
#: deltas into the queue.
READ_ONLY_VIEWS = {"get", "get_by_key", "list", "list_keys", "pop_batch"}


def test_delta_fifo_offers_no_operation_client_go_removed(flavour: Flavour, client_go: dict[str, Any]) -> None:
    cls = flavour.pick(DeltaFIFO, AsyncDeltaFIFO)
    ours = {
        name for klass in cls.__mro__ for name, value in vars(klass).items()
        if not name.startswith("_") and callable(value) and not isinstance(value, type)
    }
    theirs = {_snake(name) for name in client_go["methods"]}
    assert ours - theirs - READ_ONLY_VIEWS == set(), "operations client-go's DeltaFIFO does not have"
    assert {"add", "update", "delete", "replace", "resync", "pop", "close"} <= ours & theirs
