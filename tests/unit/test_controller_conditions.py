"""apimachinery's meta.SetStatusCondition rules on generated Condition models."""

from __future__ import annotations

import datetime as dt

from examples.sample_controller.client.models.meta.v1 import Condition as CrdCondition
from kgen.kubernetes.models.meta.v1 import Condition
from kgen.runtime.controller import (
    find_status_condition,
    is_status_condition_false,
    is_status_condition_true,
    remove_status_condition,
    set_status_condition,
)

T0 = dt.datetime(2026, 1, 1, 12, 0, 0, tzinfo=dt.timezone.utc)
T1 = T0 + dt.timedelta(minutes=5)


def ready(status: str, reason: str = "Done", message: str = "", generation: int | None = 1, when: str = "") -> Condition:
    return Condition(type="Ready", status=status, reason=reason, message=message, observed_generation=generation,
                     last_transition_time=when)


def test_new_condition_gets_now_as_transition_time() -> None:
    conditions, changed = set_status_condition(None, ready("True"), now=lambda: T0)
    assert changed and conditions == [ready("True", when="2026-01-01T12:00:00Z")]


def test_given_transition_time_is_kept_for_a_new_condition() -> None:
    conditions, _ = set_status_condition([], ready("True", when="2025-01-01T00:00:00Z"), now=lambda: T0)
    assert conditions[0].last_transition_time == "2025-01-01T00:00:00Z"


def test_unchanged_status_keeps_the_transition_time_and_reports_no_change() -> None:
    first, _ = set_status_condition(None, ready("True"), now=lambda: T0)
    again, changed = set_status_condition(first, ready("True"), now=lambda: T1)
    assert not changed and again == first


def test_reason_message_generation_change_without_moving_the_transition_time() -> None:
    first, _ = set_status_condition(None, ready("True"), now=lambda: T0)
    second, changed = set_status_condition(first, ready("True", reason="Other", message="m", generation=2), now=lambda: T1)
    assert changed
    assert second == [ready("True", reason="Other", message="m", generation=2, when="2026-01-01T12:00:00Z")]
    assert first[0].reason == "Done"  # the input (maybe a cached object's) is not modified


def test_status_change_moves_the_transition_time() -> None:
    first, _ = set_status_condition(None, ready("True"), now=lambda: T0)
    second, changed = set_status_condition(first, ready("False"), now=lambda: T1)
    assert changed and second[0].last_transition_time == "2026-01-01T12:05:00Z"
    third, _ = set_status_condition(second, ready("True", when="2030-01-01T00:00:00Z"), now=lambda: T1)
    assert third[0].last_transition_time == "2030-01-01T00:00:00Z"


def test_find_remove_and_is_true_on_a_crd_packages_condition() -> None:
    synced = CrdCondition(type="Synced", status="False", reason="Waiting", message="", last_transition_time="")
    conditions, _ = set_status_condition(None, synced, now=lambda: T0)
    conditions, _ = set_status_condition(conditions, CrdCondition(
        type="Ready", status="True", reason="Ok", message="", last_transition_time=""), now=lambda: T0)
    assert isinstance(conditions[0], CrdCondition)
    found = find_status_condition(conditions, "Synced")
    assert found is not None and found.reason == "Waiting"
    assert is_status_condition_true(conditions, "Ready") and is_status_condition_false(conditions, "Synced")
    assert not is_status_condition_true(conditions, "Missing")
    kept, removed = remove_status_condition(conditions, "Synced")
    assert removed and [c.type for c in kept] == ["Ready"]
    assert remove_status_condition(kept, "Synced") == (kept, False)
    assert find_status_condition(None, "Ready") is None
