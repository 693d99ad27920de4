"""The oracle: the corpus's rules in a CRD on the real kube-apiserver, its samples sent with
server-side dry-run, every failing rule read back from the Status causes.

One CRD carries every case as a property ``spec.c<N>``. The apiserver compiles every rule at CRD
creation and rejects the CRD if any fails (compile error or static cost): those rules are
recorded as ``compile`` with the apiserver's message and dropped, and the CRD is sent again.
Sample j of every case goes into object j (rules run only on the properties present), so one
dry-run reports many rules; a rejected dry-run lists each failing rule as a cause whose
``field`` is the rule's path (``spec.c7``, ``spec.c7[1]``, ``spec.c7[key]``, ``spec.c7.b``).
"""

from __future__ import annotations

import copy
import re
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from hack.validation_probe.corpus import CASES, Case

GROUP = "probe.kgen.dev"
PLURAL = "celprobes"
CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
OBJECTS = f"/apis/{GROUP}/v1/namespaces/default/{PLURAL}"


@dataclass
class Finding:
    """What the apiserver said about one rule on one sample: each cause under ``spec.c<N>``."""

    path: str  # below the property: "", "[1]", "[key]", ".b"
    kind: str  # fail | error | cost
    reason: str
    message: str


@dataclass
class Measured:
    compile_error: dict[int, str] = field(default_factory=dict)  # case -> CRD creation message
    # (case, sample) -> findings (empty: the sample passed)
    findings: dict[tuple[int, int], list[Finding]] = field(default_factory=dict)
    version: str = ""
    raw_causes: list[dict[str, Any]] = field(default_factory=list)


def property_schema(case: Case) -> dict[str, Any]:
    schema = copy.deepcopy({**case.schema, **case.extra_schema})
    target = schema
    if case.at == "items":
        target = schema["items"]
    elif case.at == "values":
        target = schema["additionalProperties"]
    target["x-kubernetes-validations"] = [case.validation()]
    return schema


def crd(cases: dict[int, Case]) -> dict[str, Any]:
    spec = {"type": "object", "properties": {f"c{i}": property_schema(c) for i, c in cases.items()}}
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{PLURAL}.{GROUP}"},
        "spec": {
            "group": GROUP,
            "scope": "Namespaced",
            "names": {"plural": PLURAL, "singular": "celprobe", "kind": "CelProbe", "listKind": "CelProbeList"},
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}},
                }
            ],
        },
    }


_CRD_CAUSE = re.compile(r"properties\[spec\]\.properties\[c(\d+)\]")
_OBJ_CAUSE = re.compile(r"^spec\.c(\d+)(.*)$")


def install(admin: httpx.Client, measured: Measured) -> dict[int, Case]:
    """Creates the probe CRD with every rule that compiles; records the others."""
    cases = dict(enumerate(CASES))
    for _ in range(20):
        r = admin.post(CRDS, json=crd(cases))
        if r.status_code == 201:
            break
        causes = r.json().get("details", {}).get("causes") or []
        dropped = False
        for cause in causes:
            m = _CRD_CAUSE.search(cause.get("field", ""))
            if m and int(m.group(1)) in cases:
                i = int(m.group(1))
                measured.compile_error[i] = measured.compile_error.get(i, "") + cause.get("message", "")
                measured.raw_causes.append({"case": i, "stage": "crd", **cause})
                del cases[i]
                dropped = True
        if not dropped:
            raise RuntimeError(f"CRD rejected for no rule of the corpus: {r.text[:2000]}")
    else:
        raise RuntimeError("CRD never accepted")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        conditions = admin.get(f"{CRDS}/{PLURAL}.{GROUP}").json().get("status", {}).get("conditions") or []
        if any(c["type"] == "Established" and c["status"] == "True" for c in conditions):
            if admin.get(OBJECTS).status_code == 200:
                return cases
        time.sleep(0.2)
    raise RuntimeError("probe CRD not served")


def _kind(message: str) -> str:
    if "cost" in message and ("no further validation rules" in message or "budget" in message):
        return "cost"
    if "evaluating rule:" in message or "messageExpression evaluation failed" in message:
        return "error"
    return "fail"


def _record(measured: Measured, sent: dict[int, int], response: httpx.Response) -> None:
    """Files the response's causes under (case, sample) for every case in ``sent``."""
    for i, j in sent.items():
        measured.findings[(i, j)] = []
    if response.status_code in (200, 201):
        return
    body = response.json()
    if response.status_code != 422:
        raise RuntimeError(f"unexpected {response.status_code}: {response.text[:1000]}")
    for cause in body.get("details", {}).get("causes") or []:
        m = _OBJ_CAUSE.match(cause.get("field", ""))
        if not m or int(m.group(1)) not in sent:
            raise RuntimeError(f"cause outside the corpus: {cause}")
        i = int(m.group(1))
        message = cause.get("message", "")
        measured.raw_causes.append({"case": i, "sample": sent[i], **cause})
        measured.findings[(i, sent[i])].append(Finding(m.group(2), _kind(message), cause.get("reason", ""), message))


def _object(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/v1", "kind": "CelProbe", "metadata": {"name": name}, "spec": spec}


def measure(admin: httpx.Client) -> Measured:
    measured = Measured(version=admin.get("/version").json().get("gitVersion", ""))
    cases = install(admin, measured)
    creates = {i: c for i, c in cases.items() if not c.transition and not c.alone}
    batches: list[dict[int, int]] = []
    for j in range(max(len(c.samples) for c in creates.values())):
        batches.append({i: j for i, c in creates.items() if j < len(c.samples)})
    for i, c in cases.items():
        if c.alone:
            batches.extend({i: j} for j in range(len(c.samples)))
    for n, batch in enumerate(batches):
        obj = _object(f"probe-{n}", {f"c{i}": cases[i].samples[j] for i, j in batch.items()})
        _record(measured, batch, admin.post(OBJECTS, params={"dryRun": "All"}, json=obj))
    # Transition rules: create with the old values for real, then a dry-run update to the new.
    transitions = {i: c for i, c in cases.items() if c.transition}
    for j in range(max((len(c.samples) for c in transitions.values()), default=0)):
        batch = {i: j for i, c in transitions.items() if j < len(c.samples)}
        old = {f"c{i}": transitions[i].samples[j][0] for i in batch if transitions[i].samples[j][0] is not None}
        created = admin.post(OBJECTS, json=_object(f"transition-{j}", old))
        if created.status_code != 201:
            raise RuntimeError(f"creating transition-{j} failed: {created.text[:1000]}")
        updated = created.json()
        updated["spec"] = {f"c{i}": transitions[i].samples[j][1] for i in batch}
        _record(measured, batch, admin.put(f"{OBJECTS}/transition-{j}", params={"dryRun": "All"}, json=updated))
    return measured
