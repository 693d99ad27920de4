"""The standard 5-field cron syntax (minute hour day-of-month month day-of-week), as
robfig/cron's ``ParseStandard`` reads it, the parser the kubebuilder tutorial and the Kubernetes
CronJob controller use; and the tutorial's ``getNextSchedule``.

Written here rather than depending on ``croniter``: the runtime stays light (httpx, msgspec) and
the tutorial needs only ``Next``. Rules kept from robfig/cron: fields accept ``*``, ``?`` (as
``*``), ``a``, ``a-b``, ``/step`` on either, comma lists, month names JAN-DEC and weekday names
SUN-SAT (case-insensitive), weekday 7 is Sunday; the descriptors ``@yearly``/``@annually``,
``@monthly``, ``@weekly``, ``@daily``/``@midnight``, ``@hourly``; when both day-of-month and
day-of-week are restricted a day matching either runs (a ``*`` in either makes it "both"), as
Vixie cron does. Times are UTC (the tutorial's CronJob has no timeZone field).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass

_MONTHS = {name: i + 1 for i, name in enumerate("JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split())}
_DAYS = {name: i for i, name in enumerate("SUN MON TUE WED THU FRI SAT".split())}
_DESCRIPTORS = {
    "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}
_FIELDS: tuple[tuple[str, int, int, dict[str, int]], ...] = (("minute", 0, 59, {}), ("hour", 0, 23, {}), ("day-of-month", 1, 31, {}), ("month", 1, 12, _MONTHS),
           ("day-of-week", 0, 7, _DAYS))
#: robfig/cron gives up after five years without a match (e.g. "0 0 30 2 *").
_SEARCH_YEARS = 5


class ScheduleError(ValueError):
    """A schedule string that is not 5-field cron; the message names the field and the text."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """A parsed schedule: the allowed values of each field."""

    minutes: frozenset[int]
    hours: frozenset[int]
    days_of_month: frozenset[int]
    months: frozenset[int]
    days_of_week: frozenset[int]
    dom_star: bool
    dow_star: bool

    def _day_matches(self, day: _dt.datetime) -> bool:
        dom = day.day in self.days_of_month
        dow = (day.isoweekday() % 7) in self.days_of_week
        if self.dom_star or self.dow_star:
            return dom and dow
        return dom or dow

    def next(self, after: _dt.datetime) -> _dt.datetime:
        """The first scheduled time strictly after ``after`` (an aware datetime), in UTC."""
        t = after.astimezone(_dt.timezone.utc).replace(second=0, microsecond=0) + _dt.timedelta(minutes=1)
        limit = t.year + _SEARCH_YEARS
        while t.year <= limit:
            if t.month not in self.months:
                t = (t.replace(day=1, hour=0, minute=0) + _dt.timedelta(days=32)).replace(day=1)
                continue
            if not self._day_matches(t):
                t = t.replace(hour=0, minute=0) + _dt.timedelta(days=1)
                continue
            if t.hour not in self.hours:
                t = t.replace(minute=0) + _dt.timedelta(hours=1)
                continue
            if t.minute not in self.minutes:
                t += _dt.timedelta(minutes=1)
                continue
            return t
        raise ScheduleError(f"schedule has no time within {_SEARCH_YEARS} years after {after.isoformat()}")


def _value(text: str, name: str, low: int, high: int, names: dict[str, int]) -> int:
    if text.upper() in names:
        return names[text.upper()]
    if not text.isdigit():
        raise ScheduleError(f"{name} field: {text!r} is not a number" + (" or a name" if names else ""))
    value = int(text)
    if not low <= value <= high:
        raise ScheduleError(f"{name} field: {value} is out of range {low}-{high}")
    return value


def _field(text: str, name: str, low: int, high: int, names: dict[str, int]) -> frozenset[int]:
    values: set[int] = set()
    for part in text.split(","):
        if not part:
            raise ScheduleError(f"{name} field: empty item in {text!r}")
        span, slash, step_text = part.partition("/")
        step = 1
        if slash:
            if not step_text.isdigit() or int(step_text) == 0:
                raise ScheduleError(f"{name} field: step {step_text!r} in {part!r} is not a positive number")
            step = int(step_text)
        if span in ("*", "?"):
            start, end = low, high
        elif "-" in span:
            a, _, b = span.partition("-")
            start, end = _value(a, name, low, high, names), _value(b, name, low, high, names)
            if start > end:
                raise ScheduleError(f"{name} field: range {span!r} ends before it starts")
        else:
            start = _value(span, name, low, high, names)
            end = high if slash else start  # "5/15" is 5, 20, 35, 50 (robfig/cron)
        values.update(range(start, end + 1, step))
    return frozenset(values)


def parse(text: str) -> Schedule:
    """Parses a 5-field cron schedule or an ``@`` descriptor; ``ScheduleError`` says what is wrong."""
    spec = _DESCRIPTORS.get(text.strip().lower(), text) if text.strip().startswith("@") else text
    if spec.strip().startswith("@"):
        raise ScheduleError(f"unknown descriptor {text.strip()!r} (expected one of {', '.join(_DESCRIPTORS)})")
    parts = spec.split()
    if len(parts) != 5:
        raise ScheduleError(f"expected 5 fields (minute hour day-of-month month day-of-week), got {len(parts)} in {text!r}")
    sets = [_field(part, *f) for part, f in zip(parts, _FIELDS)]
    dow = frozenset(d % 7 for d in sets[4])  # 7 is Sunday too
    return Schedule(sets[0], sets[1], sets[2], sets[3], dow,
                    dom_star=parts[2].startswith(("*", "?")), dow_star=parts[4].startswith(("*", "?")))


#: The tutorial's guard: more than this many missed starts means the clock or the schedule is off.
MAX_MISSED = 100


class TooManyMissedStarts(ValueError):
    """More than ``MAX_MISSED`` runs were missed: the tutorial refuses to guess which to run."""


def next_schedule(
    schedule: Schedule,
    *,
    earliest: _dt.datetime,
    now: _dt.datetime,
    starting_deadline_seconds: int | None = None,
) -> tuple[_dt.datetime | None, _dt.datetime]:
    """The tutorial's ``getNextSchedule``: the most recent scheduled time missed since
    ``earliest`` (the last schedule time, else the creation time), ``None`` if none, and the next
    scheduled time after ``now``. A starting deadline moves ``earliest`` up to ``now - deadline``:
    runs older than that are not started anyway."""
    if starting_deadline_seconds is not None:
        deadline = now - _dt.timedelta(seconds=starting_deadline_seconds)
        if deadline > earliest:
            earliest = deadline
    if earliest > now:
        return None, schedule.next(now)
    last_missed: _dt.datetime | None = None
    starts = 0
    t = schedule.next(earliest)
    while t <= now:
        last_missed = t
        starts += 1
        if starts > MAX_MISSED:
            raise TooManyMissedStarts(
                f"more than {MAX_MISSED} missed start times since {earliest.isoformat()}: "
                "set or decrease .spec.startingDeadlineSeconds or check clock skew"
            )
        t = schedule.next(t)
    return last_missed, schedule.next(now)


Clock = Callable[[], _dt.datetime]
