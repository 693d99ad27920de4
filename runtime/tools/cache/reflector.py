"""Reflector: keeps a store in step with the server by list, then watch (client-go reflector.go).

The reflector is written once, without I/O: client-go's decisions live in ``ReflectorState`` and
``ListPager`` (reflector_state.py, pager.py), and its loops in ``ReflectorCore``
(reflector_core.py) as generators of steps (reflector_steps.py) — list a page, open a watch,
consume it, wait, resync while watching — that receive each step's outcome (as in kube-rs's
``watcher`` state machine). ``Reflector`` (a thread) and ``AsyncReflector`` (an asyncio task)
only perform the steps against a lister-watcher — a ``ResourceClient``, or anything with
``list(**options)`` and ``open_watch(**options)`` — and stop between any two. The rules:

- WatchList (on by default, as in client-go since 1.35; ``watch_list=False`` or
  ``KUBE_FEATURE_WatchListClient=false`` turns it off; never for a fake clientset, which says it
  cannot): the initial state comes as one watch with ``sendInitialEvents=true``,
  ``resourceVersionMatch=NotOlderThan`` and bookmarks, from the last resourceVersion seen (or
  "", the newest). Its ADDED events fill a temporary store until the bookmark annotated
  ``k8s.io/initial-events-end``; then one ``replace`` gives the store that state at the
  bookmark's resourceVersion, and the same stream goes on as the watch. 429 or connection
  refused: back off and try again; 410 or "too large resource version": again at once from "";
  a stream that ends before the bookmark: again; any other error (a server that refuses, say
  with 400): fall back to a list.
- The list asks for resourceVersion "0" first (any recent state, served from the apiserver's
  watch cache); later lists ask for the last resourceVersion seen; a list answered 410 Gone or
  "too large resource version" is retried at once with "" (a consistent read from etcd).
- Lists come in pages of 500 (tools/pager), except a list at a specific resourceVersion, sent
  unpaged so the watch cache can serve it — unless the first list came back paginated, which
  means there is no watch cache. If the snapshot behind a continue token expires, one unpaged
  list at the requested resourceVersion replaces the pages.
- Watch from the last resourceVersion with bookmarks, for a timeout drawn from [300, 600) s so
  that clients do not reconnect in lockstep. Events move lastSyncResourceVersion (a watch from
  "" or "0" only once past its synthetic ADDED events). An event whose object is not of the
  resource's apiVersion and kind is logged and dropped; one of an unknown type is logged.
- A watch that merely ended (server timeout, dropped connection) is resumed from the last
  resourceVersion without a relist. One that ended within a second without an event (some
  proxy is closing it) and one that ended with an error — 410 Gone as an HTTP status, as an
  in-stream ERROR event or as a bare Status in a 200 — end the list-and-watch: the run loop
  backs off and relists. After a watch's 410 that relist still asks for the last
  resourceVersion: a list at a resourceVersion returns data at least that fresh.
- 429 Too Many Requests or connection refused when a watch starts, and 429 in the stream:
  back off and watch again, without relisting.
- Resync (``resync_period``) runs only while watching, never during a list or a backoff.
- Backoff between attempts: 0.8 s doubling to 30 s, with full jitter, starting over every
  2 minutes.
"""

from __future__ import annotations

import asyncio
import threading
from contextlib import AsyncExitStack, ExitStack
from typing import Any

from kgen.runtime.tools.cache.reflector_core import ReflectorCore
from kgen.runtime.tools.cache.reflector_state import (
    ReflectorStore,
    VeryShortWatchError,
    WatchErrorHandler,
    reflector_backoff,
)
from kgen.runtime.tools.cache.reflector_steps import (
    Consume,
    ListPage,
    OpenWatch,
    StartResync,
    Step,
    Stepper,
    Steps,
    StopResync,
    Wait,
)

__all__ = [
    "AsyncReflector", "Consume", "ListPage", "OpenWatch", "Reflector", "ReflectorCore", "ReflectorStore",
    "StartResync", "Stepper", "StopResync", "VeryShortWatchError", "Wait", "WatchErrorHandler", "reflector_backoff",
]


# -- the drivers: the same steps on a thread and on asyncio -----------------------------------


class _ThreadRun:
    """What one drive of steps owns on threads: its stop signal, a stream held open between two
    steps (a watch-list's, until the watch reads it), and the resync thread."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop
        self.held: ExitStack | None = None
        self.resync: tuple[threading.Thread, threading.Event] | None = None

    def own(self, stream: Any) -> ExitStack:
        """The stack that closes ``stream``: the held one, or a new one."""
        if self.held is not None:
            owned, self.held = self.held, None
            return owned
        owned = ExitStack()
        owned.enter_context(stream)
        return owned

    def release(self) -> None:
        if self.held is not None:
            held, self.held = self.held, None
            held.close()

    def stop_resync(self) -> None:
        if self.resync is not None:
            (thread, stop), self.resync = self.resync, None
            stop.set()
            if thread is not threading.current_thread():
                thread.join()


class Reflector(ReflectorCore):
    """Runs list+watch on a thread until ``stop()``; feeds ``store`` (a DeltaFIFO)."""

    def _init_driver(self) -> None:
        self._stop = threading.Event()
        self._watch: Any = None
        self._lock = threading.Lock()

    def stop(self) -> None:
        """Ends ``run``: the open watch is closed at once, a list in flight is discarded."""
        self._stop.set()
        with self._lock:
            watch = self._watch
        if watch is not None:
            watch.stop()

    def run(self) -> None:
        """List and watch (with backoff between failures) until ``stop()``."""
        self._drive(self.run_steps(), self._stop)

    def list_and_watch(self, stop: threading.Event | None = None) -> None:
        """One list and then watches until a watch fails in a way that needs a relist, or ``stop`` is
        set."""
        self._drive(self.list_and_watch_steps(), stop or self._stop)

    def list(self, stop: threading.Event | None = None) -> None:
        """List into the store once (paged when the rules say so)."""
        self._drive(self.list_steps(), stop or self._stop)

    def watch(self, stop: threading.Event | None = None) -> None:
        """Watch from the last synced resourceVersion until the watch ends."""
        self._drive(self.watch_steps(), stop or self._stop)

    def _drive(self, steps: Steps, stop: threading.Event) -> None:
        stepper, run = Stepper(steps), _ThreadRun(stop)
        try:
            while not stop.is_set() and (step := stepper.next()) is not None:
                try:
                    stepper.done(self._perform(step, run))
                except Exception as e:  # noqa: BLE001 - raised in the core, at the step
                    stepper.failed(e)
        finally:
            stepper.close()
            run.stop_resync()
            run.release()

    def _perform(self, step: Step, run: _ThreadRun) -> Any:
        if isinstance(step, (ListPage, OpenWatch)):
            run.release()  # the core moved on from a stream it left open
            if isinstance(step, ListPage):
                return self.client.list(**step.options)
            return self.client.open_watch(**step.options)
        if isinstance(step, Consume):
            return self._consume(step, run)
        if isinstance(step, StartResync):
            resync_stop = threading.Event()
            thread = threading.Thread(target=self._drive, args=(self.resync_steps(), resync_stop), daemon=True,
                                      name=f"resync-{self.name}")
            run.resync = (thread, resync_stop)
            thread.start()
        elif isinstance(step, StopResync):
            run.stop_resync()
        else:
            run.stop.wait(step.seconds)
        return None

    def _consume(self, step: Consume, run: _ThreadRun) -> tuple[int, BaseException | None]:
        stream, session = step.stream, step.session
        with self._lock:
            self._watch = stream
        try:
            with run.own(stream) as owned:
                if run.stop.is_set():  # stop() came before the stream was registered
                    return session.events, None
                for event in stream:
                    if self.handle(event, session) or run.stop.is_set():
                        break
                if session.keeps_stream:
                    run.held = owned.pop_all()  # the watch goes on reading it
        except Exception as e:  # noqa: BLE001 - judged by the core
            return session.events, e
        finally:
            with self._lock:
                self._watch = None
        return session.events, None


class _TaskRun:
    """``_ThreadRun`` on asyncio: the stop signal, a held stream, the resync task."""

    def __init__(self, stop: asyncio.Event) -> None:
        self.stop = stop
        self.held: AsyncExitStack | None = None
        self.resync: asyncio.Future[None] | None = None

    async def own(self, stream: Any) -> AsyncExitStack:
        if self.held is not None:
            owned, self.held = self.held, None
            return owned
        owned = AsyncExitStack()
        await owned.enter_async_context(stream)
        return owned

    async def release(self) -> None:
        if self.held is not None:
            held, self.held = self.held, None
            await held.aclose()

    async def stop_resync(self) -> None:
        if self.resync is not None:
            task, self.resync = self.resync, None
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


class AsyncReflector(ReflectorCore):
    """The Reflector as an asyncio task: ``await run()`` until ``stop()`` or cancellation."""

    def _init_driver(self) -> None:
        self._stop = asyncio.Event()

    def stop(self) -> None:
        """Ask ``run`` to end."""
        self._stop.set()

    async def run(self) -> None:
        """List and watch (with backoff between failures) until ``stop()`` or cancellation."""
        await self._drive(self.run_steps(), self._stop)

    async def list_and_watch(self, stop: asyncio.Event | None = None) -> None:
        """One list and then watches until a watch fails in a way that needs a relist, or ``stop`` is
        set."""
        await self._drive(self.list_and_watch_steps(), stop or self._stop)

    async def list(self, stop: asyncio.Event | None = None) -> None:
        """List into the store once (paged when the rules say so)."""
        await self._drive(self.list_steps(), stop or self._stop)

    async def watch(self, stop: asyncio.Event | None = None) -> None:
        """Watch from the last synced resourceVersion until the watch ends."""
        await self._drive(self.watch_steps(), stop or self._stop)

    async def _drive(self, steps: Steps, stop: asyncio.Event) -> None:
        stepper, run = Stepper(steps), _TaskRun(stop)
        try:
            while not stop.is_set() and (step := stepper.next()) is not None:
                try:
                    stepper.done(await self._perform(step, run))
                except Exception as e:  # noqa: BLE001 - raised in the core, at the step
                    stepper.failed(e)
        finally:
            stepper.close()
            await run.stop_resync()
            await run.release()

    async def _perform(self, step: Step, run: _TaskRun) -> Any:
        if isinstance(step, (ListPage, OpenWatch)):
            await run.release()  # the core moved on from a stream it left open
            if isinstance(step, ListPage):
                return await self.client.list(**step.options)
            return await self.client.open_watch(**step.options)
        if isinstance(step, Consume):
            return await self._consume(step, run)
        if isinstance(step, StartResync):
            run.resync = asyncio.ensure_future(self._drive(self.resync_steps(), asyncio.Event()))
        elif isinstance(step, StopResync):
            await run.stop_resync()
        else:
            try:
                await asyncio.wait_for(run.stop.wait(), step.seconds)
            except asyncio.TimeoutError:
                pass
        return None

    async def _consume(self, step: Consume, run: _TaskRun) -> tuple[int, BaseException | None]:
        """Reads the stream in one task raced against the stop signal (one task per stream,
        not one per event: a watch-list's initial events come by the thousand)."""
        stream, session = step.stream, step.session
        stopped = asyncio.ensure_future(run.stop.wait())
        reading: asyncio.Future[bool] | None = None
        try:
            async with await run.own(stream) as owned:
                try:
                    reading = asyncio.ensure_future(self._read(stream, session, run.stop))
                    await asyncio.wait({reading, stopped}, return_when=asyncio.FIRST_COMPLETED)
                    if reading.done() and reading.result():
                        run.held = owned.pop_all()  # the watch goes on reading it
                    return session.events, None  # else ended, or stopped: the read is cancelled below
                finally:
                    # Also on cancellation: no read may outlive the stream it reads.
                    if reading is not None and not reading.done():
                        stream.stop()
                        reading.cancel()
                        await asyncio.gather(reading, return_exceptions=True)
        except Exception as e:  # noqa: BLE001 - judged by the core
            return session.events, e
        finally:
            stopped.cancel()

    async def _read(self, stream: Any, session: Any, stop: asyncio.Event) -> bool:
        """The events into the session until the stream ends or stops (False), or one ends a
        watch-list's initial events (True: the stream is kept for the watch)."""
        iterator = stream.__aiter__()  # the stream's one iterator: a later watch goes on from here
        while True:
            try:
                event = await iterator.__anext__()
            except StopAsyncIteration:
                return False
            if self.handle(event, session):
                return True
            if stop.is_set():
                return False
