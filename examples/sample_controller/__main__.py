"""python -m examples.sample_controller [--kubeconfig PATH] [--workers N]: runs until SIGTERM/SIGINT."""

from __future__ import annotations

import argparse
import logging
import signal
import threading

from kgen.kubernetes import Clientset
from kgen.runtime.rest import load_config

from .client import Clientset as FooClientset
from .controller import Controller


def main() -> None:
    parser = argparse.ArgumentParser(prog="sample-controller")
    parser.add_argument("--kubeconfig", help="kubeconfig (default: $KUBECONFIG, ~/.kube/config, or in-cluster)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")

    config = load_config(args.kubeconfig)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, frame: stop.set())
    with Clientset(config) as kube, FooClientset(config) as foos:
        Controller(kube, foos).run(args.workers, stop)
    logging.getLogger("sample-controller").info("stopped")


if __name__ == "__main__":
    main()
