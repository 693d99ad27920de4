"""``Daemon`` and ``AsyncDaemon`` (kgen.runtime.controller.patterns.daemon), reconciled by hand
against a dict of objects: which reconcile starts, keeps or stops which daemon. The manager's and
the real apiserver's side is tests/integration/test_controller_kopf_features.py."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, TypeVar

import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery import NotFound
from kgen.runtime.controller.patterns.daemon import AsyncDaemon, Daemon
from kgen.runtime.controller.reconcile import Request

T = TypeVar("T")
A = Request("ns", "a")


class Objects:
    """The cache: ``get`` answers from a dict, ``NotFound`` as the client does."""

    def __init__(self) -> None:
        self.objects: dict[str, ConfigMap] = {}

    def put(self, name: str, uid: str, deleting: bool = False) -> None:
        self.objects[name] = ConfigMap(metadata=ObjectMeta(
            name=name, namespace="ns", uid=uid, deletion_timestamp="2026-12-06T00:00:00Z" if deleting else None))

    def get(self, model: type[T], name: str, namespace: str | None = None) -> T:
        if name not in self.objects:
            raise NotFound({"reason": "NotFound", "message": f'configmaps "{name}" not found'}, 404)
        obj: Any = self.objects[name]
        return obj  # type: ignore[no-any-return]


class AsyncObjects(Objects):
    async def get(self, model: type[T], name: str, namespace: str | None = None) -> T:  # type: ignore[override]
        return Objects.get(self, model, name, namespace)


class Bodies:
    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []
        self.finish = False  # bodies return at once instead of waiting for their stop signal

    def __call__(self, request: Request, stop: threading.Event) -> None:
        self.log.append(("started", request.name))
        if not self.finish:
            stop.wait()
            self.log.append(("stopped", request.name))


def wait(daemon: Daemon[ConfigMap], running: list[Request]) -> None:
    for _ in range(500):
        if daemon.running() == running:
            return
        threading.Event().wait(0.01)
    raise AssertionError((daemon.running(), running))


def test_one_daemon_per_object_stopped_when_gone_going_or_replaced() -> None:
    objects, bodies = Objects(), Bodies()
    daemon = Daemon(objects, ConfigMap, bodies, graceful_timeout=5)
    objects.put("a", "uid-1")
    daemon.reconcile(A)
    daemon.reconcile(A)  # an update: the same daemon
    wait(daemon, [A])
    objects.put("a", "uid-2")  # deleted and created again between two reconciles: another object
    daemon.reconcile(A)
    wait(daemon, [A])
    objects.put("a", "uid-2", deleting=True)  # being deleted, a finalizer holding it
    daemon.reconcile(A)
    wait(daemon, [])
    del objects.objects["a"]
    daemon.reconcile(A)
    daemon.stop()  # waits for every daemon, the replaced one too
    assert sorted(bodies.log) == [("started", "a"), ("started", "a"), ("stopped", "a"), ("stopped", "a")]
    assert bodies.log[0] == ("started", "a")


def test_a_body_that_returns_is_not_started_again_for_its_object() -> None:
    objects, bodies = Objects(), Bodies()
    bodies.finish = True
    daemon = Daemon(objects, ConfigMap, bodies)
    objects.put("a", "uid-1")
    daemon.reconcile(A)
    wait(daemon, [])
    daemon.reconcile(A)
    assert bodies.log == [("started", "a")]
    objects.put("a", "uid-2")  # a new object of that name gets its own
    daemon.reconcile(A)
    wait(daemon, [])
    assert bodies.log == [("started", "a"), ("started", "a")]


def test_stop_ends_every_daemon_and_starts_no_more() -> None:
    objects, bodies = Objects(), Bodies()
    daemon = Daemon(objects, ConfigMap, bodies, graceful_timeout=5)
    for name in ("a", "b"):
        objects.put(name, f"uid-{name}")
        daemon.reconcile(Request("ns", name))
    wait(daemon, [A, Request("ns", "b")])
    daemon.stop()
    assert daemon.running() == [] and sorted(bodies.log) == [("started", "a"), ("started", "b"), ("stopped", "a"), ("stopped", "b")]
    objects.put("c", "uid-c")
    daemon.reconcile(Request("ns", "c"))  # a reconcile in flight when the controller stopped
    assert ("started", "c") not in bodies.log


def test_the_async_daemon_follows_the_same_rules() -> None:
    objects = AsyncObjects()
    log: list[tuple[str, str]] = []

    async def body(request: Request, stop: asyncio.Event) -> None:
        log.append(("started", request.name))
        await stop.wait()
        log.append(("stopped", request.name))

    async def scenario() -> None:
        daemon = AsyncDaemon(objects, ConfigMap, body, graceful_timeout=5)
        objects.put("a", "uid-1")
        await daemon.reconcile(A)
        await daemon.reconcile(A)
        await asyncio.sleep(0)
        assert daemon.running() == [A]
        objects.put("a", "uid-2")
        await daemon.reconcile(A)
        await asyncio.sleep(0)
        del objects.objects["a"]
        await daemon.reconcile(A)
        await asyncio.sleep(0)
        objects.put("b", "uid-b")
        await daemon.reconcile(Request("ns", "b"))
        await asyncio.sleep(0)
        daemon.stop()
        await asyncio.sleep(0)
        assert daemon.running() == []

    asyncio.run(scenario())
    assert log == [("started", "a"), ("stopped", "a"), ("started", "a"), ("stopped", "a"), ("started", "b"), ("stopped", "b")]


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="backoff and graceful_timeout are seconds"):
        Daemon(Objects(), ConfigMap, Bodies(), backoff=-1)
