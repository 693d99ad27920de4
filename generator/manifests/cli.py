"""``kgen manifests --module PKG.MOD [--module ...] --out DIR``: one CRD YAML per group-kind, the
role the controllers declared, and the webhook configurations the webhooks declared.

controller-gen's ``crd rbac:roleName=manager-role paths=./... output:dir=...``, for Python: the
modules hold the model classes and the controllers; the CRDs go to ``DIR/<group>_<plural>.yaml``
the ``@rbac`` rules to ``DIR/role.yaml``, and the ``@webhook`` markers (kgen.runtime.webhook.markers)
to ``DIR/manifests.yaml`` (controller-gen's ``webhook`` generator's file). Exit codes as
``kgen generate``'s: 0 written (or up to date with ``--check``), 1 ``--check`` found drift, 2 bad
input or usage (one line on stderr saying where and what
was expected; nothing written).
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from .errors import ManifestError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "manifests",
        help="write CRDs from Python model classes and RBAC roles from controllers (controller-gen's role)",
        description="Import the given modules, find the model classes marked with "
        "kgen.runtime.apimachinery.markers.resource(...), and write one CRD per group-kind to "
        "DIR/<group>_<plural>.yaml, its schema from the classes' fields and their Annotated markers; "
        "the controllers' @rbac(...) rules as a ClusterRole (and Roles) in DIR/role.yaml, and the "
        "@webhook(...) markers as Mutating/ValidatingWebhookConfigurations in DIR/manifests.yaml.",
    )
    parser.add_argument("--module", dest="modules", action="append", required=True, metavar="PKG.MOD",
                        help="a module holding root types (imported from the current folder); repeatable")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for the CRD files")
    parser.add_argument("--role-name", default="manager-role", metavar="NAME",
                        help="name of the ClusterRole (and Roles) written to DIR/role.yaml from @rbac rules "
                        "(default: manager-role, kubebuilder's)")
    parser.add_argument("--allow-dangerous-types", action="store_true",
                        help="write float fields as type: number (controller-gen's crd:allowDangerousTypes=true); "
                        "without it a float field is an error naming it")
    parser.add_argument("--max-desc-len", type=int, default=None, metavar="N",
                        help="cut every description in the CRDs' schemas to N characters, 0 dropping them "
                        "(controller-gen's crd:maxDescLen=N)")
    parser.add_argument("--check", action="store_true",
                        help="compare with the files in DIR instead of writing; exit 1 if any differs or is missing")


def _tool_version() -> str:
    try:
        return version("kgen-k8s")
    except PackageNotFoundError:
        return "unknown"


def run(args: argparse.Namespace) -> int:
    # Imported here: `kgen --help` and the other commands need none of this.
    from .crd import Options, build_crds
    from .discover import find
    from .output import ROLE_FILE, file_name, render, render_all, write_all
    from .rbac import build_roles
    from .webhooks import WEBHOOK_FILE, build_webhook_configurations, conversions

    try:
        if args.out.exists() and not args.out.is_dir():
            raise ManifestError(f"--out {args.out}", "is a file", "a folder, or nothing there")
        declared = find(args.modules)
        if args.max_desc_len is not None and args.max_desc_len < 0:
            raise ManifestError(f"--max-desc-len {args.max_desc_len}", "is negative", "0 or more characters")
        options = Options(allow_dangerous_types=args.allow_dangerous_types, max_desc_len=args.max_desc_len)
        crds = build_crds(declared.roots, _tool_version(), options, conversions(declared.webhooks))
        files = {file_name(group, plural): render(crd) for (group, plural), crd in crds.items()}
        if declared.rules:
            files[ROLE_FILE] = render_all(build_roles(declared.rules, args.role_name))
        configurations = build_webhook_configurations(declared.webhooks)
        if configurations:
            files[WEBHOOK_FILE] = render_all(configurations)
        if args.check:
            return _check(args.out, files)
        written = write_all(args.out, files)
    except ManifestError as e:
        print(f"kgen manifests: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"kgen manifests: --out {args.out}: cannot write {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


def _check(out: Path, files: dict[str, str]) -> int:
    """``--check``: 0 when every file in ``out`` is what would be written, else 1 and the list
    (files of ``out`` that kgen would not write are left alone, as writing leaves them)."""
    drift = []
    for name, text in sorted(files.items()):
        path = out / name
        if not path.is_file():
            drift.append(f"missing: {name}")
        elif path.read_text(encoding="utf-8") != text:
            drift.append(f"differs: {name}")
    if drift:
        print(f"kgen manifests --check: {out} is out of date ({len(drift)} files):", file=sys.stderr)
        for line in drift:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(f"{out} is up to date")
    return 0
