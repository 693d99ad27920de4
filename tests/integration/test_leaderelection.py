"""Leader election against the real apiserver: one leader at a time, and handover."""

from __future__ import annotations

import threading

import pytest

from kgen.runtime.apimachinery.errors import Conflict, NotFound
from kgen.runtime.tools.leaderelection import LeaderElector
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.util.retry import DEFAULT_RETRY, retry_on_conflict
from tests.support.apiserver import wait_for



def test_one_leader_then_handover_on_release(rest: RESTClient, namespace: str) -> None:
    leading: dict[str, threading.Event] = {}
    seen_leaders: list[str] = []
    stops = {name: threading.Event() for name in ("a", "b")}
    electors = {
        name: LeaderElector(
            rest, namespace, "my-lock", name,
            on_started_leading=lambda stop, name=name: leading.setdefault(name, threading.Event()).set(),
            on_new_leader=seen_leaders.append,
            lease_duration=4.0, renew_deadline=3.0, retry_period=0.5, release_on_cancel=True,
        )
        for name in ("a", "b")
    }
    threads = {name: threading.Thread(target=electors[name].run, args=(stops[name],)) for name in ("a", "b")}
    threads["a"].start()
    wait_for(lambda: "a" in leading, timeout=10)
    threads["b"].start()
    wait_for(lambda: electors["b"].leader() == "a", timeout=10)
    assert "b" not in leading and not electors["b"].is_leader()

    stops["a"].set()  # a releases the lease on the way out
    threads["a"].join(timeout=10)
    wait_for(lambda: "b" in leading, timeout=15)
    assert electors["b"].is_leader() and seen_leaders[-1] == "b"
    stops["b"].set()
    threads["b"].join(timeout=10)


def test_retry_on_conflict_retries_only_conflicts() -> None:
    calls = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise Conflict({"code": 409, "reason": "Conflict"}, 409)
        return "done"

    assert retry_on_conflict(flaky, sleep=lambda s: None) == "done" and len(calls) == 3
    with pytest.raises(NotFound):
        retry_on_conflict(lambda: (_ for _ in ()).throw(NotFound({}, 404)), sleep=lambda s: None)
    always = []
    with pytest.raises(Conflict):
        retry_on_conflict(lambda: always.append(1) or (_ for _ in ()).throw(Conflict({}, 409)), sleep=lambda s: None)
    assert len(always) == DEFAULT_RETRY.steps
