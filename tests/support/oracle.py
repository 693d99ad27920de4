"""The Go oracle programs (hack/oracle/<name>): client-go and apimachinery at the envtest
version, built from the Go module proxy and cached outside the repository like the envtest
binaries. Tests run them beside the Python code and compare what both do.

``GoInformer`` runs hack/oracle/informer (client-go's shared informers) as a subprocess and
reads its handler calls; ``HandlerCall`` and ``sequence_differences`` are the common form both
sides' handler calls are compared in.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs

BUILD = Path(__file__).resolve().parents[2] / "hack" / "oracle" / "build.sh"
# The cache root as the session started: unit tests point KGEN_CACHE_DIR at a temporary folder
# for black's cache, and the oracle programs must still be built once per machine.
_CACHE_ROOT = os.environ.get("KGEN_CACHE_DIR")


@functools.cache
def oracle_binary(name: str) -> Path:
    """The path of the built oracle program ``name`` (built on first use, ~1 min cold)."""
    env = {k: v for k, v in os.environ.items() if k != "KGEN_CACHE_DIR"}
    if _CACHE_ROOT is not None:
        env["KGEN_CACHE_DIR"] = _CACHE_ROOT
    done = subprocess.run(
        [str(BUILD), name], capture_output=True, text=True, timeout=1800, env=env
    )
    if done.returncode != 0:
        raise RuntimeError(f"building the {name} oracle failed:\n{done.stderr[-4000:]}")
    return Path(done.stdout.strip().splitlines()[-1])


# -- informer event sequences ---------------------------------------------------------------


@dataclass(frozen=True)
class HandlerCall:
    """One event-handler call, as both sides report it. ``handler`` is client-go's name:
    ``add``, ``update``, ``delete``, or ``delete-tombstone`` (a DeletedFinalStateUnknown);
    ``resource_version`` is the (new) object's."""

    informer: str
    name: str
    handler: str
    resource_version: str


def per_object(calls: Sequence[HandlerCall]) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(informer, object name) → the ordered (handler, resourceVersion) of its calls."""
    sequences: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for call in calls:
        sequences.setdefault((call.informer, call.name), []).append((call.handler, call.resource_version))
    return sequences


def sequence_differences(
    expected: Sequence[HandlerCall], actual: Sequence[HandlerCall], expected_side: str = "client-go",
    actual_side: str = "kgen",
) -> list[str]:
    """Every object whose ordered handler calls differ between the two sides, explained (empty
    when they agree). Calls about different objects may interleave differently: client-go
    orders only the calls about one object (one key in the DeltaFIFO)."""
    want, got = per_object(expected), per_object(actual)
    differences = []
    for informer, name in sorted(want.keys() | got.keys()):
        a, b = want.get((informer, name), []), got.get((informer, name), [])
        if a != b:
            differences.append(f"informer {informer!r}, object {name!r}: {expected_side} {a} != {actual_side} {b}")
    return differences


class GoInformer:
    """hack/oracle/informer in watch mode, running: client-go shared informers on one namespace,
    one per entry of ``informers`` (name → label selector, "" for every object), each from its
    own informer factory. Its JSON lines are read on a thread as they come; the waits below are
    woken by them. ``watch_list`` sets client-go's WatchListClient feature gate through its
    environment variable, as a user would; None leaves client-go's default."""

    def __init__(
        self, kubeconfig: Path | str, namespace: str, informers: Mapping[str, str], *,
        watch_list: bool | None = None, resource: str = "configmaps",
    ) -> None:
        self.informers = dict(informers)
        self.command = [str(oracle_binary("informer")), "watch", "-kubeconfig", str(kubeconfig),
                        "-namespace", namespace, "-resource", resource,
                        *(arg for name, selector in informers.items() for arg in ("-informer", f"{name}={selector}"))]
        self.env = {k: v for k, v in os.environ.items() if k != "KUBE_FEATURE_WatchListClient"}
        if watch_list is not None:
            self.env["KUBE_FEATURE_WatchListClient"] = "true" if watch_list else "false"
        self.lines: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        self._stderr = tempfile.TemporaryFile()
        self._process: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None

    def __enter__(self) -> GoInformer:
        self._process = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, text=True,
            env=self.env, bufsize=1,
        )
        self._reader = threading.Thread(target=self._read, name="go-informer-stdout", daemon=True)
        self._reader.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            with self._changed:
                self.lines.append(json.loads(line))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def _stderr_tail(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read()[-4000:].decode(errors="replace")

    def wait(self, condition: Callable[[list[dict[str, Any]]], bool], timeout: float, what: str) -> None:
        """Waits until ``condition(lines)`` holds; fails if the program ends first or time is up."""
        process = self._process
        assert process is not None
        with self._changed:
            self._changed.wait_for(lambda: condition(self.lines) or process.poll() is not None, timeout)
            if condition(self.lines):
                return
            ended = process.poll() is not None
            state = f"exited with {process.returncode}" if ended else f"still running after {timeout}s"
        raise AssertionError(f"client-go informer: no {what}; it {state}; stderr:\n{self._stderr_tail()}")

    @property
    def watch_list(self) -> bool:
        """Whether client-go runs with its WatchListClient feature gate on (its first line)."""
        self.wait(lambda lines: any(line.get("started") for line in lines), 60, "start line")
        return bool(next(line for line in self.lines if line.get("started"))["watchList"])

    def wait_synced(self, timeout: float = 60) -> None:
        """Waits until every informer's handler registration has synced."""
        def synced(lines: list[dict[str, Any]]) -> bool:
            return {line["informer"] for line in lines if line.get("handler") == "synced"} >= self.informers.keys()

        self.wait(synced, timeout, "synced line for every informer")

    def wait_calls(self, condition: Callable[[list[HandlerCall]], bool], timeout: float, what: str) -> None:
        """Waits until ``condition`` holds for the handler calls so far."""
        self.wait(lambda lines: condition(_calls_of(lines)), timeout, what)

    def calls(self) -> list[HandlerCall]:
        with self._changed:
            return _calls_of(self.lines)

    def requests(self) -> list[str]:
        """Every request client-go sent so far: "GET /api/v1/...?query"."""
        with self._changed:
            return [line["request"] for line in self.lines if "request" in line]

    def initial_list(self, informer: str) -> set[str]:
        """The objects client-go handed ``informer``'s handler as adds with isInInitialList."""
        with self._changed:
            return {line["name"] for line in self.lines
                    if line.get("informer") == informer and line.get("handler") == "add" and line["isInInitialList"]}

    def dump(self, timeout: float = 30) -> dict[str, dict[str, str]]:
        """Every informer's cache now: informer → {object name: resourceVersion}."""
        assert self._process is not None and self._process.stdin is not None
        with self._changed:
            before = len(self.lines)
        self._process.stdin.write("dump\n")
        self._process.stdin.flush()

        def caches(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [line for line in lines[before:] if "cache" in line]

        self.wait(lambda lines: len(caches(lines)) == len(self.informers), timeout, "cache dump")
        return {line["informer"]: line["cache"] for line in caches(self.lines)}

    def close(self) -> None:
        if self._process is None:
            return
        try:
            if self._process.stdin is not None and not self._process.stdin.closed:
                self._process.stdin.close()  # the program dumps its caches once more and exits
            self._process.wait(30)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            self._process.kill()
            self._process.wait(10)
        finally:
            if self._reader is not None:
                self._reader.join(10)
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._stderr.close()
            self._process = None


def list_and_watch_list_requests(requests: Sequence[str], collection: str) -> tuple[int, int]:
    """How many of ``requests`` ("GET /path?query") were lists of ``collection`` and how many
    WatchList watches of it (``watch=true`` with ``sendInitialEvents=true``)."""
    lists = watch_lists = 0
    for request in requests:
        method, _, target = request.partition(" ")
        path, _, query = target.partition("?")
        if method != "GET" or path != collection:
            continue
        params = parse_qs(query)
        if params.get("watch") in (["true"], ["1"]):
            watch_lists += params.get("sendInitialEvents") == ["true"]
        else:
            lists += 1
    return lists, watch_lists


def _calls_of(lines: list[dict[str, Any]]) -> list[HandlerCall]:
    calls = []
    for line in lines:
        if line.get("handler") in ("add", "update", "delete"):
            handler = "delete-tombstone" if line["handler"] == "delete" and line["tombstone"] else line["handler"]
            calls.append(HandlerCall(line["informer"], line["name"], handler, line["resourceVersion"]))
    return calls
