"""python -m examples.sharded_controller --identity NAME [options]: one replica of a ConfigMap
controller sharded across replicas; runs until SIGTERM/SIGINT.

Each reconcile sleeps ``--work-ms`` (the "work"). With ``--record DIR`` the replica writes what
an end-to-end test needs to check it from outside the process:

- ``DIR/<identity>.log``: ``S <key> <start>`` when a reconcile starts and ``E <key> <start> <end>``
  when it ends, times from ``time.monotonic_ns()`` (CLOCK_MONOTONIC: one clock for every
  process of the machine), flushed line by line so that a SIGKILL loses no finished line;
- ``DIR/<identity>.cache.json``: the keys its shard informer holds, rewritten every 0.25 s.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import threading
import time
from pathlib import Path

from kgen.kubernetes.models.core.v1 import ConfigMap, ConfigMapList
from kgen.runtime.apimachinery import ModelCodec
from kgen.runtime.gentype.resource import ResourceInfo
from kgen.runtime.rest import load_config
from kgen.runtime.rest.client import RESTClient
from kgen.runtime.tools.sharding import ShardedController

CONFIG_MAPS = ResourceInfo("", "v1", "configmaps", True, "ConfigMap")


class Recorder:
    def __init__(self, folder: Path | None, identity: str) -> None:
        self.folder, self.identity = folder, identity
        self._lock = threading.Lock()
        self._log = open(folder / f"{identity}.log", "a", buffering=1) if folder else None

    def line(self, text: str) -> None:
        if self._log is not None:
            with self._lock:
                self._log.write(text + "\n")

    def cache(self, keys: list[str]) -> None:
        if self.folder is None:
            return
        target = self.folder / f"{self.identity}.cache.json"
        tmp = target.with_suffix(".tmp")
        tmp.write_text(json.dumps({"at": time.monotonic_ns(), "keys": keys}))
        os.replace(tmp, target)


def main() -> None:
    parser = argparse.ArgumentParser(prog="sharded-controller")
    parser.add_argument("--kubeconfig", help="kubeconfig (default: $KUBECONFIG, ~/.kube/config, or in-cluster)")
    parser.add_argument("--identity", required=True, help="this replica's name (e.g. the pod name)")
    parser.add_argument("--controller", default="cm-sharded")
    parser.add_argument("--namespace", help="the ConfigMaps' namespace (default: all)")
    parser.add_argument("--lease-namespace", default="default")
    parser.add_argument("--lease-duration", type=float, default=15.0)
    parser.add_argument("--renew-deadline", type=float, default=10.0)
    parser.add_argument("--retry-period", type=float, default=2.0)
    parser.add_argument("--resync", type=float, default=0.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--work-ms", type=float, default=5.0)
    parser.add_argument("--qps", type=float, default=0.0, help="client QPS (0: client-go's default, <0: unthrottled)")
    parser.add_argument("--moves-per-second", type=float, default=100.0)
    parser.add_argument("--labeller-concurrency", type=int, default=4, help="label patches in flight (leader)")
    parser.add_argument("--record", type=Path, help="folder for reconcile records and cache keys")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s {args.identity} %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request is too much at this scale

    config = load_config(args.kubeconfig)
    config.qps = args.qps
    recorder = Recorder(args.record, args.identity)

    def reconcile(key: str, obj: ConfigMap | None) -> None:
        start = time.monotonic_ns()
        recorder.line(f"S {key} {start}")
        time.sleep(args.work_ms / 1000)
        recorder.line(f"E {key} {start} {time.monotonic_ns()}")

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: stop.set())
    with RESTClient(config) as rest:
        controller = ShardedController(
            rest, CONFIG_MAPS, args.controller, identity=args.identity, reconcile=reconcile,
            codec=ModelCodec(ConfigMap, ConfigMapList),
            namespace=args.namespace, lease_namespace=args.lease_namespace, lease_duration=args.lease_duration,
            renew_deadline=args.renew_deadline, retry_period=args.retry_period, resync=args.resync,
            workers=args.workers, moves_per_second=args.moves_per_second,
            labeller_concurrency=args.labeller_concurrency)

        def report() -> None:
            while not stop.wait(0.25):
                recorder.cache(controller.replica.cache_keys())

        threading.Thread(target=report, daemon=True).start()
        controller.run(stop)
    logging.getLogger("sharded-controller").info("stopped")


if __name__ == "__main__":
    main()
