"""``kgen apply -f PATH`` and ``kgen delete -f PATH``: kubectl's ``apply --server-side`` and ``delete``
for a set of manifests, through kgen.runtime.kubectl (apply.py says the order and the rules).

Prints kubectl's lines on stdout (``namespace/demo serverside-applied``,
``deployment.apps "web" deleted from demo namespace``), in the order the objects were sent. Exit
codes: 0 every object done; 1 the server refused some (each as ``error: KIND/NAME: why`` on
stderr, the others done, as kubectl goes on past a failed object); 2 bad input or usage (an
unreadable manifest, a kubeconfig that does not load, no server there: one line on stderr, nothing
sent when the manifests are at fault).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

_NAME = {"apply": "kgen apply", "delete": "kgen delete"}


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    apply = sub.add_parser(
        "apply",
        help="server-side apply manifests (files, folders, stdin) in kubectl's order",
        description="Server-side apply every object of the manifests (YAML or JSON, multi-document, Lists; "
        "folders read recursively, as kubectl -f DIR -R), namespaces and CRDs first, CRDs awaited until "
        "Established before their custom resources. Prints kubectl apply --server-side's lines. "
        "Exit 0 all applied, 1 the server refused some, 2 bad input.",
    )
    _common(apply)
    apply.add_argument("--field-manager", default="kgen", metavar="NAME",
                       help="the manager that owns the applied fields (default: kgen; kubectl's is kubectl)")
    apply.add_argument("--force-conflicts", action="store_true",
                       help="take the fields other managers own instead of failing with a conflict")
    apply.add_argument("--wait-established", type=float, default=60.0, metavar="SECONDS",
                       help="how long to wait for each applied CRD to be Established (default: 60)")
    delete = sub.add_parser(
        "delete",
        help="delete the objects of manifests, in the reverse of apply's order",
        description="Delete every object of the manifests: custom resources before their CRDs, namespaces "
        "last; in the background (kubectl's --cascade=background), not waiting for them to be gone. "
        "Prints kubectl delete's lines. Exit 0 all deleted, 1 some failed (not found among them), 2 bad input.",
    )
    _common(delete)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-f", "--filename", dest="files", action="append", required=True, metavar="PATH",
                        help="a manifest file, a folder of them, or - for stdin; repeatable")
    parser.add_argument("-n", "--namespace", metavar="NAME",
                        help="namespace of the objects that name none; objects naming another are refused "
                        "(default: the kubeconfig context's)")
    parser.add_argument("--kubeconfig", metavar="PATH", help="kubeconfig file (default: $KUBECONFIG or ~/.kube/config)")
    parser.add_argument("--context", metavar="NAME", help="kubeconfig context (default: its current-context)")
    parser.add_argument("--dry-run", nargs="?", const="server", choices=["server", "none"], default="none",
                        help="server: the server checks and answers without storing (kubectl's --dry-run=server)")


def run(args: argparse.Namespace) -> int:
    import httpx

    from kgen.runtime.apimachinery.errors import ApiError
    from kgen.runtime.kubectl.apply import apply, apply_rank, delete
    from kgen.runtime.kubectl.manifests import Manifest, ManifestError, load_all_yaml
    from kgen.runtime.rest import ConfigError, CredentialError, load_kubeconfig

    name = _NAME[args.command]
    try:
        objects: list[Manifest] = []
        for path in args.files:
            objects += load_all_yaml(sys.stdin if path == "-" else Path(path))
        if not objects:
            raise ManifestError(", ".join(args.files), "no objects to " + args.command)
        config = load_kubeconfig(args.kubeconfig, args.context)
        dry_run = args.dry_run == "server"
        if args.command == "apply":
            results = apply(config, objects, field_manager=args.field_manager, force=args.force_conflicts,
                            dry_run=dry_run, namespace=args.namespace, wait_established_timeout=args.wait_established)
        else:
            results = delete(config, objects, dry_run=dry_run, namespace=args.namespace)
    except (ManifestError, ConfigError, CredentialError, ImportError) as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 2
    except httpx.HTTPError as e:
        print(f"{name}: cannot reach the server: {_one_line(e)}", file=sys.stderr)
        return 2
    except ApiError as e:  # discovery refused (a 401 or 403 on /api, /apis): no object was sent
        print(f"{name}: cannot read the server's resources: {_one_line(e)}", file=sys.stderr)
        return 2
    # The order the objects were sent: apply's, or its reverse for delete (a stable sort of both).
    order = sorted(results, key=lambda r: apply_rank(r.kind))
    if args.command == "delete":
        order.reverse()
    failed = 0
    for result in order:
        if result.ok:
            print(result.line)
        else:
            failed += 1
            print(_one_line(result.line), file=sys.stderr)
    return 1 if failed else 0


def _one_line(value: object) -> str:
    return " ".join(str(value).split())
