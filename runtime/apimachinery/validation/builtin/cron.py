"""A CronJob's schedule as ``github.com/robfig/cron/v3``'s ParseStandard reads it (the parser the
apiserver validates ``spec.schedule`` with): five fields (minute, hour, day of month, month, day
of week) of ``*``/``?``, numbers, names (``jan``, ``mon``), ranges, steps and lists, or a
descriptor (``@daily``, ``@every 1h30m``); the error is the parser's text."""

from __future__ import annotations

import re

__all__ = ["schedule_error"]

_BOUNDS = ((0, 59, None), (0, 23, None), (1, 31, None),
           (1, 12, {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                                   "nov", "dec"))}),
           (0, 6, {d: i for i, d in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))}))
_DESCRIPTORS = frozenset({"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"})
_DURATION = re.compile(r"[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+|[-+]?0")
_INT = re.compile(r"[+-]?\d+")


class _Invalid(Exception):
    pass


def _atoi(expr: str) -> int:
    """mustParseInt: strconv.Atoi, then no negative numbers."""
    if not _INT.fullmatch(expr):
        raise _Invalid(f'failed to parse int from {expr}: strconv.Atoi: parsing "{expr}": invalid syntax')
    number = int(expr)
    if not -2**63 <= number < 2**63:
        raise _Invalid(f'failed to parse int from {expr}: strconv.Atoi: parsing "{expr}": value out of range')
    if number < 0:
        raise _Invalid(f"negative number ({number}) not allowed: {expr}")
    return number


def _int_or_name(expr: str, names: dict[str, int] | None) -> int:
    if names is not None and expr.lower() in names:
        return names[expr.lower()]
    return _atoi(expr)


def _range(expr: str, low: int, high: int, names: dict[str, int] | None) -> None:
    """getRange's checks of one comma-separated part of a field."""
    range_and_step = expr.split("/")
    low_and_high = range_and_step[0].split("-")
    if low_and_high[0] in ("*", "?"):
        start, end = low, high
    else:
        start = _int_or_name(low_and_high[0], names)
        if len(low_and_high) == 1:
            end = start
        elif len(low_and_high) == 2:
            end = _int_or_name(low_and_high[1], names)
        else:
            raise _Invalid(f"too many hyphens: {expr}")
    step = 1
    if len(range_and_step) == 2:
        step = _atoi(range_and_step[1])
        if len(low_and_high) == 1:
            end = high
    elif len(range_and_step) > 2:
        raise _Invalid(f"too many slashes: {expr}")
    if start < low:
        raise _Invalid(f"beginning of range ({start}) below minimum ({low}): {expr}")
    if end > high:
        raise _Invalid(f"end of range ({end}) above maximum ({high}): {expr}")
    if start > end:
        raise _Invalid(f"beginning of range ({start}) beyond end of range ({end}): {expr}")
    if step == 0:
        raise _Invalid(f"step of range should be a positive number: {expr}")


def schedule_error(spec: str) -> str | None:
    """ParseStandard's error for ``spec``, None when it parses. (A ``TZ=``/``CRON_TZ=`` prefix is
    taken as naming a known zone: the validation refuses it for its own reason.)"""
    if not spec:
        return "empty spec string"
    if spec.startswith(("TZ=", "CRON_TZ=")) and " " in spec:
        spec = spec[spec.index(" "):].strip()
    if spec.startswith("@"):
        if spec in _DESCRIPTORS:
            return None
        if spec.startswith("@every "):
            duration = spec[len("@every "):]
            return None if _DURATION.fullmatch(duration) else \
                f'failed to parse duration {spec}: time: invalid duration "{duration}"'
        return f"unrecognized descriptor: {spec}"
    fields = spec.split()
    if len(fields) != 5:
        return f"expected exactly 5 fields, found {len(fields)}: [{' '.join(fields)}]"
    try:
        for text, (low, high, names) in zip(fields, _BOUNDS, strict=True):
            for part in (p for p in text.split(",") if p):
                _range(part, low, high, names)
    except _Invalid as e:
        return str(e)
    return None
