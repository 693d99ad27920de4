"""``/debug/stacks`` (the manager's ``debug_stacks=True``, in place of pprof) on the real apiserver:
a reconciler blocked in a known function shows up there, on both flavours.

The ConfigMap controller's reconciler calls ``wait_here_for_release``, which blocks (a thread
waiting on an event; a task awaiting in a loop) until the test releases it. While it waits, the
dump has the worker that runs it (the ``configmap-worker-N`` thread, or task) with the reconcile
and the known function in its stack, innermost last. The endpoint is off by default (404), and
asking for it without a metrics server is an error naming what is missing.
"""

from __future__ import annotations

import asyncio
import re
import threading

import httpx
import pytest

from kgen.controller import AsyncManager, Manager, Request, async_controller_managed_by, controller_managed_by
from kgen.kubernetes import Clientset
from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config
from tests.support.controller.running import running_in_thread

pytestmark = pytest.mark.integration


class Gate:
    """Where the reconcilers wait: ``entered`` once one is blocked, ``released`` lets it go."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.released = threading.Event()


def wait_here_for_release(gate: Gate) -> None:
    gate.entered.set()
    gate.released.wait(60)


async def wait_here_for_release_async(gate: Gate) -> None:
    gate.entered.set()
    while not gate.released.is_set():
        await asyncio.sleep(0.05)


class Blocking:
    def __init__(self, gate: Gate) -> None:
        self.gate = gate

    def reconcile(self, request: Request) -> None:
        wait_here_for_release(self.gate)


class AsyncBlocking:
    def __init__(self, gate: Gate) -> None:
        self.gate = gate

    async def reconcile(self, request: Request) -> None:
        await wait_here_for_release_async(self.gate)


def section(dump: str, header: str) -> str:
    """The part of ``dump`` under the thread or task header starting with ``header``, up to the next one."""
    sections = [part for part in dump.split("\n\n") if part.startswith(header)]
    assert len(sections) == 1, f"{len(sections)} sections start with {header!r} in:\n{dump}"
    return sections[0]


@pytest.mark.parametrize("flavour", [Manager, AsyncManager], ids=["threads", "asyncio"])
def test_stacks_show_a_reconciler_blocked_in_a_known_function(
    flavour: type[Manager] | type[AsyncManager], kube_apiserver: KubeAPIServer, namespace: str
) -> None:
    gate = Gate()
    manager = flavour(unthrottled_config(kube_apiserver), namespace=namespace, metrics_address="127.0.0.1:0",
                      debug_stacks=True)
    if isinstance(manager, AsyncManager):
        async_controller_managed_by(manager).for_(ConfigMap).complete(AsyncBlocking(gate))
    else:
        controller_managed_by(manager).for_(ConfigMap).complete(Blocking(gate))
    with Clientset(unthrottled_config(kube_apiserver)) as kube, running_in_thread(manager):
        try:
            kube.core_v1.config_maps(namespace).create(ConfigMap(metadata=ObjectMeta(name="stuck", namespace=namespace)))
            assert gate.entered.wait(60), "the reconciler was never called"
            answer = httpx.get(f"http://127.0.0.1:{manager.metrics_port}/debug/stacks", timeout=10)
        finally:
            gate.released.set()
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    dump = answer.text
    if flavour is AsyncManager:
        assert re.search(r"^\d+ tasks$", dump, re.M), dump
        worker = section(dump, "task configmap-worker-0 (suspended)")
        innermost = "wait_here_for_release_async"
    else:
        worker = section(dump, "thread configmap-worker-0 (ident ")
        innermost = "wait_here_for_release"
        assert " tasks\n" not in dump  # the threads manager has no event loop to list
    assert re.search(r"^\d+ threads$", dump, re.M), dump
    lines = worker.splitlines()
    reconcile = next(i for i, line in enumerate(lines) if line.endswith(", in reconcile"))
    known = next(i for i, line in enumerate(lines) if line.endswith(f", in {innermost}"))
    assert reconcile < known, worker  # oldest frame first: the reconcile calls the known function
    assert f"{innermost}(self.gate)" in worker  # the source line, as a traceback prints it


def test_stacks_are_off_by_default_and_need_the_metrics_server(kube_apiserver: KubeAPIServer, namespace: str) -> None:
    config = unthrottled_config(kube_apiserver)
    manager = Manager(config, namespace=namespace, metrics_address="127.0.0.1:0")
    with running_in_thread(manager):
        base = f"http://127.0.0.1:{manager.metrics_port}"
        assert httpx.get(f"{base}/debug/stacks", timeout=10).status_code == 404
        assert httpx.get(f"{base}/metrics", timeout=10).status_code == 200
    with pytest.raises(ValueError, match="debug_stacks serves /debug/stacks on the metrics server: give a metrics_address"):
        Manager(config, debug_stacks=True)
