"""Generation time: ``kgen generate`` of the whole stock API, and datamodel-code-generator on the
same OpenAPI v3 documents.

kgen runs as users run it, ``kgen generate --out DIR --package kubernetes`` from the embedded
snapshot, black included. Cold: an empty format cache (``KGEN_CACHE_DIR`` set to a fresh
folder) and an empty output folder. Warm: the same command again, same cache, same output,
nothing changed.

datamodel-code-generator runs once per document (``api/v1.json`` and ``apis/*/*.json``), with
its default model type (``pydantic_v2.BaseModel``, also the faster of its two struct-like
outputs here) and its current default formatters (``black isort``, passed explicitly, which
silences a deprecation warning). kgen's black pass uses a process per core, so the documents
run that many at a time too; the serial sum of per-document times is reported as well.
"""

from __future__ import annotations

import filecmp
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DMCG_MODEL_TYPE = "pydantic_v2.BaseModel"
DMCG_FORMATTERS = ("black", "isort")


@dataclass(frozen=True)
class KgenGeneration:
    cold: float
    warm: float
    files: int
    #: Whether the output is byte-for-byte the committed ``generated/kubernetes``.
    matches_committed: bool


@dataclass(frozen=True)
class DmcgGeneration:
    version: str
    documents: int
    workers: int
    #: Wall time of all documents, ``workers`` at a time.
    wall: float
    #: Sum of the per-document times of the documents that succeeded.
    serial: float
    #: (document, last line of its error output) for each failure.
    failed: list[tuple[str, str]]


def _script(name: str) -> list[str]:
    path = Path(sys.executable).with_name(name)
    if not path.exists():
        raise FileNotFoundError(f"{path}: not installed in the bench environment")
    return [str(path)]


def _timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def _files(root: Path) -> list[Path]:
    return sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def _same_tree(a: Path, b: Path) -> bool:
    files = _files(a)
    if files != _files(b):
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, [str(f) for f in files], shallow=False)
    return not mismatch and not errors


def time_kgen(repeats: int, base_env: dict[str, str]) -> KgenGeneration:
    """Median cold time over ``repeats`` fresh caches, then median warm time over ``repeats``.

    An untimed run of one group-version first compiles kgen's and black's bytecode (env.py).
    """
    command = _script("kgen") + ["generate", "--package", "kubernetes", "--out"]
    cold: list[float] = []
    warm: list[float] = []
    with tempfile.TemporaryDirectory(prefix="kgen-bench-generate-") as tmp:
        warmup = Path(tmp) / "warmup"
        _timed(command + [str(warmup / "out"), "--groups", "apps/v1"],
               dict(base_env, KGEN_CACHE_DIR=str(warmup / "cache")))
        shutil.rmtree(warmup)
        for i in range(repeats):
            run = Path(tmp) / f"run{i}"
            env = dict(base_env, KGEN_CACHE_DIR=str(run / "cache"))
            cold.append(_timed(command + [str(run / "out")], env))
            if i < repeats - 1:
                shutil.rmtree(run)
        for _ in range(repeats):
            warm.append(_timed(command + [str(run / "out")], env))
        package = run / "out" / "kubernetes"
        files = len(_files(package))
        matches = _same_tree(package, REPO / "generated" / "kubernetes")
    return KgenGeneration(statistics.median(cold), statistics.median(warm), files, matches)


def snapshot_v3() -> Path:
    """The OpenAPI v3 folder of the embedded snapshot (the newest, if there are several)."""
    snapshots = sorted((REPO / "openapi").glob("kubernetes-*/openapi/v3"))
    if not snapshots:
        raise FileNotFoundError(f"no OpenAPI v3 snapshot under {REPO / 'openapi'}")
    return snapshots[-1]


def snapshot_documents(v3: Path) -> list[Path]:
    """Every group-version document: ``api/v1.json`` and ``apis/<group>/<version>.json``."""
    return sorted(v3.glob("api/*.json")) + sorted(v3.glob("apis/*/*.json"))


def time_dmcg(workers: int, env: dict[str, str]) -> DmcgGeneration:
    """One timed pass over every document, after an untimed run on the smallest (bytecode)."""
    from importlib.metadata import version

    v3 = snapshot_v3()
    documents = snapshot_documents(v3)
    command = _script("datamodel-codegen")
    with tempfile.TemporaryDirectory(prefix="kgen-bench-dmcg-") as tmp:

        def one(doc: Path, name: str | None = None) -> tuple[Path, float, int, str]:
            # an output folder name without dots: datamodel-codegen takes "a.b" for a file
            name = name or "_".join(doc.relative_to(v3).with_suffix("").parts).replace(".", "_")
            start = time.perf_counter()
            done = subprocess.run(
                command + ["--input", str(doc), "--input-file-type", "openapi", "--output", str(Path(tmp) / name),
                           "--output-model-type", DMCG_MODEL_TYPE, "--formatters", *DMCG_FORMATTERS],
                capture_output=True, text=True, env=env,
            )
            seconds = time.perf_counter() - start
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            return doc, seconds, done.returncode, lines[-1] if lines else ""

        one(min(documents, key=lambda doc: doc.stat().st_size), "warmup")
        start = time.perf_counter()
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(one, documents))
        wall = time.perf_counter() - start
    failed = [(str(doc.relative_to(v3)), err) for doc, _, rc, err in results if rc != 0]
    serial = sum(seconds for _, seconds, rc, _ in results if rc == 0)
    return DmcgGeneration(version("datamodel-code-generator"), len(documents), workers, wall, serial, failed)
