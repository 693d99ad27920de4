"""kubectl rollout and scale from Python, typed: the same names on a sync and an async client,
the result typed in the client's model (restart returns the Deployment, scale the Scale), messages
as str; what does not fit is refused (a Pods client has no scale subresource, replicas is an int)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import assert_type

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.kubernetes.models.apps.v1 import Deployment, StatefulSet
from kgen.kubernetes.models.autoscaling.v1 import Scale
from kgen.runtime.kubectl import (
    RollbackError,
    RolloutStatusError,
    RolloutTimeout,
    ScalePreconditionError,
    restart,
    rollout_status,
    rollout_status_of,
    scale,
    undo,
)


def sync_rollout(cs: Clientset) -> None:
    deployments = cs.apps_v1.deployments("prod")
    assert_type(rollout_status(deployments, "web", timeout=120), Iterator[str])
    try:
        for message in rollout_status(deployments, "web", revision=3, timeout=120):
            print(message.upper())
    except RolloutStatusError as e:
        print("failed:", e)
    except RolloutTimeout as e:
        print("still waiting at:", e.last_message)

    web = restart(deployments, "web")
    assert_type(web, Deployment)
    db = restart(cs.apps_v1.stateful_sets("prod"), "db")
    assert_type(db, StatefulSet)

    try:
        stored = scale(deployments, "web", 5, current_replicas=3)
        assert_type(stored, Scale)
    except ScalePreconditionError as e:
        print(e.expected, e.actual)

    try:
        result = undo(deployments, "web", to_revision=1)
        assert_type(result, str)
    except RollbackError as e:
        print(e)

    message, done = rollout_status_of(web)
    assert_type(message, str)
    assert_type(done, bool)


async def async_rollout(acs: AsyncClientset) -> None:
    deployments = acs.apps_v1.deployments("prod")
    assert_type(rollout_status(deployments, "web"), AsyncIterator[str])
    async for message in rollout_status(deployments, "web", timeout=120):
        print(message)
    assert_type(await restart(deployments, "web"), Deployment)
    assert_type(await scale(deployments, "web", 2), Scale)
    assert_type(await undo(deployments, "web"), str)


def mistakes(cs: Clientset) -> None:
    scale(cs.core_v1.pods("prod"), "web", 2)  # E: call-overload
    scale(cs.apps_v1.deployments("prod"), "web", "2")  # E: call-overload
    rollout_status(cs.apps_v1.deployments("prod"), "web", timeout="60s")  # E: call-overload
