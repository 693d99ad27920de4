"""Rollout status as kubectl computes it: polymorphichelpers' StatusViewers (rollout_status.go)
for Deployments, DaemonSets and StatefulSets, and deploymentutil's condition and revision helpers.

Each viewer is a pure function from one object (a typed model, or a dict as the server sent it,
which is how kubectl reads it: unstructured, then converted) to ``(message, done)``, and raises
``RolloutStatusError`` with kubectl's message where kubectl's viewer returns an error (a progress
deadline exceeded, a revision that is not the running one, an OnDelete update strategy). The
messages are kubectl's byte for byte, without the line end kubectl prints after each, so
``kubectl rollout status`` and a loop printing these show the same lines. The rules are kubectl's
too: a Deployment is judged only once its controller has observed its generation, a StatefulSet
with a partition is done when the pods above the partition are updated, and so on; reading them
here rather than re-deriving them keeps kgen's "done" the same moment as kubectl's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from kgen.runtime.apimachinery.model import Model

REVISION_ANNOTATION = "deployment.kubernetes.io/revision"
"""The revision the deployment controller writes on a Deployment and its ReplicaSets
(deploymentutil.RevisionAnnotation)."""
TIMED_OUT_REASON = "ProgressDeadlineExceeded"
"""The Progressing condition's reason once a Deployment exceeded progressDeadlineSeconds."""

StatusViewer = Callable[[Model | Mapping[str, Any], int], tuple[str, bool]]
"""A viewer: the object (a model, or its JSON as dicts) and the revision asked for, to
``(message, done)``."""
_DECIMAL = re.compile(r"[+-]?[0-9]+")


class RolloutStatusError(Exception):
    """What kubectl's status viewer returns as an error (``kubectl rollout status`` prints it after
    ``error:`` and exits 1): the rollout failed or cannot be watched this way. ``done`` is the
    viewer's flag beside the error (True for an OnDelete strategy: there is nothing to wait for)."""

    def __init__(self, message: str, done: bool = False) -> None:
        super().__init__(message)
        self.done = done


def as_json(obj: Model | Mapping[str, Any]) -> Mapping[str, Any]:
    """``obj`` as the server's JSON: a model's ``to_dict()``, a mapping as it is."""
    return obj.to_dict() if isinstance(obj, Model) else obj


def group_kind(obj: Model | Mapping[str, Any]) -> tuple[str, str]:
    """``(group, kind)`` of a typed model (its class's) or of a dict (its apiVersion and kind)."""
    if isinstance(obj, Model):
        api_version, kind = type(obj).API_VERSION or "", type(obj).KIND or ""
    else:
        api_version, kind = str(obj.get("apiVersion") or ""), str(obj.get("kind") or "")
    return (api_version.rpartition("/")[0], kind)


def _get(obj: Mapping[str, Any], *path: str) -> Any:
    for key in path:
        if not isinstance(obj, Mapping):
            return None
        obj = obj.get(key)  # type: ignore[assignment]
    return obj


def _int(obj: Mapping[str, Any], *path: str) -> int:
    """An integer field, 0 when absent (Go's zero value after the unstructured conversion)."""
    value = _get(obj, *path)
    return int(value) if isinstance(value, int) else 0


def _optional_int(obj: Mapping[str, Any], *path: str) -> int | None:
    """An integer pointer field: None when absent."""
    value = _get(obj, *path)
    return int(value) if isinstance(value, int) else None


def _str(obj: Mapping[str, Any], *path: str) -> str:
    value = _get(obj, *path)
    return value if isinstance(value, str) else ""


def _quote(name: str) -> str:
    """Go's %q of a Kubernetes name (names are DNS labels and subdomains: nothing to escape)."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def get_deployment_condition(status: Mapping[str, Any] | None, cond_type: str) -> Mapping[str, Any] | None:
    """The first condition of ``cond_type`` in a Deployment's status, or None
    (deploymentutil.GetDeploymentCondition)."""
    for condition in (status or {}).get("conditions") or ():
        if isinstance(condition, Mapping) and condition.get("type") == cond_type:
            return condition
    return None


def revision_of(obj: Model | Mapping[str, Any]) -> int:
    """The ``deployment.kubernetes.io/revision`` annotation as an integer, 0 when absent
    (deploymentutil.Revision); ``ValueError`` with strconv.ParseInt's message when it is not one."""
    value = _get(as_json(obj), "metadata", "annotations", REVISION_ANNOTATION)
    if value is None:
        return 0
    text = str(value)
    if not _DECIMAL.fullmatch(text):
        raise ValueError(f"strconv.ParseInt: parsing {_quote(text)}: invalid syntax")
    number = int(text, 10)
    if not -(2**63) <= number < 2**63:
        raise ValueError(f"strconv.ParseInt: parsing {_quote(text)}: value out of range")
    return number


def deployment_status(obj: Model | Mapping[str, Any], revision: int = 0) -> tuple[str, bool]:
    """kubectl's DeploymentStatusViewer: ``revision`` > 0 asks for that revision to be the running
    one."""
    d = as_json(obj)
    name = _str(d, "metadata", "name")
    if revision > 0:
        try:
            running = revision_of(d)
        except ValueError as e:
            raise RolloutStatusError(f"cannot get the revision of deployment {_quote(name)}: {e}") from None
        if revision != running:
            raise RolloutStatusError(f"desired revision ({revision}) is different from the running revision ({running})")
    if _int(d, "metadata", "generation") <= _int(d, "status", "observedGeneration"):
        cond = get_deployment_condition(_get(d, "status"), "Progressing")
        if cond is not None and cond.get("reason") == TIMED_OUT_REASON:
            raise RolloutStatusError(f"deployment {_quote(name)} exceeded its progress deadline")
        replicas = _optional_int(d, "spec", "replicas")
        updated = _int(d, "status", "updatedReplicas")
        if replicas is not None and updated < replicas:
            return (f"Waiting for deployment {_quote(name)} rollout to finish: "
                    f"{updated} out of {replicas} new replicas have been updated...", False)
        current = _int(d, "status", "replicas")
        if current > updated:
            return (f"Waiting for deployment {_quote(name)} rollout to finish: "
                    f"{current - updated} old replicas are pending termination...", False)
        available = _int(d, "status", "availableReplicas")
        if available < updated:
            return (f"Waiting for deployment {_quote(name)} rollout to finish: "
                    f"{available} of {updated} updated replicas are available...", False)
        return (f"deployment {_quote(name)} successfully rolled out", True)
    return ("Waiting for deployment spec update to be observed...", False)


def daemon_set_status(obj: Model | Mapping[str, Any], revision: int = 0) -> tuple[str, bool]:
    """kubectl's DaemonSetStatusViewer (``revision`` is ignored, as kubectl ignores it)."""
    ds = as_json(obj)
    name = _str(ds, "metadata", "name")
    if _str(ds, "spec", "updateStrategy", "type") != "RollingUpdate":
        raise RolloutStatusError("rollout status is only available for RollingUpdate strategy type", done=True)
    if _int(ds, "metadata", "generation") <= _int(ds, "status", "observedGeneration"):
        desired = _int(ds, "status", "desiredNumberScheduled")
        updated = _int(ds, "status", "updatedNumberScheduled")
        if updated < desired:
            return (f"Waiting for daemon set {_quote(name)} rollout to finish: "
                    f"{updated} out of {desired} new pods have been updated...", False)
        available = _int(ds, "status", "numberAvailable")
        if available < desired:
            return (f"Waiting for daemon set {_quote(name)} rollout to finish: "
                    f"{available} of {desired} updated pods are available...", False)
        return (f"daemon set {_quote(name)} successfully rolled out", True)
    return ("Waiting for daemon set spec update to be observed...", False)


def stateful_set_status(obj: Model | Mapping[str, Any], revision: int = 0) -> tuple[str, bool]:
    """kubectl's StatefulSetStatusViewer: the partition rule of a RollingUpdate with a
    ``rollingUpdate`` block, else the update and current revisions (``revision`` is ignored)."""
    sts = as_json(obj)
    if _str(sts, "spec", "updateStrategy", "type") != "RollingUpdate":
        raise RolloutStatusError("rollout status is only available for RollingUpdate strategy type", done=True)
    observed = _int(sts, "status", "observedGeneration")
    if observed == 0 or _int(sts, "metadata", "generation") > observed:
        return ("Waiting for statefulset spec update to be observed...", False)
    replicas = _optional_int(sts, "spec", "replicas")
    ready = _int(sts, "status", "readyReplicas")
    if replicas is not None and ready < replicas:
        return (f"Waiting for {replicas - ready} pods to be ready...", False)
    updated = _int(sts, "status", "updatedReplicas")
    if isinstance(_get(sts, "spec", "updateStrategy", "rollingUpdate"), Mapping):
        partition = _optional_int(sts, "spec", "updateStrategy", "rollingUpdate", "partition")
        if replicas is not None and partition is not None and updated < replicas - partition:
            return (f"Waiting for partitioned roll out to finish: {updated} out of {replicas - partition} "
                    "new pods have been updated...", False)
        return (f"partitioned roll out complete: {updated} new pods have been updated...", True)
    update_revision = _str(sts, "status", "updateRevision")
    current_revision = _str(sts, "status", "currentRevision")
    if update_revision != current_revision:
        return (f"waiting for statefulset rolling update to complete {updated} pods at revision "
                f"{update_revision}...", False)
    return (f"statefulset rolling update complete {_int(sts, 'status', 'currentReplicas')} pods at revision "
            f"{current_revision}...", True)


_VIEWERS: dict[tuple[str, str], StatusViewer] = {
    ("apps", "Deployment"): deployment_status,
    ("extensions", "Deployment"): deployment_status,
    ("apps", "DaemonSet"): daemon_set_status,
    ("extensions", "DaemonSet"): daemon_set_status,
    ("apps", "StatefulSet"): stateful_set_status,
}


def status_viewer_for(group: str, kind: str) -> StatusViewer:
    """The viewer of a group and kind (polymorphichelpers.StatusViewerFor); ``RolloutStatusError``
    with kubectl's message for a kind that has none."""
    viewer = _VIEWERS.get((group, kind))
    if viewer is None:
        raise RolloutStatusError(f"no status viewer has been implemented for {kind}.{group}" if group else
                                 f"no status viewer has been implemented for {kind}")
    return viewer


def rollout_status_of(obj: Model | Mapping[str, Any], revision: int = 0) -> tuple[str, bool]:
    """``(message, done)`` of a Deployment, DaemonSet or StatefulSet, by the viewer of its kind."""
    return status_viewer_for(*group_kind(obj))(obj, revision)
