"""The steps cordon and drain are written in, and the two drivers that run them.

A workflow is a generator that yields ``Send`` (an API call) and ``Sleep`` (a wait) and returns
its result: the whole logic, free of I/O, shared by the thread flavour (``run``, with a
``RESTClient``) and the asyncio flavour (``arun``, with an ``AsyncRESTClient``), which differ
only in how they send and wait (the workqueue's and the leader elector's pattern). A ``Send`` is
answered with the decoded JSON body (a dict; {} for an empty one) or with the exception the call
raised (an ``ApiError``, or httpx's ``TransportError`` once the REST client's own retries are
spent): the workflow decides what an error means, as kubectl does per pod.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import httpx
import msgspec

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient

__all__ = ["AsyncClientsetLike", "ClientsetLike", "Reply", "Send", "Sleep", "Step", "Steps", "arun", "run"]

T = TypeVar("T")


class ClientsetLike(Protocol):
    """A typed clientset of any generated package (or its fake): what the workflows need of it."""

    @property
    def rest(self) -> RESTClient:
        """The REST client the clientset sends with."""


class AsyncClientsetLike(Protocol):
    """An asyncio typed clientset of any generated package (or its fake)."""

    @property
    def rest(self) -> AsyncRESTClient:
        """The asyncio REST client the clientset sends with."""


@dataclass(frozen=True)
class Send:
    """Send ``request``; the workflow is resumed with its ``Reply``."""

    request: Request


@dataclass(frozen=True)
class Sleep:
    """Wait ``seconds`` (monotonic); the workflow is resumed with None."""

    seconds: float


Step = Send | Sleep
"""What a workflow yields."""
Reply = dict[str, Any] | ApiError | httpx.TransportError
"""What a ``Send`` gets back: the answer's JSON object, or the error of the call."""
Steps = Generator[Step, Any, T]
"""A workflow returning ``T``."""


def _decode(response: httpx.Response) -> dict[str, Any]:
    if not response.content:
        return {}
    body = msgspec.json.decode(response.content)
    return body if isinstance(body, dict) else {}


def run(rest: RESTClient, steps: Steps[T]) -> T:
    """Runs ``steps`` on this thread: sends with ``rest``, sleeps with ``time.sleep``."""
    value: Any = None
    while True:
        try:
            step = steps.send(value)
        except StopIteration as stop:
            result: T = stop.value
            return result
        if isinstance(step, Sleep):
            time.sleep(max(0.0, step.seconds))
            value = None
            continue
        try:
            value = _decode(rest.send(step.request))
        except (ApiError, httpx.TransportError) as e:
            value = e


async def arun(rest: AsyncRESTClient, steps: Steps[T]) -> T:
    """Runs ``steps`` on the running event loop: sends with ``rest``, sleeps with ``asyncio.sleep``."""
    value: Any = None
    while True:
        try:
            step = steps.send(value)
        except StopIteration as stop:
            result: T = stop.value
            return result
        if isinstance(step, Sleep):
            await asyncio.sleep(max(0.0, step.seconds))
            value = None
            continue
        try:
            value = _decode(await rest.send(step.request))
        except (ApiError, httpx.TransportError) as e:
            value = e
