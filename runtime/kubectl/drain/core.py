"""The drain itself, free of I/O (k8s.io/kubectl/pkg/drain, drain.go and default.go).

``drain_steps`` is kubectl drain's sequence as ``Send``/``Sleep`` steps (steps.py):

1. cordon the node (cordon.py), as ``kubectl drain`` does first;
2. list the pods bound to it (field selector ``spec.nodeName``, the ``pod_selector``, pages of
   ``chunk_size``) and pass each through kubectl's filters (filters.py), looking up the
   DaemonSet of each DaemonSet-managed pod; any pod refused refuses the whole drain with kubectl's
   aggregated ``cannot delete ...`` error, before anything is evicted;
3. ask discovery whether ``pods/eviction`` is served (and in which policy version), then evict
   every remaining pod concurrently, each pod's loop as kubectl's goroutine: ``evicting pod
   ns/x``; a 429 (a PodDisruptionBudget that allows no disruption now) is retried after
   ``evict_error_retry_delay`` (kubectl's 5 s) with the pod read again; an eviction refused in a
   terminating namespace likewise, unless the pod is being deleted already; a 404 means the pod
   is gone; any other error ends that pod's loop. Each evicted pod is then polled every second
   until it is gone or replaced (same name, another UID): ``pod/x evicted``. With
   ``disable_eviction``, or on a server without the subresource, the pods are deleted one by one
   and waited for together (``pod/x deleted``), bypassing PodDisruptionBudgets;
4. ``timeout`` bounds step 3 as kubectl's global context: checked before each eviction attempt
   (``global timeout reached``) and while waiting (``context deadline exceeded``); a retry's
   wait is cut short at the deadline rather than slept through, the only timing kubectl does
   differently, with the same messages.

The pods' loops run interleaved by ``_concurrently``: one step of each in turn, timers for the
sleeping ones, so every eviction is asked for before the first wait, as kubectl's goroutines do,
on one thread or one task. Each pod gets a ``PodDrainResult`` (outcome, reason, the lines kubectl
prints about it); the drain a ``DrainResult``, or a ``DrainError`` carrying it and kubectl's error
text (``utilerrors.NewAggregate``: one message, or ``[a, b]``).
"""

from __future__ import annotations

import datetime
import enum
import heapq
import json
import logging
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from kgen.runtime.apimachinery.errors import ApiError, Forbidden, NotFound, TooManyRequests
from kgen.runtime.apimachinery.labels import SelectorError, parse
from kgen.runtime.kubectl.drain import filters
from kgen.runtime.kubectl.drain.steps import Send, Sleep, Steps
from kgen.runtime.kubectl.drain.cordon import cordon_steps
from kgen.runtime.rest.client import Request

__all__ = ["DrainError", "DrainOptions", "DrainResult", "DrainOutcome", "PodDrainResult", "aggregate", "drain_steps", "go_duration"]

log = logging.getLogger("kgen.runtime.kubectl.drain")

POLL_INTERVAL = 1.0
"""kubectl polls an evicted or deleted pod every second until it is gone."""
MAX_DURATION_NS = 2**63 - 1
"""Go's math.MaxInt64 nanoseconds: kubectl's stand-in for "no timeout"."""


class DrainOutcome(str, enum.Enum):
    """What a drain did with a pod."""

    EVICTED = "evicted"
    """Evicted through the eviction subresource, and gone (or replaced)."""
    DELETED = "deleted"
    """Deleted (``disable_eviction``, or no eviction subresource), and gone."""
    GONE = "gone"
    """Already gone when its eviction was asked for (a 404): kubectl says nothing of it."""
    SKIPPED = "skipped"
    """Left on the node: DaemonSet-managed with ``ignore_daemonsets``, a mirror pod, deleted
    longer ago than ``skip_wait_for_delete_timeout`` (or became so while waited for)."""
    REFUSED = "refused"
    """A filter refused it; the drain stopped before evicting anything."""
    FAILED = "failed"
    """Its eviction or deletion failed, or the timeout came first."""
    PENDING = "pending"
    """It would have been evicted, but the drain stopped before (a refusal of another pod)."""


@dataclass
class PodDrainResult:
    """One pod of the drained node: its outcome, the filter's message or the error (``reason``),
    the warning it was listed under, the lines kubectl prints about it (``messages``) and how
    many eviction requests it took."""

    namespace: str
    name: str
    uid: str
    outcome: DrainOutcome = DrainOutcome.PENDING
    reason: str = ""
    warning: str = ""
    messages: list[str] = field(default_factory=list)
    evictions: int = 0

    @property
    def key(self) -> str:
        """``namespace/name``."""
        return f"{self.namespace}/{self.name}"


@dataclass
class DrainResult:
    """A drain's account: whether this call ``cordoned`` the node (False: it already was), whether
    it was the server's ``dry_run`` (then nothing changed: an outcome says what the server
    accepted, and nothing was waited for), each pod's ``PodDrainResult`` in list order, kubectl's
    ``warnings`` (one per message), the ``errors`` that failed it (empty on success) and
    ``output``, the lines kubectl drain prints, in order."""

    node: str
    cordoned: bool = False
    dry_run: bool = False
    pods: list[PodDrainResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    output: list[str] = field(default_factory=list)

    def with_outcome(self, outcome: DrainOutcome | str) -> list[PodDrainResult]:
        """The pods of one ``DrainOutcome`` (or its value), in list order."""
        return [pod for pod in self.pods if pod.outcome == DrainOutcome(outcome)]


class DrainError(Exception):
    """The drain was refused (a pod no filter lets go) or did not finish (an eviction failed, the
    timeout passed). The message is kubectl's error; ``errors`` its parts, ``result`` the
    account so far. The node stays cordoned, as kubectl leaves it."""

    def __init__(self, errors: list[str], result: DrainResult) -> None:
        self.errors = list(errors)
        self.result = result
        super().__init__(aggregate(self.errors))


@dataclass(frozen=True)
class DrainOptions:
    """kubectl drain's flags (pkg/drain's Helper fields); see ``kgen.runtime.kubectl.drain``."""

    force: bool = False
    ignore_daemonsets: bool = False
    delete_emptydir_data: bool = False
    grace_period: int = -1
    timeout: float | None = None
    pod_selector: str | None = None
    disable_eviction: bool = False
    skip_wait_for_delete_timeout: int = 0
    evict_error_retry_delay: float = 5.0
    chunk_size: int = 500
    dry_run: bool = False
    additional_filters: tuple[filters.PodFilter, ...] = ()

    def __post_init__(self) -> None:
        for name in ("force", "ignore_daemonsets", "delete_emptydir_data", "disable_eviction", "dry_run"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name}: expected True or False, got {getattr(self, name)!r}")
        for name in ("grace_period", "skip_wait_for_delete_timeout", "chunk_size"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"{name}: expected whole seconds (an int), got {value!r}")
        if self.timeout is not None and (not isinstance(self.timeout, int | float) or self.timeout < 0):
            raise ValueError(f"timeout: expected seconds >= 0 (None or 0: no timeout), got {self.timeout!r}")
        if not isinstance(self.evict_error_retry_delay, int | float) or self.evict_error_retry_delay < 0:
            raise ValueError(f"evict_error_retry_delay: expected seconds >= 0, got {self.evict_error_retry_delay!r}")
        if not all(callable(f) for f in self.additional_filters):
            raise TypeError(f"additional_filters: expected functions of a pod, got {self.additional_filters!r}")
        if self.chunk_size < 0:
            raise ValueError(f"chunk_size: expected a page size >= 0 (0: one page), got {self.chunk_size}")
        if self.pod_selector is not None:
            try:
                parse(self.pod_selector)
            except (SelectorError, TypeError) as e:
                raise ValueError(f"pod_selector: expected a valid label selector, got {self.pod_selector!r} ({e})") from None


def aggregate(messages: list[str]) -> str:
    """apimachinery's ``utilerrors.NewAggregate(...).Error()``: one message as it is, several
    deduplicated in ``[a, b]``."""
    unique = list(dict.fromkeys(messages))
    if len(messages) == 1 or len(unique) == 1:
        return unique[0] if unique else ""
    return "[" + ", ".join(unique) + "]"


def go_duration(seconds: float) -> str:
    """A duration as Go's ``time.Duration.String()`` writes it: ``5s``, ``1m30s``, ``1.5s``, ``500ms``."""
    ns = min(round(seconds * 1e9), MAX_DURATION_NS)
    sign, ns = ("-" if ns < 0 else ""), abs(ns)
    if ns == 0:
        return "0s"
    if ns < 1_000_000_000:
        scale, unit = next((s, u) for s, u in ((1_000_000, "ms"), (1_000, "µs"), (1, "ns")) if ns >= s)
        return sign + _decimal(ns, scale) + unit
    hours, rest = divmod(ns, 3_600_000_000_000)
    minutes, rest = divmod(rest, 60_000_000_000)
    text = (f"{hours}h" if hours else "") + (f"{minutes}m" if hours or minutes else "")
    return sign + text + _decimal(rest, 1_000_000_000) + "s"


def _decimal(value: int, scale: int) -> str:
    whole, frac = divmod(value, scale)
    digits = str(frac).rjust(len(str(scale)) - 1, "0").rstrip("0") if frac else ""
    return f"{whole}.{digits}" if digits else str(whole)


def _text(error: BaseException) -> str:
    """What Go's ``err.Error()`` prints: an API error's message, else the exception's text."""
    return error.message if isinstance(error, ApiError) else str(error)


def _q(text: str) -> str:
    """Go's %q for the ASCII names kubectl quotes."""
    return json.dumps(text)


def _meta(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    meta: Mapping[str, Any] = obj.get("metadata") or {}
    return meta


def _pod_path(namespace: str, name: str, subresource: str = "") -> str:
    path = f"/api/v1/namespaces/{quote(namespace, safe='')}/pods/{quote(name, safe='')}"
    return f"{path}/{subresource}" if subresource else path


class _Run:
    """One drain's state shared by its pods' loops: options, clocks, the account."""

    def __init__(
        self, node: str, options: DrainOptions, clock: Callable[[], float], wall: Callable[[], datetime.datetime],
        on_output: Callable[[str], None] | None,
    ) -> None:
        self.node, self.options, self.clock, self.wall, self.on_output = node, options, clock, wall, on_output
        self.result = DrainResult(node, dry_run=options.dry_run)
        self.suffix = " (server dry run)" if options.dry_run else ""  # kubectl's printer's, in dry runs
        timeout = options.timeout or 0
        self.timeout_text = go_duration(timeout) if timeout else go_duration(MAX_DURATION_NS / 1e9)
        self.timeout = float(timeout) if timeout else float("inf")
        self.deadline = float("inf")

    def say(self, line: str, pod: PodDrainResult | None = None) -> None:
        """A line kubectl prints: kept in the account (and the pod's), logged, handed on."""
        self.result.output.append(line)
        if pod is not None:
            pod.messages.append(line)
        log.info("%s", line)
        if self.on_output is not None:
            self.on_output(line)

    def delete_options(self) -> dict[str, Any]:
        """kubectl's makeDeleteOptions: the grace period when >= 0, dryRun All for a dry run."""
        options: dict[str, Any] = {"gracePeriodSeconds": self.options.grace_period} if self.options.grace_period >= 0 else {}
        if self.options.dry_run:
            options["dryRun"] = ["All"]
        return options


def drain_steps(
    node: str, options: DrainOptions, *, clock: Callable[[], float], wall: Callable[[], datetime.datetime],
    on_output: Callable[[str], None] | None = None,
) -> Steps[DrainResult]:
    """kubectl drain of one node as steps: cordon, list and filter, evict (or delete) and wait.
    ``clock`` is monotonic seconds, ``wall`` the current UTC time (deletionTimestamps)."""
    run = _Run(node, options, clock, wall, on_output)
    run.result.cordoned = yield from cordon_steps(node, True, dry_run=options.dry_run)
    run.say(f"node/{node} {'cordoned' if run.result.cordoned else 'already cordoned'}{run.suffix}")
    pods: list[Mapping[str, Any]] = list((yield from _list_pods(run)))
    statuses: list[tuple[Mapping[str, Any], filters.PodDeleteStatus]] = []
    for pod in pods:
        statuses.append((pod, (yield from _filter(run, pod))))
    for pod, status in statuses:
        meta = _meta(pod)
        outcome = (DrainOutcome.PENDING if status.delete
                   else DrainOutcome.REFUSED if status.reason == filters.ERROR else DrainOutcome.SKIPPED)
        run.result.pods.append(PodDrainResult(
            str(meta.get("namespace", "")), str(meta.get("name", "")), str(meta.get("uid", "")), outcome,
            status.message, status.message if status.reason == filters.WARNING else "",
        ))
    refusals = filters.errors(statuses)
    if refusals:
        run.result.errors = refusals
        raise DrainError(refusals, run.result)
    run.result.warnings = filters.warnings(statuses)
    if run.result.warnings:
        run.say("Warning: " + "; ".join(run.result.warnings))
    evicting = [(pod, result) for (pod, status), result in zip(statuses, run.result.pods, strict=True) if status.delete]
    if evicting:
        version = None if options.disable_eviction else (yield from _eviction_version(run))
        if version is not None:
            run.deadline = clock() + run.timeout  # kubectl's context, made as the evictions start
            yield from _concurrently([_evict(run, pod, result, version) for pod, result in evicting], clock)
        else:
            yield from _delete(run, evicting)
    if run.result.errors:
        raise DrainError(run.result.errors, run.result)
    run.say(f"node/{node} drained{run.suffix}")
    return run.result


def _list_pods(run: _Run) -> Steps[list[dict[str, Any]]]:
    """The pods bound to the node, page by page (resource.FollowContinue)."""
    node = run.node.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=")  # fields.EscapeValue
    params = [("fieldSelector", f"spec.nodeName={node}")]
    if run.options.pod_selector:
        params.append(("labelSelector", run.options.pod_selector))
    if run.options.chunk_size > 0:
        params.append(("limit", str(run.options.chunk_size)))
    pods: list[dict[str, Any]] = []
    continue_ = ""
    while True:
        page = yield Send(Request("GET", "/api/v1/pods", params + ([("continue", continue_)] if continue_ else [])))
        if isinstance(page, Exception):
            raise page
        pods.extend(page.get("items") or [])
        continue_ = str(_meta(page).get("continue") or "")
        if not continue_:
            return pods


def _filter(run: _Run, pod: Mapping[str, Any]) -> Steps[filters.PodDeleteStatus]:
    """kubectl's filters for ``pod``, reading its DaemonSet when the DaemonSet filter needs it."""
    options = filters.FilterOptions(
        run.options.force, run.options.ignore_daemonsets, run.options.delete_emptydir_data,
        run.options.skip_wait_for_delete_timeout,
    )
    now = run.wall()
    missing: tuple[bool, str] | None = None
    daemon_set = filters.daemon_set_controller(pod)
    if daemon_set is not None and not filters.should_skip_pod(pod, options.skip_wait_for_delete_timeout, now):
        namespace = quote(str(_meta(pod).get("namespace", "")), safe="")
        found = yield Send(Request("GET", f"/apis/apps/v1/namespaces/{namespace}/daemonsets/{quote(daemon_set, safe='')}"))
        if isinstance(found, Exception):
            missing = (isinstance(found, NotFound), _text(found))
    return filters.filter_pod(pod, options, now=now, daemon_set_error=missing, additional=run.options.additional_filters)


def _eviction_version(run: _Run) -> Steps[str | None]:
    """CheckEvictionSupport: the group/version of ``pods/eviction`` in the core v1 discovery, or
    None when the server has no eviction subresource (then pods are deleted)."""
    resources = yield Send(Request("GET", "/api/v1"))
    if isinstance(resources, Exception):
        raise resources
    for resource in resources.get("resources") or []:
        if resource.get("name") == "pods/eviction" and resource.get("kind") == "Eviction" and resource.get("group") \
                and resource.get("version"):
            return f"{resource['group']}/{resource['version']}"
    return None


def _evict(run: _Run, pod: Mapping[str, Any], result: PodDrainResult, version: str) -> Steps[None]:
    """One pod's eviction loop and wait, as kubectl's goroutine in evictPods."""
    deadline = run.deadline
    name, namespace = result.name, result.namespace
    active: Mapping[str, Any] = pod
    delay = run.options.evict_error_retry_delay
    while True:
        run.say(f"evicting pod {namespace}/{name}{run.suffix}", result)
        if run.clock() >= deadline:
            return _fail(run, result, f"error when evicting pods/{_q(name)} -n {_q(namespace)}: global timeout reached: {run.timeout_text}")
        body = {
            "apiVersion": version, "kind": "Eviction", "metadata": {"name": name, "namespace": namespace},
            "deleteOptions": run.delete_options(),
        }
        result.evictions += 1
        reply = yield Send(Request(
            "POST", _pod_path(namespace, name, "eviction"), body=json.dumps(body).encode(), content_type="application/json",
        ))
        if not isinstance(reply, Exception):
            break
        terminating = isinstance(reply, Forbidden) and any(c.reason == "NamespaceTerminating" for c in reply.causes)
        if isinstance(reply, NotFound):
            result.outcome = DrainOutcome.GONE
            return None
        if isinstance(reply, TooManyRequests):
            run.say(
                f"error when evicting pods/{_q(name)} -n {_q(namespace)} (will retry after {go_duration(delay)}): {_text(reply)}",
                result,
            )
            yield Sleep(min(delay, max(0.0, deadline - run.clock())))
        elif terminating and _meta(active).get("deletionTimestamp"):
            break  # the eviction can never succeed, but the pod is being deleted: wait for it
        elif terminating:
            run.say(
                f"error when evicting pod {_q(name)} from terminating namespace {_q(namespace)} "
                f"(will retry after {go_duration(delay)}): {_text(reply)}", result,
            )
            yield Sleep(min(delay, max(0.0, deadline - run.clock())))
        else:
            return _fail(run, result, f"error when evicting pods/{_q(name)} -n {_q(namespace)}: {_text(reply)}")
        fresh = yield Send(Request("GET", _pod_path(namespace, name)))
        if not isinstance(fresh, Exception):
            active = fresh
    if run.options.dry_run:  # accepted; nothing to wait for
        result.outcome = DrainOutcome.EVICTED
        return None
    uid = str(_meta(active).get("uid", ""))
    while True:
        error = yield from _poll_once(run, result, uid, evicted=True)
        if error is not None:
            return _fail(run, result, f"error when waiting for pod {_q(name)} in namespace {_q(namespace)} to terminate: {error}")
        if result.outcome != DrainOutcome.PENDING:
            return None
        if run.clock() + POLL_INTERVAL > deadline:
            yield Sleep(max(0.0, deadline - run.clock()))
            return _fail(run, result, f"error when waiting for pod {_q(name)} in namespace {_q(namespace)} to terminate: "
                                      "context deadline exceeded")
        yield Sleep(POLL_INTERVAL)


def _poll_once(run: _Run, result: PodDrainResult, uid: str, *, evicted: bool) -> Steps[str | None]:
    """One look at a pod being removed (waitForDelete's condition): gone or replaced sets its
    outcome; a pod deleted longer ago than ``skip_wait_for_delete_timeout`` is skipped; an error
    of the read is returned (the wait ends)."""
    verb = "evicted" if evicted else "deleted"
    current = yield Send(Request("GET", _pod_path(result.namespace, result.name)))
    if isinstance(current, NotFound) or (not isinstance(current, Exception) and str(_meta(current).get("uid", "")) != uid):
        result.outcome = DrainOutcome.EVICTED if evicted else DrainOutcome.DELETED
        run.say(f"pod/{result.name} {verb}", result)
        return None
    if isinstance(current, Exception):
        run.say(f"pod/{result.name} {'eviction' if evicted else 'deletion'} failed", result)
        return _text(current)
    seconds = run.options.skip_wait_for_delete_timeout
    if filters.should_skip_pod(current, seconds, run.wall()):
        result.outcome = DrainOutcome.SKIPPED
        result.reason = f"pod {_q(result.name)} has DeletionTimestamp older than {seconds} seconds, skipping"
        run.say(result.reason, result)
    return None


def _fail(run: _Run, result: PodDrainResult, message: str) -> None:
    result.outcome, result.reason = DrainOutcome.FAILED, message
    run.result.errors.append(message)


def _delete(run: _Run, pods: list[tuple[Mapping[str, Any], PodDrainResult]]) -> Steps[None]:
    """deletePods: delete each pod (the first error but a 404 ends the drain), then wait for
    them all together, bounded by the timeout."""
    body = json.dumps({"apiVersion": "v1", "kind": "DeleteOptions", **run.delete_options()}).encode()
    for _, result in pods:
        reply = yield Send(Request("DELETE", _pod_path(result.namespace, result.name), body=body, content_type="application/json"))
        if isinstance(reply, Exception) and not isinstance(reply, NotFound):
            return _fail(run, result, _text(reply))
        if run.options.dry_run:
            result.outcome = DrainOutcome.DELETED
    if run.options.dry_run:  # accepted; nothing to wait for
        return None
    deadline = run.clock() + run.timeout  # the wait's own timeout, from the last deletion on
    waiting = [(str(_meta(pod).get("uid", "")), result) for pod, result in pods]
    while True:
        for uid, result in waiting:
            error = yield from _poll_once(run, result, uid, evicted=False)
            if error is not None:
                return _fail(run, result, error)
        waiting = [(uid, result) for uid, result in waiting if result.outcome == DrainOutcome.PENDING]
        if not waiting:
            return None
        if run.clock() + POLL_INTERVAL > deadline:
            yield Sleep(max(0.0, deadline - run.clock()))
            for _, result in waiting:
                result.outcome, result.reason = DrainOutcome.FAILED, "context deadline exceeded"
            run.result.errors.append("context deadline exceeded")
            return None
        yield Sleep(POLL_INTERVAL)


def _concurrently(works: list[Steps[None]], clock: Callable[[], float]) -> Steps[None]:
    """Runs ``works`` as concurrent loops on one flow of steps: each runs until its next step in
    turn (round-robin), a ``Sleep`` parks it on a timer, and when all sleep the earliest wakes."""
    ready: deque[tuple[int, Any]] = deque((i, None) for i in range(len(works)))
    timers: list[tuple[float, int]] = []
    while ready or timers:
        if not ready:
            wait = timers[0][0] - clock()
            if wait > 0:
                yield Sleep(wait)
            now = clock()
            while timers and timers[0][0] <= now:
                ready.append((heapq.heappop(timers)[1], None))
            continue
        index, value = ready.popleft()
        try:
            step = works[index].send(value)
        except StopIteration:
            continue
        if isinstance(step, Sleep):
            heapq.heappush(timers, (clock() + step.seconds, index))
        else:
            ready.append((index, (yield step)))
