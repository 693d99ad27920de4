"""Controllers declaring what they read and write with ``@rbac``, as a kgen user writes them."""

from __future__ import annotations

from kgen.runtime.apimachinery.markers import rbac

from .widgets import GROUP


@rbac(groups=[GROUP], resources=["widgets"], verbs=["get", "list", "watch", "update", "patch"])
@rbac(groups=[GROUP], resources=["widgets/status"], verbs=["get", "update", "patch"])
@rbac(groups=["core"], resources=["configmaps"], verbs=["get", "list", "watch", "create", "update", "patch", "delete"])
@rbac(groups=[""], resources=["events"], verbs=["create", "patch"])
class WidgetReconciler:
    """Keeps one ConfigMap per Widget."""

    def reconcile(self, name: str) -> None:
        del name


@rbac(groups=["coordination.k8s.io"], resources=["leases"], verbs=["get", "create", "update"], namespace="kube-system")
@rbac(groups=[""], resources=["configmaps"], verbs=["get"])  # already granted above: merged, not repeated
@rbac(urls=["/healthz"], verbs=["get"])
def leader_elected() -> None:
    """Runs the reconciler while this process holds the lease."""
