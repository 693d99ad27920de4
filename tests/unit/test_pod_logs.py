"""``pods(ns).log`` without a server: the options checked as kubectl and the apiserver check
them, the query they become, and the line rule of ``LineBuffer`` (a line ends at ``\\n`` only,
whatever the chunking), sync and async over a mock transport. A body the server ends (as a
kubelet ends a followed log when the container stops) ends the iterator without an exception.
The answers themselves are compared with kubectl logs in tests/cluster/test_logs.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.runtime.gentype.lines import LineBuffer, decode_line
from kgen.runtime.gentype.logs import format_since_time, log_options
from kgen.runtime.rest import AsyncRESTClient, Config, RESTClient

CONFIG = Config(host="https://logs.kgen.invalid", qps=-1)


class Chunks(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A body sent in exactly these chunks, then ended."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self.chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk


class LogServer:
    """Answers pods/log with ``chunks`` and records the queries; anything else is a 404."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.queries: list[list[tuple[str, str]]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if not request.url.path.endswith("/log"):
            return httpx.Response(404, json={"kind": "Status", "code": 404})
        self.queries.append(list(request.url.params.multi_items()))
        return httpx.Response(200, stream=Chunks(self.chunks))


CHUNKS = [
    b"plain\nsplit ", b"across chunks\n\xc3", b"\xa9t\xc3\xa9 \r progress\r done\n", b"form\x0cfeed \xe2\x80\xa8 kept\n",
    b"no newline at the end",
]
LINES = ["plain", "split across chunks", "\u00e9t\u00e9 \r progress\r done", "form\x0cfeed \u2028 kept", "no newline at the end"]


def test_line_buffer_cuts_at_newlines_only_whatever_the_chunks() -> None:
    data = b"".join(CHUNKS)
    for size in (1, 2, 3, 7, len(data)):
        buffer = LineBuffer()
        lines = [line for i in range(0, len(data), size) for line in buffer.feed(data[i : i + size])]
        rest = buffer.flush()
        assert rest is not None
        assert b"".join(lines) + rest == data
        assert [decode_line(line) for line in [*lines, rest]] == LINES
    assert LineBuffer().flush() is None
    assert decode_line(b"bad \xff byte\n") == "bad \ufffd byte"


def test_sync_log_yields_lines_and_log_bytes_the_bytes_then_ends() -> None:
    server = LogServer(CHUNKS)
    with Clientset(CONFIG, rest=RESTClient(CONFIG, transport=httpx.MockTransport(server))) as cs:
        pods = cs.core_v1.pods("ns")
        assert list(pods.log("p", follow=True)) == LINES  # the server ended the body: the iterator ends
        assert b"".join(pods.log_bytes("p")) == b"".join(CHUNKS)
        assert [line.endswith(b"\n") for line in pods.log_bytes("p")] == [True, True, True, True, False]
    assert server.queries[0] == [("follow", "true")]


def test_async_log_is_the_same() -> None:
    server = LogServer(CHUNKS)

    async def scenario() -> tuple[list[str], bytes]:
        async with AsyncClientset(CONFIG, rest=AsyncRESTClient(CONFIG, transport=httpx.MockTransport(server))) as acs:
            pods = acs.core_v1.pods("ns")
            lines = [line async for line in pods.log("p", follow=True, container="app")]
            return lines, b"".join([chunk async for chunk in pods.log_bytes("p")])

    lines, raw = asyncio.run(scenario())
    assert lines == LINES and raw == b"".join(CHUNKS)
    assert server.queries[0] == [("container", "app"), ("follow", "true")]


def test_every_option_becomes_its_query_parameter() -> None:
    server = LogServer([b"x\n"])
    with Clientset(CONFIG, rest=RESTClient(CONFIG, transport=httpx.MockTransport(server))) as cs:
        list(
            cs.core_v1.pods("ns").log(
                "p", container="c", follow=True, previous=True, since_time="2024-05-01T12:00:00.999+02:00", tail_lines=0,
                timestamps=True, limit_bytes=10, insecure_skip_tls_verify_backend=True,
            )
        )
        list(cs.core_v1.pods("ns").log("p", since_seconds=5))
    assert dict(server.queries[0]) == {
        "container": "c", "follow": "true", "previous": "true", "sinceTime": "2024-05-01T10:00:00Z", "tailLines": "0",
        "timestamps": "true", "limitBytes": "10", "insecureSkipTLSVerifyBackend": "true",
    }
    assert server.queries[1] == [("sinceSeconds", "5")]


@pytest.mark.parametrize(
    ("value", "sent"),
    [
        ("2024-05-01T12:00:00Z", "2024-05-01T12:00:00Z"),
        ("2024-05-01t12:00:00.999999999z", "2024-05-01T12:00:00Z"),  # truncated, as metav1.Time sends it
        ("2024-05-01T00:30:00-03:30", "2024-05-01T04:00:00Z"),
        (datetime(2024, 5, 1, 12, 0, 0, 900000, tzinfo=timezone.utc), "2024-05-01T12:00:00Z"),
        (datetime(2024, 5, 1, 14, 0, tzinfo=timezone(timedelta(hours=2))), "2024-05-01T12:00:00Z"),
    ],
)
def test_since_time_is_sent_in_utc_whole_seconds(value: datetime | str, sent: str) -> None:
    assert format_since_time(value) == sent


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"since_seconds": 5, "since_time": "2024-05-01T12:00:00Z"}, "at most one of since_seconds or since_time"),
        ({"since_seconds": 0}, r"since_seconds: expected a number of seconds, at least 1, got 0"),
        ({"since_seconds": 1.5}, r"since_seconds: expected a number of seconds \(an int\), got 1.5"),
        ({"tail_lines": -1}, r"tail_lines: expected a number of lines \(None for all\), at least 0, got -1"),
        ({"tail_lines": True}, r"tail_lines: expected .* \(an int\), got True"),
        ({"limit_bytes": 0}, r"limit_bytes: expected a number of bytes, at least 1, got 0"),
        ({"container": ""}, "container: expected a container name, got ''"),
        ({"since_time": "yesterday"}, "since_time: expected an RFC 3339 time such as 2024-05-01T12:00:00Z, got 'yesterday'"),
        ({"since_time": "2024-05-01 12:00:00Z"}, "since_time: expected an RFC 3339 time"),
        ({"since_time": "2024-13-01T12:00:00Z"}, "since_time: expected an RFC 3339 time"),
        ({"since_time": datetime(2024, 5, 1)}, "since_time: expected a timezone-aware datetime"),
        ({"since_time": 1714564800}, "since_time: expected a datetime or an RFC 3339 string, got 1714564800"),
    ],
)
def test_bad_options_are_value_errors_naming_the_option(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        log_options(**options)


def test_a_bad_option_fails_at_the_call_before_any_request() -> None:
    server = LogServer([b"x\n"])
    with Clientset(CONFIG, rest=RESTClient(CONFIG, transport=httpx.MockTransport(server))) as cs:
        with pytest.raises(ValueError, match="tail_lines"):
            cs.core_v1.pods("ns").log("p", tail_lines=-5)  # not iterated: the check is eager
    assert server.queries == []
