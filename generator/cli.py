"""The `kgen` command line. Exit codes: 0 done, 1 `--check` found drift, 2 bad input or usage."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path


def _version() -> str:
    try:
        return version("kgen")
    except PackageNotFoundError:
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kgen",
        description="Generate typed Python Kubernetes clients from what a kube-apiserver publishes.",
    )
    parser.add_argument("--version", action="version", version=f"kgen {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    snap = sub.add_parser(
        "snapshot",
        help="capture a cluster's OpenAPI v2/v3 and discovery documents into a folder",
        description="Capture /version, /openapi/v2, every /openapi/v3 document, and aggregated and "
        "legacy discovery into DIR (the layout of kgen's embedded openapi/ snapshots).",
    )
    snap.add_argument("--out", required=True, type=Path, metavar="DIR", help="folder to write (replaced whole)")
    snap.add_argument("--kubeconfig", metavar="PATH", help="kubeconfig file (default: $KUBECONFIG or ~/.kube/config)")
    snap.add_argument("--context", metavar="NAME", help="kubeconfig context (default: its current-context)")
    return parser


def _snapshot(args: argparse.Namespace) -> int:
    from kgen.runtime.config import load_kubeconfig

    from .snapshot import capture, terminal_progress

    config = load_kubeconfig(args.kubeconfig, args.context)
    progress = terminal_progress()
    counts = capture(config, args.out, progress)
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[2K")
    print(
        f"wrote {args.out}: {counts['openapi_v3_documents']} OpenAPI v3 documents, "
        f"{counts['group_versions']} group-versions"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    from kgen.runtime.config import ConfigError

    from .snapshot import SnapshotError

    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return _snapshot(args)
    except (ConfigError, SnapshotError) as e:
        print(f"kgen {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
