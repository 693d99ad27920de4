"""One test, both flavours: drive the thread and the asyncio flavour of a cache component from the
same synchronous test body.

The asyncio flavour runs its event loop on a background thread, so a test treats it exactly as
it treats the thread flavour: it starts work in the background, feeds fake watches from the test
thread, and waits for the outcome. What differs is hidden behind ``Flavour``:

- ``pick(SyncClass, AsyncClass)``: the class of this flavour;
- ``call(fn, *args)``: runs ``fn`` (a function, or a coroutine function on the loop) to the end;
  its ``timeout=`` bounds the call itself and is not passed on to ``fn`` (wrap ``fn`` in a lambda
  to give it a timeout of its own);
- ``start(fn, *args)``: runs it in the background; the handle ``join``s like a thread;
- ``do(fn, *args)``: runs a plain function where the flavour's objects live (the loop's thread
  for asyncio, since asyncio objects are not thread-safe) and returns its result;
- ``later(seconds, fn)``: ``threading.Timer`` or ``loop.call_later``;
- ``event()``: a stop signal the component understands (``threading.Event``/``asyncio.Event``),
  set from anywhere through ``set_event``;
- ``handler(fn)`` and ``waiting(event, before, after)``: callbacks as this flavour's components
  call them — a function on threads, a coroutine function on asyncio (awaited by the
  component), so a callback that waits lets the loop run on meanwhile.

``FLAVOURS`` parametrizes the ``flavour`` fixture (tests/conftest.py); the test ids end in
``[sync]`` and ``[async]``, and the session prints the count of each per module.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

FLAVOURS = ["sync", "async"]


class Handle:
    """A background run: ``join(timeout)`` and ``is_alive()`` as on a thread; ``result()``."""

    def __init__(self, future: Future[Any]) -> None:
        self._future = future

    def join(self, timeout: float | None = None) -> None:
        try:
            self._future.result(timeout)
        except Exception:  # noqa: BLE001 - join() does not raise, as on a thread
            pass

    def is_alive(self) -> bool:
        return not self._future.done()

    def result(self, timeout: float | None = None) -> Any:
        return self._future.result(timeout)


class Flavour:
    def __init__(self, name: str, loop: asyncio.AbstractEventLoop | None) -> None:
        self.name = name
        self.loop = loop

    @property
    def is_async(self) -> bool:
        return self.loop is not None

    def __repr__(self) -> str:
        return f"Flavour({self.name})"

    def pick(self, sync: Any, async_: Any) -> Any:
        return async_ if self.is_async else sync

    def _submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
        if self.loop is None:
            future: Future[Any] = Future()
            name = f"flavour-{getattr(fn, '__name__', 'fn')}"
            threading.Thread(target=_settle, args=(future, fn, args, kwargs), daemon=True, name=name).start()
            return future

        async def run_async() -> Any:
            result = fn(*args, **kwargs)
            return await result if inspect.isawaitable(result) else result

        return asyncio.run_coroutine_threadsafe(run_async(), self.loop)

    def call(self, fn: Callable[..., Any], *args: Any, timeout: float = 10.0, **kwargs: Any) -> Any:
        if self.loop is None:
            return fn(*args, **kwargs)
        return self._submit(fn, *args, **kwargs).result(timeout)

    def start(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Handle:
        return Handle(self._submit(fn, *args, **kwargs))

    def do(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self.loop is None or _on_loop(self.loop):
            return fn(*args, **kwargs)
        future: Future[Any] = Future()

        self.loop.call_soon_threadsafe(_settle, future, fn, args, kwargs)
        return future.result(10)

    def later(self, seconds: float, fn: Callable[[], Any]) -> None:
        if self.loop is None:
            timer = threading.Timer(seconds, fn)
            timer.daemon = True
            timer.start()
        else:
            self.loop.call_soon_threadsafe(self.loop.call_later, seconds, fn)

    def event(self) -> Any:
        if self.loop is None:
            return threading.Event()
        return self.do(asyncio.Event)

    def set_event(self, event: Any) -> None:
        """Sets an ``event()`` from any thread."""
        self.do(event.set)

    def handler(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` on threads; on asyncio a coroutine function that yields to the loop once, then
        calls ``fn``."""
        if self.loop is None:
            return fn

        async def coroutine_handler(*args: Any) -> Any:
            await asyncio.sleep(0)
            return fn(*args)

        return coroutine_handler

    def waiting(
        self,
        event: Any,
        before: Callable[..., Any] | None = None,
        after: Callable[..., Any] | None = None,
        timeout: float = 10.0,
    ) -> Callable[..., Any]:
        """A callback that calls ``before(*args)``, waits for ``event`` (an ``event()``) for
        ``timeout`` seconds at most, then calls ``after(*args)``: it blocks its thread on
        threads, and awaits on asyncio."""
        if self.loop is None:

            def blocking(*args: Any) -> None:
                if before is not None:
                    before(*args)
                event.wait(timeout)
                if after is not None:
                    after(*args)

            return blocking

        async def awaiting(*args: Any) -> None:
            if before is not None:
                before(*args)
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except asyncio.TimeoutError:
                pass  # as threading.Event.wait: the time is up, carry on
            if after is not None:
                after(*args)

        return awaiting


def _settle(future: Future[Any], fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Runs ``fn`` and hands its result or its exception to whoever waits on ``future``."""
    try:
        future.set_result(fn(*args, **kwargs))
    except BaseException as e:  # noqa: BLE001 - handed to the waiter
        future.set_exception(e)


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


@contextmanager
def flavour_of(name: str) -> Iterator[Flavour]:
    if name == "sync":
        yield Flavour(name, None)
        return
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True, name="flavour-loop")
    thread.start()
    try:
        yield Flavour(name, loop)
    finally:

        async def cancel_rest() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(cancel_rest(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
