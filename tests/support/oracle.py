"""The Go oracle programs (hack/oracle/<name>): client-go and apimachinery at the envtest
version, built from the Go module proxy and cached outside the repository like the envtest
binaries. Tests run them beside the Python code and compare what both do."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

BUILD = Path(__file__).resolve().parents[2] / "hack" / "oracle" / "build.sh"


@functools.cache
def oracle_binary(name: str) -> Path:
    """The path of the built oracle program ``name`` (built on first use, ~1 min cold)."""
    done = subprocess.run([str(BUILD), name], capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"building the {name} oracle failed:\n{done.stderr[-4000:]}")
    return Path(done.stdout.strip().splitlines()[-1])
