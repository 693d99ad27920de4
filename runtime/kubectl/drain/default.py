"""``drain``: kubectl drain's entry point (pkg/drain's default.go, RunNodeDrain); the package's
docstring says what it does. It validates the options, builds the drain's steps (core.py) and
runs them on this thread or, for an asyncio clientset, as a coroutine (steps.py)."""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, overload

from kgen.runtime.kubectl.drain.filters import PodFilter
from kgen.runtime.kubectl.drain.steps import AsyncClientsetLike, ClientsetLike, arun, run
from kgen.runtime.kubectl.drain.core import (
    DrainOptions,
    DrainResult,
    drain_steps,
)
from kgen.runtime.rest.client import AsyncRESTClient

__all__ = ["drain"]


def _utcnow() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


@overload
def drain(
    cs: ClientsetLike, node: str, *, force: bool = False, ignore_daemonsets: bool = False,
    delete_emptydir_data: bool = False, grace_period: int = -1, timeout: float | None = None,
    pod_selector: str | None = None, disable_eviction: bool = False, skip_wait_for_delete_timeout: int = 0,
    evict_error_retry_delay: float = 5.0, chunk_size: int = 500, dry_run: bool = False,
    additional_filters: Sequence[PodFilter] = (), on_output: Callable[[str], None] | None = None,
) -> DrainResult: ...
@overload
def drain(
    cs: AsyncClientsetLike, node: str, *, force: bool = False, ignore_daemonsets: bool = False,
    delete_emptydir_data: bool = False, grace_period: int = -1, timeout: float | None = None,
    pod_selector: str | None = None, disable_eviction: bool = False, skip_wait_for_delete_timeout: int = 0,
    evict_error_retry_delay: float = 5.0, chunk_size: int = 500, dry_run: bool = False,
    additional_filters: Sequence[PodFilter] = (), on_output: Callable[[str], None] | None = None,
) -> Coroutine[Any, Any, DrainResult]: ...
def drain(
    cs: ClientsetLike | AsyncClientsetLike, node: str, *, force: bool = False, ignore_daemonsets: bool = False,
    delete_emptydir_data: bool = False, grace_period: int = -1, timeout: float | None = None,
    pod_selector: str | None = None, disable_eviction: bool = False, skip_wait_for_delete_timeout: int = 0,
    evict_error_retry_delay: float = 5.0, chunk_size: int = 500, dry_run: bool = False,
    additional_filters: Sequence[PodFilter] = (), on_output: Callable[[str], None] | None = None,
) -> DrainResult | Coroutine[Any, Any, DrainResult]:
    """Cordons Node ``node`` and evicts its pods as ``kubectl drain`` with the same flags; the
    account of each pod, or ``DrainError`` (see the package's docstring). With an asyncio
    clientset, a coroutine to await."""
    if not isinstance(node, str) or not node or "/" in node:
        raise ValueError(f"node: expected the name of a Node, got {node!r}")
    options = DrainOptions(
        force=force, ignore_daemonsets=ignore_daemonsets, delete_emptydir_data=delete_emptydir_data,
        grace_period=grace_period, timeout=timeout, pod_selector=pod_selector, disable_eviction=disable_eviction,
        skip_wait_for_delete_timeout=skip_wait_for_delete_timeout, evict_error_retry_delay=evict_error_retry_delay,
        chunk_size=chunk_size, dry_run=dry_run, additional_filters=tuple(additional_filters),
    )
    steps = drain_steps(node, options, clock=time.monotonic, wall=_utcnow, on_output=on_output)
    return arun(cs.rest, steps) if isinstance(cs.rest, AsyncRESTClient) else run(cs.rest, steps)
