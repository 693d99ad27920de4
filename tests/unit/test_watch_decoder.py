"""The watch protocol alone: newline-delimited JSON events, cut into chunks anywhere; and the
gzip bodies they come in, of several members, cut anywhere too."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.runtime.apimachinery.codec import ModelCodec
from kgen.runtime.apimachinery.errors import ApiError, Expired, Gone, InternalError
from kgen.runtime.gentype import AsyncResourceClient, ResourceClient, ResourceInfo
from kgen.runtime.rest import Config, StaticToken
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.rest.content_encoding import (
    MultiMemberGzipDecoder,
    decode_every_gzip_member,
    httpx_decodes_every_gzip_member,
)
from kgen.runtime.rest.watch import Bookmark, WatchDecodeError, WatchDecoder, WatchEvent

TEXT = "héllo ✓ 日本"


def _line(type_: str, obj: dict[str, Any]) -> bytes:
    return json.dumps({"type": type_, "object": obj}, ensure_ascii=False).encode() + b"\n"


def _cm(name: str, rv: str, **data: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "resourceVersion": rv}, "data": data}


def _status(code: int, reason: str, message: str) -> dict[str, Any]:
    return {"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": code, "reason": reason, "message": message}


def _decoder() -> WatchDecoder[ConfigMap]:
    return WatchDecoder(ConfigMap.from_json, "GET /api/v1/configmaps")


def _summary(events: list[WatchEvent[ConfigMap]]) -> list[tuple[str, str | None, dict[str, str] | None]]:
    return [(e.type, e.object.metadata.name if e.object.metadata else None, e.object.data) for e in events]


STREAM = _line("ADDED", _cm("a", "1", text=TEXT)) + _line("MODIFIED", _cm("a", "2", text=TEXT + "!")) + _line(
    "DELETED", _cm("a", "3", text=TEXT + "!")
)
EXPECTED = [("ADDED", "a", {"text": TEXT}), ("MODIFIED", "a", {"text": TEXT + "!"}), ("DELETED", "a", {"text": TEXT + "!"})]


def test_the_stream_really_has_multibyte_characters() -> None:
    assert len(STREAM) > len(STREAM.decode())  # so some split points fall inside a character


@pytest.mark.parametrize("cut", range(1, len(STREAM)))
def test_events_split_at_any_byte_position_decode_whole(cut: int) -> None:
    decoder = _decoder()
    events = [*decoder.feed(STREAM[:cut]), *decoder.feed(STREAM[cut:]), *decoder.finish()]
    assert _summary(events) == EXPECTED


def test_events_fed_one_byte_at_a_time() -> None:
    decoder = _decoder()
    events = [event for i in range(len(STREAM)) for event in decoder.feed(STREAM[i : i + 1])]
    assert _summary(events) == EXPECTED and list(decoder.finish()) == []


def test_several_events_in_one_chunk() -> None:
    assert _summary(list(_decoder().feed(STREAM))) == EXPECTED


def test_an_event_is_yielded_only_when_its_newline_arrives() -> None:
    decoder = _decoder()
    assert _summary(list(decoder.feed(STREAM[:-1]))) == EXPECTED[:2]
    assert list(decoder.feed(b"")) == []
    assert _summary(list(decoder.feed(b"\n"))) == EXPECTED[2:]
    assert list(decoder.finish()) == []


def test_blank_lines_are_skipped() -> None:
    assert _summary(list(_decoder().feed(b"\n  \n" + STREAM + b"\r\n"))) == EXPECTED


def test_bookmark_carries_only_the_resource_version() -> None:
    bookmark = {
        "kind": "ConfigMap", "apiVersion": "v1",
        "metadata": {"resourceVersion": "42", "annotations": {"k8s.io/initial-events-end": "true"}},
    }
    (event,) = _decoder().feed(_line("BOOKMARK", bookmark))
    assert event == Bookmark("42", {"k8s.io/initial-events-end": "true"})
    assert event.type == "BOOKMARK" and event.initial_events_end


def test_a_bookmark_is_never_decoded_as_the_model() -> None:
    def refuse(data: bytes) -> ConfigMap:
        raise AssertionError("a bookmark's object was decoded as a ConfigMap")

    decoder = WatchDecoder(refuse, "GET /api/v1/configmaps")
    events = list(decoder.feed(_line("BOOKMARK", {"kind": "ConfigMap", "metadata": {"resourceVersion": "7"}})))
    assert events == [Bookmark("7")] and not events[0].initial_events_end


def test_an_event_of_an_unknown_type_is_an_error_as_in_client_go() -> None:
    # client-go's watch decoder: "got invalid watch event type"; the watch ends with the error.
    with pytest.raises(WatchDecodeError, match="got invalid watch event type: 'SURPRISE'") as e:
        list(_decoder().feed(_line("SURPRISE", _cm("a", "1"))))
    assert "GET /api/v1/configmaps" in str(e.value)


def test_error_event_410_raises_expired_with_the_status_fields() -> None:
    line = _line("ERROR", _status(410, "Expired", "too old resource version: 5 (100)"))
    with pytest.raises(Expired) as e:
        list(_decoder().feed(line))
    assert isinstance(e.value, Gone)
    assert (e.value.code, e.value.reason, e.value.message) == (410, "Expired", "too old resource version: 5 (100)")
    assert "GET /api/v1/configmaps" in str(e.value)


def test_error_event_410_without_a_reason_is_expired_too() -> None:
    with pytest.raises(Expired):
        list(_decoder().feed(_line("ERROR", {"kind": "Status", "code": 410, "message": "gone"})))


def test_error_event_500_raises_internal_error() -> None:
    with pytest.raises(InternalError) as e:
        list(_decoder().feed(_line("ERROR", _status(500, "InternalError", "etcd went away"))))
    assert e.value.message == "etcd went away"


def test_events_before_an_error_in_the_same_chunk_are_delivered_first() -> None:
    chunk = _line("ADDED", _cm("a", "1", k="v")) + _line("ERROR", _status(410, "Expired", "too old"))
    received = []
    with pytest.raises(Expired):
        for event in _decoder().feed(chunk):
            received.append(event)
    assert _summary(received) == [("ADDED", "a", {"k": "v"})]


def test_bare_status_line_raises_its_typed_error() -> None:
    line = json.dumps(_status(410, "Expired", "the watch was too old")).encode() + b"\n"
    with pytest.raises(Expired) as e:
        list(_decoder().feed(line))
    assert e.value.message == "the watch was too old"


def test_bare_status_without_code_takes_the_reason() -> None:
    with pytest.raises(ApiError) as e:
        list(_decoder().feed(b'{"kind":"Status","status":"Failure","reason":"Forbidden","message":"no"}\n'))
    assert e.value.reason == "Forbidden" and e.value.message == "no"


def test_trailing_event_without_newline_comes_from_finish() -> None:
    decoder = _decoder()
    assert _summary(list(decoder.feed(STREAM[:-1]))) == EXPECTED[:2]
    assert _summary(list(decoder.finish())) == EXPECTED[2:]
    assert list(decoder.finish()) == []


def test_trailing_error_without_newline_raises_from_finish() -> None:
    decoder = _decoder()
    assert list(decoder.feed(_line("ERROR", _status(410, "Expired", "old"))[:-1])) == []
    with pytest.raises(Expired):
        list(decoder.finish())


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (b"refresh_token=ghp_notjson\n", "(25 bytes): JSON is malformed: invalid character (byte 0)"),
        (b"[1, 2]\n", "(6 bytes): Expected `object`, got `array`"),
        (b'{"type": 7}\n', "(11 bytes): Expected `str`, got `int` - at `$.type`"),
        (b'{"type":"ADDED","object":{"data":{"k":"s3cr3t"},}\n', "(49 bytes): JSON is malformed: trailing comma in object (byte 48)"),
        (b'{"type":"BOOKMARK","object":[]}\n', "(31 bytes): Expected `object`, got `array`"),
        (b'{"type":"ERROR","object":{"code":}}\n', "(35 bytes): JSON is malformed: invalid character (byte 33)"),
    ],
)
def test_a_line_that_is_no_event_raises_watch_decode_error_naming_the_request(line: bytes, problem: str) -> None:
    """client-go's StreamWatcher: "unable to decode an event from the watch stream". The line
    itself (which may hold a Secret's data) is not quoted."""
    decoder = _decoder()
    events = decoder.feed(_line("ADDED", _cm("a", "1")) + line)
    assert next(events).type == "ADDED"  # the events before it reach the caller first
    with pytest.raises(WatchDecodeError) as e:
        next(events)
    assert str(e.value) == f"GET /api/v1/configmaps: unable to decode an event from the watch stream {problem}"
    assert b"ghp_" not in str(e.value).encode() and "s3cr3t" not in str(e.value)


def test_objects_go_through_the_given_decoder() -> None:
    decoded: list[bytes] = []

    def keep(data: bytes) -> dict[str, Any]:
        decoded.append(data)
        return dict(json.loads(data))

    events = list(WatchDecoder(keep).feed(_line("ADDED", {"kind": "Thing", "spec": {"x": TEXT}})))
    assert events == [WatchEvent("ADDED", {"kind": "Thing", "spec": {"x": TEXT}})]
    assert json.loads(decoded[0]) == {"kind": "Thing", "spec": {"x": TEXT}}


# -- gzip bodies of several members: the apiserver gzips a watch-list one member per flush ----

PARTS = (STREAM[:50], STREAM[50:120], STREAM[120:])  # members end inside events and characters
MEMBERS = [gzip.compress(part, mtime=0) for part in PARTS]
BODY = b"".join(MEMBERS)
BOUNDARIES = [len(MEMBERS[0]), len(MEMBERS[0]) + len(MEMBERS[1])]


def _gunzip(*chunks: bytes) -> bytes:
    decoder = MultiMemberGzipDecoder()
    return b"".join(decoder.decode(chunk) for chunk in chunks) + decoder.flush()


def test_httpx_alone_would_keep_only_the_first_member() -> None:
    """Why the decoder exists: the installed httpx drops every member after the first."""
    plain = httpx.Response(200, headers={"Content-Encoding": "gzip"}, content=BODY).read()
    assert httpx_decodes_every_gzip_member() == (plain == STREAM)
    fixed = httpx.Response(200, headers={"Content-Encoding": "gzip"}, stream=_Chunks([BODY]))
    decode_every_gzip_member(fixed)
    assert fixed.read() == STREAM


@pytest.mark.parametrize("cut", range(1, len(BODY)))
def test_every_member_decodes_whatever_the_chunks(cut: int) -> None:
    assert _gunzip(BODY[:cut], BODY[cut:]) == STREAM


@pytest.mark.parametrize("offset", [-9, -8, -1, 0, 1, 10])  # inside the trailer, at the boundary, inside the header
def test_a_member_boundary_split_across_chunks(offset: int) -> None:
    cuts = [0, *(b + offset for b in BOUNDARIES), len(BODY)]
    assert _gunzip(*(BODY[a:b] for a, b in zip(cuts, cuts[1:]))) == STREAM


def test_members_fed_one_byte_at_a_time() -> None:
    assert _gunzip(*(BODY[i : i + 1] for i in range(len(BODY)))) == STREAM


def test_garbage_after_a_member_is_an_error_not_silence() -> None:
    with pytest.raises(httpx.DecodingError):
        _gunzip(MEMBERS[0] + b"this is no gzip member")
    with pytest.raises(httpx.DecodingError):
        _gunzip(MEMBERS[0], b"\x00\x01garbage in a later chunk")


def test_a_member_cut_short_is_an_error_at_the_end() -> None:
    with pytest.raises(httpx.DecodingError):
        _gunzip(MEMBERS[0], MEMBERS[1][:-3])
    with pytest.raises(httpx.DecodingError):
        _gunzip(MEMBERS[0], MEMBERS[1][:5])  # the next member's header only
    assert _gunzip(b"") == b""


class _Chunks(httpx.SyncByteStream, httpx.AsyncByteStream):
    """A response body that arrives in the given chunks, as a stream."""

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        yield from self._chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            yield chunk


def _gzip_server(request: httpx.Request) -> httpx.Response:
    # Chunks cut across the member boundaries, as TCP may cut them.
    cuts = [0, BOUNDARIES[0] - 3, BOUNDARIES[0] + 4, BOUNDARIES[1] + 1, len(BODY)]
    chunks = [BODY[a:b] for a, b in zip(cuts, cuts[1:])]
    return httpx.Response(200, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"},
                          stream=_Chunks(chunks))


CONFIGMAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")

NOT_JSON_STREAM = [_line("ADDED", _cm("a", "1"))[:20], _line("ADDED", _cm("a", "1"))[20:] + b"<html>502 Bad Gateway", b"</html>\n"]
NOT_JSON_ERROR = (
    "GET /api/v1/namespaces/ns/configmaps: unable to decode an event from the watch stream (28 bytes): "
    "JSON is malformed: invalid character (byte 0)"
)


def _not_json_server(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "application/json"}, stream=_Chunks(NOT_JSON_STREAM))


def test_a_watch_through_the_rest_client_raises_watch_decode_error_on_a_non_json_line() -> None:
    config = Config(host="https://watch.kgen.invalid", qps=-1, credentials=StaticToken("tok-123"))
    with RESTClient(config, transport=httpx.MockTransport(_not_json_server)) as rest:
        cms = ResourceClient(rest, CONFIGMAPS, "ns", ModelCodec(ConfigMap, ConfigMapList))
        events: list[Any] = []
        with pytest.raises(WatchDecodeError) as e:
            for event in cms.watch(resource_version="1"):
                events.append(event)
    assert _summary(events) == [("ADDED", "a", {})]
    assert str(e.value) == NOT_JSON_ERROR  # the method and path, no query (resourceVersion), no token


def test_an_async_watch_through_the_rest_client_raises_watch_decode_error_on_a_non_json_line() -> None:
    config = Config(host="https://watch.kgen.invalid", qps=-1, credentials=StaticToken("tok-123"))

    async def scenario() -> tuple[list[Any], WatchDecodeError]:
        events: list[Any] = []
        async with AsyncRESTClient(config, transport=httpx.MockTransport(_not_json_server)) as rest:
            cms = AsyncResourceClient(rest, CONFIGMAPS, "ns", ModelCodec(ConfigMap, ConfigMapList))
            try:
                async for event in cms.watch(resource_version="1"):
                    events.append(event)
            except WatchDecodeError as e:
                return events, e
        raise AssertionError("no WatchDecodeError")

    events, error = asyncio.run(scenario())
    assert _summary(events) == [("ADDED", "a", {})]
    assert str(error) == NOT_JSON_ERROR


def test_the_rest_client_reads_every_member_for_streams_watches_and_plain_reads() -> None:
    config = Config(host="https://gzip.kgen.invalid", qps=-1)
    with RESTClient(config, transport=httpx.MockTransport(_gzip_server)) as rest:
        with rest.stream(Request("GET", "/api/v1/namespaces/ns/pods/p/log")) as response:
            assert b"".join(response.iter_bytes()) == STREAM
        assert rest.send(Request("GET", "/api/v1/namespaces/ns/configmaps")).content == STREAM
        cms = ResourceClient(rest, CONFIGMAPS, "ns", ModelCodec(ConfigMap, ConfigMapList))
        assert _summary(list(cms.watch())) == EXPECTED
        assert "".join(line + "\n" for line in cms.stream_lines("p", "log")) == STREAM.decode()


def test_the_async_rest_client_reads_every_member_for_streams_watches_and_plain_reads() -> None:
    config = Config(host="https://gzip.kgen.invalid", qps=-1)

    async def scenario() -> None:
        async with AsyncRESTClient(config, transport=httpx.MockTransport(_gzip_server)) as rest:
            async with rest.stream(Request("GET", "/api/v1/namespaces/ns/pods/p/log")) as response:
                assert b"".join([chunk async for chunk in response.aiter_bytes()]) == STREAM
            assert (await rest.send(Request("GET", "/api/v1/namespaces/ns/configmaps"))).content == STREAM
            cms = AsyncResourceClient(rest, CONFIGMAPS, "ns", ModelCodec(ConfigMap, ConfigMapList))
            assert _summary([event async for event in cms.watch()]) == EXPECTED
            assert "".join([line + "\n" async for line in cms.stream_lines("p", "log")]) == STREAM.decode()

    asyncio.run(scenario())
