"""``pods/log`` on the typed pods client: the ``log`` verb as a mixin (``PodLogs``,
``AsyncPodLogs``), which a generated ``PodsClient`` lists among its bases when the server
serves the subresource.

The options are kubectl logs' flags (``PodLogOptions`` on the wire) and are checked before any
request, as kubectl's ``Validate`` and the apiserver's ``ValidatePodLogOptions`` check them, so a
mistake is a ``ValueError`` naming the option rather than a 400 halfway into a script.
``since_time`` is sent as ``metav1.Time`` sends it: UTC, RFC 3339, whole seconds.

How a followed log ends is the server's decision: the kubelet ends the body when the container
stops (its pod deleted, say), and the iterator then ends, without an exception; a node that
keeps the stream open (kwok's simulated nodes keep following the file after the pod is gone)
keeps the iterator open too, exactly as ``kubectl logs -f`` keeps waiting. The calls return
generators: leaving the loop, or ``close()`` (``aclose()``), ends the request.
"""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, Generator
from datetime import datetime, timedelta, timezone
from typing import Any

from kgen.runtime.gentype.client import AsyncResourceClient, ResourceClient

__all__ = ["AsyncPodLogs", "PodLogs", "format_since_time", "log_options"]

_RFC3339 = re.compile(r"(\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d)(?:\.\d+)?(?:([Zz])|([+-])(\d\d):(\d\d))")


def _count(option: str, value: int | None, least: int, meaning: str) -> int | None:
    """``value`` checked to be an int of at least ``least`` (None: not set)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{option}: expected {meaning} (an int), got {value!r}")
    if value < least:
        raise ValueError(f"{option}: expected {meaning}, at least {least}, got {value}")
    return value


def _parse_rfc3339(text: str) -> datetime:
    """An RFC 3339 time, as Go's time.RFC3339Nano layout reads it (the fraction is dropped:
    sinceTime is sent in whole seconds anyway)."""
    match = _RFC3339.fullmatch(text)
    try:
        if match is None:
            raise ValueError(text)
        clock, zulu, sign, hours, minutes = match.groups()
        offset = timedelta(0) if zulu else (-1 if sign == "-" else 1) * timedelta(hours=int(hours), minutes=int(minutes))
        return datetime.strptime(clock.upper(), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone(offset))
    except ValueError:
        raise ValueError(f"since_time: expected an RFC 3339 time such as 2024-05-01T12:00:00Z, got {text!r}") from None


def format_since_time(since_time: datetime | str) -> str:
    """``since_time`` as the query parameter ``sinceTime``: kubectl parses its flag as RFC 3339
    (with or without fractional seconds) and ``metav1.Time`` sends it in UTC, truncated to the
    second. A datetime without a time zone is refused rather than guessed."""
    if isinstance(since_time, str):
        since_time = _parse_rfc3339(since_time)
    elif not isinstance(since_time, datetime):
        raise ValueError(f"since_time: expected a datetime or an RFC 3339 string, got {since_time!r}")
    if since_time.tzinfo is None or since_time.utcoffset() is None:
        raise ValueError(f"since_time: expected a timezone-aware datetime (e.g. tzinfo=timezone.utc), got {since_time!r}")
    return since_time.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def log_options(
    *,
    container: str | None = None,
    follow: bool = False,
    previous: bool = False,
    since_seconds: int | None = None,
    since_time: datetime | str | None = None,
    tail_lines: int | None = None,
    timestamps: bool = False,
    limit_bytes: int | None = None,
    insecure_skip_tls_verify_backend: bool = False,
) -> dict[str, Any]:
    """The query options of one pods/log request, checked (``ValueError`` naming the option): at
    most one of ``since_seconds`` / ``since_time``, ``since_seconds`` and ``limit_bytes`` at
    least 1, ``tail_lines`` at least 0, ``container`` a non-empty name."""
    if since_seconds is not None and since_time is not None:
        raise ValueError("at most one of since_seconds or since_time may be given (kubectl: only one of --since-time / --since)")
    if container is not None and (not isinstance(container, str) or not container):
        raise ValueError(f"container: expected a container name, got {container!r}")
    return {
        "container": container,
        "follow": bool(follow),
        "previous": bool(previous),
        "since_seconds": _count("since_seconds", since_seconds, 1, "a number of seconds"),
        "since_time": None if since_time is None else format_since_time(since_time),
        "tail_lines": _count("tail_lines", tail_lines, 0, "a number of lines (None for all)"),
        "timestamps": bool(timestamps),
        "limit_bytes": _count("limit_bytes", limit_bytes, 1, "a number of bytes"),
        # the request builder camel-cases each word: "t_l_s" gives the wire name's "TLS"
        "insecure_skip_t_l_s_verify_backend": bool(insecure_skip_tls_verify_backend),
    }


class PodLogs:
    """``log`` and ``log_bytes``: a pod's log, line by line."""

    _client: ResourceClient[Any, Any]

    def log(
        self,
        name: str,
        *,
        container: str | None = None,
        follow: bool = False,
        previous: bool = False,
        since_seconds: int | None = None,
        since_time: datetime | str | None = None,
        tail_lines: int | None = None,
        timestamps: bool = False,
        limit_bytes: int | None = None,
        insecure_skip_tls_verify_backend: bool = False,
    ) -> Generator[str, None, None]:
        """The log of pod ``name`` (of ``container``, needed when the pod has several), line by
        line as text without the newline; while ``follow``, lines as they are written, until the
        server ends the stream. ``previous``: the last terminated instance's log.
        ``since_seconds`` / ``since_time`` (an aware datetime or RFC 3339 string; one of the two):
        only newer lines. ``tail_lines``: only the last lines. ``timestamps``: each line starts
        with its RFC 3339 time and a space. ``limit_bytes``: stop after that many bytes (the
        last line may be cut). Options are checked first: a bad one is a ``ValueError``."""
        options = log_options(
            container=container, follow=follow, previous=previous, since_seconds=since_seconds, since_time=since_time,
            tail_lines=tail_lines, timestamps=timestamps, limit_bytes=limit_bytes,
            insecure_skip_tls_verify_backend=insecure_skip_tls_verify_backend,
        )
        return self._client.stream_lines(name, "log", **options)

    def log_bytes(
        self,
        name: str,
        *,
        container: str | None = None,
        follow: bool = False,
        previous: bool = False,
        since_seconds: int | None = None,
        since_time: datetime | str | None = None,
        tail_lines: int | None = None,
        timestamps: bool = False,
        limit_bytes: int | None = None,
        insecure_skip_tls_verify_backend: bool = False,
    ) -> Generator[bytes, None, None]:
        """``log`` as the bytes the server sends, a line at a time with its ``\\n`` (the last
        one may have none): joined, exactly what ``kubectl logs`` prints, undecoded."""
        options = log_options(
            container=container, follow=follow, previous=previous, since_seconds=since_seconds, since_time=since_time,
            tail_lines=tail_lines, timestamps=timestamps, limit_bytes=limit_bytes,
            insecure_skip_tls_verify_backend=insecure_skip_tls_verify_backend,
        )
        return self._client.stream_raw_lines(name, "log", **options)


class AsyncPodLogs:
    """``PodLogs`` on asyncio: ``async for line in pods.log(name)``."""

    _client: AsyncResourceClient[Any, Any]

    def log(
        self,
        name: str,
        *,
        container: str | None = None,
        follow: bool = False,
        previous: bool = False,
        since_seconds: int | None = None,
        since_time: datetime | str | None = None,
        tail_lines: int | None = None,
        timestamps: bool = False,
        limit_bytes: int | None = None,
        insecure_skip_tls_verify_backend: bool = False,
    ) -> AsyncGenerator[str, None]:
        """``PodLogs.log``, asynchronously iterated (options checked at the call)."""
        options = log_options(
            container=container, follow=follow, previous=previous, since_seconds=since_seconds, since_time=since_time,
            tail_lines=tail_lines, timestamps=timestamps, limit_bytes=limit_bytes,
            insecure_skip_tls_verify_backend=insecure_skip_tls_verify_backend,
        )
        return self._client.stream_lines(name, "log", **options)

    def log_bytes(
        self,
        name: str,
        *,
        container: str | None = None,
        follow: bool = False,
        previous: bool = False,
        since_seconds: int | None = None,
        since_time: datetime | str | None = None,
        tail_lines: int | None = None,
        timestamps: bool = False,
        limit_bytes: int | None = None,
        insecure_skip_tls_verify_backend: bool = False,
    ) -> AsyncGenerator[bytes, None]:
        """``PodLogs.log_bytes``, asynchronously iterated."""
        options = log_options(
            container=container, follow=follow, previous=previous, since_seconds=since_seconds, since_time=since_time,
            tail_lines=tail_lines, timestamps=timestamps, limit_bytes=limit_bytes,
            insecure_skip_tls_verify_backend=insecure_skip_tls_verify_backend,
        )
        return self._client.stream_raw_lines(name, "log", **options)
