"""kubectl drain and cordon, typed: with a Clientset the functions return their results, with an
AsyncClientset coroutines of the same results (same names, awaited); the per-pod account and
the error's are typed; mistakes in the keywords, and forgetting the await, are caught."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, assert_type

from kgen.kubernetes import AsyncClientset, Clientset
from kgen.runtime.kubectl import DrainError, DrainOutcome, DrainResult, PodDrainResult, cordon, drain, uncordon
from kgen.runtime.kubectl.drain import PodDeleteStatus


def is_database(pod: Mapping[str, Any]) -> bool:
    return (pod["metadata"].get("labels") or {}).get("tier") == "db"


def keep_databases(pod: Mapping[str, Any]) -> PodDeleteStatus:
    if (pod["metadata"].get("labels") or {}).get("tier") == "db":
        return PodDeleteStatus.error("Pods of the db tier")
    return PodDeleteStatus.okay()


def maintenance(cs: Clientset, node: str) -> list[str]:
    assert_type(cordon(cs, node), bool)
    preview = drain(cs, node, dry_run=True, force=True, additional_filters=[keep_databases])
    assert_type(preview.dry_run, bool)
    try:
        result = drain(cs, node, ignore_daemonsets=True, delete_emptydir_data=True, grace_period=30, timeout=300,
                       pod_selector="tier!=critical", on_output=print)
    except DrainError as error:
        assert_type(error.result, DrainResult)
        assert_type(error.errors, list[str])
        return [f"{p.key}: {p.reason}" for p in error.result.with_outcome(DrainOutcome.REFUSED)]
    assert_type(result, DrainResult)
    for pod in result.pods:
        assert_type(pod, PodDrainResult)
        assert_type(pod.outcome, DrainOutcome)
        assert_type(pod.messages, list[str])
        assert_type(pod.evictions, int)
    evicted = [p.key for p in result.with_outcome("evicted")]
    assert_type(uncordon(cs, node), bool)
    return evicted + result.warnings


async def on_asyncio(acs: AsyncClientset, node: str) -> int:
    assert_type(await cordon(acs, node, dry_run=True), bool)
    result = await drain(acs, node, force=True, disable_eviction=True, skip_wait_for_delete_timeout=60)
    assert_type(result, DrainResult)
    await uncordon(acs, node)
    return len(result.with_outcome(DrainOutcome.DELETED))


def mistakes(cs: Clientset, acs: AsyncClientset, node: str) -> None:
    drain(cs, node, ignore_daemonset=True)  # E: call-overload
    drain(cs, node, timeout="5m")  # E: call-overload
    drain(cs, node, True)  # E: call-overload
    drain(cs, node, additional_filters=[is_database])  # E: list-item
    result: DrainResult = drain(acs, node)  # E: assignment
    print(result.pods[0].outcome == "evicted", result.node)
