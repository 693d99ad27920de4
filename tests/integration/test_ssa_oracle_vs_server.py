"""The server-side apply oracle (hack/oracle/fieldmanager) is the real apiserver's field manager:
the same operations sent to a kube-apiserver (envtest) and to the oracle, the managedFields they
write compared (manager, operation, apiVersion, subresource and the owned fields; times are the
wall clock of two processes and are left out) and the key order of their FieldsV1 as written
on the wire, and the status of a refusal (code, reason, message).

This proves the oracle's wiring, the part tests/unit/test_ssa_oracle.py takes on trust: the type
converter from the snapshot's OpenAPI, the CRDs' models (Gizmo, the sample controller's Foo) as
apiextensions-apiserver builds them, the strategies' reset fields, the empty object a create starts from.

What is outside the field manager stays outside the comparison, by construction rather than by
normalizing: the live object handed to the oracle is the server's own (defaults, allocations and
all); an apply sends the oracle the same configuration; an update sends it the object the server
stored (the request's own managedFields put back), since the server decodes and defaults the body
before its field manager sees it. A request the server refuses in validation (422), after the
field manager has accepted it, or in decoding (400 "cannot be handled as"), before it, is counted
and leaves the live object as it was. A Service's updates are counted and not compared: its
registry allocates node ports and drops type-dependent fields after the field manager ran, so
the stored object is not what the field manager saw (its applies are compared).

Every supported release is compared (the module is in the compatibility suite): where the
server's release still has an older behaviour the comparison meets (tests/support/versions.py),
both sides model it (``older``: the oracle's ``-older KEY``, kgen's engine its reset fields).
Up to 1.35, "cr-status-writes-metadata": a custom resource's status strategy resets spec only, so
a /status write's manager owns the metadata fields it sent, though the strategy's PrepareForUpdate
stores the old object's metadata (the oracle models that too, and those writes' stored labels,
annotations, finalizers and owner references are compared as well); an update's field manager
saw the request's metadata, not the stored one, and the oracle is given that.
"""

from __future__ import annotations

import copy
import json
import random
import uuid
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from kgen.generator.yamlfile import load_all
from kgen.runtime.testing import KubeAPIServer
from tests.conftest import Figure
from tests.support.apiserver import CRDS, install_crd
from tests.support.ssa_cases import SequenceMaker
from tests.support.ssa_oracle import (
    FOO_CRD, OLDER_RESET_FIELDS, SSA_CRD, Engine, GoFieldManager, generate_crd_schemas, kgen_engine,
)
from tests.support.versions import behaves_older

SEQUENCES = 200
SEED = 20261203
PLURALS = {"Deployment": "deployments", "ConfigMap": "configmaps", "Service": "services", "Gizmo": "gizmos",
           "Foo": "foos"}
#: a valid object to start from where the apiserver's validation needs one (a maker's random
#: create would mostly be refused)
SEEDS: dict[str, dict[str, Any]] = {
    "apps/v1 Deployment": {"spec": {"selector": {"matchLabels": {"app": "seed"}}, "template": {
        "metadata": {"labels": {"app": "seed"}}, "spec": {"containers": [{"name": "main", "image": "img:1"}]}}}},
    "v1 Service": {"spec": {"ports": [{"port": 80, "protocol": "TCP", "name": "web"}]}},
    "samplecontroller.kgen.dev/v1alpha1 Foo": {"spec": {"deploymentName": "d", "replicas": 1}},
}
#: up to 1.35 a custom resource's /status write owns the metadata it sent (tests/support/versions.py)
CR_STATUS = "cr-status-writes-metadata"
#: what the status strategy's PrepareForUpdate keeps from the old object, compared where it matters
WRITTEN_METADATA = ("labels", "annotations", "finalizers", "ownerReferences")


@pytest.fixture(scope="module")
def gizmos(admin: httpx.Client) -> Iterator[None]:
    """The Gizmo and Foo CRDs, installed once (another test may have installed Foo's)."""
    for path in (SSA_CRD, FOO_CRD):
        crd = load_all(path.read_text(), path)[0]
        if admin.get(f"{CRDS}/{crd['metadata']['name']}").status_code == 404:
            install_crd(admin, crd)
    yield


@pytest.fixture(scope="module")
def older(kube_apiserver: KubeAPIServer) -> frozenset[str]:
    """The older behaviours (of those both sides model) that the server's release still has."""
    return frozenset(key for key in OLDER_RESET_FIELDS if behaves_older(kube_apiserver.version, key))


@pytest.fixture(scope="module")
def oracle(older: frozenset[str]) -> Iterator[GoFieldManager]:
    with GoFieldManager(older=older) as go:
        yield go


def _path(api_version: str, kind: str, namespace: str, name: str | None = None) -> str:
    prefix = "/api/v1" if api_version == "v1" else f"/apis/{api_version}"
    collection = f"{prefix}/namespaces/{namespace}/{PLURALS[kind]}"
    return collection if name is None else f"{collection}/{name}"


def key_order(obj: dict[str, Any]) -> list[str]:
    """Each entry's FieldsV1 as written, key order kept (sorted by entry: their order follows
    the two clocks): the server's typed objects keep structured-merge-diff's order, its custom
    resources sort keys as strings."""
    return sorted(f"{e.get('manager')} {e.get('operation')} {e.get('subresource', '')}: {json.dumps(e.get('fieldsV1'))}"
                  for e in (obj.get("metadata") or {}).get("managedFields") or [])


def ownership(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """managedFields without times, sorted: the apiserver orders entries by time (then manager),
    and the two processes' clocks differ."""
    entries = [{k: v for k, v in entry.items() if k != "time"} for entry in (obj.get("metadata") or {}).get("managedFields") or []]
    return sorted(entries, key=lambda e: json.dumps(e, sort_keys=True))


@dataclass
class Tally:
    counts: Counter[str] = field(default_factory=Counter)
    mismatches: list[str] = field(default_factory=list)


def _status(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    return {"code": body.get("code", response.status_code), "reason": body.get("reason", ""), "message": body.get("message", "")}


def written_metadata(obj: dict[str, Any]) -> dict[str, Any]:
    """The metadata fields a custom resource's /status write sends and its strategy drops."""
    md = obj.get("metadata") or {}
    return {k: md.get(k) for k in WRITTEN_METADATA}


def run_step(admin: httpx.Client, ask: Engine, case: dict[str, Any], namespace: str, name: str,
             category: str, tally: Tally, older: Collection[str] = (), strategy: bool = False) -> dict[str, Any] | None:
    """Sends ``case`` to the server and to ``ask`` (the oracle, or kgen's engine, modelling the
    ``older`` behaviours the server has); records the comparison in ``tally``. Returns the
    server's new object (None when it refused the request). ``strategy``: ``ask`` models the
    status strategy's PrepareForUpdate where an older behaviour needs it (the oracle does, kgen's
    field manager does not), so a custom resource's /status write's stored metadata is compared too."""
    case = copy.deepcopy(case)
    obj, live = case["obj"], case["live"]
    md = obj.setdefault("metadata", {})
    md["name"], md["namespace"] = name, namespace
    api_version, kind = case["apiVersion"], case["kind"]
    custom = "." in api_version.split("/")[0]
    # up to 1.35: the status strategy resets spec only, its PrepareForUpdate the rest (metadata too)
    status_writes_metadata = custom and case["subresource"] == "status" and CR_STATUS in older
    path = _path(api_version, kind, namespace, name) + (f"/{case['subresource']}" if case["subresource"] else "")
    params: dict[str, str] = {"fieldManager": case["manager"]}
    if case["op"] == "apply":
        params["force"] = "true" if case["force"] else "false"
        response = admin.patch(path, params=params, content=json.dumps(obj),
                               headers={"Content-Type": "application/apply-patch+yaml"})
    elif live is None:
        response = admin.post(_path(api_version, kind, namespace), params=params, json=obj)
    else:
        response = admin.put(path, params=params, json=obj)
    if response.status_code == 422:
        tally.counts[f"{category} -> server validation 422 (not compared)"] += 1
        return None
    if response.status_code == 400 and "cannot be handled as" in response.json().get("message", ""):
        tally.counts[f"{category} -> server decoding 400 (not compared)"] += 1  # before the field manager
        return None
    if response.is_success and case["op"] == "update" and kind == "Service":
        # the Service registry changes the object after the field manager ran (node ports,
        # type-dependent fields): the stored object is not what the field manager saw
        tally.counts[f"{category} -> Service update (not compared)"] += 1
        return dict(response.json())
    if response.is_success and case["op"] == "update":
        # the object the server's field manager saw: the stored one, with the request's managedFields
        stored = copy.deepcopy(response.json())
        if status_writes_metadata:
            # the field manager saw the request's metadata (what the decoder's ObjectMeta round
            # trip keeps: no empty or null fields); PrepareForUpdate then stored the old object's
            stored["metadata"] = {k: v for k, v in md.items() if v not in (None, {}, [])}
        # a custom resource's decoder (schemaCoercingDecoder's ObjectMeta round trip) drops an
        # empty list before the field manager sees it; a built-in kind's keeps it (a reset)
        if md.get("managedFields") or ("managedFields" in md and not custom):
            stored["metadata"]["managedFields"] = md["managedFields"]
        else:
            stored["metadata"].pop("managedFields", None)
        case["obj"] = stored
    go = ask(case)
    if response.is_success:
        server: dict[str, Any] = {"ownership": ownership(response.json()), "order": key_order(response.json())}
    else:
        server = {"error": _status(response)}
    want = {"ownership": ownership(go["object"]), "order": key_order(go["object"])} if "object" in go \
        else {"error": go["error"]}
    if strategy and status_writes_metadata and response.is_success and "object" in go:
        server["metadata"], want["metadata"] = written_metadata(response.json()), written_metadata(go["object"])
    outcome = "ok" if response.is_success else str(response.status_code)
    tally.counts[f"{category} -> {outcome}"] += 1
    if json.dumps(server, sort_keys=True) != json.dumps(want, sort_keys=True):
        tally.mismatches.append(f"[{category}] {kind}{'/' + case['subresource'] if case['subresource'] else ''}\n"
                                f"  input:  {json.dumps(case)}\n  server: {json.dumps(server, sort_keys=True)}\n"
                                f"  oracle: {json.dumps(want, sort_keys=True)}")
    return response.json() if response.is_success else None


def _case(op: str, kind: str, live: dict[str, Any] | None, obj: dict[str, Any], manager: str,
          subresource: str = "", force: bool = False) -> dict[str, Any]:
    api_version, k = kind.split(" ")
    return {"op": op, "apiVersion": api_version, "kind": k, "subresource": subresource, "live": live,
            "obj": {"apiVersion": api_version, "kind": k, **obj}, "manager": manager, "force": force}


#: hand-written sequences, each step (op, manager, body, subresource, force, expected outcome)
HAND: dict[str, tuple[str, list[tuple[str, str, dict[str, Any], str, bool, str]]]] = {
    "configmap_conflict_then_force": ("v1 ConfigMap", [
        ("apply", "a", {"data": {"k": "1", "j": "1"}}, "", False, "ok"),
        ("apply", "b", {"data": {"k": "2"}}, "", False, "409"),
        ("apply", "b", {"data": {"k": "2"}}, "", True, "ok"),
        ("apply", "a", {"data": {"j": "1"}}, "", False, "ok"),
    ]),
    "same_name_update_then_apply_conflicts": ("v1 ConfigMap", [
        ("apply", "m", {"data": {"k": "1"}}, "", False, "ok"),
        ("update", "m", {"data": {"k": "2"}}, "", False, "ok"),
        ("apply", "m", {"data": {"k": "3"}}, "", False, "409"),
    ]),
    "deployment_selector_is_atomic_and_status_is_reset": ("apps/v1 Deployment", [
        ("apply", "a", {**SEEDS["apps/v1 Deployment"], "status": {"replicas": 5}}, "", False, "ok"),
        ("update", "editor", {"spec": {"replicas": 3}}, "", False, "ok"),
        ("apply", "s", {"status": {"conditions": [{"type": "Ready", "status": "True"}]}}, "status", False, "ok"),
        ("apply", "a", {"spec": {"replicas": 2, **SEEDS["apps/v1 Deployment"]["spec"]}}, "", False, "409"),
    ]),
    "gizmo_create_markers_and_status": ("ssa.kgen.dev/v1 Gizmo", [
        ("update", "creator", {"spec": {"workers": [{"name": "w", "size": 1}], "tags": ["a"]}}, "", False, "ok"),
        ("apply", "a", {"spec": {"workers": [{"name": "w", "image": "i"}], "endpoints": [{"port": 1, "protocol": "TCP"}]}},
         "", False, "ok"),
        ("apply", "s", {"status": {"conditions": [{"type": "Ready"}]}, "spec": {"mode": "x"}}, "status", False, "ok"),
        ("apply", "a", {"spec": {"workers": [{"size": 2}]}}, "", False, "500"),
    ]),
}


def _merge_into(live: dict[str, Any] | None, body: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(live) if live is not None else {}
    for k, v in body.items():
        out[k] = {**out.get(k, {}), **v} if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


@pytest.mark.parametrize("name", sorted(HAND))
def test_the_oracle_writes_the_servers_managed_fields(
    admin: httpx.Client, oracle: GoFieldManager, gizmos: None, namespace: str, name: str, older: frozenset[str],
) -> None:
    kind, steps = HAND[name]
    tally = Tally()
    live: dict[str, Any] | None = None
    outcomes = []
    for op, manager, body, subresource, force, _ in steps:
        obj = _merge_into(live, body) if op == "update" else body
        case = _case(op, kind, live, obj, manager, subresource, force)
        before = sum(tally.counts.values())
        result = run_step(admin, oracle.ask, case, namespace, "hand", f"{op}/{manager}", tally, older, strategy=True)
        assert sum(tally.counts.values()) == before + 1
        outcomes.append(next(iter(k.split(" -> ")[1] for k in tally.counts if k.startswith(f"{op}/{manager} -> "))))
        tally.counts.clear()
        live = result if result is not None else live
    assert not tally.mismatches, "\n".join(tally.mismatches)
    assert outcomes == [expected for *_, expected in steps]


def random_run(admin: httpx.Client, ask: Engine, namespace: str, sequences: int, seed: int,
               older: Collection[str] = (), strategy: bool = False) -> Tally:
    """``sequences`` random sequences on every kind, each step sent to the server and to ``ask``
    (which models the ``older`` behaviours the server has; ``strategy`` as ``run_step``'s)."""
    rng = random.Random(seed)
    tally = Tally()
    kinds = ("apps/v1 Deployment", "v1 ConfigMap", "v1 Service", "ssa.kgen.dev/v1 Gizmo",
             "samplecontroller.kgen.dev/v1alpha1 Foo")
    for n in range(sequences):
        kind = kinds[n % len(kinds)]
        maker = SequenceMaker(random.Random(rng.getrandbits(64)), kind)
        name = f"s{n}-{uuid.uuid4().hex[:6]}"
        live: dict[str, Any] | None = None
        if kind in SEEDS:
            live = run_step(admin, ask, _case("apply", kind, None, SEEDS[kind], "creator"), namespace, name,
                            "apply/seed", tally, older, strategy)
            assert live is not None, tally.mismatches
        for _ in range(rng.randint(6, 14)):
            step = maker.next(live)
            result = run_step(admin, ask, step.case, namespace, name, step.category, tally, older, strategy)
            if result is not None:
                live = result
    return tally


def report(tally: Tally, figure: Figure, what: str, sequences: int, server: str, older: Collection[str]) -> int:
    """Prints the run's figures; returns how many operations were compared."""
    compared = sum(n for k, n in tally.counts.items() if "not compared" not in k)
    refused = sum(n for k, n in tally.counts.items() if "not compared" in k)
    outcomes: Counter[str] = Counter()
    families: Counter[str] = Counter()
    for k, v in tally.counts.items():
        outcomes[k.split(" -> ")[1]] += v
        families["/".join(k.split(" -> ")[0].split("/")[:2])] += v
    figure(f"{what} vs the real apiserver {server} (older behaviours modelled: {', '.join(sorted(older)) or 'none'}): "
           f"{sequences} sequences, {compared} operations compared, "
           f"{len(tally.mismatches)} mismatches; {refused} not compared (refused by the server's decoding or "
           "validation, or a Service update)")
    figure("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    figure("per category: " + ", ".join(f"{k} {v}" for k, v in sorted(families.items())))
    for line in tally.mismatches[:3]:
        figure("mismatch " + line)
    return compared


def test_the_oracle_is_the_servers_field_manager_on_random_sequences(
    admin: httpx.Client, oracle: GoFieldManager, gizmos: None, namespace: str, figure: Figure,
    kube_apiserver: KubeAPIServer, older: frozenset[str],
) -> None:
    tally = random_run(admin, oracle.ask, namespace, SEQUENCES, SEED, older, strategy=True)
    compared = report(tally, figure, "SSA oracle", SEQUENCES, kube_apiserver.version, older)
    assert compared >= 1000
    assert not tally.mismatches, f"{len(tally.mismatches)} mismatches, first:\n" + "\n".join(tally.mismatches[:5])


def test_kgen_field_manager_is_the_servers_on_random_sequences(
    admin: httpx.Client, gizmos: None, namespace: str, figure: Figure, tmp_path: Path,
    kube_apiserver: KubeAPIServer, older: frozenset[str],
) -> None:
    """kgen's engine straight against the server, on other seeds: what the fake writes is what a
    server writes, and objects a server wrote can be handed to it. On an older release the engine
    takes that release's reset fields (its field manager's part of the behaviour)."""
    engine = kgen_engine(generate_crd_schemas(tmp_path), older)
    tally = random_run(admin, engine, namespace, SEQUENCES // 2, SEED + 1, older)
    compared = report(tally, figure, "kgen's field manager", SEQUENCES // 2, kube_apiserver.version, older)
    assert compared >= 500
    assert not tally.mismatches, f"{len(tally.mismatches)} mismatches, first:\n" + "\n".join(tally.mismatches[:5])


def test_fieldsv1_keys_are_ordered_by_value_for_built_ins_and_as_strings_for_custom_resources(
    admin: httpx.Client, oracle: GoFieldManager, gizmos: None, namespace: str, older: frozenset[str],
) -> None:
    """The server writes a typed object's FieldsV1 in structured-merge-diff's order (list-map keys
    by value: port 9, 80, 443, 1080) and a custom resource's with its keys sorted as strings
    (1080, 2, 443, 80): the oracle writes both as the server does."""
    ports = [80, 443, 9, 1080]
    cases = {
        "v1 Service": ({"spec": {"ports": [{"port": p, "protocol": "TCP", "name": f"p{p}"} for p in ports]}},
                       ["9", "80", "443", "1080"]),
        "ssa.kgen.dev/v1 Gizmo": ({"spec": {"endpoints": [{"port": p, "protocol": "TCP"} for p in ports]}},
                                  ["1080", "443", "80", "9"]),
    }
    for kind, (body, order) in cases.items():
        tally = Tally()
        server = run_step(admin, oracle.ask, _case("apply", kind, None, body, "m"), namespace, "order", "apply", tally,
                          older, strategy=True)
        assert server is not None and not tally.mismatches, tally.mismatches
        (entry,) = server["metadata"]["managedFields"]
        lists = entry["fieldsV1"]["f:spec"]
        keys = list(lists["f:ports" if "f:ports" in lists else "f:endpoints"])
        assert [json.loads(k[2:])["port"] for k in keys] == [int(p) for p in order], keys


def test_a_custom_resource_status_write_owns_the_metadata_it_sent_up_to_1_35(
    admin: httpx.Client, oracle: GoFieldManager, gizmos: None, namespace: str, older: frozenset[str],
) -> None:
    """tests/support/versions.py "cr-status-writes-metadata", step by step on a Gizmo: a /status
    apply and a /status update that also send labels, an annotation and a finalizer. On every
    release the stored metadata stays the old object's (the status strategy's PrepareForUpdate).
    Up to 1.35 the status managers own those fields all the same (the strategy resets spec only),
    so another manager's apply of the same label conflicts with one of them; from 1.36 they own
    status only (metadata is reset too) and that apply succeeds. The oracle answers as the
    server at each step."""
    kind = "ssa.kgen.dev/v1 Gizmo"
    tally = Tally()
    outcomes: list[str] = []

    def step(case: dict[str, Any], category: str) -> dict[str, Any] | None:
        result = run_step(admin, oracle.ask, case, namespace, "meta", category, tally, older, strategy=True)
        outcomes.append(next(k.split(" -> ")[1] for k in tally.counts if k.startswith(f"{category} -> ")))
        return result

    live = step(_case("apply", kind, None, {"metadata": {"labels": {"app": "a"}}, "spec": {"mode": "x"}}, "main"), "create")
    live = step(_case("apply", kind, live, {"metadata": {"labels": {"team": "s"}, "annotations": {"note": "s"},
                                                         "finalizers": ["f.kgen.dev/a"]}, "status": {"phase": "P"}},
                      "status-apply", "status"), "status-apply")
    assert live is not None
    body = copy.deepcopy(live)
    body["metadata"]["labels"]["tier"] = "u"
    body["status"]["ready"] = 1
    live = step(_case("update", kind, live, body, "status-update", "status"), "status-update")
    assert live is not None
    conflict = step(_case("apply", kind, live, {"metadata": {"labels": {"team": "o"}}}, "other"), "other-apply")
    assert not tally.mismatches, "\n".join(tally.mismatches)

    was_older = CR_STATUS in older
    assert outcomes == ["ok", "ok", "ok", "409" if was_older else "ok"]
    assert written_metadata(live) == {"labels": {"app": "a"}, "annotations": None, "finalizers": None,
                                      "ownerReferences": None}
    owned = {e["manager"]: e["fieldsV1"] for e in live["metadata"]["managedFields"]}
    assert owned["status-apply"] == ({"f:metadata": {"f:annotations": {"f:note": {}}, "f:finalizers": {
        'v:"f.kgen.dev/a"': {}}, "f:labels": {"f:team": {}}}, "f:status": {"f:phase": {}}} if was_older
        else {"f:status": {"f:phase": {}}})
    assert owned["status-update"] == ({"f:metadata": {"f:labels": {"f:tier": {}}}, "f:status": {"f:ready": {}}}
                                      if was_older else {"f:status": {"f:ready": {}}})
    assert (conflict is None) == was_older
