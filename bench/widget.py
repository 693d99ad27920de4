"""The Widget client the operator bench drives and runs on, generated at bench time.

``kgen generate --crd bench/widget_crd --package widget_client`` into ``build/bench/generated/``
(as the other benches generate their packages: crd_sets.py, generation.py), so the repository
holds the CRD (bench/widget_crd/, from bench/widget_api.py's markers) and not the 1,400 lines
kgen makes of it. The folder is regenerated when it differs from what this checkout's generator
makes (``--check``), and put on ``sys.path``; the operator's process gets it on ``PYTHONPATH``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CRDS = REPO / "bench" / "widget_crd"
PACKAGE = "widget_client"
OUT = REPO / "build" / "bench" / "generated"


def generate(out: Path = OUT) -> Path:
    """The folder holding ``widget_client``, generated now unless it is up to date."""
    command = [sys.executable, "-m", "kgen.generator.cli", "generate", "--crd", str(CRDS), "--package", PACKAGE,
               "--out", str(out)]
    if not (out / PACKAGE).exists() or subprocess.run([*command, "--check"], capture_output=True).returncode != 0:
        out.mkdir(parents=True, exist_ok=True)
        subprocess.run(command, check=True, capture_output=True)
    return out


def importable() -> Path:
    """``generate()``, and its folder first on ``sys.path`` (``import widget_client``)."""
    folder = generate()
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return folder
