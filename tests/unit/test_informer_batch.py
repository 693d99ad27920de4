"""The informer's batched sync path, on both flavours: DeltaFIFO.pop_batch (client-go's
QueueWithBatch.PopBatch, as RealFIFO has it), SharedIndexInformer.handle_delta_batch (client-go's
processDeltasInBatch: the indexer takes the batch, then the handlers get its notifications) and
the processor's workers taking a listener's whole buffer at once. What must not change is what
handlers see: the same notifications in the same order as one pop per key, ``has_synced`` never
true early, and a stop still ending a worker after the notification in progress."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from kgen.runtime.tools.cache.delta_fifo import AsyncDeltaFIFO, DeltaFIFO, FIFOClosed
from kgen.runtime.tools.cache.processor import (
    AddNotification,
    ProcessorCore,
    ProcessorListener,
    ResourceEventHandlerFuncs,
    SharedProcessor,
)
from kgen.runtime.tools.cache.shared_informer import HandlerRegistration
from kgen.runtime.util.wait_group import WaitGroup
from tests.support.fake_source import FakeControllerSource, pod
from tests.support.flavours import Flavour
from tests.unit.test_shared_informer_unit import informer_for, notes


def _name(obj: Any) -> str:
    return str(obj["metadata"]["name"])


def _fifo(flavour: Flavour) -> DeltaFIFO | AsyncDeltaFIFO:
    fifo: DeltaFIFO | AsyncDeltaFIFO = flavour.pick(DeltaFIFO, AsyncDeltaFIFO)(_name)
    return fifo


def test_pop_batch_hands_keys_oldest_first_up_to_the_limit(flavour: Flavour) -> None:
    fifo = _fifo(flavour)
    for name in "abcde":
        fifo.add(pod(name, "1"))
    fifo.update(pod("b", "2"))  # b keeps its place, with both deltas
    batches: list[list[tuple[str, list[str]]]] = []

    def process(batch: Any) -> None:
        batches.append([(_name(deltas[-1].object), [d.type for d in deltas]) for deltas, _ in batch])

    flavour.call(lambda: fifo.pop_batch(process, 3, timeout=1))
    flavour.call(lambda: fifo.pop_batch(process, 3, timeout=1))
    assert batches == [[("a", ["Added"]), ("b", ["Added", "Updated"]), ("c", ["Added"])],
                       [("d", ["Added"]), ("e", ["Added"])]]
    assert flavour.call(lambda: fifo.pop_batch(process, 3, timeout=0.05)) is None
    fifo.close()
    with pytest.raises(FIFOClosed):
        flavour.call(lambda: fifo.pop_batch(process, 3, timeout=1))


def test_pop_batch_keeps_has_synced_false_until_the_first_list_is_processed(flavour: Flavour) -> None:
    fifo = _fifo(flavour)
    fifo.replace([pod(name, "1") for name in "abc"], "1")
    fifo.add(pod("d", "2"))  # after the first list: not part of it
    seen: list[tuple[list[bool], bool]] = []

    def process(batch: Any) -> None:
        seen.append(([in_initial for _, in_initial in batch], fifo.has_synced()))

    flavour.call(lambda: fifo.pop_batch(process, 2, timeout=1))
    assert not fifo.has_synced()
    flavour.call(lambda: fifo.pop_batch(process, 2, timeout=1))
    assert fifo.has_synced()
    # Asked from inside process (the lock is reentrant), the answer is still False.
    assert seen == [([True, True], False), ([True, False], False)]


def test_pop_batch_deltas_are_gone_when_process_raises(flavour: Flavour) -> None:
    fifo = _fifo(flavour)
    fifo.replace([pod(name, "1") for name in "ab"], "1")

    def fail(batch: Any) -> None:
        raise ValueError("process failed")

    with pytest.raises(ValueError):
        flavour.call(lambda: fifo.pop_batch(fail, 10, timeout=1))
    assert fifo.list_keys() == [] and fifo.has_synced()  # nothing put back, as client-go


# -- the informer: batches deliver what single pops deliver --------------------------------


def _drain(flavour: Flavour, informer: Any, batched: bool, rng: random.Random) -> None:
    if batched:
        limit = rng.randint(1, 7)
        while flavour.call(lambda: informer.fifo.pop_batch(informer.handle_delta_batch, limit, timeout=0)) is not None:
            limit = rng.randint(1, 7)
    else:
        while flavour.call(lambda: informer.fifo.pop(informer.handle_deltas, timeout=0)) is not None:
            pass


def _operations(rng: random.Random, steps: int) -> list[tuple[str, Any]]:
    """A random run of the reflector's calls on a few keys, each with a fresh resourceVersion."""
    ops: list[tuple[str, Any]] = []
    for rv in range(1, steps + 1):
        choice = rng.random()
        if choice < 0.15:
            names = rng.sample("abcdefgh", rng.randint(0, 8))
            ops.append(("replace", [pod(name, str(rv), "ns") for name in names]))
        elif choice < 0.3:
            ops.append(("delete", pod(rng.choice("abcdefgh"), str(rv), "ns")))
        elif choice < 0.4:
            ops.append(("drain", None))
        else:
            ops.append((rng.choice(["add", "update"]), pod(rng.choice("abcdefgh"), str(rv), "ns")))
    return ops + [("drain", None)]


@pytest.mark.parametrize("seed", range(12))
def test_batched_informer_hands_handlers_what_single_pops_do(flavour: Flavour, seed: int) -> None:
    rng = random.Random(seed)
    ops = _operations(rng, 60)
    outcomes = []
    for batched in (False, True):
        informer = informer_for(flavour, FakeControllerSource(), 0)
        handle: HandlerRegistration = flavour.do(informer.add_event_handler)
        for op, arg in ops:
            if op == "drain":
                _drain(flavour, informer, batched, random.Random(seed))
            elif op == "replace":
                informer.fifo.replace(arg, "0")
            else:
                getattr(informer.fifo, op)(arg)
        outcomes.append((notes(handle), sorted(informer.indexer.list_keys())))
    print(f"seed {seed}: {len(ops)} operations, {len(outcomes[0][0])} notifications")
    assert outcomes[0][0], "the run handed the handler nothing: it proves nothing"
    assert outcomes[1] == outcomes[0]


def test_a_failing_key_in_a_batch_does_not_cost_the_others_their_notifications(flavour: Flavour) -> None:
    informer = informer_for(flavour, FakeControllerSource(), 0)
    handle: HandlerRegistration = flavour.do(informer.add_event_handler)
    informer.fifo.replace([pod("a", "1", "ns"), pod("b", "1", "ns"), pod("c", "1", "ns")], "1")
    real_swap = informer.indexer.swap

    def swap(obj: Any) -> Any:
        if _name(obj) == "b":
            raise RuntimeError("indexer failed")
        return real_swap(obj)

    informer.indexer.swap = swap  # type: ignore[method-assign]
    flavour.call(lambda: informer.fifo.pop_batch(informer.handle_delta_batch, 10, timeout=1))
    assert notes(handle) == [("add", "a", "1"), ("add", "c", "1")]
    assert sorted(informer.indexer.list_keys()) == ["ns/a", "ns/c"]


# -- the processor: a worker takes the whole buffer, and still stops promptly ---------------


def _listener(on_add: Any) -> ProcessorListener:
    return ProcessorListener(ResourceEventHandlerFuncs(on_add=on_add), 0.0, 0.0, 0.0, lambda: True)


def test_a_worker_handles_its_buffer_in_order_and_counts_initial_adds_out_after_handling() -> None:
    core = ProcessorCore()
    listener = _listener(None)
    core.add_listener(listener)
    core.distribute_many([(AddNotification(name, True), False) for name in "abc"])
    taken = core.take(listener)
    assert isinstance(taken, list) and [n.obj for n in taken if isinstance(n, AddNotification)] == ["a", "b", "c"]
    assert not listener.has_synced(), "handed out is not handled"
    core.done_many(listener, taken)
    assert listener.has_synced() and core.take(listener) is None


def test_stopping_ends_a_worker_after_the_notification_in_progress_even_inside_a_batch() -> None:
    group = WaitGroup()
    processor = SharedProcessor(group)
    handled: list[str] = []
    in_first, release = threading.Event(), threading.Event()

    def on_add(obj: str) -> None:
        handled.append(obj)
        if obj == "a":
            in_first.set()
            release.wait(5)

    listener = _listener(on_add)
    processor.add_listener(listener)
    processor.distribute_many([(AddNotification(name, False), False) for name in "abc"])
    processor.run()
    assert in_first.wait(5)
    processor.stop()
    release.set()
    group.wait(5)
    assert handled == ["a"], "b and c were buffered when the processor stopped: dropped"
