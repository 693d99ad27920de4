"""Where two JSON documents differ, one line each: what an oracle wrote against what kgen wrote.

``differences(want, got, names=("Go", "kgen"))`` walks both: a key only one side has, or two
leaves that differ (in value or JSON type: ``1`` is not ``true``, ``1.0`` not ``1``). Lists of
the same length are compared item by item, others as leaves. Paths are ``.key[index]``; values
are cut to 120 characters of their JSON."""

from __future__ import annotations

import json
from typing import Any


def _short(value: Any) -> str:
    return json.dumps(value, default=str)[:120]


def differences(want: Any, got: Any, names: tuple[str, str] = ("want", "got"), path: str = "") -> list[str]:
    """Every place ``got`` differs from ``want`` (``names`` says whose each is), sorted by key."""
    if isinstance(want, dict) and isinstance(got, dict):
        out: list[str] = []
        for key in sorted(want.keys() | got.keys()):
            if key not in got:
                out.append(f"{path}.{key}: only {names[0]}: {_short(want[key])}")
            elif key not in want:
                out.append(f"{path}.{key}: only {names[1]}: {_short(got[key])}")
            else:
                out.extend(differences(want[key], got[key], names, f"{path}.{key}"))
        return out
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return [line for i, (a, b) in enumerate(zip(want, got, strict=True)) for line in differences(a, b, names, f"{path}[{i}]")]
    if want == got and type(want) is type(got):
        return []
    return [f"{path}: {names[0]} {_short(want)} != {names[1]} {_short(got)}"]
