"""Validation throughput (issue 15): kgen's ``validate()`` against kubernetes-validate (PyPI).

The same built-in objects go through both: a seeded corpus of Deployments, Pods, Services and
ConfigMaps with realistic specs, a share of them made invalid by one planted mutation each (a
wrong type, a bad enum value, a missing required field, an unknown field). Throughput is objects
per second, best of N passes over the whole corpus; a first pass gives each object's verdict
(untimed for kgen, which caches its compiled schemas; timed for kubernetes-validate, which has
no cache), so the table also says how often the two agree and which planted errors each catches.

``measure`` does the work; ``table`` and ``notes`` are I/O-free (tests/unit/
test_bench_validation_report.py checks them with given numbers).
"""

from __future__ import annotations

import copy
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

from kgen.kubernetes.models.apps.v1 import Deployment
from kgen.kubernetes.models.core.v1 import ConfigMap, Pod, Service
from kgen.runtime.apimachinery.model import ModelError
from kgen.runtime.apimachinery.validation import validate

from .report import Row, Table, times
from .timing import best_seconds

#: The version of kgen's embedded snapshot (openapi/kubernetes-1.37.2), asked of kubernetes-validate,
#: which uses its newest schemas not newer than it.
KUBERNETES_VERSION = "1.37.2"
#: Planted mutations, by category; "valid" objects have none.
CATEGORIES = ("valid", "wrong type", "bad enum", "missing required", "unknown field")

_MODELS: dict[tuple[str, str], Any] = {
    ("apps/v1", "Deployment"): Deployment, ("v1", "Pod"): Pod, ("v1", "Service"): Service,
    ("v1", "ConfigMap"): ConfigMap,
}
_APPS = ("checkout", "cart", "catalog", "payments", "search", "frontend", "gateway", "auth", "mailer", "reports")
_IMAGES = ("nginx", "envoy", "redis", "app", "worker", "api", "sidecar")


@dataclass(frozen=True)
class Case:
    obj: dict[str, Any]
    #: One of CATEGORIES, and what was planted (for the notes).
    category: str
    mutation: str = ""


@dataclass(frozen=True)
class Agreement:
    """Verdicts (rejected or accepted) of kgen and the peer on the same objects."""

    both_accept: int
    both_reject: int
    kgen_only: int
    peer_only: int

    @property
    def total(self) -> int:
        return self.both_accept + self.both_reject + self.kgen_only + self.peer_only

    @property
    def agree(self) -> int:
        return self.both_accept + self.both_reject


@dataclass(frozen=True)
class Caught:
    """Of ``objects`` in a category, how many kgen and the peer rejected."""

    objects: int
    kgen: int
    peer: int


@dataclass(frozen=True)
class ValidationRun:
    objects: int
    #: Best pass over all objects given as dicts, seconds.
    kgen_dict: float
    peer_dict: float
    #: Objects that decode into generated models (a wrong type does not), and the best pass over them.
    model_objects: int
    kgen_model: float
    peer_model: float
    #: The peer's own schemas and jsonschema validator, built once per kind by this bench instead of
    #: re-read on every call: what its approach costs without its per-call file reading.
    peer_cached_dict: float
    #: Objects on which that cached validator gave kubernetes-validate's verdict (should be all).
    peer_cached_same: int
    repeats: int
    peer_repeats: int
    #: kgen under fieldValidation Warn (the apiserver's default) vs the peer's default (non-strict),
    #: and kgen under Strict vs the peer's strict=True (no additional properties).
    warn: Agreement
    strict: Agreement
    #: By category (CATEGORIES), under Warn / non-strict.
    caught: dict[str, Caught]
    #: Planted mutations by category: (description, count), for the notes.
    mutations: dict[str, list[tuple[str, int]]]
    peer_version: str
    peer_schema: str
    seed: int


# ---------------------------------------------------------------------------------------------- corpus


def _labels(r: random.Random, app: str) -> dict[str, str]:
    labels = {"app.kubernetes.io/name": app, "app.kubernetes.io/part-of": "shop"}
    if r.random() < 0.5:
        labels["tier"] = r.choice(("frontend", "backend", "cache"))
    return labels


def _meta(r: random.Random, name: str, labels: dict[str, str]) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": r.choice(("default", "shop", "staging")), "labels": labels}
    if r.random() < 0.4:
        meta["annotations"] = {"example.com/owner": f"team-{r.randint(1, 9)}", "example.com/revision": str(r.randint(1, 99))}
    return meta


def _container(r: random.Random, name: str) -> dict[str, Any]:
    port = r.choice((80, 8080, 8443, 9090))
    env: list[dict[str, Any]] = [{"name": f"VAR_{i}", "value": f"value-{r.randint(0, 999)}"} for i in range(r.randint(0, 4))]
    if r.random() < 0.5:
        env.append({"name": "CONFIG", "valueFrom": {"configMapKeyRef": {"name": "app-config", "key": "config.yaml"}}})
    if r.random() < 0.3:
        env.append({"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}})
    container: dict[str, Any] = {
        "name": name,
        "image": f"registry.example.com/{r.choice(_IMAGES)}:{r.randint(1, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)}",
        "imagePullPolicy": r.choice(("Always", "IfNotPresent", "Never")),
        "ports": [{"name": "http", "containerPort": port, "protocol": "TCP"}],
        "env": env,
        "resources": {"requests": {"cpu": f"{r.randint(5, 50) * 10}m", "memory": f"{r.choice((64, 128, 256))}Mi"},
                      "limits": {"cpu": str(r.randint(1, 2)), "memory": f"{r.choice((256, 512))}Mi"}},
        "readinessProbe": {"httpGet": {"path": "/healthz", "port": "http", "scheme": "HTTP"},
                           "initialDelaySeconds": r.randint(0, 10), "periodSeconds": 10, "failureThreshold": 3},
        "livenessProbe": {"tcpSocket": {"port": port}, "periodSeconds": 20},
        "volumeMounts": [{"name": "config", "mountPath": "/etc/app", "readOnly": True},
                         {"name": "tmp", "mountPath": "/tmp"}],
        "securityContext": {"runAsNonRoot": True, "readOnlyRootFilesystem": True, "allowPrivilegeEscalation": False,
                            "capabilities": {"drop": ["ALL"]}},
    }
    if r.random() < 0.3:
        container["args"] = ["--log-level", r.choice(("info", "debug")), f"--port={port}"]
    return container


def _pod_spec(r: random.Random) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "containers": [_container(r, n) for n in ("main", "sidecar", "metrics")[: r.randint(1, 3)]],
        "volumes": [{"name": "config", "configMap": {"name": "app-config", "defaultMode": 420}},
                    {"name": "tmp", "emptyDir": {"sizeLimit": "64Mi"}}],
        "restartPolicy": "Always",
        "serviceAccountName": "app",
        "terminationGracePeriodSeconds": 30,
        "dnsPolicy": "ClusterFirst",
    }
    if r.random() < 0.4:
        spec["nodeSelector"] = {"kubernetes.io/os": "linux"}
    if r.random() < 0.3:
        spec["tolerations"] = [{"key": "dedicated", "operator": "Equal", "value": "shop", "effect": "NoSchedule"}]
    if r.random() < 0.3:
        spec["initContainers"] = [{"name": "migrate", "image": "registry.example.com/migrate:1.0.0",
                                   "command": ["/bin/migrate", "up"]}]
    return spec


def _deployment(r: random.Random, name: str, app: str) -> dict[str, Any]:
    labels = _labels(r, app)
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": _meta(r, name, labels),
            "spec": {"replicas": r.randint(1, 6), "revisionHistoryLimit": 5,
                     "selector": {"matchLabels": {"app.kubernetes.io/name": app}},
                     "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
                     "template": {"metadata": {"labels": labels}, "spec": _pod_spec(r)}}}


def _pod(r: random.Random, name: str, app: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": _meta(r, name, _labels(r, app)), "spec": _pod_spec(r)}


def _service(r: random.Random, name: str, app: str) -> dict[str, Any]:
    ports = [{"name": "http", "port": 80, "targetPort": "http", "protocol": "TCP"}]
    if r.random() < 0.4:
        ports.append({"name": "metrics", "port": 9090, "targetPort": 9090, "protocol": "TCP"})
    spec: dict[str, Any] = {"type": r.choice(("ClusterIP", "ClusterIP", "NodePort", "LoadBalancer")),
                            "selector": {"app.kubernetes.io/name": app}, "ports": ports,
                            "sessionAffinity": r.choice(("None", "ClientIP"))}
    return {"apiVersion": "v1", "kind": "Service", "metadata": _meta(r, name, _labels(r, app)), "spec": spec}


def _config_map(r: random.Random, name: str, app: str) -> dict[str, Any]:
    data = {"config.yaml": f"server:\n  port: {r.choice((80, 8080))}\n  workers: {r.randint(1, 8)}\n",
            **{f"KEY_{i}": f"value-{r.randint(0, 9999)}" for i in range(r.randint(1, 8))}}
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": _meta(r, name, _labels(r, app)), "data": data}


def _first_container(obj: dict[str, Any]) -> dict[str, Any]:
    spec = obj["spec"]["template"]["spec"] if obj["kind"] == "Deployment" else obj["spec"]
    container: dict[str, Any] = spec["containers"][0]
    return container


def _plant(r: random.Random, obj: dict[str, Any], category: str) -> str:
    """Make ``obj`` invalid in place by one mutation of ``category``; returns what was done."""
    kind = obj["kind"]
    if category == "wrong type":
        choices: dict[str, Sequence[str]] = {
            "Deployment": ("spec.replicas: \"three\"", "containers[0].ports[0].containerPort: \"8080\""),
            "Pod": ("containers[0].ports[0].containerPort: \"8080\"", "metadata.labels value: 7"),
            "Service": ("spec.ports[0].port: \"80\"", "metadata.labels value: 7"),
            "ConfigMap": ("data value: 42", "metadata.labels value: 7"),
        }
    elif category == "bad enum":
        choices = {
            "Deployment": ("strategy.type: \"Canary\"", "containers[0].imagePullPolicy: \"Sometimes\""),
            "Pod": ("spec.restartPolicy: \"Sometimes\"", "containers[0].ports[0].protocol: \"HTTP\""),
            "Service": ("spec.type: \"Internal\"", "spec.ports[0].protocol: \"HTTP\""),
            "ConfigMap": (),  # no enum in a ConfigMap: see corpus()
        }
    elif category == "missing required":
        choices = {
            "Deployment": ("spec.selector removed", "containers[0].name removed"),
            "Pod": ("containers[0].name removed", "spec.containers removed"),
            "Service": ("spec.ports[0].port removed",),
            "ConfigMap": ("metadata.ownerReferences[0].uid missing",),
        }
    else:
        choices = {k: ("spec.replica (misspelt replicas)" if k == "Deployment" else "metadata.labelz",)
                   for k in ("Deployment", "Pod", "Service", "ConfigMap")}
    mutation = r.choice(choices[kind])
    if mutation == "spec.replicas: \"three\"":
        obj["spec"]["replicas"] = "three"
    elif mutation.startswith("containers[0].ports[0].containerPort"):
        _first_container(obj)["ports"][0]["containerPort"] = "8080"
    elif mutation == "metadata.labels value: 7":
        obj["metadata"]["labels"]["replicas"] = 7
    elif mutation == "spec.ports[0].port: \"80\"":
        obj["spec"]["ports"][0]["port"] = "80"
    elif mutation == "data value: 42":
        obj["data"]["KEY_0"] = 42
    elif mutation == "strategy.type: \"Canary\"":
        obj["spec"]["strategy"] = {"type": "Canary"}
    elif mutation == "containers[0].imagePullPolicy: \"Sometimes\"":
        _first_container(obj)["imagePullPolicy"] = "Sometimes"
    elif mutation == "spec.restartPolicy: \"Sometimes\"":
        obj["spec"]["restartPolicy"] = "Sometimes"
    elif mutation == "containers[0].ports[0].protocol: \"HTTP\"":
        _first_container(obj)["ports"][0]["protocol"] = "HTTP"
    elif mutation == "spec.type: \"Internal\"":
        obj["spec"]["type"] = "Internal"
    elif mutation == "spec.ports[0].protocol: \"HTTP\"":
        obj["spec"]["ports"][0]["protocol"] = "HTTP"
    elif mutation == "spec.selector removed":
        del obj["spec"]["selector"]
    elif mutation == "containers[0].name removed":
        del _first_container(obj)["name"]
    elif mutation == "spec.containers removed":
        del obj["spec"]["containers"]
    elif mutation == "spec.ports[0].port removed":
        del obj["spec"]["ports"][0]["port"]
    elif mutation == "metadata.ownerReferences[0].uid missing":
        obj["metadata"]["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "owner"}]
    elif mutation.startswith("spec.replica "):
        obj["spec"]["replica"] = obj["spec"]["replicas"]
    else:
        obj["metadata"]["labelz"] = {"app": "x"}
    return mutation


def corpus(count: int, seed: int, invalid_share: float = 0.25) -> list[Case]:
    """``count`` built-in objects (Deployments and Pods 30% each, Services and ConfigMaps 20%),
    ``invalid_share`` of them with one planted mutation, the categories in turn."""
    r = random.Random(seed)
    makers: list[Callable[[random.Random, str, str], dict[str, Any]]] = [_deployment, _pod, _service, _config_map]
    planted = CATEGORIES[1:]
    cases: list[Case] = []
    for i in range(count):
        app = r.choice(_APPS)
        obj = r.choices(makers, weights=(3, 3, 2, 2))[0](r, f"{app}-{i}", app)
        if r.random() < invalid_share:
            category = planted[sum(1 for c in cases if c.category != "valid") % len(planted)]
            if category == "bad enum" and obj["kind"] == "ConfigMap":
                category = "wrong type"  # a ConfigMap has no enum field
            cases.append(Case(obj, category, _plant(r, obj, category)))
        else:
            cases.append(Case(obj, "valid"))
    return cases


# ---------------------------------------------------------------------------------------------- measuring


def _agreement(kgen: Sequence[bool], peer: Sequence[bool]) -> Agreement:
    pairs = list(zip(kgen, peer))
    return Agreement(both_accept=pairs.count((False, False)), both_reject=pairs.count((True, True)),
                     kgen_only=pairs.count((True, False)), peer_only=pairs.count((False, True)))


def _cached_peer() -> Callable[[dict[str, Any]], bool]:
    """kubernetes-validate's validation (its schema files, its registry, Draft 2020-12), with the
    validator built once per apiVersion and kind; returns whether it rejects the object."""
    import jsonschema  # type: ignore[import-untyped]
    from kubernetes_validate import utils  # type: ignore[import-untyped, unused-ignore]
    from referencing import Registry, Resource

    wanted = utils.major_minor(KUBERNETES_VERSION)
    schema_dir = "v%s-local" % [v for v in utils.all_versions() if utils.major_minor(v) <= wanted][-1]
    definitions = Resource.from_contents(utils.schema_contents(f"kubernetes-json-schema/{schema_dir}/_definitions.json",
                                                               KUBERNETES_VERSION))
    validators: dict[tuple[str, str], Any] = {}

    def rejects(obj: dict[str, Any]) -> bool:
        key = (obj["apiVersion"], obj["kind"])
        validator = validators.get(key)
        if validator is None:
            api_version = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", key[0])
            schema = utils.schema_contents(f"kubernetes-json-schema/{schema_dir}/{key[1].lower()}-{api_version}.json",
                                           KUBERNETES_VERSION)
            registry = definitions @ (Resource.from_contents(schema) @ Registry())
            validator = validators[key] = jsonschema.validators.Draft202012Validator(schema, registry=registry)
        try:
            validator.validate(obj)
        except jsonschema.ValidationError:
            return True
        return False

    return rejects


def measure(count: int, seed: int, repeats: int, peer_repeats: int,
            progress: Callable[[str], None]) -> ValidationRun:
    import kubernetes_validate  # the bench extra's peer

    cases = corpus(count, seed)
    objects = [c.obj for c in cases]
    models = []
    for obj in objects:
        try:
            models.append(_MODELS[obj["apiVersion"], obj["kind"]].from_dict(copy.deepcopy(obj)))
        except ModelError:
            pass

    def peer_rejects(obj: Any, strict: bool = False) -> bool:
        try:
            kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=strict)
        except kubernetes_validate.ValidationError:
            return True
        return False

    # The untimed first passes: verdicts (and warm caches: kgen's compiled schemas).
    progress(f"validation: verdicts of {len(objects)} objects, kgen and kubernetes-validate, Warn and Strict")
    kgen_warn = [bool(validate(o)) for o in objects]
    kgen_strict = [bool(validate(o, field_validation="Strict")) for o in objects]
    started = time.perf_counter()  # the peer has no cache to warm: its verdict pass is a timed one
    peer_warn = [peer_rejects(o) for o in objects]
    peer_first = time.perf_counter() - started
    peer_strict = [peer_rejects(o, strict=True) for o in objects]
    peer_schema = str(kubernetes_validate.validate(objects[[c.category for c in cases].index("valid")],
                                                   KUBERNETES_VERSION))
    for m in models:
        validate(m)
    cached_rejects = _cached_peer()
    peer_cached_same = sum(cached_rejects(o) == rejected for o, rejected in zip(objects, peer_warn))

    progress(f"validation: kgen, best of {repeats} passes, dicts then {len(models)} model instances")
    kgen_dict = best_seconds(lambda: [validate(o) for o in objects], repeats)
    kgen_model = best_seconds(lambda: [validate(m) for m in models], repeats)
    progress(f"validation: kubernetes-validate, best of {peer_repeats} passes, dicts then model instances")
    peer_dict = min(peer_first, best_seconds(lambda: [peer_rejects(o) for o in objects], peer_repeats - 1))
    peer_model = best_seconds(lambda: [peer_rejects(m) for m in models], peer_repeats)
    peer_cached_dict = best_seconds(lambda: [cached_rejects(o) for o in objects], repeats)

    caught: dict[str, Caught] = {}
    mutations: dict[str, list[tuple[str, int]]] = {}
    for category in CATEGORIES:
        picked = [i for i, c in enumerate(cases) if c.category == category]
        caught[category] = Caught(len(picked), sum(kgen_warn[i] for i in picked), sum(peer_warn[i] for i in picked))
        descriptions = sorted({cases[i].mutation for i in picked if cases[i].mutation})
        mutations[category] = [(d, sum(1 for i in picked if cases[i].mutation == d)) for d in descriptions]
    return ValidationRun(objects=len(objects), kgen_dict=kgen_dict, peer_dict=peer_dict, model_objects=len(models),
                         kgen_model=kgen_model, peer_model=peer_model, peer_cached_dict=peer_cached_dict,
                         peer_cached_same=peer_cached_same, repeats=repeats, peer_repeats=peer_repeats,
                         warn=_agreement(kgen_warn, peer_warn), strict=_agreement(kgen_strict, peer_strict),
                         caught=caught, mutations=mutations, peer_version=version("kubernetes-validate"),
                         peer_schema=peer_schema, seed=seed)


# ---------------------------------------------------------------------------------------------- report


def _rate(objects: int, seconds: float) -> str:
    return f"{objects / seconds:,.0f}/s"


def _agreement_row(label: str, a: Agreement) -> Row:
    detail = (f"{a.agree:,}/{a.total:,} ({a.both_reject:,} both reject, {a.both_accept:,} both accept)",
              f"{a.kgen_only:,} only kgen rejects, {a.peer_only:,} only peer")
    return Row(label, detail, "", "(info)", None)


def table(run: ValidationRun) -> Table:
    dict_ratio = run.peer_dict / run.kgen_dict
    model_ratio = run.peer_model / run.kgen_model
    rows = [
        Row(f"validate(dict), objects/s ({run.objects:,} objects)",
            (_rate(run.objects, run.kgen_dict), _rate(run.objects, run.peer_dict)), times(dict_ratio), "(info)", None),
        Row(f"validate(model instance), objects/s ({run.model_objects:,} that decode into models)",
            (_rate(run.model_objects, run.kgen_model), _rate(run.model_objects, run.peer_model)), times(model_ratio),
            "(info)", None),
        Row("validate(dict), peer's schemas and validator built once per kind (not its API)",
            (_rate(run.objects, run.kgen_dict), _rate(run.objects, run.peer_cached_dict)),
            times(run.peer_cached_dict / run.kgen_dict), "(info)", None),
        _agreement_row("verdicts agree: kgen Warn vs peer default", run.warn),
        _agreement_row("verdicts agree: kgen Strict vs peer strict=True", run.strict),
    ]
    for category in CATEGORIES:
        c = run.caught[category]
        verb = "accepted" if category == "valid" else "rejected"
        kgen, peer = (c.objects - c.kgen, c.objects - c.peer) if category == "valid" else (c.kgen, c.peer)
        rows.append(Row(f"{category} objects {verb} (Warn / default)", (f"{kgen}/{c.objects}", f"{peer}/{c.objects}"),
                        "", "(info)", None))
    return Table("Validation of built-in objects, kgen validate() vs kubernetes-validate "
                 "(ratio = kgen ÷ kubernetes-validate objects/s)", ("kgen", "kubernetes-validate"), rows)


def notes(run: ValidationRun) -> list[str]:
    lines = [
        f"- validation: {run.objects:,} objects (seed {run.seed}: Deployments, Pods, Services, ConfigMaps with "
        f"realistic specs, one planted mutation in {run.objects - run.caught['valid'].objects:,} of them); "
        f"best of {run.repeats} passes for kgen after an untimed one (its compiled schemas cached), best of "
        f"{run.peer_repeats} for kubernetes-validate (no cache to warm: the first of its dict passes also gives "
        "the verdicts)",
        f"- validation: kubernetes-validate {run.peer_version}, asked for Kubernetes {KUBERNETES_VERSION} (kgen's "
        f"embedded snapshot), validated against its Kubernetes {run.peer_schema} JSON schemas; it reads and "
        "parses its schema files on every call (its public validate() has no cache), which its figure includes",
        "- validation: 'built once per kind': kubernetes-validate's schema files, registry and jsonschema "
        "Draft 2020-12 validator as its validate() builds them, cached by the bench per apiVersion and kind "
        f"(jsonschema {version('jsonschema')}); same verdict as kubernetes_validate.validate() on "
        f"{run.peer_cached_same:,}/{run.objects:,} objects",
        "- validation: kgen checks what the published OpenAPI says of built-in kinds (types, enums, required), "
        "as the apiserver's decoding does, and none of the Go validation (pkg/apis/*/validation) that follows it",
    ]
    enum = run.caught["bad enum"]
    if enum.objects and enum.peer == 0:
        lines.append("- validation: kubernetes-validate passed every bad enum value: its JSON schemas list no enums")
    for category in CATEGORIES[1:]:
        planted = ", ".join(f"{d} ×{n}" for d, n in run.mutations.get(category, []))
        lines.append(f"- validation: {category}: {planted or 'none'}")
    return lines
