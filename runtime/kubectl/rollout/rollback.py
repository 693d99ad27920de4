"""The pure part of ``kubectl rollout undo`` for Deployments: polymorphichelpers' DeploymentRollbacker
(rollback.go) and the deploymentutil helpers it stands on, over objects as the server's JSON.

A Deployment keeps no history of its own: each template it ever had lives on as a ReplicaSet it
controls, numbered by the ``deployment.kubernetes.io/revision`` annotation. Undo finds the
ReplicaSet of the revision asked for (0: the one before the newest), and replaces the
Deployment's template with it by a JSON patch that also sets the Deployment's annotations to the
ReplicaSet's, but for those that belong to the Deployment itself (its revision, the
last-applied configuration, ...), which are kept. The I/O (get, list, patch) is in
``commands``; what is here decides, so it is tested without a server.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from kgen.runtime.apimachinery.selectors import LabelSelector
from kgen.runtime.kubectl.rollout.status_viewer import revision_of

DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY = "pod-template-hash"
"""The label the deployment controller adds to each ReplicaSet's template (never the Deployment's)."""
ROLLBACK_SUCCESS = "rolled back"
"""What a rollback that patched the Deployment returns (kubectl prints it after the object's name)."""
ROLLBACK_SKIPPED = "skipped rollback"
"""The start of what a rollback that had nothing to change returns (``skipped_message``)."""

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
"""kubectl apply's annotation (corev1.LastAppliedConfigAnnotation): undo keeps it, and warns."""
ANNOTATIONS_TO_SKIP = frozenset({
    LAST_APPLIED,
    "deployment.kubernetes.io/revision",
    "deployment.kubernetes.io/revision-history",
    "deployment.kubernetes.io/desired-replicas",
    "deployment.kubernetes.io/max-replicas",
    "deprecated.deployment.rollback.to",
})
"""Annotations a rollback keeps from the Deployment rather than copying from the ReplicaSet
(rollback.go's annotationsToSkip)."""


class RollbackError(Exception):
    """What kubectl's rollbacker returns as an error, with its message (``kubectl rollout undo``
    prints it after ``error:`` and exits 1)."""


def revision_not_found(to_revision: int) -> RollbackError:
    """kubectl's revisionNotFoundErr."""
    return RollbackError(f"unable to find specified revision {to_revision} in history")


def selector_string(selector: Mapping[str, Any] | None) -> str:
    """A LabelSelector (JSON) as the string a list takes (metav1.LabelSelectorAsSelector): matchLabels
    and matchExpressions, every requirement; "" selects everything."""
    result = LabelSelector()
    for key, value in sorted(((selector or {}).get("matchLabels") or {}).items()):
        result.eq(key, value)
    for expression in (selector or {}).get("matchExpressions") or ():
        key, operator, values = expression.get("key", ""), expression.get("operator", ""), expression.get("values") or []
        if operator == "In":
            result.in_(key, values)
        elif operator == "NotIn":
            result.not_in(key, values)
        elif operator == "Exists":
            result.exists(key)
        elif operator == "DoesNotExist":
            result.does_not_exist(key)
        else:
            raise RollbackError(f'"{operator}" is not a valid label selector operator')
    return str(result)


def is_controlled_by(obj: Mapping[str, Any], owner: Mapping[str, Any]) -> bool:
    """metav1.IsControlledBy: ``obj``'s controller reference names ``owner``'s UID."""
    uid = (owner.get("metadata") or {}).get("uid")
    for ref in (obj.get("metadata") or {}).get("ownerReferences") or ():
        if ref.get("controller") is True:
            return bool(uid) and ref.get("uid") == uid
    return False


def _pruned(value: Any) -> Any:
    """``value`` with empty maps and lists dropped: apiequality.Semantic.DeepEqual holds a nil and an
    empty slice or map equal, and JSON omits one and shows the other."""
    if isinstance(value, Mapping):
        pruned = {k: _pruned(v) for k, v in value.items()}
        return {k: v for k, v in pruned.items() if v not in ({}, [], None)}
    if isinstance(value, list):
        return [_pruned(v) for v in value]
    return value


def without_hash(template: Mapping[str, Any] | None) -> dict[str, Any]:
    """A pod template without the ``pod-template-hash`` label (a deep copy)."""
    copied: dict[str, Any] = copy.deepcopy(dict(template or {}))
    labels = (copied.get("metadata") or {}).get("labels")
    if isinstance(labels, dict):
        labels.pop(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, None)
    return copied


def equal_ignore_hash(template1: Mapping[str, Any] | None, template2: Mapping[str, Any] | None) -> bool:
    """deploymentutil's EqualIgnoreHash: the two pod templates are the same but for the hash label."""
    return bool(_pruned(without_hash(template1)) == _pruned(without_hash(template2)))


def owned_replica_sets(deployment: Mapping[str, Any], replica_sets: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The ReplicaSets the Deployment controls, of those its selector listed (listReplicaSets)."""
    return [rs for rs in replica_sets if is_controlled_by(rs, deployment)]


def replica_set_for_revision(
    deployment: Mapping[str, Any], replica_sets: Iterable[Mapping[str, Any]], to_revision: int
) -> Mapping[str, Any]:
    """The ReplicaSet of revision ``to_revision`` among the Deployment's (rollback.go's
    deploymentRevision); 0: the second newest revision. ReplicaSets with an unreadable revision
    are passed over, as kubectl passes them."""
    latest: Mapping[str, Any] | None = None
    latest_revision = -1
    previous: Mapping[str, Any] | None = None
    previous_revision = -1
    for rs in replica_sets:
        try:
            v = revision_of(rs)
        except ValueError:
            continue
        if to_revision == 0:
            if latest_revision < v:
                previous, previous_revision = latest, latest_revision
                latest, latest_revision = rs, v
            elif previous_revision < v:
                previous, previous_revision = rs, v
        elif to_revision == v:
            return rs
    if to_revision > 0:
        raise revision_not_found(to_revision)
    if previous is None:
        name = (deployment.get("metadata") or {}).get("name", "")
        raise RollbackError(f'no rollout history found for deployment "{name}"')
    return previous


def rollback_annotations(deployment: Mapping[str, Any], replica_set: Mapping[str, Any]) -> dict[str, str]:
    """The Deployment's annotations after the rollback: its own of ``ANNOTATIONS_TO_SKIP``, and the
    ReplicaSet's others."""
    own = (deployment.get("metadata") or {}).get("annotations") or {}
    annotations = {k: v for k, v in own.items() if k in ANNOTATIONS_TO_SKIP}
    for k, v in ((replica_set.get("metadata") or {}).get("annotations") or {}).items():
        if k not in ANNOTATIONS_TO_SKIP:
            annotations[k] = v
    return annotations


def rollback_patch(deployment: Mapping[str, Any], replica_set: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The JSON patch kubectl sends (getDeploymentPatch): replace ``/spec/template`` with the
    ReplicaSet's template without its hash label, and ``/metadata/annotations`` with
    ``rollback_annotations``."""
    return [
        {"op": "replace", "path": "/spec/template", "value": without_hash((replica_set.get("spec") or {}).get("template"))},
        {"op": "replace", "path": "/metadata/annotations", "value": rollback_annotations(deployment, replica_set)},
    ]


def skipped_message(to_revision: int) -> str:
    """The result when the template already is the revision's (``to_revision`` as asked: 0 stays 0,
    as kubectl prints it)."""
    return f"{ROLLBACK_SKIPPED} (current template already matches revision {to_revision})"
