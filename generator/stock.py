"""CRD subschemas that are stock Kubernetes types: typed with the stock class, not a copy.

A CRD embedding a Kubernetes type (kubebuilder's CronJob embeds ``batchv1.JobTemplateSpec``;
prometheus-operator embeds ``corev1.Container``, ``Affinity``, ``Volume``...) carries that type
inlined, as controller-gen writes it: the apiserver has no ``$ref``. Generated as is, each
becomes a copy (hundreds of classes for one PodSpec) that a controller must convert to the stock
class by ``to_dict``/``from_dict`` before it can build a Job or a Pod. client-go's generated code
has none of this: the Go type is ``batchv1.JobTemplateSpec``. This stage finds such subschemas
before the models are built and replaces each with a ``$ref`` to the stock definition, so the
builder types it as the stock class, exactly as it types a built-in definition's ``$ref``.

Where the stock classes come from:

- the package has the built-in groups itself (``--from`` a snapshot or ``--cluster``, plus
  ``--crd``): the package's own definitions, so its own classes;
- CRDs alone: the embedded snapshot (``openapi/``, what ``kgen.kubernetes`` is generated from).
  apimachinery's meta/v1 is in the package already (its own classes); the other groups are
  imported from ``kgen.kubernetes.models.<group>.<version>``, which kgen-runtime ships.

The matching rule: deterministic and conservative. A subschema matches a stock definition when
both have the same *shape*, recursively: the same property names, each of the same kind
(object of the same shape, list or map of the same element, string, integer, number, boolean,
date-time string, int-or-string, free-form object). Ignored: descriptions, validations
(patterns, bounds, enums), defaults, ``required`` and scalar formats (int32/int64): none changes
the Python type of a field or what the class keeps on the wire. ``Quantity`` and
``IntOrString`` are the one int-or-string kind (a CRD writes both as
``x-kubernetes-int-or-string``), ``Time`` and ``MicroTime`` the date-time string. An embedded
``metadata`` is ``{type: object}`` with no properties in a CRD (controller-gen's default) where
the stock type's is ObjectMeta: the same kind here. ``x-kubernetes-list-type``,
``-list-map-keys`` and ``-map-type`` must not contradict where both sides state them; a fact
only one side states is compatible (``kgen manifests`` writes none of them for an embedded
type, controller-gen marks ``ConfigMapEnvSource`` atomic from the ``LocalObjectReference`` it
embeds where the stock OpenAPI does not). Inside a stock type the merge facts are then the stock
package's (``mergeschema``), as a Go client of such a CRD compiles them from the Go type's
markers; the field holding the stock type keeps the CRD's own facts. The stock side's patch
strategies do not count: the apiserver refuses strategic merge patch on custom resources.

Not matched, so still generated as a copy: a subschema with one property more or fewer (a CRD
made from another Kubernetes version: the stock class would drop or invent nothing on the wire,
as models keep unknown fields, but its attributes would not be the CRD's, so no rule here is
provably safe); objects of fewer than three properties, counted through the objects under them
(``{name, key}`` is too many things; JobTemplateSpec's ``{metadata, spec}`` is not tiny: its
``spec`` is a JobSpec);
a shape several stock types share, unless exactly one name fits the property (the candidate's
name starts with the property's class name or its singular: ``conditions[]`` is meta/v1
``Condition``, not autoscaling/v2's ``HorizontalPodAutoscalerCondition`` of the same shape;
``configMapKeyRef`` fits neither ``ConfigMapKeySelector`` nor ``SecretKeySelector``: a copy) or
the fitting ones all have one name (``CrossVersionObjectReference`` in autoscaling/v1 and v2:
the most stable version, structurally the same class). A match is taken at the largest subschema: what is inside
it is the stock class's business.

``to_dict(from_dict(x)) == x`` holds as before: stock models keep unknown fields and inject no
defaults. ``kgen generate --no-stock-types`` turns this stage off.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from . import naming
from .ir import StockClass
from .nested import is_class, is_int_or_string, unwrap_all_of
from .sources import RawDefinition, SourceSet

#: The package that ``kgen-runtime`` ships, generated from the embedded snapshot.
STOCK_PACKAGE = "kgen.kubernetes"
META = "io.k8s.apimachinery.pkg.apis.meta.v1."
OBJECT_META = META + "ObjectMeta"
_INT_OR_STRING = {"io.k8s.apimachinery.pkg.api.resource.Quantity", "io.k8s.apimachinery.pkg.util.intstr.IntOrString"}
_DATE_TIME = {META + "Time", META + "MicroTime"}
_REF = re.compile(r"^#/(?:components/schemas|definitions)/(.+)$")
_FACTS = ("x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type")
#: Fewer properties than this, counted through nested objects, never match: too many stock types
#: look like ``{name, key}``; ``{metadata, spec}`` with a JobSpec under it is not one of them.
MIN_PROPERTIES = 3
_VERSION = re.compile(r"^v(\d+)(?:(alpha|beta)(\d+))?$")


def _ref_name(schema: Mapping[str, Any]) -> str | None:
    ref = schema.get("$ref")
    if not isinstance(ref, str):
        return None
    found = _REF.match(ref)
    return found.group(1).replace("~1", "/").replace("~0", "~") if found else None


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:24]


class Shapes:
    """The shape of schemas, a definition's ``$ref`` followed (memoized per definition)."""

    def __init__(self, definitions: Mapping[str, RawDefinition]) -> None:
        self.definitions = definitions
        self._of: dict[str, str] = {}
        self._open: set[str] = set()

    def of_definition(self, name: str) -> str:
        found = self._of.get(name)
        if found is not None:
            return found
        d = self.definitions.get(name)
        if d is None or name in self._open:
            return f"unmatchable:{name}"  # a cycle or a dangling $ref: no CRD has that shape
        self._open.add(name)
        try:
            shape = self._of[name] = self.of(d.schema)
        finally:
            self._open.discard(name)
        return shape

    def of(self, schema: Any, wire: str = "") -> str:
        if not isinstance(schema, dict):
            return "any"
        schema = unwrap_all_of(schema)
        ref = _ref_name(schema)
        if ref is not None:
            if ref in _INT_OR_STRING:
                return "int-or-string"
            if ref in _DATE_TIME:
                return "date-time"
            if ref == OBJECT_META and wire == "metadata":
                return "object-meta"
            return self.of_definition(ref)
        if is_int_or_string(schema):
            return "int-or-string"
        kind = schema.get("type")
        if kind == "array":
            return "list:" + self.of(schema.get("items"))
        if kind == "object" or (kind is None and ("properties" in schema or "additionalProperties" in schema)):
            if is_class(schema):
                props = schema["properties"]
                return "object:" + _digest({str(k): self.of(v, str(k)) for k, v in props.items()})
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict):
                return "map:" + self.of(extra)
            # controller-gen's embedded ObjectMeta: an object with no properties.
            return "object-meta" if wire == "metadata" else "free-object"
        if kind == "string" and schema.get("format") == "date-time":
            return "date-time"
        if isinstance(kind, str):
            return kind
        return "any:" + _digest(sorted(k for k in schema if isinstance(k, str) and not k.startswith("x-")))


class StockTypes:
    """The stock definitions a CRD subschema may be, indexed by shape."""

    def __init__(self, definitions: Mapping[str, RawDefinition], external: Mapping[str, StockClass]) -> None:
        self.definitions = definitions
        self.external = external
        self.shapes = Shapes(definitions)
        self.by_shape: dict[str, list[str]] = {}
        for name in sorted(definitions):
            schema = unwrap_all_of(definitions[name].schema)
            if (
                is_class(schema)
                # A kind (Pod, a List) embedded whole is an embedded resource, not a stock type.
                and not schema.get("x-kubernetes-group-version-kind")
            ):
                self.by_shape.setdefault(self.shapes.of_definition(name), []).append(name)

    def match(self, schema: dict[str, Any], wire: str) -> str | None:
        """The stock definition ``schema`` (held by property ``wire``) is, or None."""
        if not is_class(schema) or _size(schema) < MIN_PROPERTIES:
            return None
        found = self.by_shape.get(self.shapes.of(schema))
        if not found:
            return None
        fits = [n for n in found if self._compatible(schema, self.definitions[n].schema, set())]
        return _choose(fits, wire)

    def _compatible(self, crd: Any, stock: Any, seen: set[str]) -> bool:
        """No list/map fact of ``crd`` contradicts ``stock``'s, at any depth (shapes are equal);
        a struct's map type is compared on the object (a CRD's) and on its definition (stock's)."""
        if not isinstance(crd, dict) or not isinstance(stock, dict):
            return True
        crd, stock = unwrap_all_of(crd), unwrap_all_of(stock)
        ref = _ref_name(stock)
        if ref is not None:
            d = self.definitions.get(ref)
            if d is None or ref in seen:
                return True
            return self._compatible(crd, {**d.schema, **{k: v for k, v in stock.items() if k != "$ref"}}, seen | {ref})
        if any(fact in crd and fact in stock and crd[fact] != stock[fact] for fact in _FACTS):
            return False
        for key in ("items", "additionalProperties"):
            if not self._compatible(crd.get(key), stock.get(key), seen):
                return False
        crd_props, stock_props = crd.get("properties"), stock.get("properties")
        if isinstance(crd_props, dict) and isinstance(stock_props, dict):
            return all(self._compatible(sub, stock_props.get(k), seen) for k, sub in crd_props.items())
        return True


def _size(schema: Any) -> int:
    """Properties of an inline schema, counted through nested objects, lists and maps."""
    if not isinstance(schema, dict):
        return 0
    props = schema.get("properties")
    own = sum(1 + _size(sub) for sub in props.values()) if isinstance(props, dict) else 0
    return own + _size(schema.get("items")) + _size(schema.get("additionalProperties"))


def _rank(name: str) -> tuple[int, int, int, str]:
    """Most stable version first (v2 > v1 > v1beta2 > v1beta1 > v1alpha1), then by name."""
    parts = name.split(".")
    found = _VERSION.match(parts[-2]) if len(parts) > 1 else None
    if found is None:
        return (3, 0, 0, name)
    stage = {None: 0, "beta": 1, "alpha": 2}[found.group(2)]
    return (stage, -int(found.group(1)), -int(found.group(3) or 0), name)


def _choose(candidates: list[str], wire: str) -> str | None:
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    # The property's class name, or its singular (``conditions[]`` -> ``Condition``).
    wanted = {naming.class_name(wire), naming.class_name(wire).removesuffix("s")} - {""} if wire else set()
    named = [n for n in candidates if any(n.rsplit(".", 1)[-1].startswith(w) for w in wanted)] or candidates
    if len({n.rsplit(".", 1)[-1] for n in named}) == 1:
        return min(named, key=_rank)
    return None


def _with_ref(schema: dict[str, Any], name: str) -> dict[str, Any]:
    """``schema`` as a ``$ref`` to ``name``, keeping what describes the field holding it."""
    kept = {k: v for k, v in schema.items() if k in ("description", "nullable", "default")}
    # Every x-kubernetes-* fact stays: those of the field (preserve-unknown-fields, validations)
    # and the object's map type, which a field holding a class carries too (mergeschema.py).
    kept.update({k: v for k, v in schema.items() if isinstance(k, str) and k.startswith("x-kubernetes-")})
    return {"$ref": f"#/components/schemas/{name}", **kept}


def _rewrite(schema: Any, wire: str, match: Callable[[dict[str, Any], str], str | None], used: set[str]) -> Any:
    """``schema`` with every largest stock subschema replaced by a ``$ref``."""
    if not isinstance(schema, dict):
        return schema
    name = match(schema, wire)
    if name is not None:
        used.add(name)
        return _with_ref(schema, name)
    out = dict(schema)
    props = schema.get("properties")
    if isinstance(props, dict):
        out["properties"] = {k: _rewrite(v, str(k), match, used) for k, v in props.items()}
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            out[key] = _rewrite(schema[key], wire, match, used)
    for key in ("allOf", "anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            out[key] = [_rewrite(v, wire, match, used) for v in schema[key]]
    return out


def reuse(sources: SourceSet, stock: StockTypes) -> dict[str, StockClass]:
    """Rewrites the CRD definitions of ``sources`` in place, stock subschemas as ``$ref``s;
    returns those of the ``$ref``s the package imports (definition name -> StockClass). The
    others name a definition of ``sources``: the package's own class."""
    used: set[str] = set()
    for d in sources.definitions.values():
        if not is_crd(d, sources):
            continue
        props = d.schema.get("properties")
        if isinstance(props, dict):
            # The root itself is a kind: only what is under it can be a stock type.
            d.schema = {**d.schema, "properties": {k: _rewrite(v, str(k), stock.match, used) for k, v in props.items()}}
    return {name: stock.external[name] for name in sorted(used) if name in stock.external}


def is_crd(d: RawDefinition, sources: SourceSet) -> bool:
    """Whether ``d`` is a kind of a CRD (or its list): the definitions this stage rewrites."""
    gvks = d.schema.get("x-kubernetes-group-version-kind")
    return isinstance(gvks, list) and any(
        isinstance(g, dict) and (g.get("group", ""), g.get("version")) in sources.crd_group_versions for g in gvks
    )
