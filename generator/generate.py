"""The pipeline, end to end: sources -> IR -> render -> format -> write (or compare)."""

from __future__ import annotations

import keyword
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import build, clients, format, render, write
from .errors import InputError
APIMACHINERY_PREFIX = "io.k8s.apimachinery."
from .sources import SourceSet, crd, openapi, snapshot_dir


def embedded_snapshot() -> Path:
    """The newest openapi/kubernetes-<version>/ shipped with kgen."""
    root = Path(__file__).resolve().parent.parent / "openapi"

    def version(p: Path) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", p.name))

    found = sorted((p for p in root.glob("kubernetes-*") if p.is_dir()), key=version)
    if not found:
        raise InputError(root, "", "an embedded snapshot folder kubernetes-<version>/ (is kgen installed whole?)")
    return found[-1]


@dataclass
class Options:
    sources: list[Path] = field(default_factory=list)  # --from
    crds: list[Path] = field(default_factory=list)  # --crd
    cluster: bool = False
    kubeconfig: str | None = None
    context: str | None = None
    package: str = "kubernetes"
    out: Path = Path(".")
    groups: list[str] | None = None
    check: bool = False


def load_sources(opts: Options) -> SourceSet:
    sources = SourceSet()
    for path in opts.sources:
        if path.is_dir():
            sources.merge(snapshot_dir.load(path))
        elif path.is_file():
            sources.merge(openapi.load_file(path))
        else:
            raise InputError(path, "", "an existing snapshot folder or OpenAPI file")
    if opts.cluster:
        sources.merge(_from_cluster(opts))
    if opts.crds:
        crds = crd.load(opts.crds)
        if not (opts.sources or opts.cluster):
            # CRDs alone: their package still needs apimachinery's meta/v1 (ObjectMeta, ListMeta).
            embedded = snapshot_dir.load(embedded_snapshot())
            for name, d in embedded.definitions.items():
                if name.startswith(APIMACHINERY_PREFIX):
                    sources.add_definition(d)
        sources.merge(crds)
    if not (opts.sources or opts.cluster or opts.crds):
        sources.merge(snapshot_dir.load(embedded_snapshot()))
    return sources


def _from_cluster(opts: Options) -> SourceSet:
    from kgen.runtime.rest import load_kubeconfig

    from .snapshot import capture

    config = load_kubeconfig(opts.kubeconfig, opts.context)
    with tempfile.TemporaryDirectory(prefix="kgen-cluster-") as tmp:
        capture(config, Path(tmp) / "snapshot")
        return snapshot_dir.load(Path(tmp) / "snapshot")


def _check_package_name(name: str) -> None:
    if not name or not all(part.isidentifier() and not keyword.iskeyword(part) for part in name.split(".")):
        raise InputError("--package", "", f"a Python package name, got {name!r}")


def generate(opts: Options, progress: Callable[[str, int, int], None] = lambda stage, done, total: None) -> list[str]:
    """Runs the pipeline; returns the drift lines when ``opts.check`` (empty: up to date)."""
    _check_package_name(opts.package)
    sources = load_sources(opts)
    progress("building models", 0, 1)
    package = build.build(sources, opts.package.rsplit(".", 1)[-1], opts.groups)
    progress("rendering", 0, 1)
    files = render.render(package)
    files.update(render.render_clients(package, clients.client_modules(package)))
    formatted = format.format_files(files, lambda done, total: progress("formatting", done, total))
    target = opts.out / Path(*opts.package.split("."))
    if opts.check:
        return write.drift(formatted, target)
    write.write(formatted, target)
    return []
