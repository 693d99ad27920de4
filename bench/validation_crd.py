"""``kgen validate --crd`` against the apiserver's dry-run, on prometheus-operator's CRDs (issue 35 item 21).

The same objects go both ways in the same run: prometheus-operator v0.85.0's own example objects
(every document of its ``example/`` folder whose kind one of its CRDs serves; named apart, up to
``count``). kgen's side is what ``kgen validate --crd`` does for each object: the CRDs loaded once
by the generator's CRD source, then per object ``validate_against`` under Strict (its unknown fields
are Warn's warnings) and, only when it found unknown fields, again under Warn. The apiserver's side is one server-side
dry-run create per object (``dryRun=All``) on a kept-alive connection, the round trip a client
that asks the server instead pays. Both are objects per second, best of ``repeats`` passes; the
verdicts are compared too (0 disagreements expected, as tests/integration/test_validation_*
require). Goal: kgen ≥ 10× the dry-run.

``table`` and ``notes`` are I/O-free.
"""

from __future__ import annotations

import copy
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .report import Row, Table, times
from .timing import best_seconds

REPO = Path(__file__).resolve().parents[1]
MODULE, VERSION, CRD_FOLDER = "github.com/prometheus-operator/prometheus-operator", "v0.85.0", "example/prometheus-operator-crd"
NAMESPACE = "bench-validation"
GOAL = 10.0


@dataclass(frozen=True)
class CrdValidationRun:
    objects: int
    kinds: int
    crd_kib: int
    kgen_per_s: float
    dry_run_per_s: float
    agree: int
    repeats: int


def _objects(count: int) -> tuple[list[Path], list[dict[str, Any]], list[dict[str, Any]],
                                  dict[tuple[str, str], tuple[str, bool]]]:
    """The CRD files, the CRDs, ``count`` example objects (named apart) and (apiVersion, kind) -> (plural, namespaced)."""
    sys.path.insert(0, str(REPO))
    from tests.support.validation_projects import _documents, fast_crds
    from tests.support.corpus import module_dir

    root = module_dir(MODULE, VERSION)
    crds = fast_crds(MODULE, VERSION, CRD_FOLDER)
    served = {(f"{c['spec']['group']}/{v['name']}", c["spec"]["names"]["kind"]):
              (c["spec"]["names"]["plural"], c["spec"]["scope"] == "Namespaced")
              for c in crds for v in c["spec"]["versions"] if v.get("served")}
    examples = [d for p in sorted((root / "example").rglob("*.yaml")) if not p.is_relative_to(root / CRD_FOLDER)
                and "-crd" not in str(p.relative_to(root)) for d in _documents(p)
                if (d.get("apiVersion"), d.get("kind")) in served and isinstance(d.get("metadata"), dict)]
    objects = []
    for i in range(count):
        obj = copy.deepcopy(examples[i % len(examples)])
        obj["metadata"] = {**obj["metadata"], "name": f"bench-{i}"}
        if served[obj["apiVersion"], obj["kind"]][1]:
            obj["metadata"]["namespace"] = NAMESPACE
        else:
            obj["metadata"].pop("namespace", None)
        objects.append(obj)
    files = sorted(p for p in (root / CRD_FOLDER).glob("*.yaml"))
    return files, crds, objects, served


def measure(count: int, repeats: int, progress: Callable[[str], None]) -> CrdValidationRun:
    from kgen.generator.sources import crd
    from kgen.runtime.apimachinery.validation import validate_against
    from kgen.runtime.apimachinery.validation.schemas import validation_schemas
    from kgen.runtime.testing import KubeAPIServer

    files, crds, objects, served = _objects(count)
    progress(f"validation --crd: {len(objects)} prometheus-operator example objects, {len(files)} CRD files")
    # what kgen validate --crd does (generator/cli.py's _validate): the CRDs loaded once, then each object
    definitions = crd.load(files).definitions
    stock = validation_schemas("kgen.kubernetes")
    custom = {(f"{g['group']}/{g['version']}", g["kind"]): d.schema
              for d in definitions.values() for g in d.schema.get("x-kubernetes-group-version-kind") or []}

    def resolve(ref: str) -> dict[str, Any]:
        name = ref.rsplit("/", 1)[-1]
        return definitions[name].schema if name in definitions else stock.definition(name)

    def kgen_verdicts() -> list[bool]:
        out = []
        for obj in objects:
            schema = custom[obj["apiVersion"], obj["kind"]]
            strict = validate_against(schema, obj, field_validation="Strict", resolve=resolve)
            if any(e.message.startswith("unknown field") for e in strict):  # warnings: then Warn's answer
                strict = validate_against(schema, obj, field_validation="Warn", resolve=resolve)
            out.append(not strict)
        return out

    kgen_accepts = kgen_verdicts()
    kgen_s = best_seconds(kgen_verdicts, repeats)
    with KubeAPIServer() as server, server.admin_client(timeout=60.0) as admin:
        for doc in crds:
            resp = admin.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", json=doc)
            if resp.status_code not in (201, 409):
                raise RuntimeError(f"CRD {doc['metadata']['name']} refused: {resp.text[:300]}")
        admin.post("/api/v1/namespaces", json={"metadata": {"name": NAMESPACE}})
        paths = []
        for obj in objects:
            plural, namespaced = served[obj["apiVersion"], obj["kind"]]
            paths.append(f"/apis/{obj['apiVersion']}/" + (f"namespaces/{NAMESPACE}/" if namespaced else "") + plural)
        deadline = time.monotonic() + 60
        for p in set(paths):
            while admin.get(p).status_code != 200:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{p} never served")
                time.sleep(0.2)
        bodies = [json.dumps(o) for o in objects]

        def dry_runs() -> list[bool]:
            return [admin.post(p, params={"dryRun": "All"}, content=b,
                               headers={"Content-Type": "application/json"}).status_code < 400
                    for p, b in zip(paths, bodies, strict=True)]

        progress(f"validation --crd: {len(objects)} server-side dry-run creates, best of {repeats} passes")
        server_accepts = dry_runs()
        dry_s = best_seconds(dry_runs, repeats)
    return CrdValidationRun(objects=len(objects), kinds=len({(o["apiVersion"], o["kind"]) for o in objects}),
                            crd_kib=sum(p.stat().st_size for p in files) // 1024,
                            kgen_per_s=len(objects) / kgen_s, dry_run_per_s=len(objects) / dry_s,
                            agree=sum(a == b for a, b in zip(kgen_accepts, server_accepts, strict=True)), repeats=repeats)


def table(run: CrdValidationRun) -> Table:
    ratio = run.kgen_per_s / run.dry_run_per_s
    rows = [Row(f"validate {run.objects} prometheus-operator objects ({run.kinds} kinds)",
                (f"{run.kgen_per_s:,.0f}/s", f"{run.dry_run_per_s:,.0f}/s"), times(ratio), f"≥ {GOAL:.0f}×",
                ratio >= GOAL)]
    return Table("kgen validate --crd vs the apiserver's server-side dry-run, same objects, same run "
                 "(ratio = kgen ÷ dry-run objects/s)", ("kgen validate --crd", "dry-run round trip"), rows)


def notes(run: CrdValidationRun) -> list[str]:
    return [
        f"- validation --crd: prometheus-operator {VERSION}'s CRDs ({run.crd_kib:,} KiB of YAML) and its example "
        f"objects; kgen as `kgen validate --crd` runs (one Strict pass per object, a Warn one after unknown fields), best of "
        f"{run.repeats} passes; the apiserver one dry-run create per object on a kept-alive connection, best of "
        f"{run.repeats}; verdicts agree on {run.agree}/{run.objects}",
    ]
