"""kgen.runtime.tools.remotecommand without a cluster: the I/O-free core (channel routing and
framing, client-go's status decoding, the output buffers, the requests' shapes) and both
sessions, threads and asyncio, against a local WebSocket server playing the apiserver's part.
Every session test runs on both flavours (the async session is driven through a loop thread,
kgen.runtime.util.loop_thread's, so that one test body serves both; the sync session runs the
async one on such a thread of its own)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.server import Server, ServerConnection, serve
from websockets.typing import Subprotocol

from kgen.runtime.rest.client import AsyncRESTClient, RESTClient
from kgen.runtime.rest.config import Config
from kgen.runtime.tools.remotecommand import ExecResult, ExitCodeError, RemoteCommandError
from kgen.runtime.tools.remotecommand.async_session import AsyncExecSession, open_async_session, run_async
from kgen.runtime.tools.remotecommand.protocol import (
    WRITE_CHUNK,
    Channels,
    OutputBuffer,
    attach_query,
    decode_status,
    describe,
    exec_query,
    stdin_bytes,
)
from kgen.runtime.tools.remotecommand.session import ExecSession, open_session, run
from kgen.runtime.util.loop_thread import LoopClosed, LoopThread


def status(exit_code: int | None = None, **failure: Any) -> bytes:
    if failure:
        return json.dumps({"metadata": {}, "status": "Failure", **failure}).encode()
    if exit_code:
        return json.dumps({"metadata": {}, "status": "Failure", "reason": "NonZeroExitCode",
                           "message": f"command terminated with non-zero exit code: exit code {exit_code}",
                           "details": {"causes": [{"reason": "ExitCode", "message": str(exit_code)}]}}).encode()
    return b'{"metadata":{},"status":"Success"}'


# -- the core ------------------------------------------------------------------------------


@pytest.mark.parametrize(("message", "code"), [
    (b"", 0), (status(), 0), (status(3), 3), (status(255), 255),
])
def test_decode_status_gives_the_exit_code(message: bytes, code: int) -> None:
    assert decode_status(message) == code


@pytest.mark.parametrize(("message", "error"), [
    (status(reason="InternalError", message="exec: \"x\": executable file not found"),
     'exec: "x": executable file not found'),
    (b"not json", "error stream protocol error: not a Status"),
    (b'{"status":"Weird"}', "error stream protocol error: unknown error"),
    (json.dumps({"status": "Failure", "reason": "NonZeroExitCode", "details": {"causes": []}}).encode(),
     "no ExitCode cause given"),
    (json.dumps({"status": "Failure", "reason": "NonZeroExitCode",
                 "details": {"causes": [{"reason": "ExitCode", "message": "256"}]}}).encode(),
     "invalid exit code value '256'"),
])
def test_decode_status_raises_the_remote_sides_error(message: bytes, error: str) -> None:
    with pytest.raises(RemoteCommandError, match="exec 'x' in pod ns/p: ") as raised:
        decode_status(message, describe("exec", "ns", "p", ["x"]))
    assert error in raised.value.message


def test_channels_route_output_keep_the_status_and_drop_the_rest() -> None:
    channels = Channels("v5.channel.k8s.io", "exec")
    assert channels.route(b"\x01") is None  # the server's opening empty message
    assert channels.route(b"\x01out\x00\xff") == (1, b"out\x00\xff")
    assert channels.route(b"\x02err") == (2, b"err")
    assert channels.route(b"\x09unknown") is None
    assert not channels.has_status()
    channels = Channels("v5.channel.k8s.io", "exec")
    whole = status(3)
    assert channels.route(b"\x03" + whole[:10]) is None and channels.route(b"\x03" + whole[10:]) is None
    assert channels.has_status() and channels.exit_code() == 3
    with pytest.raises(RemoteCommandError, match="unexpected text message"):
        channels.route("text")


def test_an_abnormal_close_without_a_status_is_an_error_and_with_one_the_status_wins() -> None:
    channels = Channels("v5.channel.k8s.io", "exec 'ls' in pod ns/p")
    with pytest.raises(RemoteCommandError, match="exec 'ls' in pod ns/p: error reading from error stream: gone"):
        channels.exit_code("gone")
    channels.route(b"\x03" + status(4))
    assert channels.exit_code("gone") == 4


def test_frames_of_stdin_close_and_resize() -> None:
    data = bytes(range(256)) * 300
    frames = list(Channels.stdin_frames(data))
    assert all(frame[0] == 0 and len(frame) <= WRITE_CHUNK + 1 for frame in frames)
    assert b"".join(frame[1:] for frame in frames) == data and len(frames) == -(-len(data) // WRITE_CHUNK)
    assert Channels.close_stdin_frame() == b"\xff\x00"
    assert Channels.resize_frame(120, 40) == b'\x04{"Width":120,"Height":40}\n'
    for width, height in ((-1, 3), (65536, 3), (80, 2.5), (True, 3)):
        with pytest.raises(ValueError, match="expected an integer from 0 to 65535"):
            Channels.resize_frame(width, height)  # type: ignore[arg-type]


def test_stdin_takes_bytes_like_and_str_as_utf8() -> None:
    assert [stdin_bytes(b"a"), stdin_bytes(bytearray(b"b")), stdin_bytes(memoryview(b"c")), stdin_bytes("é")] == [
        b"a", b"b", b"c", "é".encode()]
    with pytest.raises(TypeError, match="stdin: expected bytes or str, got int"):
        stdin_bytes(3)


def test_output_buffer_reads_lines_and_bytes_and_waits_when_it_must() -> None:
    buffer = OutputBuffer(limit=10)
    assert buffer.read(4) is None and buffer.readline() is None and not buffer.full()
    buffer.feed(b"one\ntw")
    assert buffer.readline() == b"one\n" and buffer.readline() is None
    buffer.feed(b"o\nthree")
    assert buffer.full() is False and len(buffer) == 9
    buffer.feed(b"34")
    assert buffer.full()
    assert buffer.read(2) == b"tw" and buffer.readline(3) == b"o\n" and buffer.readline(3) == b"thr"
    assert buffer.read() is None  # all of it: only at the end
    buffer.end()
    assert not buffer.full() and buffer.readline() == b"ee34" and buffer.readline() == b"" and buffer.read() == b""
    assert OutputBuffer(requested=False).read(10) == b""


def test_output_buffer_drops_what_was_read_without_copying_it_all_each_read() -> None:
    buffer = OutputBuffer(limit=None)
    chunks = [bytes([i]) * 1000 for i in range(256)]
    for chunk in chunks:
        buffer.feed(chunk)
    buffer.end()
    assert [buffer.read(1000) for _ in chunks] == chunks and buffer.read(1) == b""


def test_requests_have_the_options_shape_and_refuse_bad_input() -> None:
    assert exec_query(["sh", "-c", "echo hi"], "app", True, True, True, False) == [
        ("stdin", "true"), ("stdout", "true"), ("stderr", "true"), ("container", "app"),
        ("command", "sh"), ("command", "-c"), ("command", "echo hi"),
    ]
    assert exec_query(["ls"], None, False, True, True, True) == [("stdout", "true"), ("tty", "true"), ("command", "ls")]
    assert attach_query(None, False, True, False, False) == [("stdout", "true")]
    with pytest.raises(TypeError, match=r"command: expected a sequence of strings such as \['sh', '-c', 'ls -l'\]"):
        exec_query("ls -l", None, False, True, True, False)
    with pytest.raises(ValueError, match="at least one word"):
        exec_query([], None, False, True, True, False)
    with pytest.raises(TypeError, match="command: expected strings, got 3"):
        exec_query(["sleep", 3], None, False, True, True, False)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="at least one of stdin, stdout and stderr"):
        attach_query(None, False, False, True, True)
    with pytest.raises(TypeError, match="stdin: expected True or False"):
        attach_query(None, "yes", True, True, False)  # type: ignore[arg-type]
    assert repr(ExecResult(b"x" * 5, b"", 3)) == "ExecResult(exit_code=3, stdout=<5 bytes>, stderr=<0 bytes>)"
    with pytest.raises(ExitCodeError) as raised:
        ExecResult(b"out", b"err", 3).check()
    assert (raised.value.exit_code, raised.value.stdout, raised.value.stderr) == (3, b"out", b"err")


# -- the sessions against a local server ---------------------------------------------------


def serve_exec(connection: ServerConnection) -> None:
    """The apiserver's part, chosen by path: /cat echoes stdin to stdout until stdin closes;
    /flood writes 4 MiB to stdout, 100 bytes to stderr and exits 3; /resize echoes the resize
    messages until stdin closes; /fail answers a Failure; /drop closes abnormally; /text sends
    a text message."""
    assert connection.request is not None
    path = connection.request.path.split("?")[0]
    connection.send(b"\x01")  # as the apiserver opens each session
    if path == "/cat" or path == "/resize":
        for message in connection:
            assert isinstance(message, bytes)
            if message == b"\xff\x00":
                break
            if message[0] == (4 if path == "/resize" else 0):
                connection.send(b"\x01" + message[1:])
        connection.send(b"\x03" + status())
    elif path == "/flood":
        for _ in range(64):
            connection.send(b"\x01" + bytes(range(256)) * 256)
        connection.send(b"\x02" + b"e" * 100)
        connection.send(b"\x03" + status(3))
    elif path == "/fail":
        connection.send(b"\x02partial")
        connection.send(b"\x03" + status(reason="InternalError", message="container is gone"))
    elif path == "/drop":
        connection.send(b"\x01partial")
        connection.close(1011, "internal error")
        return
    elif path == "/text":
        connection.send("text")
    connection.close()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    ws_server: Server = serve(serve_exec, "127.0.0.1", 0, max_size=None,
                              subprotocols=[Subprotocol("v5.channel.k8s.io"), Subprotocol("v4.channel.k8s.io")])
    thread = threading.Thread(target=ws_server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{ws_server.socket.getsockname()[1]}"
    ws_server.shutdown()
    thread.join()


class _Out:
    def __init__(self, lt: LoopThread, stream: Any) -> None:
        self.lt, self.stream = lt, stream

    def read(self, size: int = -1) -> bytes:
        return self.lt.run(self.stream.read(size))  # type: ignore[no-any-return]

    def readline(self, size: int = -1) -> bytes:
        return self.lt.run(self.stream.readline(size))  # type: ignore[no-any-return]


class _In:
    def __init__(self, lt: LoopThread, stream: Any) -> None:
        self.lt, self.stream = lt, stream

    def write(self, data: bytes) -> int:
        return self.lt.run(self.stream.write(data))  # type: ignore[no-any-return]

    def close(self) -> None:
        self.lt.run(self.stream.close())


class SyncView:
    """An AsyncExecSession with ExecSession's calls."""

    def __init__(self, lt: LoopThread, session: AsyncExecSession) -> None:
        self.lt, self.session = lt, session
        self.stdin, self.stdout, self.stderr = _In(lt, session.stdin), _Out(lt, session.stdout), _Out(lt, session.stderr)

    def resize(self, width: int, height: int) -> None:
        self.lt.run(self.session.resize(width, height))

    def wait(self, timeout: float | None = None) -> int:
        return self.lt.run(self.session.wait(timeout))

    def close(self) -> None:
        self.lt.run(self.session.close())

    @property
    def exit_code(self) -> int | None:
        return self.session.exit_code


class Flavour:
    def __init__(self, name: str, host: str) -> None:
        self.name = name
        self.config = Config(host=host)
        self.lt = LoopThread("kgen-test async flavour") if name == "async" else None
        self.rest = RESTClient(self.config)
        self.arest: AsyncRESTClient | None = None

    def _async_rest(self) -> AsyncRESTClient:
        assert self.lt is not None
        if self.arest is None:
            async def make() -> AsyncRESTClient:
                return AsyncRESTClient(self.config)
            self.arest = self.lt.run(make())
        return self.arest

    def open(self, path: str, *, stdin: bool = False, tty: bool = False, buffer_limit: int | None = 1 << 20) -> Any:
        kwargs: dict[str, Any] = dict(what=f"exec {path}", stdin=stdin, stdout=True, stderr=True, tty=tty,
                                      buffer_limit=buffer_limit)
        if self.lt is None:
            return open_session(self.rest, path, [], **kwargs)
        return SyncView(self.lt, self.lt.run(open_async_session(self._async_rest(), path, [], **kwargs)))

    def run(self, path: str, stdin: bytes | None = None, timeout: float | None = 10) -> ExecResult:
        if self.lt is None:
            return run(self.rest, path, [], what=f"exec {path}", stdin=stdin, tty=False, timeout=timeout)
        return self.lt.run(run_async(self._async_rest(), path, [], what=f"exec {path}", stdin=stdin, tty=False,
                                      timeout=timeout))

    def close(self) -> None:
        self.rest.close()
        if self.lt is not None:
            if self.arest is not None:
                self.lt.run(self.arest.close())
            self.lt.close()


@pytest.fixture(params=["sync", "async"])
def flavour(request: pytest.FixtureRequest, server: str) -> Iterator[Flavour]:
    made = Flavour(request.param, server)
    yield made
    made.close()


def test_stdin_streams_through_and_its_close_ends_the_command(flavour: Flavour) -> None:
    session = flavour.open("/cat", stdin=True)
    session.stdin.write(b"first line\nsecond")
    assert session.stdout.readline() == b"first line\n"
    session.stdin.write(b" half\n" + bytes(range(256)))
    session.stdin.close()
    assert session.stdout.readline() == b"second half\n"
    assert session.stdout.read() == bytes(range(256))
    assert session.stdout.read(1) == b"" and session.stderr.read() == b""
    assert session.wait() == 0 and session.exit_code == 0
    with pytest.raises(ValueError, match="write to closed stdin"):
        session.stdin.write(b"more")
    session.close()


def test_output_beyond_the_buffer_is_not_lost_and_wait_does_not_stall_on_it(flavour: Flavour) -> None:
    session = flavour.open("/flood", buffer_limit=65536)
    assert session.stdout.read(10) == bytes(range(10))
    assert session.wait(timeout=10) == 3  # 4 MiB unread: the buffer's bound is lifted while waiting
    rest = session.stdout.read()
    assert bytes(range(10)) + rest == (bytes(range(256)) * 256) * 64
    assert session.stderr.read() == b"e" * 100
    session.close()


def test_run_collects_everything_and_keeps_the_exit_code_a_result(flavour: Flavour) -> None:
    result = flavour.run("/flood")
    assert (len(result.stdout), result.stderr, result.exit_code) == (4 << 20, b"e" * 100, 3)
    assert flavour.run("/cat", stdin=b"x" * 100_000).stdout == b"x" * 100_000


def test_a_failure_on_the_status_channel_raises_with_the_output_so_far(flavour: Flavour) -> None:
    with pytest.raises(RemoteCommandError, match="exec /fail: container is gone") as raised:
        flavour.run("/fail")
    assert raised.value.stderr == b"partial" and raised.value.status is not None


def test_an_abnormal_close_is_an_error_reading_the_error_stream(flavour: Flavour) -> None:
    with pytest.raises(RemoteCommandError, match="error reading from error stream: connection closed: .*1011"):
        flavour.run("/drop")


def test_a_text_message_breaks_the_protocol(flavour: Flavour) -> None:
    with pytest.raises(RemoteCommandError, match="unexpected text message"):
        flavour.run("/text")


def test_resizes_go_out_as_client_gos_json(flavour: Flavour) -> None:
    session = flavour.open("/resize", stdin=True, tty=True)
    session.resize(100, 30)
    session.resize(120, 40)
    assert session.stdout.readline() == b'{"Width":100,"Height":30}\n'
    assert session.stdout.readline() == b'{"Width":120,"Height":40}\n'
    session.stdin.close()
    assert session.wait() == 0
    session.close()


def test_a_session_closed_early_has_no_exit_code_and_writes_fail(flavour: Flavour) -> None:
    session = flavour.open("/cat", stdin=True)
    session.close()
    with pytest.raises(RemoteCommandError, match="closed before the command ended"):
        session.wait()
    with pytest.raises(BrokenPipeError, match="the session has ended"):
        session.stdin.write(b"x")


def test_wait_times_out_while_the_command_runs(flavour: Flavour) -> None:
    session = flavour.open("/cat", stdin=True)
    with pytest.raises(TimeoutError, match="exec /cat: still running after 0.2 s"):
        session.wait(timeout=0.2)
    session.stdin.close()
    assert session.wait() == 0
    session.close()


def test_streams_not_requested_say_so(flavour: Flavour) -> None:
    session = flavour.open("/flood")
    with pytest.raises(ValueError, match="stdin was not requested"):
        session.stdin.write(b"x")
    with pytest.raises(ValueError, match="tty=True"):
        session.resize(80, 24)
    session.wait()
    session.close()


def test_the_sync_session_reads_lines_by_iteration(server: str) -> None:
    with RESTClient(Config(host=server)) as rest:
        with open_session(rest, "/cat", [], what="exec cat", stdin=True, stdout=True, stderr=True, tty=False) as s:
            assert isinstance(s, ExecSession)
            s.stdin.write("a\nb\n")
            s.stdin.close()
            assert list(s.stdout) == [b"a\n", b"b\n"]
            assert s.wait() == 0


def _session_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("kgen-remotecommand")]


def test_the_sync_session_runs_on_a_loop_of_its_own_and_a_closed_one_answers_from_its_end(server: str) -> None:
    with RESTClient(Config(host=server)) as rest:
        session = open_session(rest, "/flood", [], what="exec flood", stdin=False, stdout=True, stderr=True,
                               tty=False, buffer_limit=65536)
        assert _session_threads() == ["kgen-remotecommand exec flood"]
        assert session.stdout.read(10) == bytes(range(10))
        assert session.wait(timeout=10) == 3
        session.close()
        session.close()  # again: nothing
        assert _session_threads() == []
        assert len(session.stdout.read()) == (4 << 20) - 10 and session.stdout.read() == b""
        assert session.stderr.readline() == b"e" * 100 and session.wait() == 3 and session.exit_code == 3
        with pytest.raises(ValueError, match="stdin was not requested"):
            session.stdin.write(b"x")
        with pytest.raises(ValueError, match="tty=True"):
            session.resize(80, 24)
        assert run(rest, "/cat", [], what="exec cat", stdin=b"in", tty=False, timeout=10).stdout == b"in"
        assert _session_threads() == []


def test_a_loop_thread_refuses_work_once_closed() -> None:
    loop = LoopThread("kgen-test")
    assert loop.alive and loop.run(asyncio.sleep(0, "done")) == "done"
    loop.close()
    loop.close()
    assert not loop.alive
    with pytest.raises(LoopClosed, match="'kgen-test' is closed"):
        loop.run(asyncio.sleep(0))


def test_the_async_session_reads_lines_by_iteration(server: str) -> None:
    async def main() -> list[bytes]:
        async with AsyncRESTClient(Config(host=server)) as rest:
            session = await open_async_session(rest, "/cat", [], what="exec cat", stdin=True, stdout=True,
                                               stderr=True, tty=False)
            async with session:
                await session.stdin.write("a\nb\n")
                await session.stdin.close()
                lines = [line async for line in session.stdout]
                assert await session.wait() == 0
                return lines

    assert asyncio.run(main()) == [b"a\n", b"b\n"]


def test_v4_is_the_fallback_and_the_close_signal_is_sent_on_it_as_client_go_sends_it() -> None:
    v4_only: Server = serve(serve_exec, "127.0.0.1", 0, subprotocols=[Subprotocol("v4.channel.k8s.io")])
    thread = threading.Thread(target=v4_only.serve_forever, daemon=True)
    thread.start()
    try:
        with RESTClient(Config(host=f"http://127.0.0.1:{v4_only.socket.getsockname()[1]}")) as rest:
            with open_session(rest, "/cat", [], what="exec cat", stdin=True, stdout=True, stderr=True,
                              tty=False) as session:
                assert session.protocol == "v4.channel.k8s.io"
                session.stdin.write(b"on v4\n")
                session.stdin.close()  # sent whatever the protocol; this test server ends on it
                assert session.stdout.read() == b"on v4\n" and session.wait() == 0
    finally:
        v4_only.shutdown()
        thread.join()


def test_a_fake_clientset_says_exec_needs_a_real_apiserver() -> None:
    from kgen.kubernetes.fake import AsyncFakeClientset, FakeClientset
    from kgen.runtime.rest.websocket import WebSocketHandshakeError

    with pytest.raises(WebSocketHandshakeError, match="fake apiserver's transport, which cannot carry a WebSocket"):
        FakeClientset().core_v1.pods("ns").exec("p", ["ls"], timeout=10)

    async def main() -> None:
        await AsyncFakeClientset().core_v1.pods("ns").exec("p", ["ls"], timeout=10)

    with pytest.raises(WebSocketHandshakeError, match="need a real apiserver"):
        asyncio.run(main())
