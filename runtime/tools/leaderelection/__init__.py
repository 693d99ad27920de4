"""client-go's tools/leaderelection for Python: one leader among replicas, on a Lease.

See docs/architecture.md for the layers and where this package sits in them.
"""

from kgen.runtime.tools.leaderelection.leaderelection import LeaderElector

__all__ = ["LeaderElector"]
