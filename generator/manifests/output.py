"""CRD objects -> YAML files, written as controller-gen writes them and all-or-nothing.

The YAML is what controller-gen prints (sigs.k8s.io/yaml: keys sorted, a ``---`` first line,
multi-line descriptions as ``|-`` blocks) so a diff against a controller-gen CRD shows only
what differs in meaning. One file per group-kind, named ``<group>_<plural>.yaml``, and ``role.yaml`` for the RBAC roles. Every file
is rendered before any is written, and each goes to a temporary file beside its destination
that is renamed over it, so a failed run leaves each file old or new, never half-written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml


class _Dumper(yaml.SafeDumper):
    pass


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if value == "":
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')  # sigs.k8s.io/yaml's ""
    if "\n" in value and not any(line != line.rstrip() for line in value.split("\n")):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _string)


def render(obj: dict[str, Any]) -> str:
    return "---\n" + yaml.dump(obj, Dumper=_Dumper, sort_keys=True, default_flow_style=False, allow_unicode=True, width=80)


#: controller-gen's file for the RBAC role(s): one YAML document per role.
ROLE_FILE = "role.yaml"


def render_all(objs: list[dict[str, Any]]) -> str:
    return "".join(render(obj) for obj in objs)


def file_name(group: str, plural: str) -> str:
    return f"{group}_{plural}.yaml"


def write_all(out: Path, files: dict[str, str]) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in sorted(files.items()):
        target = out / name
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=out)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(tmp, 0o644)  # mkstemp makes it 0600; a manifest is read by other tools and users
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        written.append(target)
    return written
