"""``manager.add(runnable, need_leader_election=...)`` (controller-runtime's Runnable and
LeaderElectionRunnable) on the real apiserver, on both flavours.

Two managers share one Lease; each runs a runnable that needs the election and one that does
not, and every runnable writes to one journal when it starts and when it stops:
- the runnable every replica runs starts on both; the leader-only one only on the leader;
- when the leader stops (releasing the lease), its leader-only runnable stops before its other
  one (controller-runtime's stop order), and the other manager, now leading, starts its own
  leader-only runnable, after the first one stopped: never on both at once;
- a runnable that raises stops its manager, whose ``start`` raises naming it;
- ``add`` refuses a runnable of the other flavour.
"""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest

from kgen.controller import AsyncManager, Manager
from kgen.runtime.testing import KubeAPIServer
from tests.support.apiserver import unthrottled_config, wait_for
from tests.support.controller.running import running_in_thread

pytestmark = pytest.mark.integration

Journal = list[tuple[str, str, str]]
"""(manager identity, runnable: "leader" or "everywhere", "started" or "stopped"), in order."""


class Work:
    """A threads runnable: journals its start, waits for stop, journals its stop."""

    def __init__(self, identity: str, kind: str, journal: Journal) -> None:
        self.identity, self.kind, self.journal = identity, kind, journal
        self.name = f"{kind}-{identity}"

    def start(self, stop: threading.Event) -> None:
        self.journal.append((self.identity, self.kind, "started"))
        stop.wait()
        self.journal.append((self.identity, self.kind, "stopped"))


class AsyncWork:
    """An asyncio runnable: journals its start, runs until cancelled, journals its stop."""

    def __init__(self, identity: str, kind: str, journal: Journal) -> None:
        self.identity, self.kind, self.journal = identity, kind, journal
        self.name = f"{kind}-{identity}"

    async def start(self) -> None:
        self.journal.append((self.identity, self.kind, "started"))
        try:
            await asyncio.Event().wait()
        finally:
            self.journal.append((self.identity, self.kind, "stopped"))


class Everywhere(Work):
    """Says itself that it runs on every replica (LeaderElectionRunnable)."""

    def need_leader_election(self) -> bool:
        return False


class AsyncEverywhere(AsyncWork):
    """The asyncio one, saying the same."""

    def need_leader_election(self) -> bool:
        return False


@pytest.mark.parametrize("flavour", [Manager, AsyncManager], ids=["threads", "asyncio"])
def test_leader_only_runnable_runs_on_the_leader_and_moves_with_the_lease(
    flavour: type[Manager] | type[AsyncManager], kube_apiserver: KubeAPIServer, namespace: str
) -> None:
    lease = f"runnables-{uuid.uuid4().hex[:8]}"
    journal: Journal = []
    work, everywhere = (AsyncWork, AsyncEverywhere) if flavour is AsyncManager else (Work, Everywhere)

    def manager(identity: str) -> Manager | AsyncManager:
        m = flavour(
            unthrottled_config(kube_apiserver), namespace=namespace, leader_election=True, leader_election_id=lease,
            leader_election_namespace=namespace, identity=identity, leader_election_release_on_cancel=True,
            lease_duration=4.0, renew_deadline=3.0, retry_period=0.5,
        )
        m.add(work(identity, "leader", journal))                               # needs the election: the default
        m.add(work(identity, "everywhere", journal), need_leader_election=False)
        m.add(everywhere(identity, "self-declared", journal))                   # need_leader_election() says no
        return m

    a, b = manager("a"), manager("b")
    with running_in_thread(a):
        assert a.elected.wait(30)
        wait_for(lambda: ("a", "leader", "started") in journal)
        with running_in_thread(b):
            # b's runnables that need no election start once its cache synced, as its election begins.
            wait_for(lambda: {("b", "everywhere", "started"), ("b", "self-declared", "started")} <= set(journal))
            assert not b.elected.is_set()
            assert ("b", "leader", "started") not in journal
            a.stop()  # releases the lease on the way out
            wait_for(lambda: ("b", "leader", "started") in journal)
            assert b.elected.is_set()
            wait_for(lambda: ("a", "everywhere", "stopped") in journal)
            assert journal.index(("a", "leader", "stopped")) < journal.index(("a", "everywhere", "stopped"))
            assert journal.index(("a", "leader", "stopped")) < journal.index(("b", "leader", "started"))
    for identity in "ab":
        for kind in ("leader", "everywhere", "self-declared"):
            assert journal.count((identity, kind, "started")) == 1, journal
            assert journal.count((identity, kind, "stopped")) == 1, journal
    # The leader's runnables stop before those every replica runs.
    assert journal.index(("b", "leader", "stopped")) < journal.index(("b", "everywhere", "stopped"))


class Failing:
    name = "boom"

    def start(self, stop: threading.Event) -> None:
        raise ValueError("the runnable's own error")


class AsyncFailing:
    name = "boom"

    async def start(self) -> None:
        raise ValueError("the runnable's own error")


@pytest.mark.parametrize("flavour", [Manager, AsyncManager], ids=["threads", "asyncio"])
def test_a_runnable_that_raises_stops_the_manager(
    flavour: type[Manager] | type[AsyncManager], kube_apiserver: KubeAPIServer, namespace: str
) -> None:
    manager = flavour(unthrottled_config(kube_apiserver), namespace=namespace)
    manager.add(AsyncFailing() if flavour is AsyncManager else Failing(), need_leader_election=False)
    errors: list[BaseException] = []
    with running_in_thread(manager, errors) as thread:
        thread.join(60)
        assert not thread.is_alive(), "the manager did not stop by itself"
    (error,) = errors
    assert isinstance(error, RuntimeError) and "runnable boom failed: the runnable's own error" in str(error)


def test_add_refuses_a_runnable_of_the_other_flavour(kube_apiserver: KubeAPIServer) -> None:
    config = unthrottled_config(kube_apiserver)
    with pytest.raises(TypeError, match="add it to an AsyncManager"):
        Manager(config).add(AsyncFailing())
    with pytest.raises(TypeError, match="runs 'async def start\\(\\)' runnables"):
        AsyncManager(config).add(Failing())
    with pytest.raises(TypeError, match="has a start method or is callable"):
        Manager(config).add(42)
