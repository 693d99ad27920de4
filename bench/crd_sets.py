"""Large CRD sets: what kgen generates for gateway-api, cert-manager and prometheus-operator.

``python -m bench.crd_sets [--baseline REV]`` prints, per project: the number of model classes,
the longest class name, the package's size (bytes and lines of every ``.py`` file, and of the
models alone), the import time of all its models modules in a fresh interpreter, and the wall
time of ``kgen generate`` with an empty format cache. With ``--baseline REV`` (repeatable) the
same figures are taken for the generator at git revision REV (checked out into a temporary
worktree; its generated code imports this checkout's runtime), side by side; the ratio column
is the second column over the first. Uncommitted work in the checkout counts in its column.

A second table measures the identity rule of generator/nested.py: how many classes the CRDs'
group-versions have with one class per place (no sharing), with the rule (the descriptions of a
class's fields in its identity, the object's own left out), and ignoring every description.

The CRDs are the ones the integration tests use (tests/support/corpus.py: pinned module
versions, fetched from the Go module proxy into kgen's cache).
"""

from __future__ import annotations

import argparse
import ast
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .env import subprocess_env
from .report import Row, Table, seconds

REPO = Path(__file__).resolve().parents[1]
PROJECTS = ("gateway-api", "cert-manager", "prometheus-operator")


@dataclass(frozen=True)
class Figures:
    classes: int
    longest: str
    files_bytes: int
    files_lines: int
    models_bytes: int
    models_lines: int
    import_seconds: float
    generate_seconds: float


def _progress(message: str) -> None:
    print(f"bench.crd_sets: {message}", file=sys.stderr, flush=True)


def crd_paths(project: str) -> list[Path]:
    sys.path.insert(0, str(REPO))
    from tests.support.corpus import crd_files

    return crd_files(project)


@contextmanager
def baseline_tree(rev: str) -> Iterator[Path]:
    """A worktree of ``rev``; yields the folder to put on PYTHONPATH for its generator."""
    with tempfile.TemporaryDirectory(prefix="kgen-bench-baseline-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), rev], cwd=REPO, check=True,
                       capture_output=True)
        try:
            yield tree / "packaging" / "kgen"
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO, check=True)


def _generate(crds: list[Path], out: Path, package: str, env: dict[str, str]) -> float:
    args = [a for p in crds for a in ("--crd", str(p))]
    command = [sys.executable, "-c", "import sys; from kgen.generator.cli import main; sys.exit(main(sys.argv[1:]))",
               "generate", *args, "--package", package, "--out", str(out)]
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def _sizes(files: list[Path]) -> tuple[int, int]:
    data = [p.read_bytes() for p in files]
    return sum(len(d) for d in data), sum(d.count(b"\n") for d in data)


def _class_names(files: list[Path]) -> list[str]:
    return [node.name for p in files for node in ast.parse(p.read_text()).body if isinstance(node, ast.ClassDef)]


def import_seconds(packages: list[tuple[Path, list[str]]], repeats: int, env: dict[str, str]) -> list[float]:
    """Median wall time of ``python -c "import <every models module>"`` per package (folder on
    sys.path, module names), start-up included; the packages take turns in each of ``repeats``
    rounds, so a busy moment of the machine falls on all of them alike. One untimed round first
    writes the bytecode (env.py) and warms the page cache."""
    commands = []
    for out, modules in packages:
        run_env = dict(env, PYTHONPATH=str(out))
        commands.append(([sys.executable, "-c", "; ".join(f"import {m}" for m in modules)], run_env, out))
    samples: list[list[float]] = [[] for _ in commands]
    for n in range(repeats + 1):
        for i, (command, run_env, out) in enumerate(commands):
            start = time.perf_counter()
            subprocess.run(command, env=run_env, check=True, cwd=out)
            if n:
                samples[i].append(time.perf_counter() - start)
    return [statistics.median(s) for s in samples]


@dataclass(frozen=True)
class Generated:
    figures: Figures
    out: Path  # the --out folder
    modules: list[str]  # its models modules


def measure(project: str, crds: list[Path], work: Path, env: dict[str, str], repeats: int) -> Generated:
    """Generates ``repeats`` times (fresh format cache each) and reads the first output."""
    package = project.replace("-", "_")
    times = []
    for i in range(repeats):
        out = work / f"out{i}"
        times.append(_generate(crds, out, package, dict(env, KGEN_CACHE_DIR=str(work / f"cache{i}"))))
    root = work / "out0" / package
    files = sorted(root.rglob("*.py"))
    models = sorted((root / "models").rglob("*.py"))
    names = _class_names(models)
    modules = [".".join(p.relative_to(work / "out0").with_suffix("").parts) for p in models if p.name != "__init__.py"]
    figures = Figures(
        classes=len(names),
        longest=max(names, key=lambda n: (len(n), n)),
        files_bytes=_sizes(files)[0],
        files_lines=_sizes(files)[1],
        models_bytes=_sizes(models)[0],
        models_lines=_sizes(models)[1],
        import_seconds=0.0,
        generate_seconds=statistics.median(times),
    )
    return Generated(figures, work / "out0", modules)


def _without_descriptions(schema: Any) -> Any:
    """A schema without its ``description`` keywords (property names are kept, whatever they are)."""
    if not isinstance(schema, dict):
        return schema
    out = {k: v for k, v in schema.items() if k != "description"}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {k: _without_descriptions(v) for k, v in out["properties"].items()}
    for key in ("items", "additionalProperties"):
        if key in out:
            out[key] = _without_descriptions(out[key])
    for key in ("allOf", "anyOf", "oneOf"):
        if isinstance(out.get(key), list):
            out[key] = [_without_descriptions(v) for v in out[key]]
    return out


def identity_counts(crds: list[Path]) -> tuple[int, int, int]:
    """Classes of the CRDs' group-versions: one per place (no sharing), by the rule, and shared
    ignoring every description."""
    from kgen.generator import build
    from kgen.generator.generate import Options, load_sources
    from kgen.generator.nested import NestedClasses

    sources = load_sources(Options(crds=crds))
    # One class per place: every use of a nested object schema, plus the kinds and lists.
    walker = NestedClasses()
    roots = [d for name, d in sources.definitions.items() if not name.startswith("io.k8s.apimachinery.")]
    for d in roots:
        walker.walk(("", ""), d.name, d.schema)
    per_place = len(roots) + sum(len(n.uses) for n in walker.by_key.values())
    crd_modules = set(sources.crd_group_versions)
    package = build.build(sources, "x")
    shared = sum(len(m.models) for m in package.modules if (m.group, m.version) in crd_modules)
    for d in sources.definitions.values():
        d.schema = _without_descriptions(d.schema)
    package = build.build(sources, "x")
    loose = sum(len(m.models) for m in package.modules if (m.group, m.version) in crd_modules)
    return per_place, shared, loose


def _int(n: int) -> str:
    return f"{n:,}"


def figures_table(project: str, results: dict[str, Figures]) -> Table:
    """One column per generator; ratio: the second column over the first."""
    values = list(results.values())

    def row(metric: str, cells: list[str], of: str | None = None) -> Row:
        ratio = ""
        if of is not None and len(values) >= 2:
            ratio = f"{getattr(values[1], of) / getattr(values[0], of):.2f}×"
        return Row(metric, tuple(cells), ratio, "", None)

    rows = [
        row("model classes", [_int(f.classes) for f in values], "classes"),
        row("longest class name (characters)", [str(len(f.longest)) for f in values]),
        row("package size (every .py file)", [f"{f.files_bytes / 1e6:.2f} MB" for f in values], "files_bytes"),
        row("package lines", [_int(f.files_lines) for f in values], "files_lines"),
        row("models size", [f"{f.models_bytes / 1e6:.2f} MB" for f in values], "models_bytes"),
        row("models lines", [_int(f.models_lines) for f in values], "models_lines"),
        row("import every models module (fresh interpreter)", [seconds(f.import_seconds) for f in values],
            "import_seconds"),
        row("kgen generate, empty format cache", [seconds(f.generate_seconds) for f in values], "generate_seconds"),
    ]
    longest = "; ".join(f"{column}: {f.longest}" for column, f in results.items())
    return Table(f"{project} — longest names: {longest}", tuple(results), rows)


def identity_table(counts: dict[str, tuple[int, int, int]]) -> Table:
    rows = [
        Row(project, (_int(place), _int(shared), _int(loose)), f"{loose / shared:.3f}×", "", None)
        for project, (place, shared, loose) in counts.items()
    ]
    return Table("Classes of the CRDs' group-versions by identity rule (ratio = every description ignored / the rule)",
                 ("one per place", "the rule (nested.py)", "every description ignored"), rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.crd_sets", description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV", action="append", default=[],
                        help="also measure the generator at this git revision (repeatable)")
    parser.add_argument("--repeats", type=int, default=1, help="kgen generate runs per figure (median)")
    parser.add_argument("--import-repeats", type=int, default=11, help="fresh interpreters per import figure")
    parser.add_argument("--projects", default=",".join(PROJECTS), help="comma-separated, of " + ", ".join(PROJECTS))
    args = parser.parse_args(argv)
    projects = [p for p in args.projects.split(",") if p]
    tables: list[Table] = []
    counts: dict[str, tuple[int, int, int]] = {}
    with subprocess_env() as env, tempfile.TemporaryDirectory(prefix="kgen-bench-crds-") as tmp, ExitStack() as stack:
        trees = {rev: stack.enter_context(baseline_tree(rev)) for rev in args.baseline}
        for project in projects:
            crds = crd_paths(project)
            generated: dict[str, Generated] = {}
            for rev, tree in trees.items():
                _progress(f"{project}: kgen generate at {rev}")
                old_env = dict(env, PYTHONPATH=os.pathsep.join([str(tree), env.get("PYTHONPATH", "")]))
                generated[f"at {rev}"] = measure(project, crds, Path(tmp) / project / rev, old_env, args.repeats)
            _progress(f"{project}: kgen generate, this checkout")
            generated["this checkout"] = measure(project, crds, Path(tmp) / project / "checkout", env, args.repeats)
            _progress(f"{project}: imports, {args.import_repeats} rounds")
            timings = import_seconds([(g.out, g.modules) for g in generated.values()], args.import_repeats, env)
            results = {column: replace(g.figures, import_seconds=t)
                       for (column, g), t in zip(generated.items(), timings, strict=True)}
            tables.append(figures_table(project, results))
            counts[project] = identity_counts(crds)
    tables.append(identity_table(counts))
    for table in tables:
        print()
        print(table.render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
