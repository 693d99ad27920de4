"""Seeded random server-side apply sequences, for the differential test against apimachinery's
field manager (tests/unit/test_ssa_oracle.py, hack/oracle/fieldmanager).

Kinds: Deployments, ConfigMaps, Services, Pods, the Gizmo CRD (tests/support/ssa_crd.yaml: every
list and map type a structural schema can declare) and the sample controller's Foo
(examples/sample_controller/crd.yaml), both with a status subresource.

A *sequence* is the life of one object: a create (by apply or by update), then operations, each
fed the previous result as its live object, so managedFields are what a server would hold. The
operations mix what real clients do:

- applies by two or three Apply managers, each with a random subset of "knobs" (one field or one
  list of the kind each), forced or not, so they share fields, conflict, and force;
- a manager re-applying with fewer knobs, fewer list items or fewer item fields (removal), or
  with an empty configuration;
- updates by other managers (values changed, fields and list items removed and added, key fields
  changed), sometimes without managedFields in the body, sometimes resetting them (``[{}]``, and
  ``[]``: a reset for the field manager, though a custom resource's decoder drops it before);
- an Update by an Apply manager's own name, after which its apply conflicts with itself (409);
- status subresource applies and updates (main-resource status and /status spec are reset
  fields), on the kinds that have one;
- bad applies the server refuses: a list-map item without its key, duplicate keys, duplicate set
  items, a wrong apiVersion, managedFields in the body, a value of the wrong type; explicit nulls
  and empty lists and maps;
- kubectl's client-side apply (the last-applied annotation) and then its server-side apply
  (manager ``kubectl``), which may take the annotated fields without a conflict;
- busy objects (``fresh_updaters``): a new Update manager each time, past the cap of 10.

What the knobs set, every list type and map type among it, is in tests/support/ssa_knobs.py.

Live objects carry managedFields times that are unique and old (``LIVE_TIMES``), so a result's
time is either one of them (unchanged) or the operation's "now": that is the only thing the
comparison normalizes (``normalize_times``).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.support.ssa_knobs import KINDS, KNOBS, STATUS_KNOBS, Knob, at, deep_merge, subset

__all__ = ["KINDS", "NOW", "SequenceMaker", "Step", "canonical", "normalize_times", "with_live_times"]

APPLIERS = ("apply-a", "apply-b", "apply-c")
UPDATERS = ("editor", "controller")
STATUS_MANAGERS = ("status-apply", "status-update")
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
LIVE_TIMES = tuple(f"2020-01-{day:02d}T00:00:00Z" for day in range(1, 29))
NOW = "2026-12-03T10:00:00Z"


# -- sequences ----------------------------------------------------------------------------------------

@dataclass
class Step:
    """One operation: ``case`` is the oracle's input line, ``category`` what it exercises."""

    case: dict[str, Any]
    category: str


@dataclass
class SequenceMaker:
    """Makes the operations of one sequence on one object of ``kind`` ("<apiVersion> <Kind>"),
    each from the live object the previous one left (None before the create)."""

    rng: random.Random
    kind: str
    applied: dict[str, list[str]] = field(default_factory=dict)  # manager -> its last knobs
    #: a busy object: every update by a new manager name, so more than 10 Update managers pile
    #: up and capManagersManager folds the oldest into "ancient-changes" (give it a long sequence)
    fresh_updaters: bool = False
    _fresh: int = 0

    @property
    def api_version(self) -> str:
        return self.kind.split(" ")[0]

    def _base(self) -> dict[str, Any]:
        api_version, kind = self.kind.split(" ")
        return {"apiVersion": api_version, "kind": kind, "metadata": {"name": "obj", "namespace": "default"}}

    def _case(self, op: str, live: dict[str, Any] | None, obj: dict[str, Any], manager: str,
              subresource: str = "", force: bool = False) -> dict[str, Any]:
        api_version, kind = self.kind.split(" ")
        return {"op": op, "apiVersion": api_version, "kind": kind, "subresource": subresource, "live": live,
                "obj": obj, "manager": manager, "force": force}

    def _config(self, knobs: dict[str, Knob], names: Sequence[str]) -> dict[str, Any]:
        config = self._base()
        for name in names:
            config = deep_merge(config, knobs[name](self.rng))
        return config

    def next(self, live: dict[str, Any] | None) -> Step:
        """The next operation on ``live``."""
        rng = self.rng
        if live is None:
            if rng.random() < 0.6:
                return self._apply(None, rng.choice(APPLIERS), "apply/create")
            obj = self._config(KNOBS[self.kind], subset(rng, list(KNOBS[self.kind]), low=1))
            return Step(self._case("update", None, obj, rng.choice(UPDATERS)), "update/create")
        has_status = self.kind in STATUS_KNOBS
        roll = rng.random()
        if self.fresh_updaters and roll < 0.6:
            self._fresh += 1
            step = self._update(live, f"bot-{self._fresh}")
            step.category = step.category.replace("update/", "update/fresh-manager/", 1)
            # an annotation of its own, so its entry stays when later updates take the rest
            md = step.case["obj"].setdefault("metadata", {})
            md["annotations"] = {**(md.get("annotations") or {}), f"bot-{self._fresh}.kgen.dev/mark": "1"}
            return step
        if roll < 0.40:
            return self._apply(live, rng.choice(APPLIERS), "apply")
        if roll < 0.62:
            return self._update(live, rng.choice(UPDATERS))
        if roll < 0.68:
            appliers = [m for m in APPLIERS if m in self.applied] or list(APPLIERS)
            step = self._update(live, rng.choice(appliers))
            step.category = step.category.replace("update/", "update/same-name-as-applier/", 1)
            return step
        if roll < 0.80 and has_status:
            return self._status(live)
        if roll < 0.88:
            return self._bad_apply(live)
        if roll < 0.94:
            return self._kubectl(live)
        return self._edge(live)

    def _kubectl(self, live: dict[str, Any]) -> Step:
        """kubectl's client-side apply (an Update that records the last-applied annotation), or
        its server-side apply (manager "kubectl"), which keeps that annotation up to date and may
        take the fields it lists from other managers without a conflict (lastAppliedManager)."""
        rng = self.rng
        config = self._config(KNOBS[self.kind], subset(rng, list(KNOBS[self.kind]), low=1))
        if rng.random() < 0.5:
            new = deep_merge(live, config)
            annotations = new["metadata"].setdefault("annotations", {}) or {}
            annotations[LAST_APPLIED] = json.dumps(config, sort_keys=True) + "\n"
            new["metadata"]["annotations"] = annotations
            return Step(self._case("update", live, new, "kubectl-client-side-apply"), "update/client-side-apply")
        had = LAST_APPLIED in ((live.get("metadata") or {}).get("annotations") or {})
        force = rng.random() < 0.2
        return Step(self._case("apply", live, config, "kubectl", force=force),
                    "apply/kubectl" + ("/after-client-side-apply" if had else "") + ("/force" if force else ""))

    def _apply(self, live: dict[str, Any] | None, manager: str, category: str) -> Step:
        rng = self.rng
        knobs = KNOBS[self.kind]
        previous = self.applied.get(manager)
        if previous is not None and rng.random() < 0.5:
            names = [n for n in previous if rng.random() < 0.75]  # drop knobs: removal
            names += [n for n in subset(rng, list(knobs)) if n not in names and rng.random() < 0.3]
            category += "/reapply" + ("-removal" if set(previous) - set(names) else "")
        else:
            names = subset(rng, list(knobs), low=1)
        self.applied[manager] = names
        config = self._config(knobs, names)
        if self.kind in STATUS_KNOBS and rng.random() < 0.1:  # status on the main resource: reset
            config = deep_merge(config, self._config(STATUS_KNOBS[self.kind], subset(rng, list(STATUS_KNOBS[self.kind]), 1)))
            category += "/with-status"
        force = rng.random() < 0.25
        category += "/force" if force else ""
        if live is not None and any(n in self._lists(names) for n in names):
            category += "/lists"
        return Step(self._case("apply", live, config, manager, force=force), category)

    def _lists(self, names: Sequence[str]) -> set[str]:
        return {"finalizers", "containers", "tolerations", "ports", "externalIPs", "tags", "args", "plain",
                "workers", "endpoints"} & set(names)

    def _update(self, live: dict[str, Any], manager: str) -> Step:
        rng = self.rng
        new = copy.deepcopy(live)
        what = []
        for _ in range(rng.randint(1, 3)):
            kind = rng.random()
            if kind < 0.4:
                name = rng.choice(list(KNOBS[self.kind]))
                new = deep_merge(new, KNOBS[self.kind][name](rng))
                what.append("set")
            elif kind < 0.75:
                if _remove_random(rng, new):
                    what.append("removal")
            else:
                if _change_random(rng, new):
                    what.append("change")
        category = "update/" + "+".join(sorted(set(what)) or ["noop"])
        md = new.setdefault("metadata", {})
        r = rng.random()
        if r < 0.15:
            md.pop("managedFields", None)
            category += "/no-managed-fields"
        elif r < 0.2:
            md["managedFields"] = [{}]  # the documented reset
            category += "/reset-managed-fields"
        elif r < 0.23:
            md["managedFields"] = []  # a reset too, except for a custom resource (its decoder drops it)
            category += "/empty-managed-fields"
        return Step(self._case("update", live, new, manager), category)

    def _status(self, live: dict[str, Any]) -> Step:
        rng = self.rng
        knobs = STATUS_KNOBS[self.kind]
        if rng.random() < 0.5:
            config = self._config(knobs, subset(rng, list(knobs), low=1))
            category = "status/apply"
            if rng.random() < 0.2:  # spec through /status: a reset field there
                config = deep_merge(config, KNOBS[self.kind][rng.choice(list(KNOBS[self.kind]))](rng))
                category += "/with-spec"
            force = rng.random() < 0.3
            return Step(self._case("apply", live, config, STATUS_MANAGERS[0], "status", force),
                        category + ("/force" if force else ""))
        new = copy.deepcopy(live)
        new = deep_merge(new, knobs[rng.choice(list(knobs))](rng))
        category = "status/update"
        if rng.random() < 0.3 and _remove_random(rng, new, ("status",)):
            category += "/removal"
        if rng.random() < 0.15:
            new = deep_merge(new, KNOBS[self.kind][rng.choice(list(KNOBS[self.kind]))](rng))
            category += "/with-spec"
        return Step(self._case("update", live, new, STATUS_MANAGERS[1], "status"), category)

    def _bad_apply(self, live: dict[str, Any]) -> Step:
        rng = self.rng
        manager = rng.choice(APPLIERS)
        config = self._config(KNOBS[self.kind], subset(rng, list(KNOBS[self.kind]), low=1))
        problem = rng.choice(("missing-key", "duplicate-key", "duplicate-set-item", "wrong-version",
                              "managed-fields", "wrong-type"))
        lists = {
            "apps/v1 Deployment": ("spec.template.spec.containers", {"image": "x"}, {"name": "main"}),
            "v1 Pod": ("spec.containers", {"image": "x"}, {"name": "main"}),
            "v1 Service": ("spec.ports", {"name": "p", "port": "x"}, {"port": 80, "protocol": "TCP"}),
            "v1 ConfigMap": ("metadata.ownerReferences", {"name": "o"},
                             {"apiVersion": "v1", "kind": "X", "name": "o", "uid": "u1"}),
            "ssa.kgen.dev/v1 Gizmo": ("spec.workers", {"size": 1}, {"name": "w1"}),
            "samplecontroller.kgen.dev/v1alpha1 Foo": ("metadata.ownerReferences", {"name": "o"},
                                                       {"apiVersion": "v1", "kind": "X", "name": "o", "uid": "u1"}),
        }[self.kind]
        path, keyless, keyed = lists
        if problem == "missing-key":
            if self.kind == "v1 Service":
                keyless = {"name": "p"}  # port has a schema default (0): not an error there
            config = deep_merge(config, at(path, [keyless]))
        elif problem == "duplicate-key":
            config = deep_merge(config, at(path, [keyed, copy.deepcopy(keyed)]))
        elif problem == "duplicate-set-item":
            config = deep_merge(config, at("metadata.finalizers", ["f.kgen.dev/a", "f.kgen.dev/a"]))
        elif problem == "wrong-version":
            config["apiVersion"] = "v9" if "/" not in self.api_version else self.api_version.split("/")[0] + "/v9"
        elif problem == "managed-fields":
            config["metadata"]["managedFields"] = [{"manager": "x", "operation": "Apply"}]
        else:
            config = deep_merge(config, at("metadata.labels", {"bad": 1}))
        return Step(self._case("apply", live, config, manager, force=rng.random() < 0.3), f"apply/error/{problem}")

    def _edge(self, live: dict[str, Any]) -> Step:
        rng = self.rng
        manager = rng.choice(APPLIERS)
        what = rng.choice(("empty-config", "empty-collections", "explicit-null", "same-config-twice"))
        if what == "empty-config":
            self.applied[manager] = []
            config = self._base()
        elif what == "same-config-twice" and manager in self.applied:
            config = self._config(KNOBS[self.kind], self.applied[manager])
        else:
            config = self._config(KNOBS[self.kind], subset(rng, list(KNOBS[self.kind]), low=1))
            if what == "empty-collections":
                config = deep_merge(config, rng.choice((at("metadata.labels", {}), at("metadata.finalizers", []))))
            elif what == "explicit-null":
                config = deep_merge(config, rng.choice((at("metadata.labels", None), at("metadata.annotations", {"note": None}))))
        return Step(self._case("apply", live, config, manager, force=rng.random() < 0.3), f"apply/{what}")


def _paths(value: Any, under: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``value`` (dict keys and list indexes), outermost first."""
    out: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((*under, k))
            out += _paths(v, (*under, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((*under, i))
            out += _paths(v, (*under, i))
    return out


_FIXED = ("apiVersion", "kind")


def _editable(obj: dict[str, Any], roots: Sequence[str]) -> list[tuple[Any, ...]]:
    paths = []
    for p in _paths(obj):
        if p[0] in _FIXED or (p[0] == "metadata" and (len(p) < 2 or p[1] not in ("labels", "annotations", "finalizers"))):
            continue
        if roots and p[0] not in roots:
            continue
        paths.append(p)
    return paths


#: the list-map key fields of the kinds above: an update never removes one from an item (the
#: apiserver's validation would refuse the object, so it never becomes a live object)
KEY_FIELDS = frozenset(("name", "key", "port", "protocol", "containerPort", "type", "uid"))


def _is_key(path: tuple[Any, ...]) -> bool:
    return len(path) >= 2 and isinstance(path[-2], int) and path[-1] in KEY_FIELDS


def _remove_random(rng: random.Random, obj: dict[str, Any], roots: Sequence[str] = ()) -> bool:
    paths = [p for p in _editable(obj, roots) if not _is_key(p)]
    if not paths:
        return False
    path = rng.choice(paths)
    parent: Any = obj
    for part in path[:-1]:
        parent = parent[part]
    del parent[path[-1]]
    return True


def _change_random(rng: random.Random, obj: dict[str, Any]) -> bool:
    leaves = [p for p in _editable(obj, ()) if not isinstance(_get(obj, p), (dict, list, type(None)))]
    if not leaves:
        return False
    path = rng.choice(leaves)
    parent: Any = obj
    for part in path[:-1]:
        parent = parent[part]
    old = parent[path[-1]]
    if _is_key(path):  # a renamed item: a fresh key, never a duplicate one
        parent[path[-1]] = old + 1000 if isinstance(old, int) else f"{old}-renamed"
    elif "binaryData" in path:  # base64, or the apiserver's decoder refuses it (400)
        parent[path[-1]] = rng.choice(("AA==", "AQ==", "Ag=="))
    elif str(path[-1]).endswith("Time"):  # a time, likewise
        parent[path[-1]] = rng.choice(("2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z"))
    elif isinstance(old, bool):
        parent[path[-1]] = not old
    elif isinstance(old, int):
        parent[path[-1]] = old + rng.choice((1, 2))
    else:
        parent[path[-1]] = rng.choice(("x", "y", "z"))
    return True


def _get(obj: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        obj = obj[part]
    return obj


# -- times ----------------------------------------------------------------------------------------------

def with_live_times(obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` with each managedFields entry's time replaced by a unique old one (``LIVE_TIMES``),
    so a result's time tells "kept" from "now" even when both sides run in the same second."""
    out = copy.deepcopy(obj)
    for i, entry in enumerate((out.get("metadata") or {}).get("managedFields") or []):
        if isinstance(entry, dict) and "time" in entry:
            entry["time"] = LIVE_TIMES[i % len(LIVE_TIMES)]
    return out


def normalize_times(obj: Any, live: dict[str, Any] | None) -> Any:
    """A result with every managedFields time that is not one of ``live``'s replaced by "<now>":
    the only normalization the comparison makes (the Go side's now is the wall clock)."""
    if not isinstance(obj, dict):
        return obj
    kept = {e.get("time") for e in ((live or {}).get("metadata") or {}).get("managedFields") or [] if isinstance(e, dict)}
    out = copy.deepcopy(obj)
    for entry in (out.get("metadata") or {}).get("managedFields") or []:
        if isinstance(entry, dict) and "time" in entry and entry["time"] not in kept:
            entry["time"] = "<now>"
    return out


def canonical(outcome: dict[str, Any]) -> str:
    """An outcome ({"object"} or {"error": {code, reason, message}}) as comparable text: the
    JSON value, and each managedFields entry's FieldsV1 with its keys in the order written (the
    apiserver writes structured-merge-diff's order for built-in kinds, sorted strings for custom
    resources; tests/integration/test_ssa_oracle_vs_server.py checks the oracle does too)."""
    text = json.dumps(outcome, sort_keys=True)
    obj = outcome.get("object")
    if isinstance(obj, dict):
        entries = (obj.get("metadata") or {}).get("managedFields") or []
        text += "\n  FieldsV1 as written: " + json.dumps([e.get("fieldsV1") for e in entries if isinstance(e, dict)])
    return text
