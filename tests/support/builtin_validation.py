"""The real apiserver as the oracle for built-in kinds' Go validation (issue 35, item 22).

A table row is a ``Mistake``: an object (a common mistake, or a valid object) and, for an update,
the change made to the stored object. ``server_answer`` sends it to the apiserver as a
server-side dry-run create (or, for an update, creates the original for real and sends the
change as a dry-run update); ``kgen_answer`` asks ``validate`` (with the stored object as
``old`` on an update); ``differences`` compares the verdicts, the field paths and, where the
row says they are deterministic, the messages.

    rows = [Mistake("replicas -1", with_(deployment(), "spec.replicas", -1)), ...]
    for row in rows:
        found = differences(row, server_answer(admin, namespace, row), kgen_answer(row, stored))

Builders of valid objects (``deployment()``, ``job()``, ``pod()``...) and ``with_``/``without``
(a copy with one path set or removed: ``"spec.template.spec.containers[0].image"``) keep the
table short; part B's kinds append their own rows and builders the same way.
"""

from __future__ import annotations

import copy
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from kgen.runtime.apimachinery.validation import FieldError, validate

Obj = dict[str, Any]

RESOURCES: dict[tuple[str, str], str] = {
    ("apps/v1", "Deployment"): "/apis/apps/v1/namespaces/{ns}/deployments",
    ("apps/v1", "StatefulSet"): "/apis/apps/v1/namespaces/{ns}/statefulsets",
    ("apps/v1", "DaemonSet"): "/apis/apps/v1/namespaces/{ns}/daemonsets",
    ("apps/v1", "ReplicaSet"): "/apis/apps/v1/namespaces/{ns}/replicasets",
    ("batch/v1", "Job"): "/apis/batch/v1/namespaces/{ns}/jobs",
    ("batch/v1", "CronJob"): "/apis/batch/v1/namespaces/{ns}/cronjobs",
    ("v1", "Pod"): "/api/v1/namespaces/{ns}/pods",
    ("v1", "Service"): "/api/v1/namespaces/{ns}/services",
    ("v1", "ConfigMap"): "/api/v1/namespaces/{ns}/configmaps",
    ("v1", "Secret"): "/api/v1/namespaces/{ns}/secrets",
    ("v1", "PersistentVolumeClaim"): "/api/v1/namespaces/{ns}/persistentvolumeclaims",
    ("networking.k8s.io/v1", "Ingress"): "/apis/networking.k8s.io/v1/namespaces/{ns}/ingresses",
    ("networking.k8s.io/v1", "IngressClass"): "/apis/networking.k8s.io/v1/ingressclasses",
}
"""The collection each kind of the table is created in (IngressClass is cluster-scoped)."""


@dataclass(frozen=True)
class Mistake:
    """One row: ``obj`` sent as a create, or with ``change`` as an update of the stored ``obj``
    (``change(stored)`` returns the object to PUT). ``messages``: compare the causes' messages
    too (False where the apiserver's text holds what a client cannot know, such as a Job's uid).
    ``subresource="status"``: the change is PUT to the object's ``/status``."""

    label: str
    obj: Obj
    change: Callable[[Obj], Obj] | None = None
    messages: bool = True
    subresource: str | None = None


@dataclass(frozen=True)
class Answer:
    """A verdict: the status code (201/200 accepted) and each cause as (field, message); a 400's
    Status message as its one cause, at the field ``""`` (Go's decode errors name no field)."""

    code: int
    causes: frozenset[tuple[str, str]] = field(default_factory=frozenset)

    @property
    def accepted(self) -> bool:
        return self.code < 400

    @property
    def fields(self) -> frozenset[str]:
        return frozenset(f for f, _ in self.causes)


def collection(obj: Obj, namespace: str) -> str:
    """The collection URL of ``obj``'s kind in ``namespace``."""
    return RESOURCES[(obj["apiVersion"], obj["kind"])].format(ns=namespace)


def _answer(resp: httpx.Response) -> Answer:
    if resp.status_code < 400:
        return Answer(resp.status_code)
    body = resp.json()
    causes = (body.get("details") or {}).get("causes") or []
    if resp.status_code == 400 and not causes:
        return Answer(400, frozenset({("", str(body.get("message", "")))}))
    return Answer(resp.status_code, frozenset((str(c.get("field", "")), str(c.get("message", ""))) for c in causes))


def server_answer(admin: httpx.Client, namespace: str, row: Mistake) -> tuple[Answer, Obj | None]:
    """The apiserver's verdict on ``row`` and, for an update, the stored object it changed."""
    obj = copy.deepcopy(row.obj)
    url = collection(obj, namespace)
    if row.change is None:
        return _answer(admin.post(url, params={"dryRun": "All"}, json=obj)), None
    obj["metadata"]["name"] = f"{obj['metadata'].get('name', 'x')}-{uuid.uuid4().hex[:6]}"
    created = admin.post(url, json=obj)
    assert created.status_code == 201, f"{row.label}: the original is not valid: {created.text}"
    stored = created.json()
    changed = row.change(copy.deepcopy(stored))
    target = f"{url}/{stored['metadata']['name']}" + (f"/{row.subresource}" if row.subresource else "")
    resp = admin.put(target, params={"dryRun": "All"}, json=changed)
    return _answer(resp), stored


def kgen_answer(row: Mistake, stored: Obj | None) -> Answer:
    """kgen's verdict on ``row``: ``validate`` of the create, or of the change with ``old=stored``."""
    obj = copy.deepcopy(row.obj) if row.change is None or stored is None else row.change(copy.deepcopy(stored))
    errors = validate(obj, old=stored, subresource=row.subresource)
    if not errors:
        return Answer(201)
    if any(e.type == "BadRequest" for e in errors):
        return Answer(400, frozenset(("", e.message) for e in errors if e.type == "BadRequest"))
    return Answer(422, frozenset((e.field, e.message) for e in errors))


def _same_400(server: Answer, kgen: Answer) -> bool:
    """A 400's text is ``<Kind> in version "v1" cannot be handled as a <Kind>: <Go's error>``:
    kgen's message is Go's error."""
    (_, text), = server.causes
    return any(text.endswith(": " + message) or message in text for _, message in kgen.causes)


def differences(row: Mistake, server: Answer, kgen: Answer) -> list[str]:
    """How kgen's answer differs from the apiserver's (empty: they agree)."""
    if server.accepted != kgen.accepted:
        return [f"{row.label}: apiserver {server.code} {sorted(server.causes)}, kgen {kgen.code} {sorted(kgen.causes)}"]
    if server.accepted:
        return []
    if server.code == 400 or kgen.code == 400:
        if server.code != kgen.code or not _same_400(server, kgen):
            return [f"{row.label}: apiserver {server.code} {sorted(server.causes)}, kgen {kgen.code} {sorted(kgen.causes)}"]
        return []
    if server.fields != kgen.fields:
        return [f"{row.label}: fields {sorted(server.fields)} (apiserver) != {sorted(kgen.fields)} (kgen)"]
    if row.messages and server.causes != kgen.causes:
        return [f"{row.label}: messages {sorted(server.causes - kgen.causes)} (apiserver) != "
                f"{sorted(kgen.causes - server.causes)} (kgen)"]
    return []


# -- building rows --------------------------------------------------------------------------------

_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _steps(path: str) -> list[str | int]:
    return [name if name else int(index) for name, index in _STEP.findall(path)]


def with_(obj: Obj, path: str, value: Any) -> Obj:
    """A deep copy of ``obj`` with ``path`` (``a.b[0].c``) set to ``value`` (maps made on the way)."""
    out = copy.deepcopy(obj)
    *parents, last = _steps(path)
    node: Any = out
    for step in parents:
        node = node[step] if isinstance(step, int) else node.setdefault(step, {})
    node[last] = copy.deepcopy(value)
    return out


def without(obj: Obj, path: str) -> Obj:
    """A deep copy of ``obj`` without ``path``."""
    out = copy.deepcopy(obj)
    *parents, last = _steps(path)
    node: Any = out
    for step in parents:
        node = node[step]
    del node[last]
    return out


def container(name: str = "app", image: str = "nginx:1.27", **extra: Any) -> Obj:
    """A valid container."""
    return {"name": name, "image": image, **extra}


def pod_template(labels: dict[str, str] | None = None, **spec: Any) -> Obj:
    """A valid pod template (labels ``app: web``)."""
    return {"metadata": {"labels": labels or {"app": "web"}}, "spec": {"containers": [container()], **spec}}


def _workload(api_version: str, kind: str, name: str, defaults: Obj, spec: Obj) -> Obj:
    return {"apiVersion": api_version, "kind": kind, "metadata": {"name": name}, "spec": {**defaults, **spec}}


def deployment(**spec: Any) -> Obj:
    """A valid Deployment."""
    return _workload("apps/v1", "Deployment", "web", {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                                                      "template": pod_template()}, spec)


def replica_set(**spec: Any) -> Obj:
    """A valid ReplicaSet."""
    return _workload("apps/v1", "ReplicaSet", "web", {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
                                                      "template": pod_template()}, spec)


def stateful_set(**spec: Any) -> Obj:
    """A valid StatefulSet."""
    return _workload("apps/v1", "StatefulSet", "db", {"serviceName": "db", "replicas": 1,
                                                      "selector": {"matchLabels": {"app": "web"}}, "template": pod_template()}, spec)


def daemon_set(**spec: Any) -> Obj:
    """A valid DaemonSet."""
    return _workload("apps/v1", "DaemonSet", "agent", {"selector": {"matchLabels": {"app": "web"}},
                                                        "template": pod_template()}, spec)


def job(**spec: Any) -> Obj:
    """A valid Job (restartPolicy Never, the selector left to the apiserver)."""
    template = {"spec": {"restartPolicy": "Never", "containers": [container("work", "busybox:1.36")]}}
    return _workload("batch/v1", "Job", "work", {"template": template}, spec)


def cron_job(**spec: Any) -> Obj:
    """A valid CronJob (every five minutes)."""
    return _workload("batch/v1", "CronJob", "nightly", {"schedule": "*/5 * * * *", "jobTemplate": {"spec": job()["spec"]}}, spec)


def pod(**spec: Any) -> Obj:
    """A valid Pod."""
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [container()], **spec}}


def errors_of(obj: Obj) -> list[FieldError]:
    """``validate(obj)``, for the rows' self-checks."""
    return validate(copy.deepcopy(obj))


# -- seeded mutations -----------------------------------------------------------------------------

MUTANTS: tuple[Any, ...] = (-1, 0, 70000, "", "Bad_Name", "1GB", "-1", "x" * 70, "Bogus", "a.b", "100%", "200%",
                            "/abs", "../up", True)
"""What a mutation writes in place of a value (one of the same JSON type), or the value is removed."""


def _leaves(obj: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    if isinstance(obj, dict):
        return [p for k, v in obj.items() for p in _leaves(v, (*path, k))]
    if isinstance(obj, list):
        return [p for i, v in enumerate(obj) for p in _leaves(v, (*path, i))]
    return [path]


def mutated(bases: list[Obj], rng: Any, count: int) -> list[Mistake]:
    """``count`` objects, each a random base with one or two leaves (not apiVersion or kind)
    replaced by a ``MUTANTS`` value of the same JSON type, or removed. The verdict is the
    apiserver's: a mutant may be valid."""
    rows: list[Mistake] = []
    for i in range(count):
        obj = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.choice((1, 1, 2))):
            path = rng.choice([p for p in _leaves(obj) if p[0] not in ("apiVersion", "kind")])
            node: Any = obj
            for step in path[:-1]:
                node = node[step]
            current = node[path[-1]]
            same = [v for v in MUTANTS if type(v) is type(current)]
            choice = rng.choice([*same, None])
            if choice is None:
                del node[path[-1]]
            else:
                node[path[-1]] = choice
        rows.append(Mistake(f"mutant #{i} of {obj['kind']}", obj))
    return rows
