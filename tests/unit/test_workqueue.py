"""client-go's workqueue tests (queue_test.go, delaying_queue_test.go, rate_limiting_queue_test.go)
ported to kgen's queues, thread and asyncio flavours. Each test names the Go test it ports."""

from __future__ import annotations

import asyncio
import functools
import gc
import threading
import time
import weakref
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from kgen.runtime.util.workqueue import (
    AsyncDelayingQueue,
    AsyncQueue,
    AsyncRateLimitingQueue,
    DelayingQueue,
    ItemExponentialFailureRateLimiter,
    Queue,
    RateLimitingQueue,
    default_controller_rate_limiter,
)
from kgen.runtime.util.workqueue.delaying_queue import MAX_WAIT, DelayingCore
from kgen.runtime.util.workqueue.metrics import QueueMetrics
from tests.unit.workqueue_helpers import (
    SHUTDOWN,
    Driver,
    FakeClock,
    eventually,
    eventually_async,
    make_queue,
    start,
)

__all__ = ["make_queue"]  # the fixture, run once per flavour

MakeQueue = Callable[..., Driver]
SHUTDOWNS = ["shut_down", "shut_down_with_drain"]


# --- queue_test.go ------------------------------------------------------------------------------


@pytest.mark.parametrize("shutdown", SHUTDOWNS)
def test_basic__TestBasic(shutdown: str) -> None:
    q: Queue[Any] = Queue()
    processed: set[Any] = set()
    lock = threading.Lock()

    def produce(i: int) -> None:
        for _ in range(50):
            q.add(i)
            time.sleep(0.001)

    def consume() -> None:
        while True:
            item, quit = q.get()
            if quit:
                return
            with lock:
                processed.add(item)
            time.sleep(0.003)
            q.done(item)

    producers = [start(functools.partial(produce, i)) for i in range(50)]
    consumers = [start(consume) for _ in range(10)]
    for thread in producers:
        thread.join()
    getattr(q, shutdown)()
    q.add("added after shutdown!")
    for thread in consumers:
        thread.join(10)
        assert not thread.is_alive()
    assert len(q) == 0
    assert processed == set(range(50))  # nothing added before shutdown is lost


@pytest.mark.parametrize("shutdown", SHUTDOWNS)
def test_basic_async__TestBasic(shutdown: str) -> None:
    async def scenario() -> set[Any]:
        q: AsyncQueue[Any] = AsyncQueue()
        processed: set[Any] = set()

        async def produce(i: int) -> None:
            for _ in range(50):
                q.add(i)
                await asyncio.sleep(0.001)

        async def consume() -> None:
            while True:
                item, quit = await q.get()
                if quit:
                    return
                processed.add(item)
                await asyncio.sleep(0.003)
                q.done(item)

        consumers = [asyncio.create_task(consume()) for _ in range(10)]
        await asyncio.gather(*(produce(i) for i in range(50)))
        if shutdown == "shut_down":
            q.shut_down()
        else:
            await q.shut_down_with_drain()
        q.add("added after shutdown!")
        await asyncio.wait_for(asyncio.gather(*consumers), 10)
        assert len(q) == 0
        return processed

    assert asyncio.run(scenario()) == set(range(50))


@pytest.mark.parametrize("shutdown", SHUTDOWNS)
def test_add_while_processing__TestAddWhileProcessing(shutdown: str) -> None:
    q: Queue[int] = Queue()
    runs: Counter[int] = Counter()
    lock = threading.Lock()

    def consume() -> None:
        # Every worker re-adds every item it sees up to twice: the dirty-while-processing case.
        counters: Counter[int] = Counter()
        while True:
            item, quit = q.get()
            if quit:
                return
            counters[item] += 1
            with lock:
                runs[item] += 1
            if counters[item] < 2:
                q.add(item)
            q.done(item)

    producers = [start(functools.partial(q.add, i)) for i in range(50)]
    consumers = [start(consume) for _ in range(10)]
    for thread in producers:
        thread.join()
    # Adds after shutdown are ignored, so let the re-adds land first.
    assert eventually(lambda: len(runs) == 50 and min(runs.values()) >= 2)
    getattr(q, shutdown)()
    for thread in consumers:
        thread.join(10)
        assert not thread.is_alive()
    assert len(q) == 0
    assert set(runs) == set(range(50))
    assert all(count >= 2 for count in runs.values())  # the re-add was processed again


@pytest.mark.parametrize("shutdown", SHUTDOWNS)
def test_add_while_processing_async__TestAddWhileProcessing(shutdown: str) -> None:
    async def scenario() -> Counter[int]:
        q: AsyncQueue[int] = AsyncQueue()
        runs: Counter[int] = Counter()

        async def consume() -> None:
            counters: Counter[int] = Counter()
            while True:
                item, quit = await q.get()
                if quit:
                    return
                counters[item] += 1
                runs[item] += 1
                if counters[item] < 2:
                    q.add(item)
                await asyncio.sleep(0)
                q.done(item)

        consumers = [asyncio.create_task(consume()) for _ in range(10)]
        for i in range(50):
            q.add(i)
        await eventually_async(lambda: len(runs) == 50 and min(runs.values()) >= 2)
        if shutdown == "shut_down":
            q.shut_down()
        else:
            await q.shut_down_with_drain()
        await asyncio.wait_for(asyncio.gather(*consumers), 10)
        assert len(q) == 0
        return runs

    runs = asyncio.run(scenario())
    assert set(runs) == set(range(50))
    assert all(count >= 2 for count in runs.values())


def test_len__TestLen(make_queue: MakeQueue) -> None:
    q = make_queue()
    q.add("foo")
    assert len(q) == 1
    q.add("bar")
    assert len(q) == 2
    q.add("foo")  # already queued: collapsed
    assert len(q) == 2


def test_reinsert__TestReinsert(make_queue: MakeQueue) -> None:
    q = make_queue()
    q.add("foo")
    item, _ = q.get()
    assert item == "foo"
    q.add(item)  # back while processing: not handed out again yet
    assert len(q) == 0
    q.done(item)
    item, _ = q.get()
    assert item == "foo"
    q.done(item)
    assert len(q) == 0


def test_queue_drain_with_shutdown__TestQueueDrainageUsingShutDownWithDrain() -> None:
    q: Queue[str] = Queue()
    q.add("foo")
    q.add("bar")
    first, _ = q.get()
    second, _ = q.get()
    drainer = start(q.shut_down_with_drain)
    # Wait until the drain has begun: get() answers shutdown from then on.
    while not q.get()[1]:
        pass
    drainer.join(0.05)
    assert drainer.is_alive()  # two items are still being processed
    q.done(first)
    q.done(second)
    drainer.join(5)
    assert not drainer.is_alive()


def test_queue_drain_with_shutdown_async__TestQueueDrainageUsingShutDownWithDrain() -> None:
    async def scenario() -> None:
        q: AsyncQueue[str] = AsyncQueue()
        q.add("foo")
        q.add("bar")
        first, _ = await q.get()
        second, _ = await q.get()
        drainer = asyncio.create_task(q.shut_down_with_drain())
        while not (await q.get())[1]:
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)
        assert not drainer.done()
        q.done(first)
        q.done(second)
        await asyncio.wait_for(drainer, 5)

    asyncio.run(scenario())


def test_no_queue_drain_with_shutdown__TestNoQueueDrainageUsingShutDown(make_queue: MakeQueue) -> None:
    q = make_queue()
    q.add("foo")
    q.add("bar")
    q.get()
    q.get()
    q.shut_down()  # returns although neither item is done
    assert q.shutting_down()
    assert q.get() == SHUTDOWN


def test_force_queue_shutdown_using_shutdown__TestForceQueueShutdownUsingShutDown() -> None:
    q: Queue[str] = Queue()
    q.add("foo")
    q.add("bar")
    q.get()
    q.get()
    drainer = start(q.shut_down_with_drain)
    while not q.get()[1]:
        pass
    drainer.join(0.05)
    assert drainer.is_alive()
    q.shut_down()  # a second SIGTERM: stop waiting for the drain
    drainer.join(5)
    assert not drainer.is_alive()


def test_force_queue_shutdown_using_shutdown_async__TestForceQueueShutdownUsingShutDown() -> None:
    async def scenario() -> None:
        q: AsyncQueue[str] = AsyncQueue()
        q.add("foo")
        q.add("bar")
        await q.get()
        await q.get()
        drainer = asyncio.create_task(q.shut_down_with_drain())
        while not (await q.get())[1]:
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)
        assert not drainer.done()
        q.shut_down()
        await asyncio.wait_for(drainer, 5)

    asyncio.run(scenario())


def test_queue_drain_with_dirty_item__TestQueueDrainageUsingShutDownWithDrainWithDirtyItem() -> None:
    q: Queue[str] = Queue()
    q.add("foo")
    gotten, _ = q.get()
    q.add("foo")
    drainer = start(q.shut_down_with_drain)
    while not q.get()[1]:
        pass
    q.done(gotten)
    # done() put the dirty item back in line, so get() hands it out instead of shutdown.
    again, shutdown = q.get()
    assert (again, shutdown) == ("foo", False)
    q.done(again)
    assert q.get() == SHUTDOWN
    drainer.join(5)
    assert not drainer.is_alive()


def test_queue_drain_with_dirty_item_async__TestQueueDrainageUsingShutDownWithDrainWithDirtyItem() -> None:
    async def scenario() -> None:
        q: AsyncQueue[str] = AsyncQueue()
        q.add("foo")
        gotten, _ = await q.get()
        q.add("foo")
        drainer = asyncio.create_task(q.shut_down_with_drain())
        while not (await q.get())[1]:
            await asyncio.sleep(0)
        q.done(gotten)
        assert await q.get() == ("foo", False)
        q.done("foo")
        assert await q.get() == SHUTDOWN
        await asyncio.wait_for(drainer, 5)

    asyncio.run(scenario())


def test_garbage_collection__TestGarbageCollection(make_queue: MakeQueue) -> None:
    class BigObject:
        data = b"hello"

    q = make_queue()
    obj = BigObject()
    ref = weakref.ref(obj)
    q.add(obj)
    item, _ = q.get()
    q.done(item)
    del obj, item
    gc.collect()
    assert ref() is None


def test_get_blocks_until_add() -> None:
    q: Queue[str] = Queue()
    got: list[tuple[str, bool]] = []
    getter = start(lambda: got.append(q.get()))
    getter.join(0.05)
    assert getter.is_alive() and not got
    q.add("foo")
    getter.join(5)
    assert got == [("foo", False)]


def test_get_blocks_until_add_async() -> None:
    async def scenario() -> None:
        q: AsyncQueue[str] = AsyncQueue()
        getter = asyncio.create_task(q.get())
        await asyncio.sleep(0.01)
        assert not getter.done()
        q.add("foo")
        assert await asyncio.wait_for(getter, 5) == ("foo", False)

    asyncio.run(scenario())


def test_cancelled_async_getter_passes_its_wakeup_on() -> None:
    async def scenario() -> None:
        q: AsyncQueue[str] = AsyncQueue()
        first = asyncio.create_task(q.get())
        second = asyncio.create_task(q.get())
        await asyncio.sleep(0)
        q.add("foo")  # wakes the first getter...
        first.cancel()  # ...which is cancelled before it runs
        assert await asyncio.wait_for(second, 5) == ("foo", False)
        with pytest.raises(asyncio.CancelledError):
            await first

    asyncio.run(scenario())


def test_shutdown_wakes_every_blocked_getter() -> None:
    q: Queue[str] = Queue()
    results: list[tuple[str, bool]] = []
    getters = [start(lambda: results.append(q.get())) for _ in range(5)]
    time.sleep(0.02)
    q.shut_down()
    for getter in getters:
        getter.join(5)
    assert results == [SHUTDOWN] * 5


# --- concurrency: the promise controllers rely on -------------------------------------------------


def test_workers_never_share_an_item_and_lose_no_add() -> None:
    q: Queue[int] = Queue()
    lock = threading.Lock()
    in_progress: set[int] = set()
    overlaps: list[int] = []
    runs: Counter[int] = Counter()
    finished: dict[int, int] = {}  # item -> sequence number of its first done()
    rerun_started: dict[int, int] = {}  # item -> sequence number when its second run started
    sequence = iter(range(10**9))

    def work() -> None:
        while True:
            item, quit = q.get()
            if quit:
                return
            with lock:
                if item in in_progress:
                    overlaps.append(item)
                in_progress.add(item)
                runs[item] += 1
                if runs[item] == 2:
                    rerun_started[item] = next(sequence)
                first_run = runs[item] == 1
            if first_run:
                q.add(item)  # an event arrives while the item is being processed
            time.sleep(0.0002)
            with lock:
                in_progress.discard(item)
                if first_run:
                    finished[item] = next(sequence)
            q.done(item)

    items = range(400)
    workers = [start(work) for _ in range(8)]

    def produce(offset: int) -> None:
        for i in items[offset::4]:
            q.add(i)

    producers = [start(functools.partial(produce, offset)) for offset in range(4)]
    for producer in producers:
        producer.join()
    assert eventually(lambda: len(runs) == len(items) and min(runs.values()) >= 2)
    q.shut_down_with_drain()
    for worker in workers:
        worker.join(10)
        assert not worker.is_alive()
    assert overlaps == []
    assert set(runs) == set(items)
    assert all(runs[i] >= 2 for i in items)
    assert all(rerun_started[i] > finished[i] for i in items)  # re-run only after done()


def test_async_workers_never_share_an_item_and_lose_no_add() -> None:
    async def scenario() -> None:
        q: AsyncQueue[int] = AsyncQueue()
        in_progress: set[int] = set()
        overlaps: list[int] = []
        runs: Counter[int] = Counter()

        async def work() -> None:
            while True:
                item, quit = await q.get()
                if quit:
                    return
                if item in in_progress:
                    overlaps.append(item)
                in_progress.add(item)
                runs[item] += 1
                if runs[item] == 1:
                    q.add(item)
                await asyncio.sleep(0)
                in_progress.discard(item)
                q.done(item)

        workers = [asyncio.create_task(work()) for _ in range(8)]
        for i in range(400):
            q.add(i)
            if i % 50 == 0:
                await asyncio.sleep(0)
        await eventually_async(lambda: len(runs) == 400 and min(runs.values()) >= 2)
        await q.shut_down_with_drain()
        await asyncio.wait_for(asyncio.gather(*workers), 10)
        assert overlaps == []
        assert set(runs) == set(range(400))
        assert all(count >= 2 for count in runs.values())

    asyncio.run(scenario())


# --- delaying_queue_test.go ---------------------------------------------------------------------


def test_simple_queue__TestSimpleQueue(make_queue: MakeQueue) -> None:
    clock = FakeClock()
    q = make_queue("delaying", clock=clock)
    q.add_after("foo", 0.050)
    assert len(q) == 0
    clock.step(0.060)
    assert len(q) == 1
    item, _ = q.get()
    q.done(item)
    clock.step(10)  # past the next heartbeat: nothing comes back
    assert len(q) == 0


def test_deduping__TestDeduping(make_queue: MakeQueue) -> None:
    clock = FakeClock()
    q = make_queue("delaying", clock=clock)
    q.add_after("foo", 0.050)
    q.add_after("foo", 0.070)  # later than the waiting entry: ignored
    assert len(q) == 0
    clock.step(0.060)
    assert len(q) == 1
    item, _ = q.get()
    q.done(item)
    clock.step(0.020)  # past the second add_after: it was folded into the first
    assert len(q) == 0

    q.add_after("foo", 0.050)
    q.add_after("foo", 0.030)  # earlier: overrides
    assert len(q) == 0
    clock.step(0.040)
    assert len(q) == 1
    item, _ = q.get()
    q.done(item)
    clock.step(0.020)
    assert len(q) == 0


def test_add_two_fire_early__TestAddTwoFireEarly(make_queue: MakeQueue) -> None:
    clock = FakeClock()
    q = make_queue("delaying", clock=clock)
    q.add_after("foo", 1)
    q.add_after("bar", 0.050)
    assert len(q) == 0
    clock.step(0.060)
    assert len(q) == 1
    assert q.get() == ("bar", False)
    q.add_after("baz", 2)
    clock.step(1)
    assert len(q) == 1
    assert q.get() == ("foo", False)
    clock.step(2)
    assert len(q) == 1
    assert q.get() == ("baz", False)


def test_copy_shifting__TestCopyShifting(make_queue: MakeQueue) -> None:
    clock = FakeClock()
    q = make_queue("delaying", clock=clock)
    q.add_after("foo", 1)
    q.add_after("bar", 0.5)
    q.add_after("baz", 0.25)
    assert len(q) == 0
    clock.step(2)
    assert len(q) == 3
    assert [q.get()[0] for _ in range(3)] == ["baz", "bar", "foo"]


def test_add_after_zero_or_negative_adds_now(make_queue: MakeQueue) -> None:
    q = make_queue("delaying", clock=FakeClock())
    q.add_after("now", 0)
    q.add_after("past", -1)
    assert [q.get()[0] for _ in range(2)] == ["now", "past"]


def test_delayed_key_of_a_processing_item_runs_again_after_done(make_queue: MakeQueue) -> None:
    # client-go's AddRateLimited-before-Done pattern: the retry must not be lost.
    clock = FakeClock()
    q = make_queue("delaying", clock=clock)
    q.add("foo")
    item, _ = q.get()
    q.add_after(item, 0.005)
    clock.step(0.010)
    assert len(q) == 0  # due, but held back while a worker has it
    q.done(item)
    assert q.get() == ("foo", False)


def test_due_key_keeps_its_place_before_later_adds(make_queue: MakeQueue) -> None:
    clock = FakeClock()
    q = make_queue("delaying", clock=clock)
    q.add_after("delayed", 1)
    clock.step(2)
    q.add("direct")  # the delayed key was due first, so it is queued first
    assert [q.get()[0] for _ in range(2)] == ["delayed", "direct"]


def test_shutdown_drops_waiting_keys_but_keeps_due_ones(make_queue: MakeQueue) -> None:
    clock = FakeClock()
    q = make_queue("delaying", clock=clock)
    q.add_after("due", 1)
    q.add_after("waiting", 5)
    clock.step(2)
    q.shut_down()
    q.add_after("after shutdown", 0)
    clock.step(10)
    assert q.get() == ("due", False)
    assert q.get() == SHUTDOWN


def test_blocked_get_wakes_when_a_delayed_key_is_due() -> None:
    q: DelayingQueue[str] = DelayingQueue()
    q.add_after("later", 60)
    got: list[tuple[str, bool]] = []
    getter = start(lambda: got.append(q.get()))
    time.sleep(0.02)
    started = time.monotonic()
    q.add_after("soon", 0.05)  # earlier than what the getter sleeps for: it must re-time
    getter.join(5)
    assert got == [("soon", False)]
    assert 0.04 <= time.monotonic() - started < 5
    q.shut_down()


def test_blocked_get_wakes_when_a_delayed_key_is_due_async() -> None:
    async def scenario() -> None:
        q: AsyncDelayingQueue[str] = AsyncDelayingQueue()
        q.add_after("later", 60)
        getter = asyncio.create_task(q.get())
        await asyncio.sleep(0.02)
        started = time.monotonic()
        q.add_after("soon", 0.05)
        assert await asyncio.wait_for(getter, 5) == ("soon", False)
        assert time.monotonic() - started >= 0.04
        q.shut_down()

    asyncio.run(scenario())


def test_getter_sleeps_no_longer_than_the_heartbeat() -> None:
    core: DelayingCore[str] = DelayingCore(QueueMetrics(), _NoRetries())
    assert core.wait_timeout(0.0) is None
    core.add_after("foo", 3600, now=0.0)
    assert core.wait_timeout(0.0) == MAX_WAIT == 10.0
    assert core.wait_timeout(3595.0) == pytest.approx(5.0)


class _NoRetries:
    def inc(self) -> None:
        pass


# --- rate_limiting_queue_test.go ----------------------------------------------------------------


def test_rate_limiting_queue__TestRateLimitingQueue(make_queue: MakeQueue) -> None:
    clock = FakeClock(0.0)
    limiter: ItemExponentialFailureRateLimiter[str] = ItemExponentialFailureRateLimiter(0.001, 1)
    q = make_queue("rate_limiting", limiter, clock=clock)

    def due_after(seconds: float) -> list[str]:
        """Steps to just before ``seconds`` from now (nothing new may be due), then to it."""
        start, before = clock.now, len(q)
        clock.now = start + seconds - 1e-7
        assert len(q) == before
        clock.now = start + seconds + 1e-7
        return [q.get()[0] for _ in range(len(q))]

    q.add_rate_limited("one")  # 1 ms
    q.add_rate_limited("one")  # 2 ms: the waiting entry keeps the earlier time
    assert q.num_requeues("one") == 2
    assert due_after(0.001) == ["one"]
    q.done("one")
    q.add_rate_limited("one")  # third failure: 4 ms
    assert due_after(0.004) == ["one"]
    q.done("one")

    q.add_rate_limited("two")  # 1 ms
    q.add_rate_limited("two")  # 2 ms
    assert q.num_requeues("two") == 2
    assert due_after(0.001) == ["two"]

    q.forget("one")
    assert q.num_requeues("one") == 0
    q.add_rate_limited("one")  # forgotten: back to 1 ms
    assert due_after(0.001) == ["one"]


def test_rate_limiting_queue_usage_from_design() -> None:
    q: RateLimitingQueue[str] = RateLimitingQueue(default_controller_rate_limiter())
    q.add("ns/a")
    key, shutdown = q.get()
    assert (key, shutdown) == ("ns/a", False)
    q.add_rate_limited(key)  # 5 ms
    q.done(key)
    assert q.num_requeues(key) == 1
    q.forget(key)
    assert q.num_requeues(key) == 0
    assert q.get() == ("ns/a", False)
    q.done("ns/a")
    q.add_after("ns/b", 0.01)
    assert len(q) == 0
    assert q.get() == ("ns/b", False)
    q.done("ns/b")
    q.shut_down()
    q.shut_down_with_drain()
    assert q.get() == SHUTDOWN


def test_async_rate_limiting_queue_usage() -> None:
    async def scenario() -> None:
        q: AsyncRateLimitingQueue[str] = AsyncRateLimitingQueue(default_controller_rate_limiter())
        q.add("ns/a")
        key, _ = await q.get()
        q.add_rate_limited(key)
        q.done(key)
        assert q.num_requeues(key) == 1
        assert await asyncio.wait_for(q.get(), 5) == ("ns/a", False)
        q.forget(key)
        q.done(key)
        await q.shut_down_with_drain()
        assert await q.get() == SHUTDOWN

    asyncio.run(scenario())


def test_items_must_be_hashable(make_queue: MakeQueue) -> None:
    with pytest.raises(TypeError):
        make_queue().add(["not", "hashable"])


def test_async_queue_can_be_built_outside_a_loop_and_used_in_one() -> None:
    q: AsyncQueue[str] = AsyncQueue()
    q.add("foo")
    assert asyncio.run(q.get()) == ("foo", False)


def test_get_on_a_shut_down_empty_queue_answers_no_item_and_shutdown_in_both_flavours() -> None:
    # Typed Got[T]: (item, False) | (Never, True); at runtime the missing item is None.
    q: Queue[str] = Queue()
    q.add("a")
    q.shut_down()
    assert q.get() == ("a", False)
    assert q.get() == (None, True)

    async def main() -> tuple[object, ...]:
        aq: AsyncQueue[str] = AsyncQueue()
        aq.add("a")
        aq.shut_down()
        return (await aq.get(), await aq.get())

    assert asyncio.run(main()) == (("a", False), (None, True))
