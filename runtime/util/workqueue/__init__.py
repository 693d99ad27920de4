"""client-go's util/workqueue for Python: the queue between informers and controller workers.

One module per client-go file: ``queue`` (dedup, never two workers on one key),
``delaying_queue`` (``add_after``), ``rate_limiting_queue`` (``add_rate_limited``),
``default_rate_limiters`` and ``metrics``. Thread-based classes by default, ``Async*`` for
asyncio; both run the same I/O-free core, so they behave alike.

See docs/architecture.md for the layers and where this package sits in them.
"""

from kgen.runtime.util.workqueue.default_rate_limiters import (
    BucketRateLimiter,
    ItemExponentialFailureRateLimiter,
    ItemFastSlowRateLimiter,
    MaxOfRateLimiter,
    RateLimiter,
    WithMaxWaitRateLimiter,
    default_controller_rate_limiter,
    default_item_based_rate_limiter,
)
from kgen.runtime.util.workqueue.delaying_queue import AsyncDelayingQueue, DelayingQueue
from kgen.runtime.util.workqueue.metrics import (
    InMemoryMetricsProvider,
    MetricsProvider,
    NoopMetricsProvider,
    PrometheusMetricsProvider,
    set_metrics_provider,
)
from kgen.runtime.util.workqueue.queue import AsyncQueue, Clock, Got, Queue
from kgen.runtime.util.workqueue.rate_limiting_queue import AsyncRateLimitingQueue, RateLimitingQueue

__all__ = [
    "AsyncDelayingQueue",
    "AsyncQueue",
    "AsyncRateLimitingQueue",
    "BucketRateLimiter",
    "Clock",
    "DelayingQueue",
    "Got",
    "InMemoryMetricsProvider",
    "ItemExponentialFailureRateLimiter",
    "ItemFastSlowRateLimiter",
    "MaxOfRateLimiter",
    "MetricsProvider",
    "NoopMetricsProvider",
    "PrometheusMetricsProvider",
    "Queue",
    "RateLimiter",
    "RateLimitingQueue",
    "WithMaxWaitRateLimiter",
    "default_controller_rate_limiter",
    "default_item_based_rate_limiter",
    "set_metrics_provider",
]
