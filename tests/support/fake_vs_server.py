"""A differential harness: the same scripted HTTP requests to the real apiserver and to the fake.

Each side is a plain ``httpx.Client`` (the admin client of envtest's apiserver, or one over
``ObjectTracker.transport()``), so what is compared is exactly what a client receives: the
status code, the reason, the whole body. Before comparing, only what is allowed to differ is
normalized: ``uid``s, timestamps, and the *values* of resourceVersions (each side's are renamed
``rv1``, ``rv2``... in order of first appearance, so their equalities still count; a number in a
``message`` in parentheses, as conflicts quote resourceVersions, is renamed the same way, and a
uid in it too). A continue
token is compared by its presence; each side goes on with its own token. A timestamp inside a
message (the whole patched object a strict-decoding 422 quotes) counts as a timestamp, and a
quoted ``"resourceVersion":"224"`` in it as a resourceVersion.

A name the server generated (``generateName``: the prefix and five characters from the
apiserver's alphabet) is checked for that shape, then renamed on each side ``<prefix><gen1>``,
``<gen2>``... in order of creation, wherever it appears (names, messages, paths of later steps
resolve to each side's own name: a step's ``path`` may be a function of the answers too).

managedFields are compared when ``run(..., managed_fields=True)``: manager, operation,
subresource, apiVersion, fieldsType and the FieldsV1 sets, times normalized as any timestamp is,
and the entries in apimachinery's order without the time (``_entry_order``). A 409's causes are
compared grouped by manager, the order Go's map iteration leaves open (``_conflicts_by_manager``).
Their divergences are classed apart (``Divergence.cause``), as they come from the server-side
apply engine (structured-merge-diff), not from the fake's bookkeeping.

The ``Warning`` headers are compared too, in order (fieldValidation=Warn's unknown fields).

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
_TIME_IN_TEXT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")
_QUOTED_RV = re.compile(r'(\\?"resourceVersion\\?":\\?")(\d+)')
#: What generateName appends: five characters from apimachinery's util/rand alphabet.
GENERATED_SUFFIX = "[bcdfghjklmnpqrstvwxz2456789]{5}"


@dataclass
class Answers:
    """One side's answers so far, by step label."""

    by_label: dict[str, Json] = field(default_factory=dict)
    last: Json = None
    #: The ``Warning`` headers of the last answer (``299 - "unknown field \"x\""``), in order.
    warnings: list[str] = field(default_factory=list)

    def __getitem__(self, label: str) -> Json:
        return self.by_label[label]


Dynamic = Callable[[Answers], Json]


@dataclass
class Step:
    """One request. ``body``/``params`` may be values or functions of the side's answers."""

    label: str
    method: str
    path: str | Callable[[Answers], str]
    body: Json | Dynamic = None
    params: dict[str, Any] | Dynamic | None = None
    content_type: str = "application/json"


@dataclass
class Divergence:
    step: str
    what: str

    def __str__(self) -> str:
        return f"{self.step}: {self.what}"

    @property
    def cause(self) -> str:
        """``managedFields`` (the server-side apply engine's), ``status code`` or ``body``."""
        if "/metadata/managedFields" in self.what.split(":")[0]:
            return "managedFields"
        return "status code" if self.what.startswith("status code") else "body"


@dataclass
class Outcome:
    compared: int = 0
    divergences: list[Divergence] = field(default_factory=list)
    #: The server's answers, for tests to check that a scenario reached what it is about.
    server: Answers = field(default_factory=Answers)


def send(client: httpx.Client, step: Step, answers: Answers) -> tuple[int, Json]:
    body = step.body(answers) if callable(step.body) else step.body
    params = step.params(answers) if callable(step.params) else step.params
    path = step.path(answers) if callable(step.path) else step.path
    content = None if body is None else httpx.Request("POST", "/", json=body).read()
    response = client.request(
        step.method, path, content=content, params=params, headers={"Content-Type": step.content_type}
    )
    if params and str(params.get("watch")) in ("1", "true"):
        decoded: Json = [json.loads(line) for line in response.text.splitlines() if line.strip()]  # the events
    else:
        decoded = response.json() if response.content else None
    answers.by_label[step.label] = decoded
    answers.last = decoded
    answers.warnings = response.headers.get_list("warning")
    return response.status_code, decoded


class _Renamer:
    """Renames each distinct resourceVersion value in order of appearance (``rv1``, ``rv2``...),
    and each generated name (``<prefix><gen1>``...), for one side."""

    def __init__(self, managed_fields: bool = False) -> None:
        self.names: dict[str, str] = {}
        self.generated: dict[str, str] = {}
        self.managed_fields = managed_fields

    def __call__(self, value: str) -> str:
        return self.names.setdefault(value, f"rv{len(self.names) + 1}")

    def note_generated(self, request_body: Json, answer: Json) -> None:
        """Records the name a generateName create got, if it has the server's shape (a refused
        create's name is in its Status's details)."""
        prefix = ((request_body or {}).get("metadata") or {}).get("generateName") if isinstance(request_body, dict) else None
        name = ((answer or {}).get("metadata") or {}).get("name") if isinstance(answer, dict) else None
        if isinstance(answer, dict) and answer.get("kind") == "Status":
            name = (answer.get("details") or {}).get("name")
        if isinstance(prefix, str) and isinstance(name, str) and re.fullmatch(re.escape(prefix) + GENERATED_SUFFIX, name):
            self.generated.setdefault(name, f"{prefix}<gen{len(self.generated) + 1}>")

    def text(self, value: str) -> str:
        for name in sorted(self.generated, key=len, reverse=True):
            value = value.replace(name, self.generated[name])
        return value


def normalize(value: Json, rename: _Renamer, key: str = "") -> Json:
    """``value`` with uids, timestamps, generated names and resourceVersion values made
    comparable; a continue token becomes ``<continue>`` (its presence is what is compared)."""
    if isinstance(value, dict):
        list_meta = value.get("metadata") if "items" in value else None
        if isinstance(list_meta, dict) and list_meta.get("resourceVersion"):
            # A list's resourceVersion is the store's current revision, which the real server's
            # own writes (its lease, every 10 s) move too: only its presence is compared.
            value = {**value, "metadata": {**list_meta, "resourceVersion": "<list>"}}
        if value.get("reason") == "Conflict" and isinstance(value.get("details"), dict):
            value = {**value, "details": _conflicts_by_manager(value["details"])}
        out = {k: normalize(v, rename, k) for k, v in value.items() if k != "managedFields" or rename.managed_fields}
        if isinstance(out.get("managedFields"), list):
            out["managedFields"] = sorted(out["managedFields"], key=_entry_order)
        return out
    if isinstance(value, list):
        return [normalize(v, rename, key) for v in value]
    if isinstance(value, str):
        if key == "resourceVersion" and value and value != "<list>":
            return rename(value)
        if key == "continue" and value:
            return "<continue>"
        value = rename.text(value)
        if key == "message":
            # Conflict messages quote resourceVersions in parentheses ("... in record (224)"); a
            # strict-decoding 422 quotes the whole patched object.
            value = _TIME_IN_TEXT.sub("<time>", _UID_IN_TEXT.sub("<uid>", value))
            value = _QUOTED_RV.sub(lambda m: m.group(1) + rename(m.group(2)), value)
            return re.sub(r"\((\d+)\)", lambda m: f"({rename(m.group(1))})", value)
        if _UID.match(value):
            return "<uid>"
        if _TIME.match(value):
            return "<time>"
    return value


def _entry_order(entry: Json) -> tuple[str, str, str]:
    """managedFields are sorted by operation, time, manager and subresource (apimachinery's
    sortEncodedManagedFields); times are normalized, and the two sides' clocks cross a second at
    different moments, so entries are compared in that order without the time."""
    if not isinstance(entry, dict):
        return ("", "", "")
    return (str(entry.get("operation")), str(entry.get("manager")), str(entry.get("subresource") or ""))


def _conflicts_by_manager(details: Json) -> Json:
    """A 409's causes grouped by manager (stable: each manager's paths keep their order):
    structured-merge-diff's ConflictsFromManagers walks a Go map of managers, so their order
    varies from one request to the next on the real server itself; the message sorts them."""
    causes = details.get("causes")
    if not isinstance(causes, list):
        return details
    return {**details, "causes": sorted(causes, key=lambda c: str(c.get("message")) if isinstance(c, dict) else "")}


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


def run(server: httpx.Client, fake: httpx.Client, steps: Iterable[Step], *, managed_fields: bool = False) -> Outcome:
    """Sends every step to both sides in turn and records each difference; ``managed_fields``:
    whether managedFields are compared too."""
    outcome = Outcome()
    server_answers, fake_answers = outcome.server, Answers()
    server_rv, fake_rv = _Renamer(managed_fields), _Renamer(managed_fields)
    for step in steps:
        server_code, server_body = send(server, step, server_answers)
        fake_code, fake_body = send(fake, step, fake_answers)
        if step.method == "POST":
            server_rv.note_generated(_body_sent(step, server_answers), server_body)
            fake_rv.note_generated(_body_sent(step, fake_answers), fake_body)
        outcome.compared += 1
        if server_code != fake_code:
            outcome.divergences.append(Divergence(step.label, f"status code: server {server_code} != fake {fake_code}"))
        server_warnings = [server_rv.text(w) for w in server_answers.warnings]
        fake_warnings = [fake_rv.text(w) for w in fake_answers.warnings]
        if server_warnings != fake_warnings:
            outcome.divergences.append(Divergence(step.label, f"warnings: server {server_warnings} != fake {fake_warnings}"))
        for line in diff(normalize(server_body, server_rv), normalize(fake_body, fake_rv)):
            outcome.divergences.append(Divergence(step.label, line))
    return outcome


def _body_sent(step: Step, answers: Answers) -> Json:
    return step.body(answers) if callable(step.body) else step.body
