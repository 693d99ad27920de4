"""The operator bench's workload on kgen's manager (controller-runtime's shape).

For every Widget: a ConfigMap of the Widget's name, controlled by it (owner reference with
``controller: true``), whose data is ``spec.data``; then ``status.observed`` = the Widget's
``metadata.generation``. bench/operator_kopf.py does the same API work with kopf, and
hack/controller-runtime/operator/main.go with controller-runtime.

Settings, and why (the kopf file lists its own):

- ``for_(Widget).owns(ConfigMap)``: the Widgets and ConfigMaps of the namespace are read from the
  manager's cache (informers), so a reconcile costs only its writes: a create or an update of
  the ConfigMap when its data differs, and an update of the status when it is behind.
- ``Manager(namespace=...)``: the cache watches the bench's namespace only, as kopf's
  ``--namespace`` does. No leader election (kopf runs ``--standalone``), no metrics or probe
  servers, and no Events recorded (kopf's posting is off).
- No client-side throttling: the manager's default, as controller-runtime's (a config that
  sets no qps is unthrottled, leaving it to the apiserver's priority and fairness); kopf and the
  official client throttle nothing on the client side either.
- ``max_concurrent_reconciles``: the bench's ``--workers``, the size kopf's thread pool for sync
  handlers is given too.

Lines ending in ``# bench-only`` (the reconcile counter, the command line, and the profiler
``BENCH_PROFILE=PATH`` switches on: bench/profiling.py) are the bench's harness, not user code;
bench/operator_report.py leaves them out of the line count.

    python -m bench.operator_kgen --kubeconfig PATH --namespace NS [--workers N]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os  # bench-only

import msgspec

from kgen.kubernetes.models.core.v1 import ConfigMap
from kgen.kubernetes.models.meta.v1 import ObjectMeta
from kgen.runtime.apimachinery.errors import AlreadyExists, NotFound
from kgen.runtime.controller import Client, Manager, Request, Result, controller_managed_by, set_controller_reference
from kgen.runtime.rest import load_config
from widget_client.models.bench_kgen_dev.v1 import Widget, WidgetStatus  # bench/widget.py generates it

from bench.profiling import profile_threads  # bench-only


class WidgetReconciler:
    def __init__(self, client: Client) -> None:
        self.client = client
        self.reconciles = itertools.count()  # bench-only

    def reconcile(self, request: Request) -> Result | None:
        next(self.reconciles)  # bench-only
        try:
            widget = self.client.get(Widget, request.name, request.namespace)
        except NotFound:
            return None  # deleted: the garbage collector removes its ConfigMap
        data = widget.spec.data if widget.spec and widget.spec.data else {}
        try:
            config_map = self.client.get(ConfigMap, request.name, request.namespace)
        except NotFound:
            wanted = ConfigMap(metadata=ObjectMeta(name=request.name, namespace=request.namespace), data=data)
            try:
                self.client.create(set_controller_reference(widget, wanted))
            except AlreadyExists:
                return Result(requeue=True)  # created meanwhile: read it from the cache again
        else:
            if (config_map.data or {}) != data:
                self.client.update(set_controller_reference(widget, msgspec.structs.replace(config_map, data=data)))
        generation = widget.metadata.generation if widget.metadata else None
        status = WidgetStatus(observed=generation, config_map=request.name)
        if widget.status != status:
            # A copy: the cached Widget is shared with the informer and must not change under it.
            self.client.update_status(msgspec.structs.replace(widget, status=status))
        return None


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.operator_kgen")  # bench-only
    parser.add_argument("--kubeconfig", required=True)  # bench-only
    parser.add_argument("--namespace", required=True)  # bench-only
    parser.add_argument("--workers", type=int, default=4)  # bench-only
    args = parser.parse_args()  # bench-only
    manager = Manager(load_config(args.kubeconfig), namespace=args.namespace)
    reconciler = WidgetReconciler(manager.client)
    controller_managed_by(manager).for_(Widget).owns(ConfigMap).with_options(
        max_concurrent_reconciles=args.workers
    ).complete(reconciler)
    stop_profile = profile_threads(os.environ.get("BENCH_PROFILE"))  # bench-only
    manager.start()  # until SIGTERM
    stop_profile()  # bench-only
    print(json.dumps({"reconciles": next(reconciler.reconciles)}), flush=True)  # bench-only


if __name__ == "__main__":
    main()
