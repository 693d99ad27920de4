"""Import time in fresh interpreters: wall time of ``python -c STATEMENT``, start-up included."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

KGEN_MODELS = "import kgen.kubernetes.models.core.v1"
LIGHTKUBE_MODELS = "import lightkube.models.core_v1"
KGEN_CLIENTSET = "from kgen.kubernetes import Clientset"
KGEN_PACKAGE = "import kgen.kubernetes"
LIGHTKUBE_CLIENT = "from lightkube import Client"
NOTHING = "pass"


@dataclass(frozen=True)
class ImportTimes:
    seconds: dict[str, float]
    #: What stands for kgen's client entry point: the Clientset import once it exists.
    kgen_client: str


def _run(statement: str, cwd: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", statement], cwd=cwd, env=env, check=True)
    return time.perf_counter() - start


def _works(statement: str, cwd: str, env: dict[str, str]) -> bool:
    done = subprocess.run([sys.executable, "-c", statement], cwd=cwd, env=env, capture_output=True)
    return done.returncode == 0


def measure_imports(repeats: int, env: dict[str, str]) -> ImportTimes:
    """Median over ``repeats`` rounds; each round runs every statement once, in turn.

    One untimed round first writes the bytecode (see env.py) and warms the page cache. The
    working directory is an empty folder, so nothing in the checkout shadows an installed module.
    """
    with tempfile.TemporaryDirectory(prefix="kgen-bench-import-") as cwd:
        kgen_client = KGEN_CLIENTSET if _works(KGEN_CLIENTSET, cwd, env) else KGEN_PACKAGE
        statements = [NOTHING, KGEN_MODELS, LIGHTKUBE_MODELS, kgen_client, LIGHTKUBE_CLIENT]
        for statement in statements:
            _run(statement, cwd, env)
        samples: dict[str, list[float]] = {s: [] for s in statements}
        for _ in range(repeats):
            for statement in statements:
                samples[statement].append(_run(statement, cwd, env))
    return ImportTimes({s: statistics.median(t) for s, t in samples.items()}, kgen_client)
