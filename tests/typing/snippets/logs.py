"""Pod logs (issue 34): ``log`` and ``log_bytes`` on the typed pods client, sync and async, every
kubectl logs option typed; the mistakes mypy --strict must reject are marked ``# E: <code>``."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone

from kgen.kubernetes import AsyncClientset, Clientset


def tail(cs: Clientset, pod: str) -> list[str]:
    pods = cs.core_v1.pods("default")
    since = datetime.now(timezone.utc) - timedelta(minutes=5)
    recent: list[str] = list(pods.log(pod, container="app", since_time=since, timestamps=True))
    recent += pods.log(pod, since_time="2024-05-01T12:00:00Z", limit_bytes=1024)
    return recent + list(pods.log(pod, tail_lines=10, since_seconds=60, previous=True))


def follow_until(cs: Clientset, pod: str, marker: str) -> int:
    stream = cs.core_v1.pods("default").log(pod, follow=True)
    for seen, line in enumerate(stream, 1):
        if marker in line:
            stream.close()  # ends the request
            return seen
    return 0


def copy_out(cs: Clientset, pod: str) -> None:
    for chunk in cs.core_v1.pods("default").log_bytes(pod, follow=True):
        sys.stdout.buffer.write(chunk)


async def follow_async(cs: AsyncClientset, pod: str) -> list[str]:
    lines = [line async for line in cs.core_v1.pods("default").log(pod, follow=True, tail_lines=1)]
    raw: bytes = b"".join([chunk async for chunk in cs.core_v1.pods("default").log_bytes(pod)])
    return lines + [raw.decode()]


def mistakes(cs: Clientset, pod: str) -> None:
    pods = cs.core_v1.pods("default")
    pods.log(pod, tail_lines="10")  # E: arg-type
    pods.log(pod, since_time=1714564800)  # E: arg-type
    pods.log(pod, follow_lines=True)  # E: call-arg
    text: bytes = next(pods.log(pod))  # E: assignment
    data: str = next(pods.log_bytes(pod))  # E: assignment
