"""The JSON shape of Go API structs, read from their source in the Go module cache.

The review models must carry exactly the wire names, order and optionality of the Go types the
apiserver encodes (k8s.io/api, k8s.io/apiextensions-apiserver, k8s.io/apimachinery at the
envtest version). Rather than restating them in the test, this reads each struct's ``json``
tags from the source that ``go mod download`` fetches (from the module cache when it is there):
a field tagged ``omitempty``/``omitzero`` is optional, any other is written always (required), and an
embedded ``metav1.TypeMeta`` contributes ``kind`` and ``apiVersion``.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
from pathlib import Path

ENVTEST_VERSIONS = Path(__file__).resolve().parents[3] / "hack" / "envtest" / "versions.env"

_TAG = re.compile(r'^\s*\S.*`json:"(?P<json>[^"]*)"')


def staging_version() -> str:
    """``v0.<minor>.<patch>`` of the envtest Kubernetes version."""
    for line in ENVTEST_VERSIONS.read_text().splitlines():
        if line.startswith("KUBERNETES_VERSION="):
            return "v0." + line.split("=", 1)[1].split(".", 1)[1]
    raise RuntimeError(f"{ENVTEST_VERSIONS}: no KUBERNETES_VERSION")


@functools.cache
def module_dir(module: str) -> Path:
    """The source folder of ``module`` at the envtest version (``go mod download``)."""
    done = subprocess.run(
        ["go", "mod", "download", "-json", f"{module}@{staging_version()}"],
        capture_output=True, text=True, timeout=600, check=True,
    )
    return Path(json.loads(done.stdout)["Dir"])


def struct_fields(source: Path, name: str) -> list[tuple[str, bool]]:
    """``(wire name, required)`` for each JSON field of Go struct ``name`` in ``source``, in order."""
    text = source.read_text()
    match = re.search(rf"^type {name} struct {{\n(.*?)^}}", text, re.M | re.S)
    if match is None:
        raise LookupError(f"{source}: no struct {name}")
    fields: list[tuple[str, bool]] = []
    for line in match.group(1).splitlines():
        tag = None if line.lstrip().startswith("//") else _TAG.match(line)
        if tag is None:
            continue
        wire, *options = tag["json"].split(",")
        if wire == "" and "TypeMeta" in line:  # embedded, inlined: its own two fields
            fields += [("kind", False), ("apiVersion", False)]
            continue
        if wire == "-":
            continue
        fields.append((wire, not ({"omitempty", "omitzero"} & set(options))))
    return fields
