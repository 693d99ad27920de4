"""A daemon per object, started when the object appears and stopped when it goes: kopf's
``@kopf.daemon``, built on a controller's watch.

    def watch_backend(request: Request, stop: threading.Event) -> None:
        while not stop.wait(5):                 # the stop signal: check it, or wait on it
            ...                                 # poll something outside the cluster for the object

    Daemon(manager.client, Foo, watch_backend).setup_with_manager(manager)

``Daemon`` is a reconciler: ``setup_with_manager`` builds a controller for the model (named
``<kind>-daemon``, predicates optional) whose reconcile reads the object from the cache and
- starts the body in a thread of its own when the object exists and has no daemon yet;
- sets that daemon's stop signal when the object is gone, is being deleted (its
  ``deletionTimestamp`` is set: kopf stops daemons then too, before finalizers are removed), or
  was replaced by another object of the same name (another uid: that one gets a new daemon).
It is also one of the controller's sources, so when the controller stops (the manager stops, or
this replica loses its leader election lease) every daemon's stop signal is set and the daemons
are given ``graceful_timeout`` seconds to return. Daemons run only where the controller runs: on
the leader.

The body gets the object's ``Request`` and the stop signal, never the object: it reads the
current state when it needs it (``manager.client.get(...)``, from the cache), as a reconciler
does. A body that returns is done: it is not started again for that object; the
object deleted and created again gets a new one. A body that raises is logged and started again
after ``backoff`` seconds (60 by default), unless stopped meanwhile.

``AsyncDaemon`` is the same on an ``AsyncManager``: the body is a coroutine function given an
``asyncio.Event``, run as a task on the manager's loop; tasks still running ``graceful_timeout``
seconds after the stop signal are cancelled.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from kgen.runtime.apimachinery import Model, NotFound
from kgen.runtime.apimachinery.meta import uid_of
from kgen.runtime.controller.builder import async_controller_managed_by, controller_managed_by
from kgen.runtime.controller.cluster.scheme import resource_for
from kgen.runtime.controller.handler import Queue
from kgen.runtime.controller.predicate import Predicate
from kgen.runtime.controller.reconcile import Request

if TYPE_CHECKING:
    from kgen.runtime.controller.async_controller import AsyncController
    from kgen.runtime.controller.controller import Controller
    from kgen.runtime.controller.manager.async_manager import AsyncManager
    from kgen.runtime.controller.manager.manager import Manager

__all__ = ["AsyncDaemon", "Daemon", "DaemonBody", "AsyncDaemonBody"]

log = logging.getLogger("kgen.runtime.controller.daemon")

T = TypeVar("T", bound=Model)
H = TypeVar("H")

DaemonBody = Callable[[Request, threading.Event], object]
"""A thread daemon's body: ``body(request, stop)``; returns when ``stop`` is set (or when done)."""
AsyncDaemonBody = Callable[[Request, asyncio.Event], Awaitable[object]]
"""An asyncio daemon's body: ``await body(request, stop)``."""


class _Reader(Protocol):
    def get(self, model: type[T], name: str, namespace: str | None = None) -> T: ...


class _AsyncReader(Protocol):
    async def get(self, model: type[T], name: str, namespace: str | None = None) -> T: ...


@dataclass
class _Run(Generic[H]):
    """One object's daemon: the object's uid, its stop signal, and the thread or task."""

    uid: str
    stop: Any  # threading.Event or asyncio.Event
    handle: H | None = None


def _live_uid(obj: Any) -> str | None:
    """The uid of an object that should have a daemon: None when it is being deleted."""
    meta = getattr(obj, "metadata", None)
    if meta is not None and getattr(meta, "deletion_timestamp", None) is not None:
        return None
    return uid_of(obj) or None


class _DaemonCore(Generic[T, H]):
    """What both flavours share: which object has which daemon, and what a reconcile changes."""

    def __init__(self, model: type[T], *, backoff: float, graceful_timeout: float) -> None:
        resource_for(model)  # a clear error now, not at start
        if backoff < 0 or graceful_timeout < 0:
            raise ValueError("backoff and graceful_timeout are seconds, at least 0")
        self.model = model
        self.backoff = backoff
        self.graceful_timeout = graceful_timeout
        self._runs: dict[Request, _Run[H]] = {}
        self._ending: list[_Run[H]] = []  # signalled to stop, maybe still running: stop() waits for them too
        self._lock = threading.Lock()
        self._stopped = False

    def _plan(self, request: Request, uid: str | None, new_signal: Callable[[], Any]) -> tuple[_Run[H] | None, _Run[H] | None]:
        """(the run to start, the run to stop) for ``request`` whose object has ``uid`` (None: no
        daemon wanted)."""
        with self._lock:
            current = self._runs.get(request)
            ended = None
            if current is not None and current.uid != uid:
                ended = self._runs.pop(request)
                current = None
                self._ending = [r for r in self._ending if r.handle is not None and _alive(r.handle)] + [ended]
            start = None
            if uid is not None and current is None and not self._stopped:
                start = self._runs[request] = _Run(uid, new_signal())
            return start, ended

    def _forget(self, request: Request, run: _Run[H]) -> None:
        """Called by a daemon that ended on its stop signal: its entry goes (a finished body's stays)."""
        with self._lock:
            if self._runs.get(request) is run:
                del self._runs[request]

    def _stop_all(self) -> list[_Run[H]]:
        with self._lock:
            self._stopped = True
            runs = [*self._runs.values(), *self._ending]
        for run in runs:
            run.stop.set()
        return runs

    # -- the controller's source: started and stopped with it ----------------------------------

    def start(self, queue: Queue) -> None:
        """Nothing to start: the daemons start as the controller reconciles their objects."""

    def has_synced(self) -> bool:
        """Always True: this source delivers no events."""
        return True

    def running(self) -> list[Request]:
        """The objects whose daemon is running now."""
        with self._lock:
            return sorted(r for r, run in self._runs.items() if run.handle is not None and _alive(run.handle))


def _alive(handle: Any) -> bool:
    return bool(handle.is_alive()) if isinstance(handle, threading.Thread) else not handle.done()


class Daemon(_DaemonCore[T, threading.Thread]):
    """A thread per object of ``model`` running ``body(request, stop)`` while the object exists."""

    def __init__(self, client: _Reader, model: type[T], body: DaemonBody, *, backoff: float = 60.0,
                 graceful_timeout: float = 30.0) -> None:
        super().__init__(model, backoff=backoff, graceful_timeout=graceful_timeout)
        self.client, self.body = client, body

    def setup_with_manager(self, manager: Manager, *, predicates: Sequence[Predicate[T]] = (), name: str | None = None) -> Controller:
        """The controller running the daemons (named ``<kind>-daemon`` unless ``name``), added to
        ``manager``; the daemons stop with it."""
        kind = resource_for(self.model).info.kind.lower()
        controller = controller_managed_by(manager).for_(self.model, predicates=predicates).named(name or f"{kind}-daemon").complete(self)
        controller.watch(self)
        return controller

    def reconcile(self, request: Request) -> None:
        """Starts the object's daemon, or stops it when the object is gone or going."""
        try:
            uid = _live_uid(self.client.get(self.model, request.name, request.namespace or None))
        except NotFound:
            uid = None
        start, ended = self._plan(request, uid, threading.Event)
        if ended is not None:
            ended.stop.set()
        if start is not None:
            start.handle = threading.Thread(target=self._run, args=(request, start), name=f"daemon-{request}", daemon=True)
            start.handle.start()

    def _run(self, request: Request, run: _Run[threading.Thread]) -> None:
        while not run.stop.is_set():
            try:
                self.body(request, run.stop)
                break
            except Exception as e:  # noqa: BLE001 - a daemon that fails is started again after its backoff
                log.error("daemon for %s %s failed, again in %gs: %s", self.model.__name__, request, self.backoff, e, exc_info=e)
                run.stop.wait(self.backoff)
        if run.stop.is_set():
            self._forget(request, run)

    def stop(self) -> None:
        """Sets every daemon's stop signal and waits up to ``graceful_timeout`` for them (the
        controller calls this when it stops)."""
        runs = self._stop_all()
        deadline = time.monotonic() + self.graceful_timeout
        for run in runs:
            if run.handle is not None:
                run.handle.join(max(0.0, deadline - time.monotonic()))
        late = [run.handle.name for run in runs if run.handle is not None and run.handle.is_alive()]
        if late:
            log.error("daemons still running %gs after their stop signal: %s", self.graceful_timeout, late)


class AsyncDaemon(_DaemonCore[T, "asyncio.Task[None]"]):
    """A task per object of ``model`` awaiting ``body(request, stop)`` while the object exists."""

    def __init__(self, client: _AsyncReader, model: type[T], body: AsyncDaemonBody, *, backoff: float = 60.0,
                 graceful_timeout: float = 30.0) -> None:
        super().__init__(model, backoff=backoff, graceful_timeout=graceful_timeout)
        self.client, self.body = client, body

    def setup_with_manager(self, manager: AsyncManager, *, predicates: Sequence[Predicate[T]] = (),
                           name: str | None = None) -> AsyncController:
        """The controller running the daemons (named ``<kind>-daemon`` unless ``name``), added to
        ``manager``; the daemons stop with it."""
        kind = resource_for(self.model).info.kind.lower()
        builder = async_controller_managed_by(manager).for_(self.model, predicates=predicates).named(name or f"{kind}-daemon")
        controller = builder.complete(self)
        controller.watch(self)
        return controller

    async def reconcile(self, request: Request) -> None:
        """Starts the object's daemon, or stops it when the object is gone or going."""
        try:
            uid = _live_uid(await self.client.get(self.model, request.name, request.namespace or None))
        except NotFound:
            uid = None
        start, ended = self._plan(request, uid, asyncio.Event)
        if ended is not None:
            ended.stop.set()
        if start is not None:
            start.handle = asyncio.create_task(self._run(request, start), name=f"daemon-{request}")

    async def _run(self, request: Request, run: _Run[asyncio.Task[None]]) -> None:
        while not run.stop.is_set():
            try:
                await self.body(request, run.stop)
                break
            except Exception as e:  # noqa: BLE001 - a daemon that fails is started again after its backoff
                log.error("daemon for %s %s failed, again in %gs: %s", self.model.__name__, request, self.backoff, e, exc_info=e)
                try:
                    await asyncio.wait_for(run.stop.wait(), self.backoff)
                except asyncio.TimeoutError:
                    pass
        if run.stop.is_set():
            self._forget(request, run)

    def stop(self) -> None:
        """Sets every daemon's stop signal; tasks still running ``graceful_timeout`` seconds later
        are cancelled (the controller calls this, on the loop, when it stops)."""
        tasks = [run.handle for run in self._stop_all() if run.handle is not None and not run.handle.done()]
        if tasks:
            asyncio.get_running_loop().call_later(self.graceful_timeout, lambda: [t.cancel() for t in tasks if not t.done()])
