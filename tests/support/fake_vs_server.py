"""A differential harness: the same scripted HTTP requests to the real apiserver and to the fake.

Each side is a plain ``httpx.Client`` (the admin client of envtest's apiserver, or one over
``ObjectTracker.transport()``), so what is compared is exactly what a client receives: the
status code, the reason, the whole body. Before comparing, only what is allowed to differ is
normalized: ``uid``s, timestamps, and the *values* of resourceVersions (each side's are renamed
``rv1``, ``rv2``... in order of first appearance, so their equalities still count; a number in a
``message`` in parentheses, as conflicts quote resourceVersions, is renamed the same way, and a
uid in it too). A continue
token is compared by its presence; each side goes on with its own token.

managedFields are left out of the comparison: their granularity (existence markers, struct
markers, set items) is structured-merge-diff's, another part of issue 12, and is compared there.

A watch (``watch=1`` in the params, with a ``timeoutSeconds``) is answered as the list of its
events.

A step's body (or params) may be a function of that side's previous answers (``Answers``), so
"update the object as last read" or "the next page" is scripted once for both sides.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import httpx

Json = Any
_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
_UID_IN_TEXT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_UID = re.compile(f"^{_UID_IN_TEXT.pattern}$")


@dataclass
class Answers:
    """One side's answers so far, by step label."""

    by_label: dict[str, Json] = field(default_factory=dict)
    last: Json = None

    def __getitem__(self, label: str) -> Json:
        return self.by_label[label]


Dynamic = Callable[[Answers], Json]


@dataclass
class Step:
    """One request. ``body``/``params`` may be values or functions of the side's answers."""

    label: str
    method: str
    path: str
    body: Json | Dynamic = None
    params: dict[str, Any] | Dynamic | None = None
    content_type: str = "application/json"


@dataclass
class Divergence:
    step: str
    what: str

    def __str__(self) -> str:
        return f"{self.step}: {self.what}"


@dataclass
class Outcome:
    compared: int = 0
    divergences: list[Divergence] = field(default_factory=list)
    #: The server's answers, for tests to check that a scenario reached what it is about.
    server: Answers = field(default_factory=Answers)


def send(client: httpx.Client, step: Step, answers: Answers) -> tuple[int, Json]:
    body = step.body(answers) if callable(step.body) else step.body
    params = step.params(answers) if callable(step.params) else step.params
    content = None if body is None else httpx.Request("POST", "/", json=body).read()
    response = client.request(
        step.method, step.path, content=content, params=params, headers={"Content-Type": step.content_type}
    )
    if params and str(params.get("watch")) in ("1", "true"):
        decoded: Json = [json.loads(line) for line in response.text.splitlines() if line.strip()]  # the events
    else:
        decoded = response.json() if response.content else None
    answers.by_label[step.label] = decoded
    answers.last = decoded
    return response.status_code, decoded


class _Renamer:
    """Renames each distinct resourceVersion value in order of appearance (``rv1``, ``rv2``...)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def __call__(self, value: str) -> str:
        return self.names.setdefault(value, f"rv{len(self.names) + 1}")


def normalize(value: Json, rename: _Renamer, key: str = "") -> Json:
    """``value`` with uids, timestamps and resourceVersion values made comparable; a continue
    token becomes ``<continue>`` (its presence is what is compared)."""
    if isinstance(value, dict):
        list_meta = value.get("metadata") if "items" in value else None
        if isinstance(list_meta, dict) and list_meta.get("resourceVersion"):
            # A list's resourceVersion is the store's current revision, which the real server's
            # own writes (its lease, every 10 s) move too: only its presence is compared.
            value = {**value, "metadata": {**list_meta, "resourceVersion": "<list>"}}
        return {k: normalize(v, rename, k) for k, v in value.items() if k != "managedFields"}
    if isinstance(value, list):
        return [normalize(v, rename, key) for v in value]
    if isinstance(value, str):
        if key == "resourceVersion" and value and value != "<list>":
            return rename(value)
        if key == "continue" and value:
            return "<continue>"
        if key == "message":
            # Conflict messages quote resourceVersions in parentheses ("... in record (224)").
            value = _UID_IN_TEXT.sub("<uid>", value)
            return re.sub(r"\((\d+)\)", lambda m: f"({rename(m.group(1))})", value)
        if _UID.match(value):
            return "<uid>"
        if _TIME.match(value):
            return "<time>"
    return value


def diff(a: Json, b: Json, path: str = "") -> list[str]:
    """Where two normalized JSON values differ, as ``path: a != b`` lines."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for k in sorted(set(a) | set(b)):
            if k not in a:
                out.append(f"{path}/{k}: missing on the server, fake has {b[k]!r}")
            elif k not in b:
                out.append(f"{path}/{k}: server has {a[k]!r}, missing on the fake")
            else:
                out.extend(diff(a[k], b[k], f"{path}/{k}"))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [line for i, (x, y) in enumerate(zip(a, b)) for line in diff(x, y, f"{path}/{i}")]
    if a != b or type(a) is not type(b):
        return [f"{path or '/'}: server {a!r} != fake {b!r}"]
    return []


def run(server: httpx.Client, fake: httpx.Client, steps: Iterable[Step]) -> Outcome:
    """Sends every step to both sides in turn and records each difference."""
    outcome = Outcome()
    server_answers, fake_answers = outcome.server, Answers()
    server_rv, fake_rv = _Renamer(), _Renamer()
    for step in steps:
        server_code, server_body = send(server, step, server_answers)
        fake_code, fake_body = send(fake, step, fake_answers)
        outcome.compared += 1
        if server_code != fake_code:
            outcome.divergences.append(Divergence(step.label, f"status code: server {server_code} != fake {fake_code}"))
        for line in diff(normalize(server_body, server_rv), normalize(fake_body, fake_rv)):
            outcome.divergences.append(Divergence(step.label, line))
    return outcome
