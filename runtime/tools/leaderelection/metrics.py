"""client-go's leader election metrics hook (tools/leaderelection/metrics.go).

An elector reports, under its lease's name, whether it leads: ``off`` when it is built (a
candidate that never wins still shows 0), ``on`` once it has acquired the lease, ``off`` again
when its renewals stop (leadership lost, or the elector stopped); and ``slowpath_exercised``
each time a renewal had to read the Lease back because the optimistic write from its last view
failed. What publishes them is pluggable, as client-go's ``MetricsProvider`` is: the default is
``NO_METRICS``; controller-runtime's manager (``kgen.controller``) publishes the gauge
``leader_election_master_status{name}``.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["LeaderMetric", "NO_METRICS"]


class LeaderMetric(Protocol):
    """client-go's LeaderMetric: what an elector reports, each call naming its lease."""

    def on(self, name: str) -> None:
        """This candidate now leads on lease ``name``."""

    def off(self, name: str) -> None:
        """This candidate does not lead (or no longer leads) on lease ``name``."""

    def slowpath_exercised(self, name: str) -> None:
        """A renewal on lease ``name`` fell back to reading the Lease before writing it."""


class _NoMetrics:
    def on(self, name: str) -> None:
        pass

    def off(self, name: str) -> None:
        pass

    def slowpath_exercised(self, name: str) -> None:
        pass


NO_METRICS: LeaderMetric = _NoMetrics()
"""Reports nowhere: client-go's default (noopMetricsProvider)."""
