"""A manager of either flavour run in a thread for the length of a ``with`` block: what the
controller integration tests share to start one, stop it and check that it stopped."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from kgen.controller import AsyncManager, Manager


@contextmanager
def running_in_thread(
    manager: Manager | AsyncManager, errors: list[BaseException] | None = None, name: str = "manager"
) -> Iterator[threading.Thread]:
    """Runs ``manager.start()`` (an ``AsyncManager`` under ``asyncio.run``) in a thread named ``name``;
    on leaving, stops the manager and fails the test if the thread has not ended within 60 s.
    With ``errors``, what ``start`` raised is appended there for the test to read (a cache that never
    syncs ends ``start``); without, it propagates in the thread, where pytest reports it."""

    def run() -> None:
        try:
            if isinstance(manager, AsyncManager):
                asyncio.run(manager.start())
            else:
                manager.start()
        except BaseException as e:  # noqa: BLE001 - handed to the test
            if errors is None:
                raise
            errors.append(e)

    thread = threading.Thread(target=run, name=name)
    thread.start()
    try:
        yield thread
    finally:
        manager.stop()
        thread.join(60)
        assert not thread.is_alive(), "the manager did not stop"
