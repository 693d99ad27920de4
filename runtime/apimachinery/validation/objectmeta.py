"""ObjectMeta validation, as apimachinery's ``pkg/api/validation`` does it for every kind.

The apiserver validates an object's metadata the same way whatever its kind, built-in or custom:
``ValidateObjectMetaAccessor`` on a create (name or generateName by the kind's name rule, the
namespace, labels, annotations, owner references, finalizers) and
``ValidateObjectMetaAccessorUpdate`` on an update (no new finalizers once the object is being
deleted, a resourceVersion, immutable name, namespace, uid, creationTimestamp and deletion
fields, then labels, annotations and owner references again, finalizer names not). Built-in
kinds' strategies call it from ``pkg/apis/*/validation`` with their own name rule
(``name_rule_for``); custom resources' from apiextensions-apiserver's validator, with the DNS
subdomain rule.

``validate_object_meta`` returns the errors in apimachinery's order, each as the 422's cause
reads (``FieldError``), with apimachinery's wording (``k8s.io/apimachinery/pkg/util/validation``
and ``pkg/api/validate/content``, whose name, label key and label value checks live in
``kgen.runtime.apimachinery.labels``, the layer below, and are re-exported here). ``finalizer_warnings`` gives the ``Warning`` headers
apiextensions-apiserver adds for a custom resource's new finalizers that are not
domain-qualified.

One release difference (tests/support/versions.py, ``owner-reference-errors-unindexed``): up to
1.36 an owner reference's missing fields are ``Invalid value: "": must not be empty`` (the
apiVersion's ``version must not be empty``) at ``metadata.ownerReferences.<field>``; from 1.37 they
are ``Required value: must not be empty`` at ``metadata.ownerReferences[i].<field>``, and an
unparsable apiVersion is ``must be <group>/<version> or <version>``. This module writes 1.37's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import go_value
from kgen.runtime.apimachinery.labels import (
    is_dns1035_label, is_dns1123_label, is_dns1123_subdomain, is_label_value, is_qualified_name, size as _size,
)
from kgen.runtime.apimachinery.validation.content import is_path_segment_name
from kgen.runtime.apimachinery.validation.structural import FieldError, child

__all__ = [
    "NameRule", "finalizer_warnings", "is_dns1123_label", "is_dns1123_subdomain", "is_qualified_name",
    "is_label_value", "name_is_dns1035_label", "name_is_dns_label", "name_is_dns_subdomain", "name_is_path_segment",
    "kube_finalizers_for", "name_rule_for", "registry_meta_errors", "validate_object_meta",
    "with_meta_errors",
]

NameRule = Callable[[str, bool], list[str]]
"""apimachinery's ValidateNameFunc: (name, is a generateName prefix) -> the messages of its errors."""

TOTAL_ANNOTATION_SIZE_LIMIT = 256 * (1 << 10)
"""apimachinery's TotalAnnotationSizeLimitB: the annotations' keys and values, in bytes."""
_FINALIZER_ORPHAN = "orphan"
_FINALIZER_DELETE_DEPENDENTS = "foregroundDeletion"
_STANDARD_FINALIZERS = frozenset({_FINALIZER_ORPHAN, _FINALIZER_DELETE_DEPENDENTS, "kubernetes"})


def _mask_trailing_dash(name: str) -> str:
    """maskTrailingDash: a generateName prefix ending in ``-`` is checked with its last two
    characters replaced by ``a`` (Go's own quirk: ``ab-`` is checked as ``aa``)."""
    return name[:-2] + "a" if len(name) > 1 and name.endswith("-") else name


def name_is_dns_subdomain(name: str, prefix: bool) -> list[str]:
    """NameIsDNSSubdomain: most kinds' names, and every custom resource's."""
    return is_dns1123_subdomain(_mask_trailing_dash(name) if prefix else name)


def name_is_dns_label(name: str, prefix: bool) -> list[str]:
    """NameIsDNSLabel: a Namespace's name (ValidateNamespaceName), a Service's from 1.36."""
    return is_dns1123_label(_mask_trailing_dash(name) if prefix else name)


def name_is_dns1035_label(name: str, prefix: bool) -> list[str]:
    """NameIsDNS1035Label: a Service's name up to 1.35 (RelaxedServiceNameValidation off)."""
    return is_dns1035_label(_mask_trailing_dash(name) if prefix else name)


def name_is_path_segment(name: str, prefix: bool) -> list[str]:
    """content.IsPathSegmentName: RBAC's Roles, ClusterRoles and their bindings (ValidateRBACName
    ignores ``prefix``)."""
    return is_path_segment_name(name)


_NAME_RULES: dict[tuple[str, str], NameRule] = {
    ("", "namespaces"): name_is_dns_label,
    ("", "services"): name_is_dns_label,
    **{("rbac.authorization.k8s.io", r): name_is_path_segment
       for r in ("roles", "clusterroles", "rolebindings", "clusterrolebindings")},
}
"""Built-in resources whose name rule is not NameIsDNSSubdomain (pkg/apis/*/validation at 1.37)."""


def name_rule_for(group: str, resource: str) -> NameRule:
    """The name rule the apiserver checks ``metadata.name`` and ``generateName`` of the resource
    (``group``, plural ``resource``) with: NameIsDNSSubdomain unless ``_NAME_RULES`` says
    otherwise; custom resources always NameIsDNSSubdomain."""
    return _NAME_RULES.get((group, resource), name_is_dns_subdomain)


_APIMACHINERY_ONLY = frozenset({"admissionregistration.k8s.io", "coordination.k8s.io"})
"""Built-in groups whose validation calls apimachinery's ValidateObjectMeta directly, not
pkg/apis/core/validation's wrapper (which also checks finalizer names against Kubernetes' own)."""


def kube_finalizers_for(group: str, builtin: bool = True) -> bool:
    """Whether the resources of ``group`` (``builtin``: a Kubernetes kind, not a custom resource)
    refuse a finalizer name without a ``/`` that is not one of Kubernetes' own, as
    pkg/apis/core/validation's ValidateObjectMeta(Update) does (custom resources only warn:
    ``finalizer_warnings``)."""
    return builtin and group not in _APIMACHINERY_ONLY


def _kube_finalizers(finalizers: list[str], path: str) -> list[FieldError]:
    """core validation's validateKubeFinalizerName, at each finalizer's index."""
    return [_invalid(child(path, i), f, "name is neither a standard finalizer name nor is it fully qualified")
            for i, f in enumerate(finalizers) if "/" not in f and f not in _STANDARD_FINALIZERS]


def _invalid(path: str, value: Any, detail: str) -> FieldError:
    return FieldError("FieldValueInvalid", path, f"Invalid value: {_shown(value)}: {detail}")


def _shown(value: Any) -> str:
    """A bad value as field.Error prints it: %q for strings, %v for numbers, JSON (Go's
    json.Marshal, which escapes <, > and &) for the rest."""
    if isinstance(value, (list, dict)):
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return go_value(value)


def _go_string_slice(values: list[str]) -> str:
    """``%#v`` of a []string, as ValidateNoNewFinalizers prints the new finalizers."""
    return "[]string{" + ", ".join(json.dumps(v, ensure_ascii=False) for v in values) + "}"


def _strings(value: Any) -> dict[str, str]:
    return {str(k): v if isinstance(v, str) else "" for k, v in value.items()} if isinstance(value, Mapping) else {}


def _labels(labels: Mapping[str, str], path: str) -> list[FieldError]:
    """v1validation.ValidateLabels: each key, then its value, in the map's order."""
    errors: list[FieldError] = []
    for key, value in labels.items():
        errors.extend(_invalid(path, key, m) for m in is_qualified_name(key))
        errors.extend(_invalid(path, value, m) for m in is_label_value(value))
    return errors


def _annotations(annotations: Mapping[str, str], path: str) -> list[FieldError]:
    """ValidateAnnotations: keys are qualified names in lower case; 256 KiB in all."""
    errors = [_invalid(path, key, m) for key in annotations for m in is_qualified_name(key.lower())]
    if sum(_size(k) + _size(v) for k, v in annotations.items()) > TOTAL_ANNOTATION_SIZE_LIMIT:
        errors.append(FieldError("FieldValueTooLong", path, f"Too long: may not be more than {TOTAL_ANNOTATION_SIZE_LIMIT} bytes"))
    return errors


def _owner_reference(ref: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateOwnerReference (1.37): apiVersion, kind, name and uid required; no Event owns."""
    errors = []
    api_version = str(ref.get("apiVersion") or "")
    group, slash, version = api_version.partition("/")
    if not slash:
        group, version = "", api_version
    parses = api_version.count("/") <= 1 and bool(version)
    if not api_version:
        errors.append(FieldError("FieldValueRequired", child(path, "apiVersion"), "Required value: must not be empty"))
    elif not parses:
        errors.append(_invalid(child(path, "apiVersion"), api_version, "must be <group>/<version> or <version>"))
    for key in ("kind", "name", "uid"):
        if not ref.get(key):
            errors.append(FieldError("FieldValueRequired", child(path, key), "Required value: must not be empty"))
    if (group, version, ref.get("kind")) == ("", "v1", "Event"):
        errors.append(_invalid(path, _owner_json(ref), "/v1, Kind=Event is disallowed from being an owner"))
    return errors


def _owner_json(ref: Mapping[str, Any]) -> dict[str, Any]:
    """An OwnerReference as Go's json.Marshal writes it (its fields' order, omitempty pointers)."""
    out: dict[str, Any] = {k: str(ref.get(k) or "") for k in ("apiVersion", "kind", "name", "uid")}
    for key in ("controller", "blockOwnerDeletion"):
        if isinstance(ref.get(key), bool):
            out[key] = ref[key]
    return out


def _owner_references(refs: list[Any], path: str) -> list[FieldError]:
    """ValidateOwnerReferences: each reference, and at most one controller."""
    errors = []
    first_controller = ""
    for i, ref in enumerate(refs):
        ref = ref if isinstance(ref, Mapping) else {}
        errors.extend(_owner_reference(ref, child(path, i)))
        if ref.get("controller") is True:
            current = f"{ref.get('kind') or ''}/{ref.get('name') or ''}"
            if first_controller:
                errors.append(_invalid(path, [_owner_json(r if isinstance(r, Mapping) else {}) for r in refs],
                                       f'Only one reference can have Controller set to true. Found "true" in '
                                       f"references for {first_controller} and {current}"))
            else:
                first_controller = current
    return errors


def _finalizers(finalizers: list[str], path: str) -> list[FieldError]:
    """ValidateFinalizers: each name a qualified name; not both orphan and foregroundDeletion."""
    errors = [_invalid(path, f, m) for f in finalizers for m in is_qualified_name(f)]
    if _FINALIZER_ORPHAN in finalizers and _FINALIZER_DELETE_DEPENDENTS in finalizers:
        errors.append(_invalid(path, finalizers, f"finalizer {_FINALIZER_ORPHAN} and {_FINALIZER_DELETE_DEPENDENTS} "
                               "cannot be both set"))
    return errors


def _string_list(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _generation(meta: Mapping[str, Any], path: str) -> list[FieldError]:
    generation = meta.get("generation")
    if isinstance(generation, int) and not isinstance(generation, bool) and generation < 0:
        return [_invalid(child(path, "generation"), generation, "must be greater than or equal to 0")]
    return []


def validate_object_meta(
    meta: Mapping[str, Any], *, namespaced: bool, name_rule: NameRule = name_is_dns_subdomain,
    old: Mapping[str, Any] | None = None, path: str = "metadata", kube_finalizers: bool = False,
) -> list[FieldError]:
    """The errors apimachinery finds in an object's ``metadata`` (a JSON dict), in its order.

    A create (``old`` None) is ``ValidateObjectMetaAccessor``: generateName and name by
    ``name_rule`` (``name_rule_for`` the kind; the name is the one generated from generateName if
    the server generated one), the namespace (required when ``namespaced``, forbidden
    otherwise), generation, labels, annotations, owner references and finalizers. An update
    (``old``: the stored object's metadata) is ``ValidateObjectMetaAccessorUpdate``: no new
    finalizer while ``old`` has a deletionTimestamp, a resourceVersion, generation not
    decremented, the immutable fields unchanged, then labels, annotations and owner references
    (finalizer names are not checked on an update). ``kube_finalizers`` (built-in kinds:
    ``kube_finalizers_for``) adds core validation's check of each finalizer, on both.
    """
    kube = _kube_finalizers(_string_list(meta.get("finalizers")), child(path, "finalizers")) if kube_finalizers else []
    if old is not None:
        return _update(meta, old, path) + kube
    errors: list[FieldError] = []
    generate_name = meta.get("generateName")
    if isinstance(generate_name, str) and generate_name:
        errors.extend(_invalid(child(path, "generateName"), generate_name, m) for m in name_rule(generate_name, True))
    name = meta.get("name")
    if not (isinstance(name, str) and name):
        errors.append(FieldError("FieldValueRequired", child(path, "name"), "Required value: name or generateName is required"))
    else:
        errors.extend(_invalid(child(path, "name"), name, m) for m in name_rule(name, False))
    namespace = meta.get("namespace")
    namespace = namespace if isinstance(namespace, str) else ""
    if namespaced:
        if not namespace:
            errors.append(FieldError("FieldValueRequired", child(path, "namespace"), "Required value"))
        else:
            errors.extend(_invalid(child(path, "namespace"), namespace, m) for m in name_is_dns_label(namespace, False))
    elif namespace:
        errors.append(FieldError("FieldValueForbidden", child(path, "namespace"), "Forbidden: not allowed on this type"))
    errors.extend(_generation(meta, path))
    errors.extend(_labels(_strings(meta.get("labels")), child(path, "labels")))
    errors.extend(_annotations(_strings(meta.get("annotations")), child(path, "annotations")))
    errors.extend(_owner_references(meta.get("ownerReferences") or [], child(path, "ownerReferences")))
    errors.extend(_finalizers(_string_list(meta.get("finalizers")), child(path, "finalizers")))
    return errors + kube


_IMMUTABLE = ("name", "namespace", "uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds")


def _update(meta: Mapping[str, Any], old: Mapping[str, Any], path: str) -> list[FieldError]:
    errors: list[FieldError] = []
    if old.get("deletionTimestamp"):
        added = sorted(set(_string_list(meta.get("finalizers"))) - set(_string_list(old.get("finalizers"))))
        if added:
            errors.append(FieldError("FieldValueForbidden", child(path, "finalizers"), "Forbidden: no new finalizers can "
                                     f"be added if the object is being deleted, found new finalizers {_go_string_slice(added)}"))
    if not meta.get("resourceVersion"):
        errors.append(_invalid(child(path, "resourceVersion"), "", "must be specified for an update"))
    errors.extend(_generation(meta, path))
    generation, old_generation = meta.get("generation"), old.get("generation")
    if isinstance(generation, int) and isinstance(old_generation, int) and generation < old_generation:
        errors.append(_invalid(child(path, "generation"), generation, "must not be decremented"))
    elif old_generation and isinstance(old_generation, int) and not generation:
        errors.append(_invalid(child(path, "generation"), 0, "must not be decremented"))
    for key in _IMMUTABLE:
        new_value, old_value = meta.get(key), old.get(key)
        if (new_value != old_value) if key == "deletionGracePeriodSeconds" else (new_value or None) != (old_value or None):
            shown = new_value if new_value is not None else ("" if key in ("name", "namespace", "uid") else None)
            errors.append(_invalid(child(path, key), shown, "field is immutable"))
    errors.extend(_labels(_strings(meta.get("labels")), child(path, "labels")))
    errors.extend(_annotations(_strings(meta.get("annotations")), child(path, "annotations")))
    errors.extend(_owner_references(meta.get("ownerReferences") or [], child(path, "ownerReferences")))
    return errors


def registry_meta_errors(
    meta: Mapping[str, Any], old: Mapping[str, Any] | None, *, group: str, resource: str, namespaced: bool,
    builtin: bool,
) -> list[FieldError]:
    """The metadata errors of a write as the apiserver's registry answers them, for a resource
    (``group``, plural ``resource``; ``builtin``: a Kubernetes kind, else a custom resource).

    A create (``old`` None) is the strategy's ValidateObjectMeta with the kind's name rule (a
    custom resource's: NameIsDNSSubdomain) and, for built-in kinds, core validation's finalizer
    rule. An update runs the registry's common checks first (ValidateObjectMetaAccessor by the
    path-segment rule, then ValidateObjectMetaAccessorUpdate), then the strategy's
    ValidateObjectMetaUpdate: a custom resource's answer repeats a mistake up to three times; a
    built-in kind's (1.37's declarative-validation strategies) has each distinct error once
    (tests/support/versions.py ``builtin-meta-errors-repeated``)."""
    kube = kube_finalizers_for(group, builtin)
    if old is None:
        rule = name_rule_for(group, resource) if builtin else name_is_dns_subdomain
        return validate_object_meta(meta, namespaced=namespaced, name_rule=rule, kube_finalizers=kube)
    errors = [
        *validate_object_meta(meta, namespaced=namespaced, name_rule=name_is_path_segment),
        *validate_object_meta(meta, namespaced=namespaced, old=old),
        *validate_object_meta(meta, namespaced=namespaced, old=old, kube_finalizers=kube),
    ]
    return list(dict.fromkeys(errors)) if builtin else errors


_KEPT_ON_UPDATE = ("namespace", "uid", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds")
"""What an update's metadata gets from the stored object when it has none (the request's
namespace, BeforeUpdate's uid and grace period)..."""
_ALWAYS_KEPT = frozenset({"generation", "creationTimestamp", "deletionTimestamp"})
"""... or always (BeforeUpdate: requests cannot change them)."""


def with_meta_errors(obj: Mapping[str, Any], old: Mapping[str, Any] | None, errors: list[FieldError],
                     subresource: str | None = None) -> list[FieldError]:
    """``errors`` (``validate``'s schema errors of a custom resource) with its metadata's errors
    (``registry_meta_errors``), sorted as ``validate`` sorts. An object given to ``validate`` is
    not yet what the apiserver validates, so what a request may set is not required: no namespace
    (the URL's) and no name (an update's or apply's URL names it) are not errors, and a name to
    come from ``generateName`` is not checked (only the prefix is, the server's random suffix being
    unknown). A ``/status`` write keeps the stored metadata (``subresource="status"``)."""
    if any(e.type == "BadRequest" for e in errors):
        return errors  # not decoded: nothing is validated
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, Mapping) else {}
    old_meta = old.get("metadata") if isinstance(old, Mapping) else None
    old_meta = old_meta if isinstance(old_meta, Mapping) or old is None else {}
    if subresource == "status" and old_meta is not None:
        meta = old_meta
    if old_meta is not None:  # what rest.BeforeUpdate takes from the stored object before validating
        meta = {**meta, **{k: old_meta[k] for k in _KEPT_ON_UPDATE if k in old_meta and (k in _ALWAYS_KEPT or not meta.get(k))}}
    found = registry_meta_errors(meta, old_meta, group="", resource="", namespaced=bool(meta.get("namespace")), builtin=False)
    if not meta.get("name"):
        found = [e for e in found if e.field != "metadata.name"]
    return sorted([*found, *errors], key=lambda e: (e.field, e.message))


def finalizer_warnings(meta: Mapping[str, Any], old: Mapping[str, Any] | None = None) -> list[str]:
    """The ``Warning`` texts apiextensions-apiserver adds on a custom resource's create or update
    (``old``: the stored metadata) for each finalizer the write adds (in the order of a Go
    ``sets.String``'s ``List``: sorted) that is not a qualified name, or has no ``/`` path and
    is not one of Kubernetes' own (``orphan``, ``foregroundDeletion``, ``kubernetes``)."""
    added = set(_string_list(meta.get("finalizers")))
    if old is not None:
        added -= set(_string_list(old.get("finalizers")))
    warnings: list[str] = []
    for finalizer in sorted(added):
        quoted = json.dumps(finalizer, ensure_ascii=False)
        warnings.extend(f"metadata.finalizers: {quoted}: {m}" for m in is_qualified_name(finalizer))
        if "/" not in finalizer and finalizer not in _STANDARD_FINALIZERS:
            why = "prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with " \
                "other finalizer writers" if "." in finalizer else \
                "prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"
            warnings.append(f"metadata.finalizers: {quoted}: {why}")
    return warnings
