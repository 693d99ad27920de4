"""Which pods a drain may remove, and why not (k8s.io/kubectl/pkg/drain, filters.go).

A drain lists the pods bound to the node and passes each through kubectl's filters, in
kubectl's order: deleted long ago (``skip_wait_for_delete_timeout``), DaemonSet-managed,
mirror, local storage (emptyDir), no controller. The first filter that does not let the pod
go decides; otherwise the last filter's status stands, which is why the "deleting Pods with
local storage" warning of a replicated pod is dropped by the unreplicated filter after it, as
in kubectl (its own TODO says so).

A status is one of kubectl's four reasons: Okay (evict), Skip (leave it, silently), Warning
(evict or leave it, with a message shown once per message with the pods it covers) and Error
(the whole drain is refused, ``cannot delete <message>: ns/a, ns/b``). A Skip carries a short
explanation of this package's own, for the per-pod result; kubectl prints nothing for it. The messages are
kubectl's, byte for byte: callers compare them with kubectl drain's output.

The filters read the pod as the apiserver's JSON (a dict), so that any generated package (or
none) can drain. The DaemonSet filter needs to know whether the pod's DaemonSet still exists;
the drain core looks it up and hands the answer in (``daemon_set_error``), so that these
functions stay free of I/O.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DAEMON_SET_FATAL", "DAEMON_SET_WARNING", "FilterOptions", "LOCAL_STORAGE_FATAL", "LOCAL_STORAGE_WARNING",
    "MIRROR_POD_ANNOTATION", "PodDeleteStatus", "PodFilter", "UNMANAGED_FATAL", "UNMANAGED_WARNING", "controller_of",
    "daemon_set_controller", "errors", "filter_pod", "should_skip_pod", "warnings",
]

DAEMON_SET_FATAL = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
"""Refuses a DaemonSet's pod without ``ignore_daemonsets``: its controller would put it back."""
DAEMON_SET_WARNING = "ignoring DaemonSet-managed Pods"
"""Skips a DaemonSet's pod with ``ignore_daemonsets``."""
LOCAL_STORAGE_FATAL = "Pods with local storage (use --delete-emptydir-data to override)"
"""Refuses a pod with an emptyDir volume (its data dies with it) without ``delete_emptydir_data``."""
LOCAL_STORAGE_WARNING = "deleting Pods with local storage"
"""A pod with an emptyDir volume goes, with ``delete_emptydir_data`` (a later filter drops it)."""
UNMANAGED_FATAL = "Pods that declare no controller (use --force to override)"
"""Refuses a pod no controller would recreate, without ``force``. kubectl v0.34 and v0.35 began
it with "cannot delete " too, so their message read "cannot delete cannot delete ..."."""
UNMANAGED_WARNING = "deleting Pods that declare no controller"
"""A pod no controller would recreate goes, with ``force``."""
MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror"
"""A static pod's mirror in the API carries this annotation (core/v1 MirrorPodAnnotationKey)."""

OKAY, SKIP, WARNING, ERROR = "Okay", "Skip", "Warning", "Error"


@dataclass(frozen=True)
class PodDeleteStatus:
    """What the filters decided for one pod: ``delete`` it or not, kubectl's ``reason`` (Okay,
    Skip, Warning, Error) and the warning or error ``message``."""

    delete: bool
    reason: str
    message: str = ""

    @classmethod
    def okay(cls) -> PodDeleteStatus:
        """Let the pod go (kubectl's MakePodDeleteStatusOkay)."""
        return cls(True, OKAY)

    @classmethod
    def skip(cls, explanation: str = "") -> PodDeleteStatus:
        """Leave the pod, silently (MakePodDeleteStatusSkip); ``explanation`` for the result only."""
        return cls(False, SKIP, explanation)

    @classmethod
    def warning(cls, delete: bool, message: str) -> PodDeleteStatus:
        """Let it go or leave it, listed under ``message`` in the drain's warning
        (MakePodDeleteStatusWithWarning)."""
        return cls(delete, WARNING, message)

    @classmethod
    def error(cls, message: str) -> PodDeleteStatus:
        """Refuse the whole drain: ``cannot delete <message>: ns/pod`` (MakePodDeleteStatusWithError)."""
        return cls(False, ERROR, message)


PodFilter = Callable[[Mapping[str, Any]], PodDeleteStatus]
"""A filter of one's own (kubectl's ``PodFilter``): the pod as the apiserver's JSON, its status."""


@dataclass(frozen=True)
class FilterOptions:
    """The drain options the filters read (kubectl's Helper fields of the same names)."""

    force: bool = False
    ignore_daemonsets: bool = False
    delete_emptydir_data: bool = False
    skip_wait_for_delete_timeout: int = 0


_OKAY = PodDeleteStatus(True, OKAY)


def _finished(pod: Mapping[str, Any]) -> bool:
    """A pod that has run to completion (Succeeded or Failed): any filter lets it go."""
    return (pod.get("status") or {}).get("phase") in ("Succeeded", "Failed")


def controller_of(pod: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The owner reference marked ``controller: true`` (metav1.GetControllerOf), if any."""
    for ref in (pod.get("metadata") or {}).get("ownerReferences") or []:
        if ref.get("controller") is True:
            return dict(ref)
    return None


def daemon_set_controller(pod: Mapping[str, Any]) -> str | None:
    """The name of the apps/v1 DaemonSet controlling ``pod`` when the DaemonSet filter must
    look it up (an unfinished pod), else None."""
    ref = controller_of(pod)
    if ref is None or ref.get("kind") != "DaemonSet" or ref.get("apiVersion") != "apps/v1" or _finished(pod):
        return None
    return str(ref.get("name") or "")


def _timestamp(text: str) -> datetime.datetime | None:
    try:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def should_skip_pod(pod: Mapping[str, Any], skip_seconds: int, now: datetime.datetime) -> bool:
    """kubectl's shouldSkipPod: ``skip_seconds`` > 0 and the pod was marked deleted more than
    that many whole seconds before ``now`` (a wall-clock time, as the deletionTimestamp is)."""
    stamp = (pod.get("metadata") or {}).get("deletionTimestamp")
    when = _timestamp(stamp) if skip_seconds > 0 and stamp else None
    return when is not None and int((now - when).total_seconds()) > skip_seconds


def _skip_deleted(pod: Mapping[str, Any], options: FilterOptions, now: datetime.datetime) -> PodDeleteStatus:
    if should_skip_pod(pod, options.skip_wait_for_delete_timeout, now):
        return PodDeleteStatus(False, SKIP, f"deleted more than {options.skip_wait_for_delete_timeout} seconds ago")
    return _OKAY


def _daemon_set(pod: Mapping[str, Any], options: FilterOptions, daemon_set_error: tuple[bool, str] | None) -> PodDeleteStatus:
    """``daemon_set_error``: None if the DaemonSet was found, else (not found?, the error's text)."""
    if daemon_set_controller(pod) is None:
        return _OKAY
    if daemon_set_error is not None:
        not_found, text = daemon_set_error
        if not_found and options.force:  # an orphan: removed, with the lookup's error as warning
            return PodDeleteStatus(True, WARNING, text)
        return PodDeleteStatus(False, ERROR, text)
    if not options.ignore_daemonsets:
        return PodDeleteStatus(False, ERROR, DAEMON_SET_FATAL)
    return PodDeleteStatus(False, WARNING, DAEMON_SET_WARNING)


def _mirror(pod: Mapping[str, Any]) -> PodDeleteStatus:
    if MIRROR_POD_ANNOTATION in ((pod.get("metadata") or {}).get("annotations") or {}):
        return PodDeleteStatus(False, SKIP, "a mirror pod (its static pod belongs to the node's kubelet)")
    return _OKAY


def _local_storage(pod: Mapping[str, Any], options: FilterOptions) -> PodDeleteStatus:
    volumes = (pod.get("spec") or {}).get("volumes") or []
    if not any(v.get("emptyDir") is not None for v in volumes) or _finished(pod):
        return _OKAY
    if not options.delete_emptydir_data:
        return PodDeleteStatus(False, ERROR, LOCAL_STORAGE_FATAL)
    return PodDeleteStatus(True, WARNING, LOCAL_STORAGE_WARNING)


def _unreplicated(pod: Mapping[str, Any], options: FilterOptions) -> PodDeleteStatus:
    if _finished(pod) or controller_of(pod) is not None:
        return _OKAY
    if options.force:
        return PodDeleteStatus(True, WARNING, UNMANAGED_WARNING)
    return PodDeleteStatus(False, ERROR, UNMANAGED_FATAL)


def filter_pod(
    pod: Mapping[str, Any], options: FilterOptions, *, now: datetime.datetime,
    daemon_set_error: tuple[bool, str] | None = None, additional: Sequence[PodFilter] = (),
) -> PodDeleteStatus:
    """kubectl's filterPods for one pod: the filters in kubectl's order, then the ``additional``
    ones (Helper.AdditionalFilters), stopping at the first that keeps the pod; the last status
    computed is the pod's."""
    steps: list[Callable[[], PodDeleteStatus]] = [
        lambda: _skip_deleted(pod, options, now),
        lambda: _daemon_set(pod, options, daemon_set_error),
        lambda: _mirror(pod),
        lambda: _local_storage(pod, options),
        lambda: _unreplicated(pod, options),
    ]
    steps += [functools.partial(_own, f, pod) for f in additional]
    status = _OKAY
    for step in steps:
        status = step()
        if not status.delete:
            break
    return status


def _own(pod_filter: PodFilter, pod: Mapping[str, Any]) -> PodDeleteStatus:
    status = pod_filter(pod)
    if not isinstance(status, PodDeleteStatus):
        raise TypeError(f"additional_filters: {pod_filter!r} returned {status!r}, expected a PodDeleteStatus")
    return status


def _key(pod: Mapping[str, Any]) -> str:
    metadata = pod.get("metadata") or {}
    return f"{metadata.get('namespace', '')}/{metadata.get('name', '')}"


def _group(statuses: list[tuple[Mapping[str, Any], PodDeleteStatus]], reason: str, default: str = "") -> dict[str, list[str]]:
    """Pods by message, for the statuses of ``reason``; messages in first-seen order (kubectl
    walks a Go map, in no fixed order), pods in list order."""
    grouped: dict[str, list[str]] = {}
    for pod, status in statuses:
        if status.reason == reason:
            grouped.setdefault(status.message or default, []).append(_key(pod))
    return grouped


def warnings(statuses: list[tuple[Mapping[str, Any], PodDeleteStatus]]) -> list[str]:
    """kubectl's PodDeleteList.Warnings, one item per message: ``<message>: ns/a, ns/b``
    (kubectl joins them with ``"; "`` after ``Warning: ``)."""
    return [f"{message}: {', '.join(pods)}" for message, pods in _group(statuses, WARNING).items()]


def errors(statuses: list[tuple[Mapping[str, Any], PodDeleteStatus]]) -> list[str]:
    """kubectl's PodDeleteList.errors: ``cannot delete <message>: ns/a, ns/b`` per message."""
    grouped = _group(statuses, ERROR, "unexpected error")
    return [f"cannot delete {message}: {', '.join(pods)}" for message, pods in grouped.items()]
