"""The same requests through client-go's RESTClient (hack/oracle/restclient) and through kgen's,
each reported as an ``Outcome``: the error, and what the client's metrics saw (every attempt's
result code, every retry, the URL templates timed and throttled). Tests compare the two."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import httpx

from kgen.runtime.apimachinery.errors import ApiError
from kgen.runtime.rest import Config, StaticToken
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.rest.metrics import InMemoryRESTMetrics
from kgen.runtime.util.flowcontrol import TokenBucket
from tests.support.oracle import oracle_binary


@dataclass(frozen=True)
class Call:
    """One request, as both clients are given it."""

    verb: str
    path: str
    params: tuple[tuple[str, str], ...] = ()
    body: str | None = None
    watch: bool = False

    def wire(self) -> dict[str, Any]:
        return {"verb": self.verb, "path": self.path, "params": [list(p) for p in self.params], "body": self.body,
                "watch": self.watch}


@dataclass
class Outcome:
    error: bool
    code: int  # the API error's HTTP status, else 0
    results: list[tuple[str, str, str]]  # (code, method, host) per attempt
    retries: list[tuple[str, str, str]]
    latency: list[tuple[str, str]]  # (verb, URL template)
    rate_limiter: list[tuple[str, str]]
    seconds: float = field(compare=False)


def go_outcomes(
    url: str, ca_pem: bytes, token: str, calls: list[Call], *, qps: float = -1, burst: int = 1, timeout: float = 60.0
) -> list[Outcome]:
    """client-go's outcomes, one fresh process (so fresh connections) for all ``calls``."""
    with tempfile.NamedTemporaryFile("wb", suffix=".crt") as ca:
        ca.write(ca_pem)
        ca.flush()
        done = subprocess.run(
            [str(oracle_binary("restclient")), "-server", url, "-ca", ca.name, "-qps", str(qps), "-burst", str(burst)],
            input="".join(json.dumps(c.wire()) + "\n" for c in calls),
            capture_output=True, text=True, timeout=timeout, env={**os.environ, "KGEN_ORACLE_TOKEN": token},
        )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == len(calls), done.stderr[-2000:]
    return [
        Outcome(
            error=line["error"] is not None,
            code=line["code"],
            results=[tuple(r) for r in line["results"]],  # type: ignore[misc]
            retries=[tuple(r) for r in line["retries"]],  # type: ignore[misc]
            latency=[(verb, unquote(u)) for verb, u in line["latency"]],
            rate_limiter=[(verb, unquote(u)) for verb, u in line["rateLimiter"]],
            seconds=line["seconds"],
        )
        for line in lines
    ]


def _request(call: Call) -> Request:
    return Request(
        call.verb, call.path, call.params, call.body.encode() if call.body is not None else None,
        "application/json" if call.body is not None else None, stream=call.watch,
    )


def _outcome(metrics: InMemoryRESTMetrics, error: BaseException | None, started: float) -> Outcome:
    outcome = Outcome(
        error=error is not None,
        code=error.code if isinstance(error, ApiError) else 0,
        results=list(metrics.request_result.events),
        retries=list(metrics.request_retry.events),
        latency=[(verb, u) for verb, u, _ in metrics.request_latency.observations],
        rate_limiter=[(verb, u) for verb, u, _ in metrics.rate_limiter_latency.observations],
        seconds=time.monotonic() - started,
    )
    metrics.request_result.events.clear()
    metrics.request_retry.events.clear()
    metrics.request_latency.observations.clear()
    metrics.rate_limiter_latency.observations.clear()
    return outcome


def kgen_outcomes(
    url: str, ca_pem: bytes, token: str, calls: list[Call], *, flavour: str, qps: float = -1, burst: int = 1
) -> list[Outcome]:
    """kgen's outcomes, one fresh client for all ``calls``, on threads or on asyncio."""
    config = Config(host=url, ca_data=ca_pem, credentials=StaticToken(token), qps=qps, burst=burst)
    metrics = InMemoryRESTMetrics()
    limiter = TokenBucket(qps, burst) if qps > 0 else None
    outcomes: list[Outcome] = []
    if flavour == "sync":
        with RESTClient(config, metrics=metrics.metrics(), rate_limiter=limiter) as rest:
            for call in calls:
                started, error = time.monotonic(), None
                try:
                    rest.send(_request(call)).close()
                except (ApiError, httpx.TransportError) as e:
                    error = e
                outcomes.append(_outcome(metrics, error, started))
        return outcomes

    async def run() -> None:
        async with AsyncRESTClient(config, metrics=metrics.metrics(), rate_limiter=limiter) as rest:
            for call in calls:
                started, error = time.monotonic(), None
                try:
                    await (await rest.send(_request(call))).aclose()
                except (ApiError, httpx.TransportError) as e:
                    error = e
                outcomes.append(_outcome(metrics, error, started))

    asyncio.run(run())
    return outcomes
