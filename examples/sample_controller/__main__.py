"""python -m examples.sample_controller [--kubeconfig PATH] [--workers N]: runs until SIGTERM/SIGINT.

The manager installs the signal handlers (controller-runtime's SetupSignalHandler): the first
signal drains the reconciles in flight and queued, a second exits at once.
"""

from __future__ import annotations

import argparse
import logging

from kgen.controller import Manager
from kgen.runtime.rest import load_config

from .controller import setup_foo_controller


def main() -> None:
    parser = argparse.ArgumentParser(prog="sample-controller")
    parser.add_argument("--kubeconfig", help="kubeconfig (default: $KUBECONFIG, ~/.kube/config, or in-cluster)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")

    manager = Manager(load_config(args.kubeconfig))
    setup_foo_controller(manager, workers=args.workers)
    manager.start()
    logging.getLogger("sample-controller").info("stopped")


if __name__ == "__main__":
    main()
