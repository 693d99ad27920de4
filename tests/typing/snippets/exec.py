"""exec and attach, typed: the typed pods client's ``exec`` returns an ExecResult (bytes and an
int), the streaming forms give sessions whose streams read bytes, on both flavours; the
keywords and the command's shape are checked."""

from __future__ import annotations

import hashlib
from typing import assert_type

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.runtime.tools.remotecommand import (
    AsyncExecSession,
    ExecResult,
    ExecSession,
    ExitCodeError,
    RemoteCommandError,
)


def run_a_command(cs: Clientset, ns: str) -> int:
    pods = cs.core_v1.pods(ns)
    result = pods.exec("shell", ["sh", "-c", "echo hi; exit 3"], container="app", timeout=30)
    assert_type(result, ExecResult)
    assert_type(result.stdout, bytes)
    assert_type(result.exit_code, int)
    counted = pods.exec("shell", ["wc", "-l"], stdin="a\nb\n").check()
    assert_type(counted, ExecResult)
    try:
        pods.exec("shell", ["no-such-command"]).check()
    except ExitCodeError as e:
        return e.exit_code
    except RemoteCommandError as e:
        assert_type(e.message, str)
    attached = pods.attach("shell", stdin=b"input", timeout=10)
    return attached.exit_code


def stream(cs: Clientset, ns: str) -> str:
    with cs.core_v1.pods(ns).exec_stream("shell", ["cat"], stdin=True) as session:
        assert_type(session, ExecSession)
        session.stdin.write(b"data")
        session.stdin.close()
        digest = hashlib.sha256()
        while chunk := session.stdout.read(65536):
            digest.update(chunk)
        for line in session.stderr:
            assert_type(line, bytes)
        code = session.wait(timeout=30)
        assert_type(code, int)
    with cs.core_v1.pods(ns).attach_stream("shell", tty=True, stdin=True) as terminal:
        terminal.resize(120, 40)
        assert_type(terminal.exit_code, int | None)
    return digest.hexdigest()


async def on_asyncio(acs: AsyncClientset, ns: str) -> bytes:
    pods = acs.core_v1.pods(ns)
    result = await pods.exec("shell", ["ls"])
    assert_type(result, ExecResult)
    async with pods.exec_stream("shell", ["cat"], stdin=True) as session:
        assert_type(session, AsyncExecSession)
        await session.stdin.write("text is sent as UTF-8")
        await session.stdin.close()
        lines = [line async for line in session.stdout]
        assert_type(await session.wait(), int)
    opened = await pods.attach_stream("shell")
    assert_type(opened, AsyncExecSession)
    await opened.close()
    return b"".join(lines) + (await pods.attach("shell")).stdout


def mistakes(cs: Clientset, ns: str) -> None:
    cs.core_v1.pods(ns).exec("shell", ["ls"], stdin=3)  # E: arg-type
    print(cs.core_v1.pods(ns).exec("shell", ["ls"]).stdout.decode().missing)  # E: attr-defined
    cs.core_v1.pods(ns).exec_stream("shell", ["cat"]).stdout.write(b"x")  # E: attr-defined
    cs.core_v1.pods(ns).exec("shell", ["ls"], tty="yes")  # E: arg-type
