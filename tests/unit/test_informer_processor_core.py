"""The informer's processor core (processor.py: client-go's sharedProcessor/processorListener
rules) without threads, tasks or clocks: what each listener gets next, which workers are owed a
start or a wake-up, initial-list counting for has_synced, resync due-ness, removal and stop.
Both drivers are tested through the informer in test_shared_informer_unit.py; the last section
drives them directly, on both flavours, where only a driver can go wrong: listeners added and
removed from a thread other than the one the workers run on."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest

from kgen.runtime.tools.cache.processor import (
    END,
    AddNotification,
    AsyncSharedProcessor,
    AsyncWaitGroup,
    DeleteNotification,
    Notification,
    ProcessorCore,
    ProcessorListener,
    ResourceEventHandlerFuncs,
    SharedProcessor,
    UpdateNotification,
    WaitGroup,
    determine_resync_period,
)
from tests.support.flavours import Flavour


def listener(resync_period: float = 0.0, now: float = 0.0, upstream_synced: bool = True) -> ProcessorListener:
    return ProcessorListener(ResourceEventHandlerFuncs(), resync_period, resync_period, now, lambda: upstream_synced)


def test_distribute_hands_every_listener_the_note_and_owes_each_a_wake_up() -> None:
    core, one, two = ProcessorCore(), listener(), listener()
    core.add_listener(one)
    core.add_listener(two)
    note = AddNotification("a", False)
    core.distribute(note, sync=False)
    assert core.take_wakeups() == ([], [one, two])
    assert core.next(one) == note and core.next(two) == note
    assert core.next(one) is None, "nothing pending: the worker waits"
    assert core.take_wakeups() == ([], []), "wake-ups are owed once"


def test_each_listener_gets_its_notes_in_order() -> None:
    core, one = ProcessorCore(), listener()
    core.add_listener(one)
    notes: list[Notification] = [AddNotification("a", False), UpdateNotification("a", "a2"), DeleteNotification("a2")]
    for note in notes:
        core.distribute(note, sync=False)
    assert [core.next(one) for _ in notes] == notes


def test_workers_start_when_the_processor_runs_and_for_listeners_added_later() -> None:
    core, early, late = ProcessorCore(), listener(), listener()
    core.add_listener(early)
    assert core.take_wakeups() == ([], []), "not running yet: no worker"
    core.run()
    assert core.take_wakeups() == ([early], [])
    core.add_listener(late)
    assert core.take_wakeups() == ([late], [])
    core.stop()
    core.add_listener(listener())
    assert core.take_wakeups()[0] == [], "no worker starts after stop"


def test_a_listener_added_with_initial_notes_gets_them_first() -> None:
    core, one = ProcessorCore(), listener()
    core.add_listener(one, [AddNotification("cached", True)])
    core.distribute(AddNotification("new", False), sync=False)
    assert [core.next(one), core.next(one)] == [AddNotification("cached", True), AddNotification("new", False)]


def test_has_synced_waits_for_every_initial_list_note_to_be_handled() -> None:
    core, one = ProcessorCore(), listener()
    core.add_listener(one)
    first, second = AddNotification("a", True), AddNotification("b", True)
    core.distribute(first, sync=False)
    core.distribute(second, sync=False)
    core.distribute(UpdateNotification("a", "a2"), sync=False)
    assert not one.has_synced()
    note = core.next(one)
    assert not one.has_synced(), "handed out is not handled"
    assert note is first
    core.done(one, first)
    assert not one.has_synced()
    core.done(one, core.next(one))  # type: ignore[arg-type]
    assert one.has_synced(), "only initial-list notes count"


def test_has_synced_needs_the_informer_synced_too() -> None:
    unsynced = listener(upstream_synced=False)
    assert unsynced.initial_pending == 0
    assert not unsynced.has_synced()


def test_sync_notes_reach_only_the_listeners_due_for_resync() -> None:
    core = ProcessorCore()
    never, every10, every30 = listener(0, now=0), listener(10, now=0), listener(30, now=0)
    for one in (never, every10, every30):
        core.add_listener(one)
    assert not core.should_resync(5)
    assert core.should_resync(10)
    core.take_wakeups()
    core.distribute(UpdateNotification("a", "a"), sync=True)
    assert core.take_wakeups() == ([], [every10])
    assert core.next(never) is None and core.next(every30) is None
    assert core.next(every10) == UpdateNotification("a", "a")
    assert not core.should_resync(15), "the next resync is scheduled from when it was due"
    assert core.should_resync(30)
    assert core.syncing == [every10, every30]
    core.distribute(AddNotification("b", False), sync=False)
    assert core.next(never) == AddNotification("b", False), "non-sync notes reach everyone"


def test_a_removed_listener_ends_and_gets_nothing_more() -> None:
    core, one, other = ProcessorCore(), listener(10), listener()
    core.add_listener(one)
    core.add_listener(other)
    core.distribute(AddNotification("a", False), sync=False)
    assert core.should_resync(10) and core.syncing == [one]
    core.take_wakeups()
    assert core.remove_listener(one)
    assert core.take_wakeups() == ([], [one]), "its worker is woken to end"
    assert core.next(one) is END, "what was still buffered is dropped"
    core.distribute(UpdateNotification("a", "a"), sync=True)  # it was due for resync
    core.distribute(AddNotification("b", False), sync=False)
    assert list(one.pending) == [AddNotification("a", False)]
    assert core.listeners == [other]


def test_removing_a_foreign_or_removed_listener_does_nothing() -> None:
    core, one = ProcessorCore(), listener()
    assert not core.remove_listener(one)
    core.add_listener(one)
    assert core.remove_listener(one)
    core.take_wakeups()
    assert not core.remove_listener(one)
    assert core.take_wakeups() == ([], [])


def test_stop_ends_every_worker_and_wakes_them_all() -> None:
    core, one, two = ProcessorCore(), listener(), listener()
    core.add_listener(one)
    core.add_listener(two)
    core.run()
    core.distribute(AddNotification("a", False), sync=False)
    core.take_wakeups()
    core.stop()
    assert core.take_wakeups() == ([], [one, two])
    assert core.next(one) is END and core.next(two) is END


def test_a_new_check_period_recomputes_every_listener_period() -> None:
    core = ProcessorCore()
    never, wants5, wants60 = (ProcessorListener(ResourceEventHandlerFuncs(), p, p, 0, lambda: True) for p in (0, 5, 60))
    for one in (never, wants5, wants60):
        core.add_listener(one)
    core.resync_check_period_changed(30)
    assert [one.resync_period for one in (never, wants5, wants60)] == [0, 30, 60]
    core.resync_check_period_changed(0)
    assert [one.resync_period for one in (never, wants5, wants60)] == [0, 0, 0]


def test_determine_resync_period() -> None:
    assert determine_resync_period(0, 10) == 0, "a handler that wants no resync gets none"
    assert determine_resync_period(5, 0) == 0, "an informer without resync resyncs no handler"
    assert determine_resync_period(5, 10) == 10, "raised to the check period"
    assert determine_resync_period(60, 10) == 60


def test_notifications_call_the_matching_callback() -> None:
    calls: list[tuple[str, ...]] = []
    handler = ResourceEventHandlerFuncs(
        lambda obj: calls.append(("add", obj)),
        lambda old, new: calls.append(("update", old, new)),
        lambda obj: calls.append(("delete", obj)),
    )
    AddNotification("a", True).deliver(handler)
    UpdateNotification("a", "b").deliver(handler)
    DeleteNotification("b").deliver(handler)
    assert calls == [("add", "a"), ("update", "a", "b"), ("delete", "b")]
    assert AddNotification("a", False).deliver(ResourceEventHandlerFuncs()) is None, "a missing callback is skipped"


# -- the drivers, with listeners added and removed from another thread --------------------------

Processor = SharedProcessor | AsyncSharedProcessor


def running_processor(flavour: Flavour) -> Processor:
    """A processor of this flavour, running (on the flavour's loop for asyncio)."""
    processor: Processor = flavour.do(lambda: flavour.pick(SharedProcessor, AsyncSharedProcessor)(
        flavour.pick(WaitGroup, AsyncWaitGroup)()))
    flavour.do(processor.run)
    return processor


def live_workers(processor: Processor) -> int:
    """Workers still running, read without calling into the loop (so a test never wakes it)."""
    group: Any = processor._group
    if isinstance(group, WaitGroup):
        return sum(thread.is_alive() for thread in group._threads)
    return sum(not task.done() for task in list(group._tasks))


def on(flavour: Flavour, where: str, fn: Callable[..., Any], *args: Any) -> Any:
    """Runs ``fn`` where the workers run (the loop's thread for asyncio), or on a new thread."""
    if where == "loop":
        return flavour.do(fn, *args)
    return call_on_new_thread(fn, *args)


def call_on_new_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` on a thread of its own: its result, or its exception raised here."""
    result: Future[Any] = Future()
    threading.Thread(target=lambda: _settle(result, fn, args)).start()
    return result.result(10)


def _settle(result: Future[Any], fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        result.set_result(fn(*args))
    except BaseException as e:  # noqa: BLE001 - raised in the test's thread
        result.set_exception(e)


def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.mark.parametrize("where", ["loop", "thread"])
def test_a_listener_added_to_a_running_processor_from_any_thread_handles_every_note(
    flavour: Flavour, where: str
) -> None:
    processor = running_processor(flavour)
    seen: list[str] = []
    late = listener()
    late.handler = ResourceEventHandlerFuncs(on_add=seen.append)
    on(flavour, where, processor.add_listener, late, [AddNotification("cached", True)])
    for name in ("a", "b"):
        flavour.do(processor.distribute, AddNotification(name, False), False)
    wait_until(lambda: len(seen) == 3)
    assert seen == ["cached", "a", "b"]
    assert late.has_synced() and not late.pending, "a buffer nobody drains"
    assert live_workers(processor) == 1
    flavour.do(processor.stop)
    wait_until(lambda: live_workers(processor) == 0)


@pytest.mark.parametrize("where", ["loop", "thread"])
def test_a_listener_removed_from_any_thread_ends_its_waiting_worker(flavour: Flavour, where: str) -> None:
    processor = running_processor(flavour)
    handled = threading.Event()
    one = listener()
    one.handler = ResourceEventHandlerFuncs(on_add=lambda obj: handled.set())
    flavour.do(processor.add_listener, one, [AddNotification("a", True)])
    assert handled.wait(10)
    wait_until(lambda: flavour.do(lambda: not one.pending))  # its worker waits for the next note
    on(flavour, where, processor.remove_listener, one)
    # Nothing else wakes the loop meanwhile: the removal's wake-up alone must end the worker.
    wait_until(lambda: live_workers(processor) == 0)


def test_adding_a_listener_once_the_loop_is_closed_fails_and_registers_nothing() -> None:
    loop = asyncio.new_event_loop()
    processor = AsyncSharedProcessor(AsyncWaitGroup())

    async def run() -> None:
        processor.run()

    loop.run_until_complete(run())
    loop.close()  # gone without stopping the processor
    with pytest.raises(RuntimeError, match="event loop it must run on is closed"):
        processor.add_listener(listener())
    assert processor.listeners() == []
