"""client-go's tools/leaderelection for Python: one leader among replicas, on a Lease.

``LeaderElector`` (threads) and ``AsyncLeaderElector`` (asyncio) run one core,
``LeaderElectionCore`` (leaderelection.py: client-go's rules, and the fence that keeps two
candidates from leading at once); ``LeaseLock`` and ``LeaderElectionRecord`` are
resourcelock's; ``LeaderMetric`` is client-go's metrics hook (metrics.py). See
docs/architecture.md for the layers and where this package sits in them.
"""

from kgen.runtime.tools.leaderelection.elector import AsyncLeaderElector, LeaderElector
from kgen.runtime.tools.leaderelection.leaderelection import (
    DEFAULT_CLOCK_SKEW_MARGIN,
    JITTER_FACTOR,
    DeadlineExceeded,
    LeaderElectionCore,
)
from kgen.runtime.tools.leaderelection.metrics import NO_METRICS, LeaderMetric
from kgen.runtime.tools.leaderelection.resourcelock import EventRecorder, LeaderElectionRecord, LeaseLock

__all__ = [
    "AsyncLeaderElector", "DEFAULT_CLOCK_SKEW_MARGIN", "DeadlineExceeded", "EventRecorder", "JITTER_FACTOR",
    "LeaderElectionCore", "LeaderElectionRecord", "LeaderElector", "LeaderMetric", "LeaseLock", "NO_METRICS",
]
