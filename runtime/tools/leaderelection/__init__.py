"""client-go's tools/leaderelection for Python: one leader among replicas, on a Lease."""

from kgen.runtime.tools.leaderelection.leaderelection import LeaderElector

__all__ = ["LeaderElector"]
