"""The apiserver's defaulting of built-in kinds, applied by the fake to every object a client writes.

kube-apiserver defaults an object when it decodes a request body (create, update, patch, apply,
``/status`` writes alike): k8s.io/kubernetes' ``SetObjectDefaults_<Kind>`` runs the kind's
``SetDefaults_*`` functions and the ``+default=`` tags of k8s.io/api, parent first, then every
nested struct. A Deployment sent without ``strategy`` is stored with ``RollingUpdate`` and 25 %,
its containers with ``terminationMessagePath``, its pod template with ``dnsPolicy`` and the rest;
a controller unit-tested on the fake sees the objects a cluster would hold.

Most of it is data: ``schema/defaults.json``, extracted from the Go code by the oracle program
hack/oracle-k8s/defaults (hack/oracle-k8s/extract_defaults.py probes, for every kind and every
struct type reachable from it, what an empty value of that type becomes). For each kind and Go
type it lists the fields set when absent: a constant, or ``{}`` for a struct the Go type always
holds (``resources: {}``, ``securityContext: {}``), itself defaulted by its own type's entry.
The defaults that depend on other fields (``imagePullPolicy`` from the image's tag, a Service's
``targetPort`` from its ``port``, a Job's ``completions`` by its ``parallelism``, a Deployment's
``rollingUpdate`` by its strategy's type, requests from limits, ...) are the hand-written rules of
``kgen.runtime.fake.schema.defaulting_rules``, each run before the data of its type, and the fields they
decide are never set from the data. tests/unit/test_fake_defaulting_oracle.py compares the result
with the Go program on a seeded random corpus, tests/integration/test_fake_vs_server_defaults.py
with the real apiserver.

The data is the pinned Kubernetes release's (``defaults.json``'s ``version``), with what each other
supported release defaults differently (``releases``: a StatefulSet's ``maxUnavailable`` before
1.37, an image volume's pull policy in 1.34, ...); the fake applies its generated package's
release's (``ResourceInfo.generated_from``). The Go types are
walked through the generated models (``kgen.runtime.fake.schema.decode.model_for``; ``decode``
calls ``default`` on every built-in object it decodes, and imports this module), so a kind
with no loaded model, or one the data does not list (a custom resource, a kind newer than the
data), is left as sent.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from typing import Any

from msgspec import inspect

from kgen.runtime.fake.schema import decode
from kgen.runtime.fake.schema.defaulting_rules import OWNED, RULES, Context
from kgen.runtime.fake.store import Obj

Data = dict[str, dict[str, Any]]


def default(api_version: str, kind: str, obj: Obj, release: str = "", *, in_place: bool = False) -> Obj:
    """``obj`` (a built-in kind's, as decoded) defaulted as the apiserver of ``release`` does
    (``1.34.4``; the same minor's data, else the pinned release's: ``data_version()``); a new dict,
    ``obj`` itself untouched. Kinds without a model or without data come back as a copy. Its
    ``status`` also gets the zeros Go writes (``with_zeros``): a new StatefulSet's
    ``status.replicas: 0``; the rest of the object does not (validation reads it; ``with_zeros``
    says why). ``in_place``: default ``obj`` itself (a fresh decoded object) and return it."""
    out = obj if in_place else copy.deepcopy(obj)
    model = decode.model_for(api_version, kind)
    data = _release_data(release)
    key = f"{api_version}/{kind}"
    if model is None or key not in data["kinds"]:
        return out
    struct = decode.struct_of(model)
    _walk(out, struct, Context(api_version, kind, out, data["kinds"][key], data["types"], str(data["version"])))
    status = {f.encode_name: f for f in struct.fields}.get("status")
    if isinstance(out.get("status"), dict) and status is not None:
        _each_struct(out["status"], status.type, functools.partial(_zeros, zeros=data["zeros"]))
    return out


def with_zeros(api_version: str, kind: str, obj: Obj, release: str = "") -> Obj:
    """``obj`` (defaulted) as encoding/json writes its Go value: with the zero value of every
    non-``omitempty`` field it lacks (a DaemonSet's ``status.numberReady: 0``, a container's
    ``name: ""`` when it has none), from the data's ``zeros``. Validation must not see these (the
    apiserver's Go validation treats a zero as absent, the fake's OpenAPI checks would not): they
    are what a stored object's JSON holds."""
    out = copy.deepcopy(obj)
    model = decode.model_for(api_version, kind)
    data = _release_data(release)
    if model is not None and f"{api_version}/{kind}" in data["kinds"]:
        _zeros(out, decode.struct_of(model), data["zeros"])
    return out


def _zeros(value: Obj, struct: inspect.StructType, zeros: Data) -> None:
    fields = decode.fields_by_wire_name(struct)
    for key, zero in (zeros.get(type_name(struct.cls)) or {}).items():
        if key not in value and key in fields:
            value[key] = copy.deepcopy(zero)
    for key, item in value.items():
        field = fields.get(key)
        if field is not None:
            _each_struct(item, field.type, functools.partial(_zeros, zeros=zeros))


def _each_struct(item: Any, t: inspect.Type, visit: Any) -> None:
    t = decode.concrete(t)
    if isinstance(t, inspect.StructType) and isinstance(item, dict):
        visit(item, t)
    elif isinstance(t, (inspect.ListType, inspect.SetType, inspect.FrozenSetType)) and isinstance(item, list):
        for element in item:
            _each_struct(element, t.item_type, visit)
    elif isinstance(t, inspect.DictType) and isinstance(item, dict):
        for element in item.values():
            _each_struct(element, t.value_type, visit)


@functools.lru_cache(maxsize=None)
def type_name(cls: type) -> str:
    """The name the data file gives a generated model's Go type: ``core/v1.Container``."""
    module = cls.__module__
    return f"{module.split('.models.', 1)[1].replace('.', '/')}.{cls.__name__}" if ".models." in module else cls.__name__


@functools.cache
def _data() -> dict[str, Any]:
    """The extracted defaults: ``{"version", "types": {type: fields}, "kinds": {key: {type: fields}}}``;
    a kind's own entry for a type wins over the shared one (a Pod's ``PodSpec`` is not a template's)."""
    text = resources.files("kgen.runtime.fake.schema").joinpath("defaults.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.lru_cache(maxsize=None)
def _release_data(release: str) -> dict[str, Any]:
    """The data of a release: the pinned one's with an older release's different entries
    (``releases``: whole entries, ``null`` where the release lacks one), found by version or minor."""
    data = _data()
    releases: dict[str, Any] = data.get("releases", {})
    release = release.removeprefix("v")
    minor = ".".join(release.split(".")[:2])
    found = releases.get(release) or next((d for v, d in releases.items() if minor and v.startswith(minor + ".")), None)
    if found is None:
        return data
    version = next(v for v, d in releases.items() if d is found)
    merged = {**data, "version": version, "types": dict(data["types"]), "kinds": dict(data["kinds"]), "zeros": dict(data["zeros"])}
    for section, entries in found.items():
        for key, entry in entries.items():
            if entry is None:
                merged[section].pop(key, None)
            else:
                merged[section][key] = entry
    return merged


def data_version() -> str:
    """The Kubernetes release the defaults were extracted from."""
    return str(_data()["version"])


def _fields_for(ctx: Context, name: str) -> dict[str, Any] | None:
    own = ctx.kind_data.get(name)
    return own if own is not None else ctx.shared.get(name)


def _walk(value: Obj, struct: inspect.StructType, ctx: Context) -> None:
    name = type_name(struct.cls)
    rule = RULES.get(name)
    if rule is not None:
        rule(value, ctx)
    fields = decode.fields_by_wire_name(struct)
    defaults = _fields_for(ctx, name)
    if defaults:
        owned = OWNED.get(name, frozenset())
        for key, const in defaults.items():
            if key not in value and key not in owned and key in fields:
                value[key] = copy.deepcopy(const) if isinstance(const, (dict, list)) else const
    for key, item in list(value.items()):
        field = fields.get(key)
        if field is not None:
            _each_struct(item, field.type, functools.partial(_walk, ctx=ctx))


__all__ = ["data_version", "default", "type_name", "with_zeros"]
