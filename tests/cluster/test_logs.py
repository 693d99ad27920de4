"""``pods(ns).log`` / ``log_bytes`` on the whole cluster, with ``kubectl logs`` of the same
release as the oracle: the same bytes for each option (tail, since, since-time, timestamps,
limit-bytes, container, previous), a follow that sees every line appended while it runs (sync,
async and kubectl side by side, none lost or repeated), and what a follow does when the pod is
deleted: kwok keeps the stream open (with its rule's ``follow: false`` too) and kubectl logs -f
keeps following, and so does kgen. That the iterator ends without an exception when the server
ends the body, as a kubelet does when the container stops, is pinned in
tests/unit/test_pod_logs.py (kwok never ends a followed body).

kwok serves pods/log from a CRI-format file per container (``ClusterLogs``); lines are written
with chosen times so that since and since-time cut between them far from the boundary.
"""

from __future__ import annotations

import asyncio
import queue
import subprocess
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TypedDict

import pytest

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.core.v1 import Pod
from kgen.runtime.apimachinery import ApiError, NotFound
from kgen.runtime.rest import load_kubeconfig
from kgen.runtime.testing import Cluster, cri_log_line
from tests.cluster.conftest import wait_for

pytestmark = pytest.mark.timeout(120)


class _Options(TypedDict, total=False):
    """The options a row of the table passes to ``log`` / ``log_bytes``."""

    tail_lines: int
    since_seconds: int
    since_time: datetime | str
    timestamps: bool
    limit_bytes: int
    previous: bool


def _cri_line(at: datetime, text: str, stream: str = "stdout") -> str:
    """A CRI log line written at ``at`` (``cri_log_line`` stamps the current time)."""
    return f"{at.strftime('%Y-%m-%dT%H:%M:%S')}.{at.microsecond:06d}123Z {stream} F {text}\n"


def _kubectl(kube_cluster: Cluster, *args: str) -> subprocess.CompletedProcess[bytes]:
    """kubectl's bytes (``Cluster.kubectl`` decodes text, turning a ``\\r`` into a newline)."""
    return subprocess.run(
        [str(kube_cluster.assets / "kubectl"), f"--kubeconfig={kube_cluster.kubeconfig}", *args],
        capture_output=True, stdin=subprocess.DEVNULL, timeout=60,
    )


def _lines(printed: bytes) -> list[str]:
    """What kubectl printed, as text lines: cut at each newline only (a ``\\r`` stays inside)."""
    parts = printed.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    return [part.decode("utf-8", errors="replace") for part in parts]


def _kubectl_follow(kube_cluster: Cluster, ns: str, pod: str) -> tuple[subprocess.Popen[bytes], queue.Queue[bytes]]:
    """``kubectl logs -f``, its stdout lines handed over in a queue as they come."""
    process = subprocess.Popen(
        [str(kube_cluster.assets / "kubectl"), f"--kubeconfig={kube_cluster.kubeconfig}", "logs", "-f", "-n", ns, pod],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    lines: queue.Queue[bytes] = queue.Queue()
    out = process.stdout
    assert out is not None

    def read() -> None:
        for line in out:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return process, lines


def _make_pod(cs: Clientset, ns: str, name: str, containers: tuple[str, ...] = ("app",)) -> str:
    spec = {"containers": [{"name": c, "image": "example.com/app:1"} for c in containers]}
    cs.core_v1.pods(ns).create(Pod.from_dict({"metadata": {"name": name}, "spec": spec}))

    def running() -> bool:
        status = cs.core_v1.pods(ns).get(name).status
        return status is not None and status.phase == "Running"

    wait_for(f"pod {name} Running", running)
    return name


def _until_served(cs: Clientset, ns: str, pod: str, first: str, container: str | None = None) -> None:
    """Waits until kwok has picked the logs rule up: until then the log is empty or an error."""

    def served() -> bool:
        try:
            return next(iter(cs.core_v1.pods(ns).log(pod, container=container, tail_lines=None)), None) == first
        except ApiError:
            return False

    wait_for("kwok serving the log file", served)


@pytest.fixture
def timed_pod(kube_cluster: Cluster, cs: Clientset, ns: str, tmp_path: Path) -> Iterator[tuple[str, datetime]]:
    """A two-container pod whose logs hold lines written 2 h, 10 min, 30 s and 1 s before now
    (container ``app``) and two lines of stderr and stdout (``side``)."""
    now = datetime.now(timezone.utc)
    app, side = tmp_path / "app.log", tmp_path / "side.log"
    app.write_text(
        _cri_line(now - timedelta(hours=2), "two hours ago")
        + _cri_line(now - timedelta(minutes=10), "ten minutes ago: ünïcødé")
        + _cri_line(now - timedelta(seconds=30), "thirty seconds ago")
        + _cri_line(now - timedelta(seconds=1), "a second ago\rwith a carriage return")
    )
    side.write_text(cri_log_line("side one", "stderr") + cri_log_line("side two"))
    logs = [{"containers": ["app"], "logsFile": str(app), "follow": True}, {"containers": ["side"], "logsFile": str(side), "follow": True}]
    kube_cluster.apply_kwok_rule("ClusterLogs", ns, {"selector": {"matchNamespaces": [ns]}, "logs": logs})
    pod = _make_pod(cs, ns, "timed", ("app", "side"))
    _until_served(cs, ns, pod, "two hours ago", container="app")
    yield pod, now
    kube_cluster.delete_kwok_rule("ClusterLogs", ns)


def test_each_option_gives_the_bytes_kubectl_logs_gives(
    kube_cluster: Cluster, cs: Clientset, ns: str, timed_pod: tuple[str, datetime]
) -> None:
    pod, now = timed_pod
    pods = cs.core_v1.pods(ns)
    since = (now - timedelta(minutes=20)).strftime("%Y-%m-%dT%H:%M:%SZ")
    offset = (now - timedelta(minutes=5)).astimezone(timezone(timedelta(hours=-3, minutes=-30)))
    since_offset = offset.strftime("%Y-%m-%dT%H:%M:%S") + ".987654321-03:30"
    table: list[tuple[_Options, list[str]]] = [
        ({}, []),
        ({"tail_lines": 2}, ["--tail=2"]),
        ({"tail_lines": 0}, ["--tail=0"]),
        ({"since_seconds": 120}, ["--since=2m"]),
        ({"since_time": since}, [f"--since-time={since}"]),
        ({"since_time": datetime.fromisoformat(since.replace("Z", "+00:00"))}, [f"--since-time={since}"]),
        ({"since_time": since_offset}, [f"--since-time={since_offset}"]),
        ({"timestamps": True}, ["--timestamps"]),
        ({"timestamps": True, "tail_lines": 1}, ["--timestamps", "--tail=1"]),
        ({"limit_bytes": 20}, ["--limit-bytes=20"]),
        ({"limit_bytes": 1}, ["--limit-bytes=1"]),
        ({"since_seconds": 3600, "tail_lines": 1, "timestamps": True}, ["--since=1h", "--tail=1", "--timestamps"]),
    ]
    compared = 0
    for container in ("app", "side"):
        for options, flags in table:
            expected = _kubectl(kube_cluster, "logs", "-n", ns, pod, "-c", container, *flags)
            assert expected.returncode == 0, expected.stderr
            got = b"".join(pods.log_bytes(pod, container=container, **options))
            assert got == expected.stdout, (container, flags)
            lines = list(pods.log(pod, container=container, **options))
            assert lines == _lines(expected.stdout), flags
            compared += 1
    assert compared == 2 * len(table)
    # the tail and since cuts really cut (the table is not comparing empty answers)
    cuts: list[_Options] = [{}, {"tail_lines": 2}, {"since_seconds": 120}]
    assert [len(list(pods.log(pod, container="app", **o))) for o in cuts] == [4, 2, 2]


def test_async_options_give_the_same_bytes(cs: Clientset, ns: str, kube_cluster: Cluster, timed_pod: tuple[str, datetime]) -> None:
    pod, _ = timed_pod

    async def read() -> tuple[bytes, list[str]]:
        async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
            pods = acs.core_v1.pods(ns)
            raw = b"".join([chunk async for chunk in pods.log_bytes(pod, container="app", tail_lines=3, timestamps=True)])
            return raw, [line async for line in pods.log(pod, container="app", since_seconds=900)]

    raw, lines = asyncio.run(read())
    assert raw == _kubectl(kube_cluster, "logs", "-n", ns, pod, "-c", "app", "--tail=3", "--timestamps").stdout
    assert lines == _lines(_kubectl(kube_cluster, "logs", "-n", ns, pod, "-c", "app", "--since=15m").stdout)


def test_previous_a_missing_container_and_both_since_options_fail_as_kubectl_does(
    kube_cluster: Cluster, cs: Clientset, ns: str, timed_pod: tuple[str, datetime]
) -> None:
    pod, _ = timed_pod
    cases: list[tuple[str, _Options, list[str]]] = [("app", {"previous": True}, ["--previous"]), ("nope", {}, [])]
    for container, options, flags in cases:
        refused = _kubectl(kube_cluster, "logs", "-n", ns, pod, "-c", container, *flags)
        assert refused.returncode == 1
        with pytest.raises(ApiError) as e:
            list(cs.core_v1.pods(ns).log(pod, container=container, **options))
        assert e.value.message and e.value.message.encode() in refused.stderr, refused.stderr
    # both since options: kubectl's Validate refuses them (after finding the pod); kgen before any request
    refused = _kubectl(kube_cluster, "logs", "-n", ns, pod, "-c", "app", "--since=1m", "--since-time=2024-01-01T00:00:00Z")
    assert refused.returncode == 1 and b"at most one of `sinceTime` or `sinceSeconds` may be specified" in refused.stderr
    with pytest.raises(ValueError, match="at most one of since_seconds or since_time"):
        cs.core_v1.pods(ns).log("no-such-pod", since_seconds=60, since_time="2024-01-01T00:00:00Z")


@pytest.fixture
def followed(kube_cluster: Cluster, cs: Clientset, ns: str, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A pod whose log file starts with three lines and is followed by kwok."""
    path = tmp_path / "app.log"
    path.write_text("".join(cri_log_line(t) for t in ("one", "two", "three")))
    kube_cluster.set_cluster_logs(ns, path, namespaces=[ns])
    pod = _make_pod(cs, ns, "followed")
    _until_served(cs, ns, pod, "one")
    yield pod, path
    kube_cluster.delete_kwok_rule("ClusterLogs", ns)


def _reader(target: Callable[[Callable[[str], None]], None]) -> tuple[threading.Thread, queue.Queue[str | BaseException]]:
    """Runs ``target(put)`` on a thread; what it puts (or raises) comes out of the queue."""
    seen: queue.Queue[str | BaseException] = queue.Queue()

    def run() -> None:
        try:
            target(seen.put)
        except BaseException as e:  # handed to the test, which fails on it
            seen.put(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, seen


def _take(seen: queue.Queue[str | BaseException], count: int, who: str) -> list[str]:
    got: list[str] = []
    for _ in range(count):
        item = seen.get(timeout=30)
        if isinstance(item, BaseException):
            raise AssertionError(f"{who} failed after {got[-3:]}") from item
        got.append(item)
    return got


def test_follow_sees_every_appended_line_in_order_sync_async_and_kubectl(
    kube_cluster: Cluster, cs: Clientset, ns: str, followed: tuple[str, Path]
) -> None:
    pod, path = followed
    bursts = [1, 2, 7, 40, 1, 100, 49]
    total = 3 + sum(bursts)
    assert total == 203

    def sync_follow(put: Callable[[str], None]) -> None:
        stream = cs.core_v1.pods(ns).log(pod, follow=True)
        for count, line in enumerate(stream, 1):
            put(line)
            if count == total:
                break  # leaving the loop closes the generator, which ends the request

    def async_follow(put: Callable[[str], None]) -> None:
        async def follow() -> None:
            async with AsyncClientset(load_kubeconfig(kube_cluster.kubeconfig)) as acs:
                count = 0
                async for line in acs.core_v1.pods(ns).log(pod, follow=True):
                    put(line)
                    count += 1
                    if count == total:
                        break

        asyncio.run(follow())

    followers = {"sync": _reader(sync_follow), "async": _reader(async_follow)}
    kubectl, kubectl_lines = _kubectl_follow(kube_cluster, ns, pod)
    try:
        seen: dict[str, list[str]] = {who: _take(q, 3, who) for who, (_, q) in followers.items()}
        seen["kubectl"] = [kubectl_lines.get(timeout=30).decode().removesuffix("\n") for _ in range(3)]
        written = ["one", "two", "three"]
        for number, size in enumerate(bursts):
            burst = [f"burst {number} line {i} " + "x" * (i * 37 % 300) for i in range(size)]
            with path.open("a") as f:  # one write per burst
                f.write("".join(cri_log_line(text) for text in burst))
            written += burst
            # the next burst only once every follower has this one: appends land while they follow
            for who, (_, q) in followers.items():
                seen[who] += _take(q, size, who)
            seen["kubectl"] += [kubectl_lines.get(timeout=30).decode().removesuffix("\n") for _ in range(size)]
        assert seen["sync"] == written
        assert seen["async"] == written
        assert seen["kubectl"] == written
        for who, (thread, q) in followers.items():
            thread.join(timeout=30)
            assert not thread.is_alive() and q.empty(), who  # ended at the count, nothing more (no repeat)
        assert kubectl.poll() is None  # kubectl still following
        with path.open("a") as f:
            f.write(cri_log_line("after the others stopped"))
        assert kubectl_lines.get(timeout=30) == b"after the others stopped\n"  # nothing repeated before it
    finally:
        kubectl.terminate()
        kubectl.wait(timeout=10)


def test_follow_after_the_pod_is_deleted_keeps_following_as_kubectl_does_on_kwok(
    kube_cluster: Cluster, cs: Clientset, ns: str, followed: tuple[str, Path]
) -> None:
    # A kubelet ends the body when the container stops, and the iterator then ends as in the
    # test above; kwok's node keeps reading the file after the pod is gone. kubectl logs -f on the
    # same stream keeps waiting: kgen matches it rather than guessing an end.
    pod, path = followed
    pods = cs.core_v1.pods(ns)
    stream = pods.log(pod, follow=True)
    assert [next(stream) for _ in range(3)] == ["one", "two", "three"]
    kubectl, kubectl_lines = _kubectl_follow(kube_cluster, ns, pod)
    try:
        assert [kubectl_lines.get(timeout=30) for _ in range(3)] == [b"one\n", b"two\n", b"three\n"]
        pods.delete(pod, grace_period_seconds=0)

        def gone() -> bool:
            try:
                pods.get(pod)
            except NotFound:
                return True
            return False

        wait_for("the pod gone", gone)
        with path.open("a") as f:
            f.write(cri_log_line("written after the pod was deleted"))
        assert kubectl_lines.get(timeout=30) == b"written after the pod was deleted\n"
        assert next(stream) == "written after the pod was deleted"
        assert kubectl.poll() is None  # kubectl keeps following too
    finally:
        stream.close()
        kubectl.terminate()
        kubectl.wait(timeout=10)
