"""The pipeline, end to end: sources -> IR -> render -> format -> write (or compare)."""

from __future__ import annotations

import keyword
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import applyconfigs, build, clients, format, mergeschema, render, stock, validation, write
from .errors import InputError
from .ir import StockClass
from .sources import RawDefinition, SourceSet, crd, openapi, snapshot_dir
from .sources.partial_metadata import add_partial_object_metadata

APIMACHINERY_PREFIX = "io.k8s.apimachinery."
#: The default --package: not ``kubernetes``, which would shadow the official client's import
#: (``import kubernetes``) for anyone with both on sys.path. See the README's CLI part.
DEFAULT_PACKAGE = "kubeclient"
# A kube-style version (v1, v2beta1): what a bare --groups entry must be (core's versions).
_VERSION = re.compile(r"^v\d+(?:(?:alpha|beta)\d+)?$")
_GROUPS_EXPECTED = "GROUP/VERSION[,...] such as apps/v1,core/v1; v1 or core/v1 names the core group"


def embedded_versions() -> list[str]:
    """The Kubernetes versions of the snapshots shipped with kgen (openapi/kubernetes-<version>/),
    oldest first: each captured from that release's kube-apiserver (`make snapshot`)."""
    return [p.name.removeprefix("kubernetes-") for p in _embedded_folders()]


def _embedded_folders() -> list[Path]:
    def version(p: Path) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", p.name))

    return sorted((p for p in _OPENAPI.glob("kubernetes-*") if p.is_dir()), key=version)


_OPENAPI = Path(__file__).resolve().parent.parent / "openapi"


def embedded_snapshot(kubernetes: str | None = None) -> Path:
    """The openapi/kubernetes-<version>/ shipped with kgen for ``kubernetes`` (--kubernetes): a
    full version ("1.34.4") or a minor ("1.34", its one embedded patch release); by default the
    newest, which the stock ``kgen.kubernetes`` is generated from."""
    found = _embedded_folders()
    if not found:
        raise InputError(_OPENAPI, "", "a folder kubernetes-<version>/ shipped with kgen",
                         problem="holds no embedded snapshot (is kgen installed whole?)")
    if kubernetes is None:
        return found[-1]
    wanted = kubernetes.removeprefix("v")
    # A minor matches its patch release: one snapshot per minor is embedded (the newest patch
    # the Go module proxy served when it was captured), and users think in minors.
    versions = [p.name.removeprefix("kubernetes-") for p in found]
    matches = [p for p, v in zip(found, versions)
               if v == wanted or (wanted.count(".") == 1 and v.startswith(wanted + "."))]
    if not matches:
        raise InputError(f"--kubernetes {kubernetes}", "",
                         "one of the embedded versions: " + ", ".join(versions) + " (a minor such as "
                         + ".".join(versions[-1].split(".")[:2]) + " names its release)",
                         problem=f"kgen embeds no snapshot of Kubernetes {kubernetes}")
    return matches[-1]


@dataclass
class Options:
    sources: list[Path] = field(default_factory=list)  # --from
    crds: list[Path] = field(default_factory=list)  # --crd
    cluster: bool = False
    kubeconfig: str | None = None
    context: str | None = None
    package: str = DEFAULT_PACKAGE
    out: Path = Path(".")
    groups: list[str] | None = None
    check: bool = False
    stock_types: bool = True  # --no-stock-types turns it off: CRDs' embedded stock types as copies
    kubernetes: str | None = None  # --kubernetes: which embedded snapshot (default: the newest)


def load_sources(opts: Options) -> SourceSet:
    sources = SourceSet()
    for path in opts.sources:
        if path.is_dir():
            sources.merge(snapshot_dir.load(path))
        elif path.is_file():
            sources.merge(openapi.load_file(path))
        else:
            problem = "is neither a file nor a folder" if path.exists() else "no such file or folder"
            raise InputError(f"--from {path}", "", "a snapshot folder or an OpenAPI file", problem=problem)
    if opts.cluster:
        sources.merge(_from_cluster(opts))
    if opts.crds:
        crds = crd.load(opts.crds)
        if not (opts.sources or opts.cluster):
            # CRDs alone: their package still needs apimachinery's meta/v1 (ObjectMeta, ListMeta).
            embedded = snapshot_dir.load(embedded_snapshot(opts.kubernetes))
            for name, d in embedded.definitions.items():
                if name.startswith(APIMACHINERY_PREFIX):
                    sources.add_definition(d)
            # Its meta/v1 and the stock classes it imports are the snapshot's: that is the
            # Kubernetes version the package is written against.
            sources.kubernetes_version = embedded.kubernetes_version
        sources.merge(crds)
    if not (opts.sources or opts.cluster or opts.crds):
        sources.merge(snapshot_dir.load(embedded_snapshot(opts.kubernetes)))
    add_partial_object_metadata(sources)  # meta/v1 kinds the apiserver serves but never publishes
    if opts.stock_types and sources.crd_group_versions:
        sources.validation_schemas = {name: d.schema for name, d in sources.definitions.items()}
        sources.stock_classes = reuse_stock_types(opts, sources)
    return sources


def reuse_stock_types(opts: Options, sources: SourceSet) -> dict[str, StockClass]:
    """CRD subschemas that are stock types become ``$ref``s to them (generator/stock.py): the
    package's own definitions when it has built-in groups (``--from``/``--cluster``), else the
    embedded snapshot's, the classes ``kgen.kubernetes`` ships (returned: the package imports them)."""
    if opts.sources or opts.cluster:
        own: dict[str, RawDefinition] = {
            name: d for name, d in sources.definitions.items() if not stock.is_crd(d, sources)
        }
        return stock.reuse(sources, stock.StockTypes(own, {}))
    # The newest snapshot whatever --kubernetes says: kgen.kubernetes, whose classes are imported,
    # is generated from it, and the match must be with the classes actually imported.
    embedded = snapshot_dir.load(embedded_snapshot())
    return stock.reuse(sources, stock.StockTypes(embedded.definitions, build.stock_classes(embedded)))


def _from_cluster(opts: Options) -> SourceSet:
    from kgen.runtime.rest import CredentialError, load_kubeconfig

    from .cluster_access import ClusterAccessError, context_description, credential_error
    from .snapshot import capture

    config = load_kubeconfig(opts.kubeconfig, opts.context)
    with tempfile.TemporaryDirectory(prefix="kgen-cluster-") as tmp:
        try:
            capture(config, Path(tmp) / "snapshot")
        except ClusterAccessError as e:
            raise e.at(context_description(opts.kubeconfig, opts.context)) from None
        except CredentialError as e:  # before any request: TLS client certificates come first
            raise credential_error(e).at(context_description(opts.kubeconfig, opts.context)) from None
        return snapshot_dir.load(Path(tmp) / "snapshot")


#: Top-level modules a generated package imports (and kgen itself): a package of that name would
#: hide them from itself and from everything else on the same sys.path.
_IMPORTED = {"kgen", "msgspec", "httpx"}


def _check_package_name(name: str) -> None:
    if not name or not all(part.isidentifier() and not keyword.iskeyword(part) for part in name.split(".")):
        raise InputError(
            "--package", "", "dotted identifiers, none of them a Python keyword",
            problem=f"{name!r} is not a Python package name",
        )
    top = name.split(".")[0]
    if top in sys.stdlib_module_names or top in _IMPORTED:
        what = "a standard-library module" if top in sys.stdlib_module_names else "a module generated code imports"
        raise InputError(
            "--package", "", "a name that shadows no module Python ships or kgen needs",
            problem=f"{top!r} is {what}",
        )


def check_groups(groups: list[str] | None) -> None:
    """``--groups`` entries are GROUP/VERSION, or a bare kube version for the core group."""
    if groups is None:
        return
    if not groups:
        raise InputError("--groups", "", _GROUPS_EXPECTED, problem="no group/version given")
    for selector in groups:
        group, slash, version = selector.strip().rpartition("/")
        if not version or "/" in group or (slash and not group) or (not slash and not _VERSION.match(version)):
            raise InputError("--groups", "", _GROUPS_EXPECTED, problem=f"{selector.strip()!r} is not a group/version")


def generate(opts: Options, progress: Callable[[str, int, int], None] = lambda stage, done, total: None) -> list[str]:
    """Runs the pipeline; returns the drift lines when ``opts.check`` (empty: up to date)."""
    _check_package_name(opts.package)
    check_groups(opts.groups)
    target = opts.out / Path(*opts.package.split("."))
    write.check_destination(target, opts.out, compare=opts.check)  # before the work, not after
    sources = load_sources(opts)
    progress("building models", 0, 1)
    package = build.build(sources, opts.package.rsplit(".", 1)[-1], opts.groups)
    progress("rendering", 0, 1)
    files = render.render(package)
    files.update(render.render_clients(package, clients.client_modules(package)))
    files.update(applyconfigs.render_apply_configurations(package))
    files.update(mergeschema.render_merge_schema(package, sources.crd_group_versions))
    files.update(validation.render_validation(package, sources))
    formatted = format.format_files(files, lambda done, total: progress("formatting", done, total))
    if opts.check:
        return write.drift(formatted, target)
    write.write(formatted, target, opts.out)
    return []
