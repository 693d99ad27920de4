"""SharedIndexInformer without a server, on threads and on asyncio alike (the ``flavour``
fixture): ports of client-go's shared_informer_test.go against an in-memory
FakeControllerSource, and the informer driven directly (handle_deltas, resync bookkeeping,
tombstones, transform, mutation detector). The processor's rules alone, without I/O, are pinned
in test_informer_processor_core.py."""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kgen.runtime.tools.cache.delta_fifo import DeletedFinalStateUnknown
from kgen.runtime.tools.cache.mutation_detector import CacheMutationDetector, CacheMutationError
from kgen.runtime.tools.cache.processor import AddNotification, DeleteNotification, ProcessorListener, UpdateNotification
from kgen.runtime.tools.cache.reflector_state import reflector_backoff
from kgen.runtime.tools.cache.shared_informer import (
    AsyncSharedIndexInformer, HandlerRegistration, InformerStoppedError, SharedIndexInformer,
)
from tests.support.fake_source import AsyncListWatch, FakeControllerSource, name_of, pod, rv_of
from tests.support.flavours import Flavour

FAST: dict[str, Any] = dict(initial=0.01, cap=0.05)

Informer = SharedIndexInformer | AsyncSharedIndexInformer


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

    def register(self, flavour: Flavour, informer: Informer) -> HandlerRegistration:
        handle: HandlerRegistration = flavour.do(
            informer.add_event_handler, self.on_add, self.on_update, self.on_delete, resync_period=self.resync_period
        )
        return handle


def informer_for(flavour: Flavour, source: FakeControllerSource, resync: float = 0.0,
                 clock: Callable[[], float] = time.monotonic, **kwargs: Any) -> Informer:
    """An informer of this flavour over ``source``, made where the flavour's objects live."""

    def make() -> Informer:
        informer: Informer
        if flavour.is_async:
            informer = AsyncSharedIndexInformer(AsyncListWatch(source), resync, clock=clock, **kwargs)
        else:
            informer = SharedIndexInformer(source, resync, clock=clock, **kwargs)
        informer.reflector.backoff = reflector_backoff(**FAST)
        return informer

    informer: Informer = flavour.do(make)
    return informer


def listeners(flavour: Flavour, informer: Informer) -> list[ProcessorListener]:
    found: list[ProcessorListener] = flavour.do(informer.processor.listeners)
    return found


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.fixture
def source() -> FakeControllerSource:
    return FakeControllerSource()


@pytest.fixture
def stopper(flavour: Flavour) -> Iterator[Callable[[Informer], None]]:
    informers: list[Informer] = []
    yield informers.append
    for informer in informers:
        flavour.call(informer.stop)


def test_listener_resync_periods(flavour: Flavour, source: FakeControllerSource, stopper: Any) -> None:
    source.add(pod("pod1"))
    source.add(pod("pod2"))
    clock = Clock()
    informer = informer_for(flavour, source, 1.0, clock)  # the informer checks every (real) second
    listener1 = Listener("listener1", 0, "pod1", "pod2")  # never resyncs
    listener2 = Listener("listener2", 2, "pod1", "pod2")
    listener3 = Listener("listener3", 3, "pod1", "pod2")
    listeners_ = [listener1, listener2, listener3]
    for listener in listeners_:
        listener.register(flavour, informer)
    stopper(informer)
    flavour.call(informer.run)

    for listener in listeners_:
        assert listener.ok(), f"{listener.name}: got {listener.received}"
    for listener in listeners_:
        listener.reset()

    clock.step(2)  # listener2's resync is due
    assert listener2.ok(stragglers=1.2), f"listener2: got {listener2.received}"
    assert listener1.received == [] and listener3.received == []
    for listener in listeners_:
        listener.reset()

    clock.step(1)  # listener3's resync is due
    assert listener3.ok(stragglers=1.2), f"listener3: got {listener3.received}"
    assert listener1.received == [] and listener2.received == []
    assert len(source.list_calls) == 1, "a resync replays the cache; it never lists again"


def test_resync_check_period(flavour: Flavour, source: FakeControllerSource) -> None:
    informer = informer_for(flavour, source, 12 * 3600)

    def periods() -> list[float]:
        return [listener.resync_period for listener in listeners(flavour, informer)]

    Listener("listener1", 0).register(flavour, informer)
    assert informer.resync_check_period == 12 * 3600 and periods() == [0]
    Listener("listener2", 60).register(flavour, informer)
    assert informer.resync_check_period == 60 and periods() == [0, 60]
    Listener("listener3", 55).register(flavour, informer)
    assert informer.resync_check_period == 55 and periods() == [0, 60, 55]
    Listener("listener4", 5).register(flavour, informer)
    assert informer.resync_check_period == 5 and periods() == [0, 60, 55, 5]


def test_resync_periods_below_the_minimum_or_the_running_check_period_are_raised(
    flavour: Flavour, source: FakeControllerSource, stopper: Any
) -> None:
    informer = informer_for(flavour, source, 30)
    Listener("tiny", 0.2).register(flavour, informer)
    assert informer.resync_check_period == 1.0  # minimumResyncPeriod
    Listener("default", None).register(flavour, informer)  # the informer's own period
    stopper(informer)
    flavour.call(informer.run)
    Listener("late", 0.5).register(flavour, informer)  # after start: raised to the check period
    assert [listener.resync_period for listener in listeners(flavour, informer)] == [1.0, 30.0, 1.0]
    Listener("later", 4).register(flavour, informer)
    assert listeners(flavour, informer)[-1].resync_period == 4


def test_an_informer_without_resync_resyncs_no_handler(flavour: Flavour, source: FakeControllerSource) -> None:
    informer = informer_for(flavour, source, 0)
    Listener("wants resync", 5).register(flavour, informer)
    assert informer.resync_check_period == 0
    assert listeners(flavour, informer)[0].resync_period == 0
    assert flavour.do(informer.should_resync) is False


def test_shared_informer_initialization_race(flavour: Flavour, source: FakeControllerSource) -> None:
    informer = informer_for(flavour, source, 1.0)
    listener = Listener("raceListener", 0)
    adder = flavour.start(listener.register, flavour, informer)
    runner = flavour.start(informer.run)
    adder.join()
    runner.join()
    flavour.call(informer.stop)
    assert len(listeners(flavour, informer)) == 1


def test_shared_informer_watch_disruption(flavour: Flavour, source: FakeControllerSource, stopper: Any) -> None:
    source.add(pod("pod1"))
    source.add(pod("pod2"))
    clock = Clock()
    informer = informer_for(flavour, source, 1.0, clock)
    no_resync = Listener("listenerNoResync", 0, "pod1", "pod2")
    with_resync = Listener("listenerResync", 1, "pod1", "pod2")
    for listener in (no_resync, with_resync):
        listener.register(flavour, informer)
    stopper(informer)
    flavour.call(informer.run)
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


def test_shared_informer_error_handling(flavour: Flavour, source: FakeControllerSource, stopper: Any) -> None:
    source.add(pod("pod1"))
    source.list_error = PermissionError("Access Denied")
    informer = informer_for(flavour, source, 1.0)
    errors: list[BaseException] = []
    flavour.do(informer.set_watch_error_handler, errors.append)
    stopper(informer)
    flavour.call(informer.run)
    wait_until(lambda: bool(errors), timeout=1)
    assert "Access Denied" in str(errors[0])


def test_shared_informer_start_race(flavour: Flavour, source: FakeControllerSource, stopper: Any) -> None:
    """client-go's TestSharedInformerStartRace sets the transform and the watch error handler
    while Run starts and leaves the rest to the race detector. Python has none, so this pins
    what it guards: each set either lands before the start and is the one the running informer
    uses, or is refused because the informer started; never both, never neither."""
    source.add(pod("pod1"))
    source.list_error = PermissionError("Access Denied")  # the first lists fail: the handler is called
    informer = informer_for(flavour, source, 1.0)
    accepted = threading.Event()
    outcomes: list[tuple[str, int, bool, bool]] = []  # (setter, n, started before, accepted)
    handled: list[int] = []

    def transform(n: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
        return lambda obj: {**obj, "metadata": {**obj["metadata"], "annotations": {"transform": str(n)}}}

    def on_error(n: int) -> Callable[[BaseException], None]:
        return lambda error: handled.append(n)

    def configure() -> None:
        refusals = 0
        for n in itertools.count():
            for setter, value in (("transform", transform(n)), ("handler", on_error(n))):
                started_before = informer.has_started()
                try:
                    if setter == "transform":
                        flavour.do(informer.set_transform, value)
                    else:
                        flavour.do(informer.set_watch_error_handler, value)
                except RuntimeError as e:
                    assert str(e) == "informer has already started"
                    outcomes.append((setter, n, started_before, False))
                    refusals += 1
                else:
                    outcomes.append((setter, n, started_before, True))
                    accepted.set()
            if refusals >= 6:  # a few more after the first: a refusal is for good
                return

    thread = threading.Thread(target=configure)
    thread.start()
    assert accepted.wait(10), "the configuring thread never ran"
    stopper(informer)
    flavour.call(informer.run)  # races with the setters
    thread.join(10)
    assert not thread.is_alive()

    assert not [o for o in outcomes if o[2] and o[3]], "a set was accepted after the informer started"
    first_refused = next(i for i, o in enumerate(outcomes) if not o[3])
    assert all(o[3] for o in outcomes[:first_refused]) and not any(o[3] for o in outcomes[first_refused:])
    last = {setter: n for setter, n, _, ok in outcomes if ok}
    assert set(last) == {"transform", "handler"}, f"a setter never landed before the start: {outcomes[:4]}"

    wait_until(lambda: bool(handled))
    source.list_error = None
    wait_until(lambda: informer.indexer.list_keys() == ["pod1"])
    assert set(handled) == {last["handler"]}, "the running informer calls the last handler set before start"
    stored = informer.indexer.get_by_key("pod1")
    assert stored["metadata"]["annotations"] == {"transform": str(last["transform"])}
    with pytest.raises(RuntimeError, match="already started"):
        flavour.do(informer.set_transform, lambda obj: obj)


def test_shared_informer_transformer(flavour: Flavour, source: FakeControllerSource, stopper: Any) -> None:
    source.add(pod("pod1", "1"))
    source.add(pod("pod2", "2"))
    informer = informer_for(flavour, source, 1.0)

    def upper(obj: dict[str, Any]) -> dict[str, Any]:
        obj["metadata"]["name"] = obj["metadata"]["name"].upper()
        return obj

    flavour.do(informer.set_transform, upper)
    listener = Listener("listenerTransformer", 0, "POD1", "POD2")
    flavour.do(informer.add_event_handler, listener.on_add, listener.on_update, listener.on_delete)
    stopper(informer)
    flavour.call(informer.run)
    assert listener.ok(), f"got {listener.received}"
    assert sorted(informer.indexer.list_keys()) == ["POD1", "POD2"]


def test_shared_informer_remove_handler(flavour: Flavour, source: FakeControllerSource) -> None:
    informer = informer_for(flavour, source, 1.0)
    handle1 = flavour.do(informer.add_event_handler)
    handle2 = flavour.do(informer.add_event_handler)
    assert len(listeners(flavour, informer)) == 2
    flavour.do(informer.remove_event_handler, handle2)
    assert len(listeners(flavour, informer)) == 1
    flavour.do(handle1.remove)
    assert listeners(flavour, informer) == []


def test_shared_informer_remove_foreign_handler(flavour: Flavour, source: FakeControllerSource) -> None:
    informer, informer2 = informer_for(flavour, source, 1.0), informer_for(flavour, FakeControllerSource(), 1.0)
    handle1, handle2 = flavour.do(informer.add_event_handler), flavour.do(informer.add_event_handler)
    flavour.do(informer2.remove_event_handler, handle1)  # not its handler: nothing happens
    assert len(listeners(flavour, informer)) == 2 and listeners(flavour, informer2) == []
    flavour.do(informer.remove_event_handler, handle2)
    flavour.do(informer.remove_event_handler, handle1)
    assert listeners(flavour, informer) == []


def test_shared_informer_multiple_registration(flavour: Flavour, source: FakeControllerSource) -> None:
    informer = informer_for(flavour, source, 1.0)
    listener = Listener("same", 0)
    reg1, reg2 = listener.register(flavour, informer), listener.register(flavour, informer)
    assert len(listeners(flavour, informer)) == 2
    flavour.do(informer.remove_event_handler, reg1)
    assert listeners(flavour, informer) == [reg2._listener]
    flavour.do(informer.remove_event_handler, reg2)
    assert listeners(flavour, informer) == []


def test_removing_removed_shared_informer(flavour: Flavour, source: FakeControllerSource) -> None:
    informer = informer_for(flavour, source, 1.0)
    reg = flavour.do(informer.add_event_handler)
    flavour.do(informer.remove_event_handler, reg)
    flavour.do(informer.remove_event_handler, reg)  # a second removal is no error
    assert listeners(flavour, informer) == []


def test_shared_informer_handler_abuse(flavour: Flavour, source: FakeControllerSource) -> None:
    """Many threads adding and removing handlers while events flow and the informer stops."""
    informer = informer_for(flavour, source, 1.0)
    flavour.call(informer.run)
    failures: list[BaseException] = []

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        handles: list[HandlerRegistration] = []
        try:
            while True:
                if rng.random() < 0.5 or not handles:
                    handles.append(flavour.do(
                        informer.add_event_handler,
                        lambda obj: None, lambda old, new: None, lambda obj: None, resync_period=1.0))
                else:
                    flavour.do(informer.remove_event_handler, handles.pop(rng.randrange(len(handles))))
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
    flavour.call(informer.stop)
    for thread in workers:
        thread.join(5)
        assert not thread.is_alive(), "a worker is stuck"
    assert failures == []


def test_state_shared_informer(flavour: Flavour, source: FakeControllerSource) -> None:
    source.add(pod("pod1"))
    informer = informer_for(flavour, source, 1.0)
    listener = Listener("listener", 0, "pod1")
    listener.register(flavour, informer)
    assert not informer.has_started() and not informer.is_stopped()
    flavour.call(informer.run)
    assert listener.ok()
    assert informer.has_started() and not informer.is_stopped()
    flavour.call(informer.stop)
    assert informer.is_stopped() and informer.has_started()


def test_add_on_stopped_shared_informer(flavour: Flavour, source: FakeControllerSource) -> None:
    source.add(pod("pod1"))
    informer = informer_for(flavour, source, 1.0)
    flavour.call(informer.run)
    flavour.call(informer.stop)
    with pytest.raises(InformerStoppedError, match="was not added to shared informer because it has stopped already"):
        Listener("listener", 0, "pod1").register(flavour, informer)


def test_remove_on_stopped_shared_informer(flavour: Flavour, source: FakeControllerSource) -> None:
    source.add(pod("pod1"))
    informer = informer_for(flavour, source, 1.0)
    handle = Listener("listener", 0, "pod1").register(flavour, informer)
    flavour.call(informer.run)
    flavour.call(informer.stop)
    flavour.do(informer.remove_event_handler, handle)
    assert listeners(flavour, informer) == []


def test_remove_while_active(flavour: Flavour, source: FakeControllerSource, stopper: Any) -> None:
    informer = informer_for(flavour, source, 0)
    listener = Listener("listener", 0, "pod1")
    handle = listener.register(flavour, informer)
    stopper(informer)
    flavour.call(informer.run)
    source.add(pod("pod1"))
    assert listener.ok(), "event did not occur"
    flavour.do(informer.remove_event_handler, handle)
    assert handle._listener not in listeners(flavour, informer)
    source.add(pod("pod2"))
    assert listener.ok(), "unexpected event occurred"


def test_add_while_active(flavour: Flavour, source: FakeControllerSource, stopper: Any) -> None:
    informer = informer_for(flavour, source, 0)
    listener1 = Listener("originalListener", 0, "pod1")
    listener2 = Listener("listener2", 0, "pod1", "pod2")
    handle1 = listener1.register(flavour, informer)
    assert not handle1.has_synced(), "synced before run"
    stopper(informer)
    flavour.call(informer.run)
    source.add(pod("pod1"))
    assert listener1.ok(), "events on listener1 did not occur"
    assert handle1.has_synced(), "not synced after run"

    with listener2.lock:  # observe it before it could handle anything
        handle2 = listener2.register(flavour, informer)
        assert not handle2.has_synced(), "synced before processing anything"
    source.add(pod("pod2"))
    assert listener2.ok(), "event on listener2 did not occur"
    assert handle2.has_synced(), "not synced even after processing"
    assert listener2.events[0][0] == "add"  # the replay of pod1 comes as an add
    listener1.expected = listener2.expected
    assert listener1.ok(), "events on listener1 did not occur"


@pytest.mark.parametrize("where", ["loop", "thread"])
def test_a_handler_added_to_a_running_informer_from_any_thread_gets_every_event(
    flavour: Flavour, source: FakeControllerSource, stopper: Any, where: str
) -> None:
    """On asyncio the handler's worker must run on the informer's loop even when the handler is
    added from another thread; else its buffer grows and nobody handles it."""
    source.add(pod("pod1"))
    informer = informer_for(flavour, source, 0)
    stopper(informer)
    flavour.call(informer.run)
    assert flavour.call(lambda: informer.wait_for_cache_sync(timeout=10))
    call = flavour.do if where == "loop" else on_new_thread
    late = Listener("late", 0, "pod1", "pod2")
    handle: HandlerRegistration = call(informer.add_event_handler, late.on_add, late.on_update, late.on_delete)
    source.add(pod("pod2"))
    assert late.ok(timeout=10), f"got {late.received}"
    wait_until(handle.has_synced)
    assert not handle._listener.pending, "notifications nobody handles"
    call(informer.remove_event_handler, handle)
    source.add(pod("pod3"))
    assert late.ok(), "a removed handler got an event"


def on_new_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` on a thread of its own (for asyncio: off the informer's loop)."""
    result: list[Any] = []
    errors: list[BaseException] = []

    def call() -> None:
        try:
            result.append(fn(*args))
        except BaseException as e:  # noqa: BLE001 - raised in the test's thread
            errors.append(e)

    thread = threading.Thread(target=call)
    thread.start()
    thread.join(10)
    if errors:
        raise errors[0]
    assert result, "the call hung"
    return result[0]


def test_slow_handler_never_blocks_the_others(flavour: Flavour, source: FakeControllerSource, stopper: Any) -> None:
    informer = informer_for(flavour, source, 0)
    release = flavour.event()
    slow_seen: list[str] = []
    slow = flavour.waiting(release, after=lambda obj: slow_seen.append(name_of(obj)))  # awaits on asyncio

    flavour.do(informer.add_event_handler, on_add=slow)
    fast = Listener("fast", 0, *(f"pod{i}" for i in range(200)))
    fast.register(flavour, informer)
    stopper(informer)
    flavour.call(informer.run)
    for i in range(200):
        source.add(pod(f"pod{i}"))
    assert fast.ok(stragglers=0), "the fast handler waited for the slow one"
    assert slow_seen == []
    flavour.set_event(release)
    wait_until(lambda: len(slow_seen) == 200)
    assert slow_seen == [f"pod{i}" for i in range(200)], "each handler sees its notifications in order"


def test_failing_handler_does_not_stop_its_own_later_notifications(
    flavour: Flavour, source: FakeControllerSource, stopper: Any
) -> None:
    informer = informer_for(flavour, source, 0)
    seen: list[str] = []

    def flaky(obj: Any) -> None:
        seen.append(name_of(obj))
        if name_of(obj) == "bad":
            raise RuntimeError("handler bug")

    flavour.do(informer.add_event_handler, on_add=flaky)
    stopper(informer)
    flavour.call(informer.run)
    for name in ("a", "bad", "c"):
        source.add(pod(name))
    wait_until(lambda: seen == ["a", "bad", "c"])


def test_stop_ends_handlers_after_the_notification_in_progress(
    flavour: Flavour, source: FakeControllerSource
) -> None:
    informer = informer_for(flavour, source, 0)
    started, release = threading.Event(), flavour.event()
    seen: list[str] = []

    def record(obj: Any) -> None:
        seen.append(name_of(obj))
        started.set()

    handler = flavour.waiting(release, before=record, timeout=5)  # awaits on asyncio
    flavour.do(informer.add_event_handler, on_add=handler)
    for i in range(5):
        source.add(pod(f"pod{i}"))
    flavour.call(informer.run)
    assert started.wait(5)
    flavour.later(0.1, release.set)
    flavour.call(informer.stop)
    time.sleep(0.1)
    assert seen == ["pod0"], "notifications were delivered after stop()"


def test_relist_emits_tombstones_for_objects_deleted_while_disconnected(
    flavour: Flavour, source: FakeControllerSource, stopper: Any
) -> None:
    a, b = source.add(pod("a")), source.add(pod("b"))
    informer = informer_for(flavour, source, 0)
    listener = Listener("listener", 0, "a", "b")
    listener.register(flavour, informer)
    stopper(informer)
    flavour.call(informer.run)
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


def test_informer_delivers_adds_updates_deletes_and_replays_to_late_handlers(
    flavour: Flavour, source: FakeControllerSource, stopper: Any
) -> None:
    informer = informer_for(flavour, source, 0)
    seen: list[tuple[str, str]] = []
    on_add = flavour.handler(lambda obj: seen.append(("add", name_of(obj))))  # on asyncio: awaited
    handle = flavour.do(
        informer.add_event_handler, on_add, lambda old, new: seen.append(("update", rv_of(new))),
        lambda obj: seen.append(("delete", name_of(obj))),
    )
    a = source.add(pod("a"))
    stopper(informer)
    flavour.call(informer.run)
    assert flavour.call(lambda: informer.wait_for_cache_sync(timeout=5))
    wait_until(handle.has_synced, timeout=1)
    modified = source.modify(a)
    source.delete(modified)
    wait_until(lambda: len(seen) >= 3, timeout=3)
    assert seen == [("add", "a"), ("update", rv_of(modified)), ("delete", "a")]

    source.add(pod("b"))
    wait_until(lambda: informer.indexer.list_keys() == ["b"], timeout=3)
    late: list[str] = []
    release = flavour.event()  # holds the late handler until its has_synced() was observed
    late_handle = flavour.do(informer.add_event_handler, flavour.waiting(release, after=lambda obj: late.append(name_of(obj))))
    assert not late_handle.has_synced()
    flavour.set_event(release)
    wait_until(late_handle.has_synced, timeout=3)
    assert late == ["b"]
    flavour.call(informer.stop)
    assert informer.is_stopped()
    with pytest.raises(InformerStoppedError):
        flavour.do(informer.add_event_handler)


# -- the informer driven directly (no workers run) -----------------------------------------------


def notes(handle: HandlerRegistration) -> list[tuple[str, str, str]]:
    """The notifications queued for a handler, as (kind, name, resourceVersion)."""
    out = []
    pending = handle._listener.pending
    while pending:
        note = pending.popleft()
        if isinstance(note, AddNotification):
            out.append(("add", name_of(note.obj), rv_of(note.obj)))
        elif isinstance(note, UpdateNotification):
            out.append(("update", name_of(note.new), rv_of(note.new)))
        else:
            assert isinstance(note, DeleteNotification)
            obj = note.obj
            kind = "tombstone" if isinstance(obj, DeletedFinalStateUnknown) else "delete"
            obj = obj.obj if isinstance(obj, DeletedFinalStateUnknown) else obj
            out.append((kind, name_of(obj), rv_of(obj)))
    return out


def process_all(flavour: Flavour, informer: Informer) -> None:
    # (``call`` takes its own ``timeout``: the pop's goes through a lambda.)
    while flavour.call(lambda: informer.fifo.pop(informer.handle_deltas, timeout=0)) is not None:
        pass


def test_queued_only_objects_get_a_tombstone_when_a_relist_drops_them(
    flavour: Flavour, source: FakeControllerSource
) -> None:
    informer = informer_for(flavour, source, 0)
    handle = flavour.do(informer.add_event_handler)
    informer.fifo.replace([pod("a", "1")], "1")
    process_all(flavour, informer)
    informer.fifo.add(pod("o", "2"))  # still queued when the relist replaces the store
    informer.fifo.replace([pod("a", "1")], "3")
    process_all(flavour, informer)
    assert notes(handle) == [("add", "a", "1"), ("add", "o", "2"), ("tombstone", "o", "2")]
    assert informer.indexer.list_keys() == ["a"]


def test_relist_of_unchanged_objects_reaches_only_handlers_due_for_resync(
    flavour: Flavour, source: FakeControllerSource
) -> None:
    clock = Clock()
    informer = informer_for(flavour, source, 10, clock)
    plain = flavour.do(informer.add_event_handler, resync_period=0)
    resyncing = flavour.do(informer.add_event_handler, resync_period=10)
    informer.fifo.replace([pod("a", "1"), pod("b", "1")], "1")
    process_all(flavour, informer)
    notes(plain), notes(resyncing)

    informer.fifo.replace([pod("a", "1"), pod("b", "2")], "2")  # a unchanged, b changed
    process_all(flavour, informer)
    assert notes(plain) == [("update", "b", "2")]
    assert notes(resyncing) == [("update", "b", "2")]

    clock.step(10)
    assert flavour.do(informer.should_resync)
    informer.fifo.resync()
    process_all(flavour, informer)
    assert notes(plain) == []
    assert sorted(notes(resyncing)) == [("update", "a", "1"), ("update", "b", "2")]
    assert not flavour.do(informer.should_resync), "the next resync is 10 s away"


def test_transform_runs_once_even_across_resyncs(flavour: Flavour, source: FakeControllerSource) -> None:
    informer = informer_for(flavour, source, 0)
    calls: list[str] = []

    def transform(obj: dict[str, Any]) -> dict[str, Any]:
        calls.append(name_of(obj))
        assert "transformed" not in obj["metadata"], "transformed twice"
        return {**obj, "metadata": {**obj["metadata"], "transformed": True}}

    flavour.do(informer.set_transform, transform)
    flavour.do(informer.add_event_handler, resync_period=0)
    informer.fifo.replace([pod("a", "1")], "1")
    process_all(flavour, informer)
    informer.fifo.resync()
    informer.fifo.replace([], "2")  # tombstone of the transformed object
    process_all(flavour, informer)
    assert calls == ["a"]


def test_mutation_detector_finds_a_mutated_cached_object(flavour: Flavour, source: FakeControllerSource) -> None:
    mutated: list[Any] = []
    detector = CacheMutationDetector(period=3600, on_mutation=mutated.append)
    informer = informer_for(flavour, source, 0, mutation_detector=detector)
    informer.fifo.replace([pod("a", "1"), pod("b", "1")], "1")
    process_all(flavour, informer)
    detector.compare_objects()
    assert mutated == []
    cached = informer.indexer.get_by_key("a")
    cached["metadata"]["labels"] = {"oops": "mutated"}  # a handler "fixing" a cached object
    detector.compare_objects()
    assert [name_of(o) for o in mutated] == ["a"]


def test_mutation_detector_default_raises_and_is_enabled_by_env(
    flavour: Flavour, source: FakeControllerSource, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("KGEN_CACHE_MUTATION_DETECTOR", raising=False)
    assert CacheMutationDetector.from_env() is None
    assert informer_for(flavour, source).mutation_detector is None
    monkeypatch.setenv("KGEN_CACHE_MUTATION_DETECTOR", "true")
    detector = CacheMutationDetector.from_env()
    assert detector is not None
    assert informer_for(flavour, source).mutation_detector is not None, "an informer takes the env's detector"
    obj = pod("a", "1")
    detector.add_object(obj)
    obj["metadata"]["name"] = "b"
    with pytest.raises(CacheMutationError):
        detector.compare_objects()
