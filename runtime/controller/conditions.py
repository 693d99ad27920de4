"""Status conditions: apimachinery's meta.SetStatusCondition and friends (api/meta/conditions.go).

A metav1 ``Condition`` says one thing about an object (``Ready``, ``Degraded``) with a status
(True/False/Unknown), a reason, a message, the generation it was computed from, and
``lastTransitionTime``: when the *status* last changed. apimachinery's rules, kept:

- a new condition type is appended; its ``lastTransitionTime`` is the one given, else now;
- an existing type takes the new status, reason, message and observedGeneration, but its
  ``lastTransitionTime`` moves only when the status changes (to the one given, else now). So a
  controller that writes ``Ready=True`` on every reconcile keeps the time it became ready;
- the result says whether anything changed, so an unchanged status is not written back.

Functional rather than in place: the list a controller holds usually belongs to an object from
the informer's cache, which must not be modified, so each function returns a new list (and the
condition objects in it are new when they changed). An empty ``last_transition_time`` is Go's
zero time. Works with the ``Condition`` model of any generated package.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

import msgspec

from kgen.runtime.apimachinery.types import format_time

__all__ = [
    "ConditionLike", "find_status_condition", "is_status_condition_false", "is_status_condition_present_and_equal",
    "is_status_condition_true", "remove_status_condition", "set_status_condition",
]


class ConditionLike(Protocol):
    """The fields of metav1.Condition that these rules read."""

    type: str
    status: str
    reason: str
    message: str
    observed_generation: int | None
    last_transition_time: str


C = TypeVar("C", bound=ConditionLike)


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


def find_status_condition(conditions: Sequence[C] | None, condition_type: str) -> C | None:
    """The condition of type ``condition_type``, or None."""
    for condition in conditions or ():
        if condition.type == condition_type:
            return condition
    return None


def set_status_condition(
    conditions: Sequence[C] | None, new: C, *, now: Callable[[], _dt.datetime] = _now
) -> tuple[list[C], bool]:
    """``conditions`` with ``new`` set by apimachinery's rules (module docstring), and whether
    anything changed."""
    result = list(conditions or ())
    for index, existing in enumerate(result):
        if existing.type != new.type:
            continue
        changes: dict[str, object] = {}
        if existing.status != new.status:
            changes["status"] = new.status
            changes["last_transition_time"] = new.last_transition_time or format_time(now())
        for field in ("reason", "message", "observed_generation"):
            if getattr(existing, field) != getattr(new, field):
                changes[field] = getattr(new, field)
        if not changes:
            return result, False
        result[index] = msgspec.structs.replace(existing, **changes)  # type: ignore[type-var]
        return result, True
    if not new.last_transition_time:
        new = msgspec.structs.replace(new, last_transition_time=format_time(now()))  # type: ignore[type-var]
    result.append(new)
    return result, True


def remove_status_condition(conditions: Sequence[C] | None, condition_type: str) -> tuple[list[C], bool]:
    """``conditions`` without the type ``condition_type``, and whether it was there."""
    kept = [c for c in conditions or () if c.type != condition_type]
    return kept, len(kept) != len(conditions or ())


def is_status_condition_present_and_equal(conditions: Sequence[C] | None, condition_type: str, status: str) -> bool:
    """Whether ``conditions`` has a condition of ``condition_type`` whose status is ``status``."""
    condition = find_status_condition(conditions, condition_type)
    return condition is not None and condition.status == status


def is_status_condition_true(conditions: Sequence[C] | None, condition_type: str) -> bool:
    """Whether the condition of ``condition_type`` is present with status "True"."""
    return is_status_condition_present_and_equal(conditions, condition_type, "True")


def is_status_condition_false(conditions: Sequence[C] | None, condition_type: str) -> bool:
    """Whether the condition of ``condition_type`` is present with status "False"."""
    return is_status_condition_present_and_equal(conditions, condition_type, "False")
