"""The `kgen` command line. Exit codes: 0 done, 1 `--check` found drift or `validate` found an invalid
manifest, 2 bad input or usage."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from . import apply_cli, envtest
from .foreign_kgen import foreign_kgen_warning
from .manifests import cli as manifests


def _version() -> str:
    # The distribution's name, not the import name: PyPI's `kgen` is another project, whose
    # version `version("kgen")` answers when it is installed beside this one.
    try:
        return version("kgen-k8s")
    except PackageNotFoundError:
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kgen",
        description="Generate typed Python Kubernetes clients from what a kube-apiserver publishes.",
    )
    parser.add_argument("--version", action="version", version=f"kgen {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    gen = sub.add_parser(
        "generate",
        help="generate a typed client package",
        description="Generate a typed client package from the embedded snapshot (the default; --kubernetes picks its release), "
        "snapshot folders or OpenAPI files (--from), a live cluster (--cluster) and CRDs (--crd).",
    )
    gen.add_argument("--kubernetes", metavar="VERSION",
                     help="generate for this Kubernetes release from its embedded snapshot, offline: "
                          "a minor (1.34) or a version (1.34.4) (default: the newest embedded)")
    gen.add_argument("--from", dest="sources", action="append", type=Path, default=[], metavar="DIR|FILE",
                     help="a snapshot folder (as `kgen snapshot` writes) or one OpenAPI v2/v3 file, JSON or YAML")
    gen.add_argument("--cluster", action="store_true", help="read OpenAPI and discovery from a live cluster")
    gen.add_argument("--kubeconfig", metavar="PATH", help="kubeconfig for --cluster")
    gen.add_argument("--context", metavar="NAME", help="kubeconfig context for --cluster")
    gen.add_argument("--crd", dest="crds", action="append", type=Path, default=[], metavar="PATH",
                     help="CRD file or folder (YAML, multi-document, JSON, List); repeatable")
    gen.add_argument("--package", metavar="NAME",
                     help="package name (default: kubeclient, which shadows no other client's import)")
    gen.add_argument("--out", type=Path, default=Path("."), metavar="DIR",
                     help="parent folder: the package goes to DIR/<package>/ (default: .)")
    gen.add_argument("--groups", metavar="GROUP/VERSION,...",
                     help="only these group-versions (and what they use), e.g. apps/v1,core/v1")
    gen.add_argument("--check", action="store_true", help="compare with DIR/<package>/ instead of writing; exit 1 on drift")
    gen.add_argument("--no-stock-types", dest="stock_types", action="store_false",
                     help="generate a class for every object a CRD embeds, even one that is a stock Kubernetes type "
                          "(by default such an object, e.g. a JobTemplateSpec, is typed with the stock class)")

    snap = sub.add_parser(
        "snapshot",
        help="capture a cluster's OpenAPI v2/v3 and discovery documents into a folder",
        description="Capture /version, /openapi/v2, every /openapi/v3 document, and aggregated and "
        "legacy discovery into DIR (the layout of kgen's embedded openapi/ snapshots).",
    )
    snap.add_argument("--out", required=True, type=Path, metavar="DIR", help="folder to write (replaced whole)")
    snap.add_argument("--kubeconfig", metavar="PATH", help="kubeconfig file (default: $KUBECONFIG or ~/.kube/config)")
    snap.add_argument("--context", metavar="NAME", help="kubeconfig context (default: its current-context)")
    val = sub.add_parser(
        "validate",
        help="validate manifests as the kube-apiserver would, without a cluster",
        description="Validate YAML/JSON manifests (multi-document, Lists) against the embedded Kubernetes "
        "schemas and the schemas of CRDs (--crd), as the kube-apiserver's structural validation does. "
        "Prints FILE:DOCUMENT: Kind/name: field: message per error. Exit 0 all valid, 1 some invalid, "
        "2 bad input.",
    )
    val.add_argument("files", nargs="+", type=Path, metavar="FILE", help="manifest files (YAML or JSON)")
    val.add_argument("--crd", dest="crds", action="append", type=Path, default=[], metavar="PATH",
                     help="CRD file or folder whose kinds the manifests may use; repeatable (a file holding "
                          "no CRD is skipped with a note)")
    val.add_argument("--field-validation", choices=["Strict", "Warn", "Ignore"], default="Strict",
                     help="unknown fields: Strict (kubectl's default) rejects them, Warn warns on stderr, "
                          "Ignore drops them (default: Strict)")
    envtest.add_parser(sub)
    manifests.add_parser(sub)
    apply_cli.add_parsers(sub)
    return parser


def _snapshot(args: argparse.Namespace) -> int:
    from kgen.runtime.rest import CredentialError, load_kubeconfig

    from .cluster_access import ClusterAccessError, context_description, credential_error
    from .snapshot import capture, terminal_progress
    from .sources.snapshot_dir import is_snapshot
    from .write import no_file_on_the_way

    no_file_on_the_way(args.out / "snapshot", args.out, "a folder")  # args.out itself too
    if args.out.is_dir() and any(args.out.iterdir()) and not is_snapshot(args.out):
        # The snapshot replaces the folder whole: never a folder of something else.
        raise _UsageError(
            f"--out {args.out}: exists and is not a snapshot (no openapi/v3/ in it); refusing to replace it "
            "(expected a snapshot folder, an empty folder or nothing there)"
        )
    config = load_kubeconfig(args.kubeconfig, args.context)
    progress = terminal_progress()
    try:
        counts = capture(config, args.out, progress)
    except ClusterAccessError as e:
        raise e.at(context_description(args.kubeconfig, args.context)) from None
    except CredentialError as e:
        raise credential_error(e).at(context_description(args.kubeconfig, args.context)) from None
    except OSError as e:
        raise _UsageError(f"--out {args.out}: cannot write {e.filename or ''}: {e.strerror or e}") from None
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[2K")
    print(
        f"wrote {args.out}: {counts['openapi_v3_documents']} OpenAPI v3 documents, "
        f"{counts['group_versions']} group-versions"
    )
    return 0


def _generate(args: argparse.Namespace) -> int:
    from .generate import DEFAULT_PACKAGE, Options, generate

    if (args.kubeconfig or args.context) and not args.cluster:
        raise _UsageError("--kubeconfig and --context need --cluster")
    if args.kubernetes is not None and (args.sources or args.cluster):
        # --from and --cluster bring their own version; --kubernetes picks an embedded snapshot.
        raise _UsageError("--kubernetes selects an embedded snapshot: not with --from or --cluster")
    opts = Options(
        sources=args.sources,
        crds=args.crds,
        cluster=args.cluster,
        kubeconfig=args.kubeconfig,
        context=args.context,
        package=DEFAULT_PACKAGE if args.package is None else args.package,
        out=args.out,
        groups=[g for g in args.groups.split(",") if g.strip()] if args.groups is not None else None,
        check=args.check,
        stock_types=args.stock_types,
        kubernetes=args.kubernetes,
    )
    tty = sys.stderr.isatty()

    def progress(stage: str, done: int, total: int) -> None:
        if tty:
            sys.stderr.write(f"\r\x1b[2K{stage} {done}/{total}" if total > 1 else f"\r\x1b[2K{stage}")
            sys.stderr.flush()

    drift = generate(opts, progress)
    if tty:
        sys.stderr.write("\r\x1b[2K")
    target = opts.out / Path(*opts.package.split("."))
    if opts.check:
        if not target.is_dir():
            print(f"kgen generate --check: {target} does not exist: nothing generated there yet "
                  "(check --out and --package)", file=sys.stderr)
            return 1
        if drift:
            print(f"kgen generate --check: {target} is out of date ({len(drift)} files):", file=sys.stderr)
            for line in drift[:20]:
                print(f"  {line}", file=sys.stderr)
            return 1
        print(f"{target} is up to date")
        return 0
    print(f"wrote {target}")
    return 0


def _validate(args: argparse.Namespace) -> int:
    """``kgen validate``: every document is read (and its kind found) before any is validated,
    so bad input exits 2 with nothing printed but the reason."""
    from kgen.runtime.apimachinery.validation import FieldError, FieldValidation, validate, validate_against
    from kgen.runtime.apimachinery.validation.schemas import validation_schemas

    from .errors import InputError
    from .sources import crd, files

    stock = validation_schemas("kgen.kubernetes")
    custom: dict[tuple[str, str], dict[str, Any]] = {}  # (apiVersion, kind) -> the CRD version's schema
    # A --crd file that holds no CRD is skipped with a note, not refused: `--crd dir/*.yaml` also
    # matches the kustomization.yaml or the admission policy shipped beside a project's CRDs.
    def skipped(e: InputError) -> None:
        print(f"kgen validate: note: --crd {e.source} {e.problem}: skipped", file=sys.stderr)

    definitions = crd.load(args.crds, on_no_crd=skipped).definitions if args.crds else {}
    for d in definitions.values():
        for gvk in d.schema.get("x-kubernetes-group-version-kind") or []:
            group, version = gvk["group"], gvk["version"]
            custom[f"{group}/{version}" if group else version, gvk["kind"]] = d.schema

    def resolve(ref: str) -> dict[str, Any]:
        name = ref.rsplit("/", 1)[-1]
        return definitions[name].schema if name in definitions else stock.definition(name)

    objects: list[tuple[str, dict[str, Any]]] = []
    for path in args.files:
        if path.is_dir():
            raise InputError(path, "", "a manifest file", problem="is a folder")
        for number, doc in files.documents(path):
            items = doc.get("items") if isinstance(doc, dict) and str(doc.get("kind", "")).endswith("List") else None
            found = ([(f"{path}:{number}:items[{i}]", item) for i, item in enumerate(items)]
                     if isinstance(items, list) else [(f"{path}:{number}", doc)])
            for where, obj in found:
                if not isinstance(obj, dict):
                    raise InputError(where, "", "a Kubernetes object (a mapping)", problem=f"is {files.describe(obj)}")
                for key in ("apiVersion", "kind"):
                    if not isinstance(obj.get(key), str) or not obj[key]:
                        raise InputError(where, f"/{key}", "a non-empty string", problem="missing or not a string")
                api_version, kind = obj["apiVersion"], obj["kind"]
                if (api_version, kind) not in custom and stock.definition_of(api_version, kind) is None:
                    raise InputError(where, "", "a Kubernetes kind or a kind of a CRD given with --crd",
                                     problem=f"no schema for apiVersion {api_version!r}, kind {kind!r}")
                objects.append((where, obj))

    def check(obj: dict[str, Any], mode: FieldValidation) -> list[FieldError]:
        schema = custom.get((obj["apiVersion"], obj["kind"]))
        if schema is not None:
            return validate_against(schema, obj, field_validation=mode, resolve=resolve)
        return validate(obj, field_validation=mode)

    invalid = 0
    for where, obj in objects:
        meta = obj.get("metadata")
        name = (meta.get("name") or meta.get("generateName")) if isinstance(meta, dict) else None
        label = f"{where}: {obj['kind']}/{name if isinstance(name, str) and name else '<no name>'}"
        # One Strict pass: its unknown fields are Warn's warnings; without any, every mode answers the same
        strict = check(obj, "Strict")
        unknown = [e for e in strict if e.type == "BadRequest" and e.message.startswith("unknown field")]
        if args.field_validation == "Warn":  # the apiserver's warnings: what Strict would reject
            for e in unknown:
                print(f"{label}: warning: {e.message}", file=sys.stderr)
        errors = strict if args.field_validation == "Strict" or not unknown else check(obj, args.field_validation)
        invalid += bool(errors)
        for e in errors:
            print(f"{label}: {e}")
    return 1 if invalid else 0


class _UsageError(Exception):
    pass


def main(argv: Sequence[str] | None = None) -> int:
    from kgen.runtime.rest import ConfigError

    from .cluster_access import ClusterAccessError
    from .errors import InputError
    from .snapshot import SnapshotError

    foreign = foreign_kgen_warning()
    if foreign:
        print(f"kgen: warning: {foreign}", file=sys.stderr)
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    if args.command == "envtest":
        return envtest.run(args)
    if args.command == "manifests":
        return manifests.run(args)
    if args.command in ("apply", "delete"):
        return apply_cli.run(args)
    try:
        if args.command == "validate":
            return _validate(args)
        return _generate(args) if args.command == "generate" else _snapshot(args)
    except (ConfigError, SnapshotError, ClusterAccessError, InputError, _UsageError) as e:
        _end_progress_line()
        print(f"kgen {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # The output folder is the old one or the new one, never a mix (write.py).
        _end_progress_line()
        print(f"kgen {args.command}: interrupted", file=sys.stderr)
        return 130


def _end_progress_line() -> None:
    """Clears the terminal's progress line, so an error starts a line of its own."""
    if sys.stderr.isatty():
        sys.stderr.write("\r\x1b[2K")


if __name__ == "__main__":
    sys.exit(main())
