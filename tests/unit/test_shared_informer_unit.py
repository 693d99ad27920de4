"""SharedIndexInformer without a server: ports of client-go's shared_informer_test.go against
an in-memory FakeControllerSource, and the informer core (handle_deltas, resync bookkeeping,
tombstones, transform, mutation detector) driven directly."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from kgen.runtime.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kgen.runtime.tools.cache.mutation_detector import CacheMutationDetector
from kgen.runtime.tools.cache.reflector import reflector_backoff
from kgen.runtime.tools.cache.shared_informer import (
    AsyncSharedIndexInformer, HandlerRegistration, InformerStoppedError, SharedIndexInformer, _Add, _Delete, _Update,
)
from tests.support.fake_source import AsyncListWatch, FakeControllerSource, name_of, pod, rv_of

FAST = dict(initial=0.01, cap=0.05)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.now

    def step(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


class Listener:
    """client-go's testListener: the names of the objects it was handed (adds and updates)."""

    def __init__(self, name: str, resync_period: float | None = 0.0, *expected: str) -> None:
        self.name = name
        self.resync_period = resync_period
        self.expected = set(expected)
        self.received: list[str] = []
        self.events: list[tuple[str, Any]] = []
        self.lock = threading.Lock()

    def on_add(self, obj: Any) -> None:
        self._handle("add", obj)

    def on_update(self, old: Any, new: Any) -> None:
        self._handle("update", new)

    def on_delete(self, obj: Any) -> None:
        with self.lock:
            self.events.append(("delete", obj))

    def _handle(self, kind: str, obj: Any) -> None:
        with self.lock:
            self.received.append(name_of(obj))
            self.events.append((kind, obj))

    def reset(self) -> None:
        with self.lock:
            self.received = []
            self.events = []

    def satisfied(self) -> bool:
        with self.lock:
            return set(self.received) == self.expected

    def ok(self, timeout: float = 3.0, stragglers: float = 0.3) -> bool:
        """client-go's ok(): the expected names arrive, and nothing else after a while."""
        deadline = time.monotonic() + timeout
        while not self.satisfied():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        time.sleep(stragglers)
        return self.satisfied()

    def register(self, informer: Any) -> HandlerRegistration:
        return informer.add_event_handler(self.on_add, self.on_update, self.on_delete, resync_period=self.resync_period)


def informer_for(source: FakeControllerSource, resync: float = 0.0, clock: Callable[[], float] = time.monotonic,
                 **kwargs: Any) -> SharedIndexInformer:
    informer = SharedIndexInformer(source, resync, clock=clock, **kwargs)
    informer.reflector.backoff = reflector_backoff(**FAST)
    return informer


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.fixture
def source() -> FakeControllerSource:
    return FakeControllerSource()


@pytest.fixture
def stopper() -> Any:
    informers: list[SharedIndexInformer] = []
    yield informers.append
    for informer in informers:
        informer.stop()


def test_listener_resync_periods(source: FakeControllerSource, stopper: Any) -> None:
    source.add(pod("pod1"))
    source.add(pod("pod2"))
    clock = Clock()
    informer = informer_for(source, 1.0, clock)  # the informer checks every (real) second
    listener1 = Listener("listener1", 0, "pod1", "pod2")  # never resyncs
    listener2 = Listener("listener2", 2, "pod1", "pod2")
    listener3 = Listener("listener3", 3, "pod1", "pod2")
    listeners = [listener1, listener2, listener3]
    for listener in listeners:
        listener.register(informer)
    stopper(informer)
    informer.run()

    for listener in listeners:
        assert listener.ok(), f"{listener.name}: got {listener.received}"
    for listener in listeners:
        listener.reset()

    clock.step(2)  # listener2's resync is due
    assert listener2.ok(stragglers=1.2), f"listener2: got {listener2.received}"
    assert listener1.received == [] and listener3.received == []
    for listener in listeners:
        listener.reset()

    clock.step(1)  # listener3's resync is due
    assert listener3.ok(stragglers=1.2), f"listener3: got {listener3.received}"
    assert listener1.received == [] and listener2.received == []
    assert len(source.list_calls) == 1, "a resync replays the cache; it never lists again"


def test_resync_check_period(source: FakeControllerSource) -> None:
    informer = informer_for(source, 12 * 3600)

    def periods() -> list[float]:
        return [r.resync_period for r in informer.registrations]

    Listener("listener1", 0).register(informer)
    assert informer.resync_check_period == 12 * 3600 and periods() == [0]
    Listener("listener2", 60).register(informer)
    assert informer.resync_check_period == 60 and periods() == [0, 60]
    Listener("listener3", 55).register(informer)
    assert informer.resync_check_period == 55 and periods() == [0, 60, 55]
    Listener("listener4", 5).register(informer)
    assert informer.resync_check_period == 5 and periods() == [0, 60, 55, 5]


def test_resync_periods_below_the_minimum_or_the_running_check_period_are_raised(
    source: FakeControllerSource, stopper: Any
) -> None:
    informer = informer_for(source, 30)
    Listener("tiny", 0.2).register(informer)
    assert informer.resync_check_period == 1.0  # minimumResyncPeriod
    Listener("default", None).register(informer)  # the informer's own period
    stopper(informer)
    informer.run()
    Listener("late", 0.5).register(informer)  # after start: raised to the check period
    assert [r.resync_period for r in informer.registrations] == [1.0, 30.0, 1.0]
    Listener("later", 4).register(informer)
    assert informer.registrations[-1].resync_period == 4


def test_an_informer_without_resync_resyncs_no_handler(source: FakeControllerSource) -> None:
    informer = informer_for(source, 0)
    Listener("wants resync", 5).register(informer)
    assert informer.resync_check_period == 0
    assert informer.registrations[0].resync_period == 0
    assert informer.should_resync() is False


def test_shared_informer_initialization_race(source: FakeControllerSource) -> None:
    informer = informer_for(source, 1.0)
    listener = Listener("raceListener", 0)
    adder = threading.Thread(target=listener.register, args=(informer,))
    runner = threading.Thread(target=informer.run)
    adder.start()
    runner.start()
    adder.join()
    runner.join()
    informer.stop()
    assert len(informer.registrations) == 1


def test_shared_informer_watch_disruption(source: FakeControllerSource, stopper: Any) -> None:
    source.add(pod("pod1"))
    source.add(pod("pod2"))
    clock = Clock()
    informer = informer_for(source, 1.0, clock)
    no_resync = Listener("listenerNoResync", 0, "pod1", "pod2")
    with_resync = Listener("listenerResync", 1, "pod1", "pod2")
    for listener in (no_resync, with_resync):
        listener.register(informer)
    stopper(informer)
    informer.run()
    for listener in (no_resync, with_resync):
        assert listener.ok(), f"{listener.name}: got {listener.received}"

    # pod3 added and pod2 bumped, but the watch never says so: only a relist can tell.
    source.add_drop_watch(pod("pod3"))
    source.modify_drop_watch(pod("pod2"))
    for listener in (no_resync, with_resync):
        assert listener.ok(), f"{listener.name}: saw a change no watch sent"
        listener.reset()

    no_resync.expected = {"pod2", "pod3"}
    with_resync.expected = {"pod1", "pod2", "pod3"}
    clock.step(1)  # with_resync becomes due
    source.reset_watch()  # a connection loss the watch cannot resume from (410)
    for listener in (no_resync, with_resync):
        assert listener.ok(timeout=5), f"{listener.name}: expected {listener.expected}, got {listener.received}"
    assert len(source.list_calls) == 2


def test_shared_informer_error_handling(source: FakeControllerSource, stopper: Any) -> None:
    source.add(pod("pod1"))
    source.list_error = PermissionError("Access Denied")
    informer = informer_for(source, 1.0)
    errors: list[BaseException] = []
    informer.set_watch_error_handler(errors.append)
    stopper(informer)
    informer.run()
    wait_until(lambda: bool(errors), timeout=1)
    assert "Access Denied" in str(errors[0])


def test_shared_informer_start_race(source: FakeControllerSource) -> None:
    informer = informer_for(source, 1.0)
    done = threading.Event()
    refused: list[str] = []

    def configure() -> None:
        while not done.is_set():
            try:
                informer.set_transform(lambda obj: obj)
                informer.set_watch_error_handler(lambda error: None)
            except RuntimeError as e:
                refused.append(str(e))
                return

    thread = threading.Thread(target=configure)
    thread.start()
    informer.run()
    done.set()
    thread.join()
    informer.stop()
    assert refused in ([], ["informer has already started"])
    with pytest.raises(RuntimeError, match="already started"):
        informer.set_transform(lambda obj: obj)


def test_shared_informer_transformer(source: FakeControllerSource, stopper: Any) -> None:
    source.add(pod("pod1", "1"))
    source.add(pod("pod2", "2"))
    informer = informer_for(source, 1.0)

    def upper(obj: dict[str, Any]) -> dict[str, Any]:
        obj["metadata"]["name"] = obj["metadata"]["name"].upper()
        return obj

    informer.set_transform(upper)
    listener = Listener("listenerTransformer", 0, "POD1", "POD2")
    informer.add_event_handler(listener.on_add, listener.on_update, listener.on_delete)
    stopper(informer)
    informer.run()
    assert listener.ok(), f"got {listener.received}"
    assert sorted(informer.indexer.list_keys()) == ["POD1", "POD2"]


def test_shared_informer_remove_handler(source: FakeControllerSource) -> None:
    informer = informer_for(source, 1.0)
    handle1 = informer.add_event_handler()
    handle2 = informer.add_event_handler()
    assert len(informer.registrations) == 2
    informer.remove_event_handler(handle2)
    assert len(informer.registrations) == 1
    handle1.remove()
    assert informer.registrations == []


def test_shared_informer_remove_foreign_handler(source: FakeControllerSource) -> None:
    informer, informer2 = informer_for(source, 1.0), informer_for(FakeControllerSource(), 1.0)
    handle1, handle2 = informer.add_event_handler(), informer.add_event_handler()
    informer2.remove_event_handler(handle1)  # not its handler: nothing happens
    assert len(informer.registrations) == 2 and informer2.registrations == []
    informer.remove_event_handler(handle2)
    informer.remove_event_handler(handle1)
    assert informer.registrations == []


def test_shared_informer_multiple_registration(source: FakeControllerSource) -> None:
    informer = informer_for(source, 1.0)
    listener = Listener("same", 0)
    reg1, reg2 = listener.register(informer), listener.register(informer)
    assert len(informer.registrations) == 2
    informer.remove_event_handler(reg1)
    assert informer.registrations == [reg2._registration]
    informer.remove_event_handler(reg2)
    assert informer.registrations == []


def test_removing_removed_shared_informer(source: FakeControllerSource) -> None:
    informer = informer_for(source, 1.0)
    reg = informer.add_event_handler()
    informer.remove_event_handler(reg)
    informer.remove_event_handler(reg)  # a second removal is no error
    assert informer.registrations == []


def test_shared_informer_handler_abuse(source: FakeControllerSource) -> None:
    """Many threads adding and removing handlers while events flow and the informer stops."""
    import random

    informer = informer_for(source, 1.0)
    informer.run()
    failures: list[BaseException] = []

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        handles: list[HandlerRegistration] = []
        try:
            while True:
                if rng.random() < 0.5 or not handles:
                    handles.append(informer.add_event_handler(
                        lambda obj: None, lambda old, new: None, lambda obj: None, resync_period=1.0))
                else:
                    informer.remove_event_handler(handles.pop(rng.randrange(len(handles))))
        except InformerStoppedError:
            return  # the test is over
        except BaseException as e:  # noqa: BLE001
            failures.append(e)

    workers = [threading.Thread(target=worker, args=(n,)) for n in range(10)]
    for thread in workers:
        thread.start()
    rng = random.Random(0)
    live: list[dict[str, Any]] = []
    for i in range(1000):
        choice = rng.randrange(3)
        if choice == 0 or not live:
            live.append(source.add(pod(f"pod{i}")))
        elif choice == 1:
            index = rng.randrange(len(live))
            live[index] = source.modify(live[index])
        else:
            source.delete(live.pop(rng.randrange(len(live))))
    informer.stop()
    for thread in workers:
        thread.join(5)
        assert not thread.is_alive(), "a worker is stuck"
    assert failures == []


def test_state_shared_informer(source: FakeControllerSource) -> None:
    source.add(pod("pod1"))
    informer = informer_for(source, 1.0)
    listener = Listener("listener", 0, "pod1")
    listener.register(informer)
    assert not informer.has_started() and not informer.is_stopped()
    informer.run()
    assert listener.ok()
    assert informer.has_started() and not informer.is_stopped()
    informer.stop()
    assert informer.is_stopped() and informer.has_started()


def test_add_on_stopped_shared_informer(source: FakeControllerSource) -> None:
    source.add(pod("pod1"))
    informer = informer_for(source, 1.0)
    informer.run()
    informer.stop()
    with pytest.raises(InformerStoppedError, match="was not added to shared informer because it has stopped already"):
        Listener("listener", 0, "pod1").register(informer)


def test_remove_on_stopped_shared_informer(source: FakeControllerSource) -> None:
    source.add(pod("pod1"))
    informer = informer_for(source, 1.0)
    handle = Listener("listener", 0, "pod1").register(informer)
    informer.run()
    informer.stop()
    informer.remove_event_handler(handle)
    assert informer.registrations == []


def test_remove_while_active(source: FakeControllerSource, stopper: Any) -> None:
    informer = informer_for(source, 0)
    listener = Listener("listener", 0, "pod1")
    handle = listener.register(informer)
    stopper(informer)
    informer.run()
    source.add(pod("pod1"))
    assert listener.ok(), "event did not occur"
    informer.remove_event_handler(handle)
    assert handle._registration not in informer.registrations
    source.add(pod("pod2"))
    assert listener.ok(), "unexpected event occurred"


def test_add_while_active(source: FakeControllerSource, stopper: Any) -> None:
    informer = informer_for(source, 0)
    listener1 = Listener("originalListener", 0, "pod1")
    listener2 = Listener("listener2", 0, "pod1", "pod2")
    handle1 = listener1.register(informer)
    assert not handle1.has_synced(), "synced before run"
    stopper(informer)
    informer.run()
    source.add(pod("pod1"))
    assert listener1.ok(), "events on listener1 did not occur"
    assert handle1.has_synced(), "not synced after run"

    with listener2.lock:  # observe it before it could handle anything
        handle2 = listener2.register(informer)
        assert not handle2.has_synced(), "synced before processing anything"
    source.add(pod("pod2"))
    assert listener2.ok(), "event on listener2 did not occur"
    assert handle2.has_synced(), "not synced even after processing"
    assert listener2.events[0][0] == "add"  # the replay of pod1 comes as an add
    listener1.expected = listener2.expected
    assert listener1.ok(), "events on listener1 did not occur"


def test_slow_handler_never_blocks_the_others(source: FakeControllerSource, stopper: Any) -> None:
    informer = informer_for(source, 0)
    release = threading.Event()
    slow_seen: list[str] = []

    def slow(obj: Any) -> None:
        release.wait(10)
        slow_seen.append(name_of(obj))

    informer.add_event_handler(on_add=slow)
    fast = Listener("fast", 0, *(f"pod{i}" for i in range(200)))
    fast.register(informer)
    stopper(informer)
    informer.run()
    for i in range(200):
        source.add(pod(f"pod{i}"))
    assert fast.ok(stragglers=0), "the fast handler waited for the slow one"
    assert slow_seen == []
    release.set()
    wait_until(lambda: len(slow_seen) == 200)
    assert slow_seen == [f"pod{i}" for i in range(200)], "each handler sees its notifications in order"


def test_failing_handler_does_not_stop_its_own_later_notifications(source: FakeControllerSource, stopper: Any) -> None:
    informer = informer_for(source, 0)
    seen: list[str] = []

    def flaky(obj: Any) -> None:
        seen.append(name_of(obj))
        if name_of(obj) == "bad":
            raise RuntimeError("handler bug")

    informer.add_event_handler(on_add=flaky)
    stopper(informer)
    informer.run()
    for name in ("a", "bad", "c"):
        source.add(pod(name))
    wait_until(lambda: seen == ["a", "bad", "c"])


def test_stop_ends_handlers_after_the_notification_in_progress(source: FakeControllerSource) -> None:
    informer = informer_for(source, 0)
    started, release = threading.Event(), threading.Event()
    seen: list[str] = []

    def handler(obj: Any) -> None:
        seen.append(name_of(obj))
        started.set()
        release.wait(5)

    informer.add_event_handler(on_add=handler)
    for i in range(5):
        source.add(pod(f"pod{i}"))
    informer.run()
    assert started.wait(5)
    threading.Timer(0.1, release.set).start()
    informer.stop()
    time.sleep(0.1)
    assert seen == ["pod0"], "notifications were delivered after stop()"


def test_relist_emits_tombstones_for_objects_deleted_while_disconnected(
    source: FakeControllerSource, stopper: Any
) -> None:
    a, b = source.add(pod("a")), source.add(pod("b"))
    informer = informer_for(source, 0)
    listener = Listener("listener", 0, "a", "b")
    listener.register(informer)
    stopper(informer)
    informer.run()
    assert listener.ok()
    listener.reset()
    source.delete_drop_watch(b)  # B deleted and C created while the watch was down
    listener.expected = {"c"}
    source.add_drop_watch(pod("c"))
    source.reset_watch()
    assert listener.ok(timeout=5)
    deletes = [obj for kind, obj in listener.events if kind == "delete"]
    assert deletes == [DeletedFinalStateUnknown("b", b)], "the tombstone carries the last state the client saw"
    assert sorted(informer.indexer.list_keys()) == ["a", "c"]
    assert informer.indexer.get_by_key("a") == a


# -- the informer core, driven directly (no threads) --------------------------------------------


def notes(handle: HandlerRegistration) -> list[tuple[str, str, str]]:
    """The notifications queued for a handler, as (kind, name, resourceVersion)."""
    out = []
    buffer = handle._registration.buffer
    while buffer:
        note, _ = buffer.popleft()
        if isinstance(note, _Add):
            out.append(("add", name_of(note.obj), rv_of(note.obj)))
        elif isinstance(note, _Update):
            out.append(("update", name_of(note.new), rv_of(note.new)))
        else:
            assert isinstance(note, _Delete)
            obj = note.obj
            kind = "tombstone" if isinstance(obj, DeletedFinalStateUnknown) else "delete"
            obj = obj.obj if isinstance(obj, DeletedFinalStateUnknown) else obj
            out.append((kind, name_of(obj), rv_of(obj)))
    return out


def process_all(informer: SharedIndexInformer) -> None:
    while informer.fifo.pop(informer.handle_deltas, timeout=0) is not None:
        pass


def test_queued_only_objects_get_a_tombstone_when_a_relist_drops_them(source: FakeControllerSource) -> None:
    informer = informer_for(source, 0)
    handle = informer.add_event_handler()
    informer.fifo.replace([pod("a", "1")], "1")
    process_all(informer)
    informer.fifo.add(pod("o", "2"))  # still queued when the relist replaces the store
    informer.fifo.replace([pod("a", "1")], "3")
    process_all(informer)
    assert notes(handle) == [("add", "a", "1"), ("add", "o", "2"), ("tombstone", "o", "2")]
    assert informer.indexer.list_keys() == ["a"]


def test_relist_of_unchanged_objects_reaches_only_handlers_due_for_resync(source: FakeControllerSource) -> None:
    clock = Clock()
    informer = informer_for(source, 10, clock)
    plain = informer.add_event_handler(resync_period=0)
    resyncing = informer.add_event_handler(resync_period=10)
    informer.fifo.replace([pod("a", "1"), pod("b", "1")], "1")
    process_all(informer)
    notes(plain), notes(resyncing)

    informer.fifo.replace([pod("a", "1"), pod("b", "2")], "2")  # a unchanged, b changed
    process_all(informer)
    assert notes(plain) == [("update", "b", "2")]
    assert notes(resyncing) == [("update", "b", "2")]

    clock.step(10)
    assert informer.should_resync()
    informer.fifo.resync()
    process_all(informer)
    assert notes(plain) == []
    assert sorted(notes(resyncing)) == [("update", "a", "1"), ("update", "b", "2")]
    assert not informer.should_resync(), "the next resync is 10 s away"


def test_transform_runs_once_even_across_resyncs(source: FakeControllerSource) -> None:
    informer = informer_for(source, 0)
    calls: list[str] = []

    def transform(obj: dict[str, Any]) -> dict[str, Any]:
        calls.append(name_of(obj))
        assert "transformed" not in obj["metadata"], "transformed twice"
        return {**obj, "metadata": {**obj["metadata"], "transformed": True}}

    informer.set_transform(transform)
    informer.add_event_handler(resync_period=0)
    informer.fifo.replace([pod("a", "1")], "1")
    process_all(informer)
    informer.fifo.resync()
    informer.fifo.replace([], "2")  # tombstone of the transformed object
    process_all(informer)
    assert calls == ["a"]


def test_mutation_detector_finds_a_mutated_cached_object(source: FakeControllerSource) -> None:
    mutated: list[Any] = []
    detector = CacheMutationDetector(period=3600, on_mutation=mutated.append)
    informer = SharedIndexInformer(source, 0, mutation_detector=detector)
    informer.fifo.replace([pod("a", "1"), pod("b", "1")], "1")
    process_all(informer)
    detector.compare_objects()
    assert mutated == []
    cached = informer.indexer.get_by_key("a")
    cached["metadata"]["labels"] = {"oops": "mutated"}  # a handler "fixing" a cached object
    detector.compare_objects()
    assert [name_of(o) for o in mutated] == ["a"]


def test_mutation_detector_default_raises_and_is_enabled_by_env(monkeypatch: pytest.MonkeyPatch) -> None:
    from kgen.runtime.tools.cache.mutation_detector import CacheMutationError

    monkeypatch.delenv("KGEN_CACHE_MUTATION_DETECTOR", raising=False)
    assert CacheMutationDetector.from_env() is None
    monkeypatch.setenv("KGEN_CACHE_MUTATION_DETECTOR", "true")
    detector = CacheMutationDetector.from_env()
    assert detector is not None
    obj = pod("a", "1")
    detector.add_object(obj)
    obj["metadata"]["name"] = "b"
    with pytest.raises(CacheMutationError):
        detector.compare_objects()


# -- asyncio flavour ----------------------------------------------------------------------------


def test_async_informer_delivers_adds_updates_deletes_and_replays_to_late_handlers(
    source: FakeControllerSource,
) -> None:
    async def scenario() -> None:
        informer = AsyncSharedIndexInformer(AsyncListWatch(source), 0)
        informer.reflector.backoff = reflector_backoff(**FAST)
        seen: list[tuple[str, str]] = []

        async def on_add(obj: Any) -> None:  # coroutine handlers are awaited
            await asyncio.sleep(0)
            seen.append(("add", name_of(obj)))

        handle = informer.add_event_handler(
            on_add, lambda old, new: seen.append(("update", rv_of(new))),
            lambda obj: seen.append(("delete", name_of(obj))),
        )
        a = source.add(pod("a"))
        informer.start()
        assert await informer.wait_for_cache_sync(timeout=5)
        for _ in range(100):
            if handle.has_synced():
                break
            await asyncio.sleep(0.01)
        assert handle.has_synced()
        modified = source.modify(a)
        source.delete(modified)
        for _ in range(300):
            if len(seen) >= 3:
                break
            await asyncio.sleep(0.01)
        assert seen == [("add", "a"), ("update", rv_of(modified)), ("delete", "a")]

        source.add(pod("b"))
        for _ in range(300):
            if informer.indexer.list_keys() == ["b"]:
                break
            await asyncio.sleep(0.01)
        late: list[str] = []
        late_handle = informer.add_event_handler(lambda obj: late.append(name_of(obj)))
        assert not late_handle.has_synced()
        for _ in range(300):
            if late_handle.has_synced():
                break
            await asyncio.sleep(0.01)
        assert late == ["b"]
        await informer.stop()
        assert informer.is_stopped()
        with pytest.raises(InformerStoppedError):
            informer.add_event_handler()

    asyncio.run(asyncio.wait_for(scenario(), 20))


def test_async_informer_relists_with_tombstones_after_the_watch_history_is_lost(
    source: FakeControllerSource,
) -> None:
    async def scenario() -> None:
        informer = AsyncSharedIndexInformer(AsyncListWatch(source), 0)
        informer.reflector.backoff = reflector_backoff(**FAST)
        deleted: list[Any] = []
        informer.add_event_handler(on_delete=deleted.append)
        b = source.add(pod("b"))
        source.add(pod("a"))
        informer.start()
        assert await informer.wait_for_cache_sync(timeout=5)
        source.delete_drop_watch(b)
        source.reset_watch()
        for _ in range(500):
            if deleted:
                break
            await asyncio.sleep(0.01)
        assert deleted == [DeletedFinalStateUnknown("b", b)]
        assert informer.indexer.list_keys() == ["a"]
        await informer.stop()

    asyncio.run(asyncio.wait_for(scenario(), 20))
