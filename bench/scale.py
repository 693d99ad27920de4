"""Scale: 1,000 to 100,000 Pods cached by kgen (full and metadata-only informers), client-go,
the official client and lightkube, each in a fresh process, on one real apiserver.

Per object count, one namespace is filled once (bench/scale_fill.py) and every client then
runs ``repeats`` times, round by round (each round runs every client once, so load drifts
reach them all alike); a figure is the median of its runs. The Python clients are
bench/scale_clients.py; client-go's is hack/oracle/scalebench (a typed Pod informer from
``informers.NewSharedInformerFactory``, built from the Go module proxy at the envtest version,
the clientset as users get it: protobuf, which client-go's typed clients ask for built-in kinds
(``UseProtobufAsDefault``), and once more speaking JSON, the wire format of every Python client and
of custom resources). The ratios (bench/scale_report.py) are all between
figures of this one run, and ``write`` puts the charts (bench/scale_charts.py) and a markdown
report next to each other.

    python -m bench --only scale [--scale-counts 1000,10000,100000] [--scale-repeats 3]
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .env import subprocess_env
from .generation import REPO
from .scale_clients import CLIENTS, TIMEOUT
from .scale_fill import fill
from .scale_report import Figure, ScaleResult, median_figure

#: The Python clients, then client-go: the order each round runs them in.
RUN_ORDER = (*CLIENTS, "client-go", "client-go-json", "client-go-lean")


def namespace(count: int) -> str:
    return f"bench-scale-{count}"


def _figure(output: dict[str, Any], objects: int) -> Figure:
    memory = None if output.get("noMemory") else (int(output["rssAfter"]) - int(output["rssBefore"])) / objects
    return Figure(float(output["seconds"]), memory)


def _client_go_binary() -> str:
    build = subprocess.run([str(REPO / "hack" / "oracle" / "build.sh"), "scalebench"], capture_output=True,
                           text=True, timeout=1800)
    if build.returncode != 0:
        raise RuntimeError(f"building hack/oracle/scalebench failed: {build.stderr.strip()[-500:]}")
    return build.stdout.strip().splitlines()[-1]


def _command(client: str, binary: str, kubeconfig: str, count: int) -> list[str]:
    if client.startswith("client-go"):
        flags = {"client-go-lean": ["-strip-managed-fields"], "client-go-json": ["-json"]}.get(client, [])
        return [binary, "-kubeconfig", kubeconfig, "-namespace", namespace(count), "-objects", str(count), *flags]
    return [sys.executable, "-m", "bench.scale_clients", client, kubeconfig, namespace(count), str(count)]


def _run(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, cwd=REPO, env=env)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        raise RuntimeError(lines[-1] if lines else f"exit status {done.returncode}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


#: What a client may be predicted to need at most: the machine's MemAvailable less this margin
#: (the apiserver and etcd grow while a client runs).
MEMORY_MARGIN = 4 * 1024**3


def available_bytes() -> int:
    """MemAvailable from /proc/meminfo."""
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("/proc/meminfo has no MemAvailable line")


def too_big(client: str, count: int, runs: dict[tuple[str, int], list[Figure]], available: int) -> str | None:
    """Why ``client`` is not run at ``count``, when its memory per object at the largest count
    measured so far predicts more than ``available`` less the margin (the official client's
    models take ~150 KiB per Pod: 15 GB at 100,000); None: run it."""
    measured = [(n, figures) for (c, n), figures in runs.items() if c == client and n < count]
    if not measured:
        return None
    n, figures = max(measured, key=lambda item: item[0])
    per_object = max((f.bytes_per_object or 0.0) for f in figures)
    need = per_object * count
    if need == 0 or need <= available - MEMORY_MARGIN:
        return None
    return (f"not run at {count:,} pods: {per_object / 1024:.0f} KiB per Pod at {n:,} predicts "
            f"{need / 1024**3:.1f} GiB, more than this machine's {available / 1024**3:.1f} GiB available "
            f"less a {MEMORY_MARGIN / 1024**3:.0f} GiB margin for the apiserver and etcd")


def _warm(kubeconfig: str, namespace: str) -> None:
    """Waits for the restarted apiserver's Pod cache: a list from the watch cache
    (resourceVersion "0") is answered once the cache is filled from etcd."""
    from kgen.kubernetes import Clientset

    Clientset.from_kubeconfig(kubeconfig).core_v1.pods(namespace).list(limit=1, resource_version="0")


def _unavailable() -> dict[str, str]:
    """Clients that cannot run in this checkout, found before any server starts."""
    missing: dict[str, str] = {}
    if importlib.util.find_spec("kgen.kubernetes.metadata") is None:
        missing["kgen-metadata"] = "kgen.kubernetes.metadata (the metadata-only informer) is not generated here"
    for client, module in (("official", "kubernetes"), ("lightkube", "lightkube")):
        if importlib.util.find_spec(module) is None:
            missing[client] = f"{module} is not installed (pyproject's bench extra)"
    return missing


def measure(counts: Sequence[int], repeats: int, seed: int, progress: Callable[[str], None]) -> ScaleResult:
    from kgen.runtime.testing import KubeAPIServer

    missing = _unavailable()
    binary = ""
    try:
        binary = _client_go_binary()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        missing["client-go"] = missing["client-go-json"] = missing["client-go-lean"] = str(e)
    runs: dict[tuple[str, int], list[Figure]] = {}
    facts: dict[str, str] = {}
    with KubeAPIServer() as server, subprocess_env() as env:
        for count in counts:
            progress(f"scale: creating {count:,} pods with their status in {namespace(count)}")
            facts["served"] = asyncio.run(fill(server.kubeconfig, namespace(count), count, seed, progress))
            progress(f"scale: restarting the apiserver on the filled etcd ({count:,} pods)")
            server.restart_apiserver()
            _warm(server.kubeconfig, namespace(count))
            facts["restart"] = ("the apiserver is restarted after each fill, so every client meets one whose watch "
                                "cache holds each Pod once, loaded from etcd, and none of the fill's create and "
                                "status events (which held ~140 KB per Pod at 100,000)")
            for i in range(repeats):
                progress(f"scale: {count:,} pods, round {i + 1} of {repeats} ({', '.join(RUN_ORDER)})")
                for client in RUN_ORDER:
                    if client not in missing and (why := too_big(client, count, runs, available_bytes())):
                        missing[client] = why
                    if client in missing:
                        continue
                    try:
                        output = _run(_command(client, binary, server.kubeconfig, count), env)
                    except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
                        missing[client] = f"failed at {count:,} pods: {e}"
                        continue
                    runs.setdefault((client, count), []).append(_figure(output, count))
                    if "watchList" in output:
                        facts[f"{client} watchList"] = f"{client} ran with WatchList {'on' if output['watchList'] else 'off'}"
                    if "managedFields" in output:
                        facts[f"{client} managedFields"] = (f"{client} cached managedFields: "
                                                            f"{'yes' if output['managedFields'] else 'no'}")
                    if "wire" in output:
                        facts[f"{client} wire"] = f"{client} received the Pods as {output['wire']}"
                    if "clientGo" in output:
                        facts["client-go version"] = f"client-go {output['clientGo']}, built by hack/oracle/build.sh"
    figures: dict[str, dict[int, Figure]] = {}
    every: dict[str, dict[int, list[Figure]]] = {}
    for (client, count), samples in runs.items():
        figures.setdefault(client, {})[count] = median_figure(samples)
        every.setdefault(client, {})[count] = samples
    return ScaleResult(tuple(counts), repeats, figures, missing, tuple(facts.values()), every)


def write(result: ScaleResult, folder: Path, header: str) -> list[Path]:
    """The charts, ``scale.md`` (ratio table and figures, linking the charts) and ``scale.json``
    (the medians, for comparing runs) in ``folder``."""
    from .scale_charts import write_charts
    from .scale_report import markdown

    charts = write_charts(result, folder)
    report = folder / "scale.md"
    report.write_text(markdown(result, [c.name for c in charts], header), encoding="utf-8")
    figures = folder / "scale.json"
    figures.write_text(json.dumps({
        "header": header, "repeats": result.repeats, "missing": dict(result.missing),
        "figures": {client: {str(count): _json(f) for count, f in by_count.items()}
                    for client, by_count in result.figures.items()},
        "runs": {client: {str(count): [_json(f) for f in runs] for count, runs in by_count.items()}
                 for client, by_count in result.runs.items()},
    }, indent=1), encoding="utf-8")
    return [report, figures, *charts]


def _json(figure: Figure) -> dict[str, float | None]:
    return {"seconds": figure.seconds, "bytesPerObject": figure.bytes_per_object}


def parse_counts(text: str) -> tuple[int, ...]:
    """``--scale-counts``: comma-separated positive integers, e.g. ``1000,10000,100000``."""
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"want comma-separated object counts such as 1000,10000, got {text!r}") from None
    if not counts or any(c <= 0 for c in counts) or len(set(counts)) != len(counts):
        raise ValueError(f"want distinct positive object counts such as 1000,10000, got {text!r}")
    return tuple(sorted(counts))
