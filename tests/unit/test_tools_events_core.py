"""client-go's tools/events core (runtime/tools/events/core.py) with given times: the Event a
recorder makes, what the series cache writes for the first, second and later repeats, keys that
differ by action or related object, finishing and refreshing series, and the write steps
(patch of ``series``, create again when the Event is gone, abandon on an error answer, retry on
a connection error)."""

from __future__ import annotations

import httpx

from kgen.runtime.apimachinery.errors import NotFound, error_from_status
from kgen.runtime.tools.events.core import (FINISH_TIME, MAX_TRIES_PER_EVENT, CreateEvent, PatchEvent, SeriesCache,
                                            Sleep, make_event, record_steps)

T0 = 1_764_900_000_123_456_789  # 2025-12-05T02:00:00.123456Z
SECOND = 1_000_000_000
POD = {"apiVersion": "v1", "kind": "Pod", "namespace": "ns", "name": "web", "uid": "u1"}


def _event(action: str = "Sync", related: dict[str, str] | None = None, now: int = T0) -> dict[str, object]:
    return make_event(POD, related, "Normal", "Synced", action, "synced web", controller="ctl", instance="ctl-host",
                      now=now)


def test_the_event_is_recorder_gos() -> None:
    event = _event(related={"kind": "Node", "name": "n1"})
    assert event == {
        "apiVersion": "events.k8s.io/v1", "kind": "Event",
        "metadata": {"name": f"web.{T0:x}", "namespace": "ns"},
        "eventTime": "2025-12-05T02:00:00.123456Z",
        "reportingController": "ctl", "reportingInstance": "ctl-host",
        "action": "Sync", "reason": "Synced", "regarding": POD, "note": "synced web", "type": "Normal",
        "related": {"kind": "Node", "name": "n1"},
    }
    cluster_scoped = make_event({"kind": "Node", "name": "n1"}, None, "Warning", "R", "A", "n", controller="c",
                                instance="i", now=T0)
    assert cluster_scoped["metadata"]["namespace"] == "default" and "related" not in cluster_scoped


def test_the_second_repeat_starts_a_series_and_later_ones_only_count() -> None:
    cache = SeriesCache()
    assert cache.observe(_event(), T0) == _event()
    second = cache.observe(_event(now=T0 + SECOND), T0 + SECOND)
    assert second is not None and second["series"] == {"count": 2, "lastObservedTime": "2025-12-05T02:00:01.123456Z"}
    assert second["metadata"]["name"] == f"web.{T0:x}"  # the first Event's: the series patches it
    assert cache.observe(_event(now=T0 + 2 * SECOND), T0 + 2 * SECOND) is None
    (running,) = cache.series_to_refresh()
    assert running["series"]["count"] == 3
    # another action, or another related object, is another key
    assert cache.observe(_event(action="Delete"), T0) is not None
    assert cache.observe(_event(related={"kind": "Node", "name": "n1"}), T0) is not None
    assert len(cache) == 3


def test_a_quiet_series_is_written_a_last_time_and_forgotten_single_events_are_dropped() -> None:
    cache = SeriesCache()
    cache.observe(_event(), T0)
    cache.observe(_event(), T0 + SECOND)
    cache.observe(_event(action="Other"), T0)
    assert cache.finish(T0 + FINISH_TIME) == []  # not yet quiet long enough
    (final,) = cache.finish(T0 + SECOND + FINISH_TIME + 1)
    assert final["series"]["count"] == 2 and len(cache) == 0
    assert cache.observe(_event(), T0 + FINISH_TIME * 2) is not None  # a new first Event


def test_a_series_is_patched_and_created_again_when_gone() -> None:
    cache = SeriesCache()
    cache.observe(_event(), T0)
    second = cache.observe(_event(), T0 + SECOND)
    assert second is not None
    steps = record_steps(second)
    step = next(steps)
    assert isinstance(step, PatchEvent) and step.patch == {"series": second["series"]}
    gone = error_from_status({"kind": "Status", "code": 404, "reason": "NotFound", "message": "gone"}, 404)
    assert isinstance(gone, NotFound)
    step = steps.send(gone)
    assert isinstance(step, CreateEvent) and step.event["series"]["count"] == 2
    try:
        steps.send({"metadata": {"name": "x"}})
    except StopIteration as done:
        assert done.value == {"metadata": {"name": "x"}}
    else:
        raise AssertionError("the write did not end")


def test_an_error_answer_abandons_and_a_connection_error_retries_up_to_twelve_tries() -> None:
    steps = record_steps(_event(), rand=lambda: 0.5)
    assert isinstance(next(steps), CreateEvent)
    refused = error_from_status({"kind": "Status", "code": 422, "reason": "Invalid", "message": "bad"}, 422)
    try:
        steps.send(refused)
    except StopIteration as done:
        assert done.value is None
    steps = record_steps(_event(), rand=lambda: 0.5)
    step = next(steps)
    sleeps = []
    for _ in range(MAX_TRIES_PER_EVENT * 2):
        try:
            step = steps.send(httpx.ConnectError("refused") if isinstance(step, CreateEvent) else False)
        except StopIteration:
            break
        if isinstance(step, Sleep):
            sleeps.append(step.seconds)
    assert sleeps == [5.0] + [10.0] * (MAX_TRIES_PER_EVENT - 2)  # the first wait a random part of 10 s
