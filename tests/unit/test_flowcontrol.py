"""client-go's token bucket, driven by an injected clock (no sleeping), and the REST client using it."""

from __future__ import annotations

import asyncio
import time

import pytest

from kgen.runtime.rest import Config, load_kubeconfig
from kgen.runtime.rest.config import token_bucket
from kgen.runtime.util.flowcontrol import TokenBucket
from kgen.runtime.rest.client import AsyncRESTClient, Request, RESTClient
from kgen.runtime.testing import KubeAPIServer


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_bucket_starts_full_with_burst_tokens(clock: FakeClock) -> None:
    bucket = TokenBucket(qps=1, burst=3, clock=clock)
    assert [bucket.try_accept() for _ in range(4)] == [True, True, True, False]


def test_reserve_is_free_while_burst_lasts_then_spaced_at_one_over_qps(clock: FakeClock) -> None:
    bucket = TokenBucket(qps=2, burst=2, clock=clock)
    assert [bucket.reserve() for _ in range(5)] == pytest.approx([0.0, 0.0, 0.5, 1.0, 1.5])


def test_reserved_waits_are_paid_back_as_time_passes(clock: FakeClock) -> None:
    bucket = TokenBucket(qps=2, burst=1, clock=clock)
    assert bucket.reserve() == 0.0
    assert bucket.reserve() == pytest.approx(0.5)
    assert bucket.reserve() == pytest.approx(1.0)
    clock.advance(0.5)  # the second caller has used its token; the third still waits 0.5 s more
    assert bucket.reserve() == pytest.approx(1.0)  # queued behind the third: at t=1.5
    assert not bucket.try_accept()


def test_refills_at_qps_and_never_beyond_burst(clock: FakeClock) -> None:
    bucket = TokenBucket(qps=4, burst=2, clock=clock)
    assert bucket.try_accept() and bucket.try_accept() and not bucket.try_accept()
    clock.advance(0.25)  # one token at 4 qps
    assert bucket.try_accept() and not bucket.try_accept()
    clock.advance(3600)  # an hour idle still only fills the bucket to burst
    assert [bucket.try_accept() for _ in range(3)] == [True, True, False]


def test_try_accept_takes_nothing_when_refused(clock: FakeClock) -> None:
    bucket = TokenBucket(qps=1, burst=1, clock=clock)
    assert bucket.try_accept()
    clock.advance(0.5)
    assert not bucket.try_accept()  # a refusal must not push the next token further away
    clock.advance(0.5)
    assert bucket.try_accept()


def test_try_accept_after_reservations_waits_for_them(clock: FakeClock) -> None:
    bucket = TokenBucket(qps=1, burst=1, clock=clock)
    bucket.reserve()
    bucket.reserve()  # owes one token: due at t+1
    clock.advance(1.0)
    assert not bucket.try_accept()  # that token belongs to the reservation
    clock.advance(1.0)
    assert bucket.try_accept()


def test_qps_zero_means_client_go_default_of_5_qps() -> None:
    bucket = token_bucket(0, 10)
    assert bucket is not None and bucket.qps == 5.0 and bucket.burst == 10


def test_burst_zero_means_client_go_default_of_10() -> None:
    bucket = token_bucket(0, 0)
    assert bucket is not None and (bucket.qps, bucket.burst) == (5.0, 10)


def test_negative_qps_disables_the_limiter() -> None:
    assert token_bucket(-1, 10) is None


def test_bucket_refuses_a_non_positive_rate() -> None:
    with pytest.raises(ValueError, match="qps"):
        TokenBucket(0, 1)
    with pytest.raises(ValueError, match="burst"):
        TokenBucket(1, -1)


def test_rest_client_is_throttled_to_qps_against_the_real_server(kube_apiserver: KubeAPIServer) -> None:
    config = load_kubeconfig(kube_apiserver.kubeconfig)
    config.qps, config.burst = 2, 1
    with RESTClient(config) as rest:
        started = time.monotonic()
        for _ in range(4):
            rest.send(Request("GET", "/version"))
        elapsed = time.monotonic() - started
    assert elapsed >= 1.5 - 0.05  # (4 - 1) / 2 qps: only the first request is free


def test_async_rest_client_is_throttled_to_qps_against_the_real_server(kube_apiserver: KubeAPIServer) -> None:
    config = load_kubeconfig(kube_apiserver.kubeconfig)
    config.qps, config.burst = 4, 2

    async def four_requests() -> float:
        async with AsyncRESTClient(config) as rest:
            started = time.monotonic()
            for _ in range(4):
                await rest.send(Request("GET", "/version"))
            return time.monotonic() - started

    assert asyncio.run(four_requests()) >= 0.5 - 0.05  # (4 - 2 burst) / 4 qps


def test_rest_client_with_negative_qps_has_no_limiter(kube_apiserver: KubeAPIServer) -> None:
    config: Config = load_kubeconfig(kube_apiserver.kubeconfig)
    config.qps = -1
    with RESTClient(config) as rest:
        assert rest.limiter is None
