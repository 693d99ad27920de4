"""examples/cronjob/schedule.py: robfig/cron's 5-field rules (expected times worked out by hand
from its documented semantics) and the tutorial's getNextSchedule with a fake clock."""

from __future__ import annotations

import datetime as dt

import pytest

from examples.cronjob.schedule import MAX_MISSED, ScheduleError, TooManyMissedStarts, next_schedule, parse


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.timezone.utc)


@pytest.mark.parametrize(("spec", "after", "expected"), [
    ("* * * * *", "2026-12-03T10:15:30", "2026-12-03T10:16:00"),
    ("* * * * *", "2026-12-03T10:15:00", "2026-12-03T10:16:00"),  # strictly after
    ("*/15 * * * *", "2026-12-03T10:15:00", "2026-12-03T10:30:00"),
    ("5/15 * * * *", "2026-12-03T10:21:00", "2026-12-03T10:35:00"),
    ("0 0 * * *", "2026-12-31T23:59:00", "2027-01-01T00:00:00"),
    ("30 9-17/4 * * *", "2026-12-03T13:30:00", "2026-12-03T17:30:00"),
    ("0 12 * * MON-FRI", "2026-12-04T12:00:00", "2026-12-07T12:00:00"),  # Fri -> Mon
    ("0 0 * * 7", "2026-12-03T00:00:00", "2026-12-06T00:00:00"),  # 7 is Sunday
    ("0 0 29 2 *", "2026-03-01T00:00:00", "2028-02-29T00:00:00"),  # leap day
    ("0 0 1,15 * 1", "2026-12-02T00:00:00", "2026-12-07T00:00:00"),  # dom OR dow when both restricted
    ("0 0 ? JAN,jul *", "2026-12-03T00:00:00", "2027-01-01T00:00:00"),
    ("@hourly", "2026-12-03T10:15:00", "2026-12-03T11:00:00"),
    ("@weekly", "2026-12-03T10:15:00", "2026-12-06T00:00:00"),
    ("@monthly", "2026-12-03T10:15:00", "2027-01-01T00:00:00"),
])
def test_next(spec: str, after: str, expected: str) -> None:
    assert parse(spec).next(at(after)) == at(expected)


def test_next_converts_other_zones_to_utc() -> None:
    plus_two = dt.datetime(2026, 12, 3, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert parse("0 11 * * *").next(plus_two) == at("2026-12-03T11:00:00")  # 12:00+02 is 10:00 UTC


@pytest.mark.parametrize(("spec", "message"), [
    ("* * * *", "expected 5 fields (minute hour day-of-month month day-of-week), got 4 in '* * * *'"),
    ("60 * * * *", "minute field: 60 is out of range 0-59"),
    ("* * 0 * *", "day-of-month field: 0 is out of range 1-31"),
    ("* * * FOO *", "month field: 'FOO' is not a number or a name"),
    ("*/0 * * * *", "minute field: step '0' in '*/0' is not a positive number"),
    ("5-1 * * * *", "minute field: range '5-1' ends before it starts"),
    ("1,,2 * * * *", "minute field: empty item in '1,,2'"),
    ("@every 5m", "unknown descriptor '@every 5m'"),
])
def test_bad_schedules_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ScheduleError) as err:
        parse(spec)
    assert str(err.value).startswith(message)


def test_impossible_schedule_is_an_error() -> None:
    with pytest.raises(ScheduleError, match="no time within 5 years"):
        parse("0 0 30 2 *").next(at("2026-01-01T00:00:00"))


EVERY_MINUTE = parse("* * * * *")


def test_nothing_missed_yet() -> None:
    missed, upcoming = next_schedule(EVERY_MINUTE, earliest=at("2026-12-03T10:00:10"), now=at("2026-12-03T10:00:50"))
    assert (missed, upcoming) == (None, at("2026-12-03T10:01:00"))


def test_clock_advanced_gives_the_most_recent_missed_run() -> None:
    missed, upcoming = next_schedule(EVERY_MINUTE, earliest=at("2026-12-03T10:00:10"), now=at("2026-12-03T10:03:05"))
    assert (missed, upcoming) == (at("2026-12-03T10:03:00"), at("2026-12-03T10:04:00"))


def test_earliest_in_the_future() -> None:
    missed, upcoming = next_schedule(EVERY_MINUTE, earliest=at("2026-12-03T11:00:00"), now=at("2026-12-03T10:00:00"))
    assert (missed, upcoming) == (None, at("2026-12-03T10:01:00"))


def test_starting_deadline_limits_how_far_back_runs_count() -> None:
    hourly = parse("0 * * * *")
    now = at("2026-12-03T10:30:00")
    assert next_schedule(hourly, earliest=at("2026-12-03T08:59:00"), now=now)[0] == at("2026-12-03T10:00:00")
    # a 10-minute deadline: the 10:00 run is 30 minutes old, nothing may start
    assert next_schedule(hourly, earliest=at("2026-12-03T08:59:00"), now=now, starting_deadline_seconds=600) == (
        None, at("2026-12-03T11:00:00"))


def test_too_many_missed_starts() -> None:
    earliest = at("2026-12-03T00:00:00")
    now = earliest + dt.timedelta(minutes=MAX_MISSED)
    assert next_schedule(EVERY_MINUTE, earliest=earliest, now=now)[0] == now  # exactly the limit: fine
    with pytest.raises(TooManyMissedStarts, match="more than 100 missed start times"):
        next_schedule(EVERY_MINUTE, earliest=earliest, now=now + dt.timedelta(minutes=1))
