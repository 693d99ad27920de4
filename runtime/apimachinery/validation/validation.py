"""Client-side structural validation that answers as the kube-apiserver does (issue 15).

``validate(obj)`` predicts the apiserver's answer to a create of ``obj``: the errors it would
reject it with, each as the apiserver writes its cause (``FieldError``: the cause's reason, the
field path and the whole message). ``validate_against(schema, obj)`` does the same for a raw
structural schema (a CRD version's ``openAPIV3Schema``).

It follows what apiextensions-apiserver does with a custom resource, measured on a real
kube-apiserver (docs/design/validation.md, "Structural schema validation"):

1. **Decode and prune.** Unknown fields are dropped (``x-kubernetes-preserve-unknown-fields``
   keeps them): under ``fieldValidation=Warn`` (the default) or ``Ignore`` they are warnings, not
   errors; under ``Strict`` any unknown field rejects the object with a 400 and *nothing else is
   validated*. A ``null`` in a field whose schema is not ``nullable`` is dropped silently (so a
   required one becomes ``Required value``), but never inside a list. ``apiVersion``, ``kind`` and
   ``metadata`` of the object and of every ``x-kubernetes-embedded-resource`` are decoded into Go
   structs: a wrong type there is a 400 too.
2. **Default.** Every ``default`` of an absent property (and each inside it) is applied before validation:
   list-map keys compare with their defaults. A CRD's status and scale subresources: ``.subresources``.
3. **Validate** (kube-openapi's schema validator and the structural list-type checks): every
   error, not the first, in the apiserver's wording. kube-openapi reports its ``Checked value``
   and ``anyOf`` errors at the field ``<nil>``, the path being in the message; kgen reports the
   real path. 400 answers have no causes: their errors carry the type ``BadRequest``.

Numbers are judged as kube-openapi decodes them: a JSON integer beyond int64 is a float64, a
float within ±2^53 and within a relative 1e-9 of its truncation is an integer, ``int32`` and
``int64`` are ranges; strings' formats are kube-openapi's (``strfmt``, Go semantics, not the RFCs).

**Built-in kinds** (definitions named ``io.k8s.api.*``, ``io.k8s.apimachinery.*``... : Pod,
Deployment, ConfigMap...) are decoded into Go structs and then validated by Go code
(``pkg/apis/*/validation``), which their published OpenAPI does not describe. For them this module
checks what the schema says, which predicts the decode errors (wrong types, int32/int64 overflow,
bad ``date-time``, bad base64 ``byte``) and the enums the schema lists; then the kind's Go
validation, where ``kgen.runtime.apimachinery.validation.builtin`` carries it (``replicas: -1``,
ports, names, selectors, quantities...). Their published ``x-kubernetes-list-map-keys`` are merge
keys, not validation, and their ``default``s are documentation (Go defaulting runs instead):
neither is applied. tests/unit/test_validation_structural.py lists each known disagreement.

**CEL** (``x-kubernetes-validations``) of custom resources is evaluated by
``kgen.runtime.apimachinery.validation.cel.validation`` (the ``validation`` extra; without it each rule is *not
checked*, never guessed), in the apiserver's order (apiextensions-apiserver's strategy): the schema and
list-type errors first; then, when the schema has rules anywhere, either one cause ``<nil>: Invalid value: null:
some validation rules were not checked because the object was invalid...`` if any error is *blocking*
(unsupported value, required, too long, too many, wrong type: ``hasBlockingErr``), or every rule of every node
present. ``cel=False`` leaves rules out. An update of a custom resource (``old=``, the stored object) is judged
as the apiserver judges it (``kgen.runtime.apimachinery.validation.ratcheting``): validation ratcheting,
transition rules (``oldSelf``). The hook ``rules`` replaces kgen's evaluation: a callable given each value whose
schema node carries ``x-kubernetes-validations``, after that node's structural checks passed (the value has the
node's type), with the pruned and defaulted value, the node and the path; it returns the rules' errors, which
join the others.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any, Literal

from kgen.runtime.apimachinery.golang.gofmt import go_value, is_json_integer, json_type
from kgen.runtime.apimachinery.validation.builtin import builtin_errors
from kgen.runtime.apimachinery.validation.objectmeta import with_meta_errors
from kgen.runtime.apimachinery.validation.ratcheting import MISSING, Partners, list_types_valid, partner, unchanged
from kgen.runtime.apimachinery.validation.refusal import refusal
from kgen.runtime.apimachinery.validation.strfmt import FORMATS
from kgen.runtime.apimachinery.validation.structural import (
    VALUE_CHECKS, FieldError, check_number, check_string, check_type, checked_integer, child, decode_meta, emptied, enum_equal,
    is_type_union, list_type_errors, meta_errors, too_many, type_error, type_union,
)
from kgen.runtime.apimachinery.validation.schemas import validation_schemas
from kgen.runtime.apimachinery.validation.versions import read_back
from kgen.runtime.apimachinery.validation.subresources import prepared, scale_errors

__all__ = ["FieldError", "FieldValidation", "Resolve", "RuleCheck", "refusal", "validate", "validate_against"]
Schema = dict[str, Any]
FieldValidation = Literal["Warn", "Strict", "Ignore"]
"""A write's fieldValidation: how unknown and duplicate fields are answered (warning, 400, nothing)."""


RuleCheck = Callable[[Any, Schema, str], list[FieldError]]
"""The rule hook: (value, schema node, field path) -> the node's x-kubernetes-validations errors."""
Resolve = Callable[[str], Schema]
"""A $ref's target by definition name (``io.k8s.api.core.v1.PodSpec``)."""


def validate(
    obj: Any, *, old: Any = None, package: str | None = None, field_validation: FieldValidation = "Warn",
    rules: RuleCheck | None = None, cel: bool = True, subresource: str | None = None,
) -> list[FieldError]:
    """The errors the apiserver would answer a create of ``obj`` with, or with ``old`` the update
    of ``old`` (the stored object) to ``obj`` (``subresource="status"``: a ``/status`` write); empty if it accepts it.

    ``obj`` is a generated model instance (validated against its own package's schemas) or a plain dict (against
    ``package``'s, ``kgen.kubernetes`` by default). An update of a custom resource is judged as the apiserver judges it
    (``kgen.runtime.apimachinery.validation.ratcheting``): errors at what the update left unchanged are not reported,
    transition rules (``oldSelf``) run; its metadata is checked as apimachinery's ObjectMeta validation (``objectmeta``).
    LookupError: the package has no schema for the object's apiVersion and kind. Errors are sorted by field, then
    message (the apiserver's own order varies from request to request)."""
    if hasattr(obj, "to_dict") and not isinstance(obj, dict):
        module = type(obj).__module__
        package = package or (module.split(".models.")[0] if ".models." in module else "kgen.kubernetes")
        obj = obj.to_dict()
    if hasattr(old, "to_dict") and not isinstance(old, dict):
        old = old.to_dict()
    package = package or "kgen.kubernetes"
    if not isinstance(obj, dict):
        raise TypeError(f"validate() takes a model or a dict, not {type(obj).__name__}")
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    schemas = validation_schemas(package)
    name = schemas.definition_of(api_version, kind) if isinstance(api_version, str) and isinstance(kind, str) else None
    if name is None:
        raise LookupError(f"{package} has no schema for apiVersion {api_version!r}, kind {kind!r}")
    builtin = name.startswith(_BUILTIN_PREFIXES)
    walker = _Walker(schemas.definition, builtin=builtin, rules=rules, cel=cel and not builtin, package_schema=True)
    errors = walker.validate(schemas.definition(name), obj, field_validation, None if builtin else old, subresource)
    if builtin:  # its walk errors are decode and enum errors, which no update ratchets; then its Go validation
        return builtin_errors(obj, old, errors, name, schemas.definition, subresource)
    return with_meta_errors(obj, old, errors, subresource)


_BUILTIN_PREFIXES = ("io.k8s.api.", "io.k8s.apimachinery.", "io.k8s.apiextensions-apiserver.", "io.k8s.kube-aggregator.")
"""Definition names of the kinds Kubernetes itself serves (decoded into Go structs, validated by
Go code). Not ``io.k8s.`` alone: a CRD of a ``*.k8s.io`` group (gateway-api's
``gateway.networking.k8s.io``) is named ``io.k8s.networking.gateway.v1.HTTPRoute``."""


def validate_against(
    schema: Schema, obj: Any, *, old: Any = None, field_validation: FieldValidation = "Warn",
    resolve: Resolve | None = None, rules: RuleCheck | None = None, cel: bool = True, subresource: str | None = None,
) -> list[FieldError]:
    """``validate`` for a raw structural schema, e.g. a CRD version's ``openAPIV3Schema`` (custom-resource rules: defaults
    and list types apply). ``resolve`` looks up ``$ref``s. What is scanned of ``schema`` is kept: do not change it once used."""
    obj, old = (v.to_dict() if hasattr(v, "to_dict") and not isinstance(v, dict) else v for v in (obj, old))
    return _Walker(resolve, builtin=False, rules=rules, cel=cel).validate(schema, obj, field_validation, old, subresource)


def errors_under(errors: list[FieldError], fields: tuple[str, ...]) -> list[FieldError]:
    """The errors at one of ``fields`` (``status``, ``metadata``) or under it, for a write of which
    the apiserver keeps only those parts (a status update): the cause that rules were not checked
    stays if one of the errors kept still blocks them."""
    def under(field: str) -> bool:
        return any(field.removeprefix(".") == f or field.removeprefix(".").startswith((f"{f}.", f"{f}[")) for f in fields)

    kept = [e for e in errors if under(e.field)]
    if _RULES_NOT_CHECKED in errors and any(blocks_rules(e) for e in kept):
        kept.append(_RULES_NOT_CHECKED)
    return sorted(kept, key=lambda e: (e.field, e.message))


def blocks_rules(error: FieldError) -> bool:
    """Whether the apiserver, having found ``error``, evaluates no CEL rule (hasBlockingErr)."""
    return error.type in _BLOCKING


# -- the walker ---------------------------------------------------------------------------------

_BLOCKING = frozenset({"FieldValueNotSupported", "FieldValueRequired", "FieldValueTooLong", "FieldValueTooMany",
                       "FieldValueTypeInvalid"})
"""Error types after which the apiserver evaluates no rule (apiextensions-apiserver's
hasBlockingErr): the value may not have the type the rules were compiled for."""
_RULES_NOT_CHECKED = FieldError(
    "FieldValueInvalid", "<nil>", "Invalid value: null: some validation rules were not checked because the object "
    "was invalid; correct the existing errors to complete validation")


_HAS_RULES: dict[tuple[int, Resolve | None], tuple[Schema, bool]] = {}  # by a schema's id (held) and resolve; <= 4,096


class _Walker:
    """One validation: prune/default, then kube-openapi's checks, on one schema and its $refs."""

    def __init__(self, resolve: Resolve | None, *, builtin: bool, rules: RuleCheck | None, cel: bool = False,
                 package_schema: bool = False) -> None:
        self._resolve = resolve
        self._package_schema = package_schema  # a generated package's: never changes
        self._builtin = builtin
        self._rules = rules
        self._deferred: list[tuple[Any, Schema, str, Any, bool]] | None = [] if rules is None and cel else None
        """kgen's CEL evaluation (``cel`` and no ``rules`` hook): the nodes with rules the walk
        met, each with its old value and whether it ratchets, evaluated after it (``_cel``)"""
        self._in_branch = False
        """inside a junction branch: no rules, no list types, no embedded metadata (the apiserver
        checks those along the structural schema's properties and items only)"""
        self._kept: list[FieldError] = []
        """errors no update ratchets: duplicates in list types, embedded resources' type and metadata"""
        self._check_lists = True  # False: the old object has duplicates, so none is checked
        self._defaults = True  # False while the stored object is pruned in the request's version (versions.py)
        # id(node) -> (node, node with $refs merged): the node is held so its id stays its own
        self._resolved: dict[int, tuple[Schema, Schema]] = {}

    def validate(self, schema: Schema, obj: Any, field_validation: FieldValidation, old: Any, subresource: str | None) -> list[FieldError]:
        if field_validation not in ("Warn", "Strict", "Ignore"):
            raise ValueError(f"field_validation must be Warn, Strict or Ignore, not {field_validation!r}")
        unknown: list[str] = []
        decode: list[FieldError] = []
        root = self._node(schema)
        pruned = self._prune(prepared(root, obj, old, subresource), root, "", unknown, decode, resource=True)
        if field_validation == "Strict" and unknown:
            # a strict decoding error: the apiserver validates nothing else
            errors = [FieldError("BadRequest", p, f'unknown field "{p}"') for p in unknown]
        elif decode:
            errors = decode
        else:
            errors = []
            stored = MISSING
            if isinstance(old, dict):
                stored = read_back(self, old, root)  # a multi-version CRD's: as read from its storage version
                self._check_lists = list_types_valid(stored, root, self._node)
            self._walk(pruned, root, "", errors, resource=True, old=stored)
            errors.extend(self._kept + scale_errors(root, pruned, subresource))  # scale's are never ratcheted
            if self._deferred is not None and self._has_rules(schema):
                errors.extend(self._cel(errors))
        return sorted(errors, key=lambda e: (e.field, e.message))

    def _cel(self, errors: list[FieldError]) -> list[FieldError]:
        if any(e.type in _BLOCKING for e in errors):
            return [_RULES_NOT_CHECKED]
        from kgen.runtime.apimachinery.validation.cel.validation import check_rules

        return [FieldError(v.type, v.field, v.message)
                for value, node, path, old, ratchets in self._deferred or ()
                for v in check_rules(value, node, path, old_self=MISSING if old is None else old)
                if not (ratchets and v.ratchets)]

    def _rule_node(self, v: Any, s: Schema, path: str, errors: list[FieldError], old: Any, ratchets: bool) -> None:
        """A node with ``x-kubernetes-validations``: deferred to ``_cel``, or given to the hook."""
        if self._in_branch:
            return  # rules sit on nodes, never in junction branches
        if self._deferred is not None:
            self._deferred.append((v, s, path, old, ratchets))
        elif self._rules is not None:
            errors.extend(self._rules(v, s, path))

    def _has_rules(self, schema: Schema) -> bool:
        """Whether a node carries x-kubernetes-validations (the apiserver then has a CEL validator for the kind); kept."""
        found = _HAS_RULES.get((id(schema), self._resolve))  # a package's resolve is a bound method: equal, not same
        if found is None or found[0] is not schema:
            if len(_HAS_RULES) >= 4096:
                _HAS_RULES.clear()
            found = _HAS_RULES[id(schema), self._resolve] = (schema, self._has_rules_uncached(schema, set()))
        return found[1]

    def _has_rules_uncached(self, s: Schema, seen: set[int]) -> bool:
        if id(s) in seen or ("$ref" in s and self._resolve is None):
            return False
        seen.add(id(s))
        s = self._node(s)
        if s.get("x-kubernetes-validations"):
            return True
        subs = [*(s.get("properties") or {}).values(), *(s.get("allOf") or []), *(s.get("anyOf") or []),
                *(s.get("oneOf") or [])]
        subs += [s[k] for k in ("items", "additionalProperties") if isinstance(s.get(k), dict)]
        return any(self._has_rules_uncached(sub, seen) for sub in subs if isinstance(sub, dict))

    def _node(self, s: Schema) -> Schema:
        """``s`` with its ``$ref`` (or a one-``$ref`` ``allOf``, as built-ins wrap them) merged in."""
        found = self._resolved.get(id(s))
        if found is not None:
            return found[1]
        out = s
        while True:
            ref = out.get("$ref")
            all_of = out.get("allOf")
            if ref is None and isinstance(all_of, list) and len(all_of) == 1 and "$ref" in all_of[0]:
                rest = {k: v for k, v in out.items() if k != "allOf"}
                out = {**all_of[0], **rest}
                continue
            if not isinstance(ref, str):
                break
            if self._resolve is None:
                raise LookupError(f"the schema refers to {ref!r}: validate_against needs resolve=")
            out = {**self._resolve(ref), **{k: v for k, v in out.items() if k != "$ref"}}
        self._resolved[id(s)] = (s, out)
        return out

    def _known(self, s: Schema, key: str) -> Schema | None:
        props = s.get("properties")
        if props and key in props:
            return self._node(props[key])
        addl = s.get("additionalProperties")
        return self._node(addl) if isinstance(addl, dict) else None

    # -- 1 and 2: decode, prune, default ---------------------------------------------------------

    def _prune(self, value: Any, s: Schema | None, path: str, unknown: list[str], decode: list[FieldError],
               resource: bool = False) -> Any:
        """The object the apiserver validates: unknown fields and non-nullable nulls dropped (the
        unknown recorded), defaults applied; decode errors of resources' Go fields recorded."""
        if isinstance(value, list):
            items = s.get("items") if s else None
            if not isinstance(items, dict):  # no items: structural pruning empties the objects in it
                return value if self._builtin or (s or {}).get("x-kubernetes-preserve-unknown-fields") else emptied(value, path, unknown)
            node = self._node(items)
            return [self._prune(v, node, child(path, i), unknown, decode) for i, v in enumerate(value)]
        if not isinstance(value, dict):
            return value
        s = s or {}
        if "properties" not in s and not isinstance(s.get("additionalProperties"), dict) and (
                self._builtin or ("type" not in s and not s.get("x-kubernetes-int-or-string"))):
            # nothing says which fields exist: a built-in's custom-decoded type (RawExtension,
            # FieldsV1, JSONSchemaProps' unions), or a typeless node but an int-or-string: the value stays whole
            return value
        resource = resource or bool(s.get("x-kubernetes-embedded-resource"))
        preserve = s.get("x-kubernetes-preserve-unknown-fields", False)
        out: dict[str, Any] = {}
        for key, v in value.items():
            if resource and key == "metadata":
                declared = self._known(s, key)
                is_list = bool(declared and "continue" in (declared.get("properties") or {}))
                out[key] = decode_meta(v, child(path, key), unknown, decode, is_list)
                continue
            if resource and key in ("apiVersion", "kind") and v is not None and not isinstance(v, str):
                decode.append(FieldError("BadRequest", child(path, key), f"Invalid value: {go_value(v)}: must be a string"))
            sub = self._known(s, key)
            if sub is None:
                if preserve or (resource and key in ("apiVersion", "kind")):
                    out[key] = v
                else:
                    unknown.append(child(path, key))
                continue
            if v is None and not sub.get("nullable", False):
                continue
            out[key] = self._prune(v, sub, child(path, key), unknown, decode)
        if not self._builtin and self._defaults:
            for key, sub in (s.get("properties") or {}).items():
                if key not in out and "default" in sub:  # and the defaults inside it (structural defaulting recurses)
                    out[key] = self._prune(copy.deepcopy(sub["default"]), self._node(sub), child(path, key), [], [])
        return out

    # -- 3: validate ----------------------------------------------------------------------------

    def _walk(self, v: Any, s: Schema, path: str, errors: list[FieldError], resource: bool = False,
              old: Any = MISSING, ratchets: bool = False, at: str | None = None) -> None:
        """Validates ``v`` against ``s``. In an update, ``old`` is its partner in the stored object
        and ``ratchets`` whether the nearest partnered ancestor is unchanged; the errors of a node
        that ratchets are dropped (the resource's root never does: its metadata changes). ``at``
        is the path CEL errors name when it is not ``path``: below a map value (``m[key]``)."""
        if old is not MISSING and not resource and not ratchets:
            ratchets = unchanged(v, old, s, self._node)
        if ratchets:
            errors = []  # the apiserver makes them warnings
        if v is None and s.get("nullable"):
            return
        typ, fmt = s.get("type"), s.get("format")
        if s.get("x-kubernetes-int-or-string") or fmt == "int-or-string":
            if not (isinstance(v, str) or is_json_integer(v)):
                self._int_or_string_errors(v, s, path, errors)
                return
            typ = "string" if isinstance(v, str) else "integer"
        elif typ is None:
            union = type_union(v, s, path, errors)
            if union is None and (v is None or not any(k in s for k in VALUE_CHECKS)):
                if "x-kubernetes-validations" in s:
                    self._rule_node(v, s, path if at is None else at, errors, old, ratchets)  # takes any value
                return
            if union is False:
                return
            # a type-only union, or a typeless node with value validations (a oneOf/anyOf/not
            # branch): the checks apply to the value as it is, whatever its type
            typ = json_type(v)
            if union is None and isinstance(fmt, str) and fmt in FORMATS and isinstance(v, (bool, int, float)):
                # kube-openapi checks a string format on any scalar, shown by its Go kind
                shown = json.dumps("" if isinstance(v, bool) else "int64" if isinstance(v, int) else "float64")
                errors.append(FieldError("FieldValueTypeInvalid", path,
                                         f"Invalid value: {shown}: {path} in body must be of type {fmt}: {shown}"))
        ok = check_type(v, typ, fmt, path, errors)
        fractional = typ == "integer" and isinstance(v, float) and not v.is_integer()
        if "enum" in s and not fractional and not any(enum_equal(v, e) for e in s["enum"]):
            values = ", ".join(json.dumps(e if isinstance(e, str) else go_value(e)) for e in s["enum"])
            errors.append(FieldError("FieldValueNotSupported", path,
                                     f"Unsupported value: {go_value(v)}: supported values: {values}"))
        if v is not None and not (s.get("x-kubernetes-int-or-string") or fmt == "int-or-string"
                                  or is_type_union(s)):
            self._junctions(v, s, path, errors)  # kube-openapi checks them whatever the type check said
        # after a type error only numbers go on (a float on an integer field still gets its range
        # and multipleOf errors); booleans have nothing more to check
        if isinstance(v, bool) or (not ok and not isinstance(v, (int, float))):
            return
        if isinstance(v, str):
            check_string(v, s, path, errors)
        elif isinstance(v, (int, float)):
            check_number(v, s, path, errors)
        elif isinstance(v, list):
            self._array(v, s, path, errors, old, ratchets, at)
        elif isinstance(v, dict):
            self._object(v, s, path, errors, resource, old, ratchets, at)
        if ok and "x-kubernetes-validations" in s:
            self._rule_node(v, s, path if at is None else at, errors, old, ratchets)

    def _junctions(self, v: Any, s: Schema, path: str, errors: list[FieldError]) -> None:
        """allOf, anyOf, oneOf and not, as kube-openapi checks them: each branch validates the
        value at the same path; a failing anyOf/oneOf reports, beside its own error, the errors
        of its best branch (the one with the most checks passed, the first of equals)."""
        quoted = json.dumps(path)
        if isinstance(s.get("allOf"), list):
            results = [self._branch(v, b, path) for b in s["allOf"] if isinstance(b, dict)]
            failed = [found for found, _ in results if found]
            if failed:
                errors.extend(e for found in failed for e in found)
                errors.append(FieldError("FieldValueInvalid", path,
                                         f'Invalid value: "": {quoted} must validate all the schemas (allOf)'))
        for key in ("anyOf", "oneOf"):
            if not isinstance(s.get(key), list):
                continue
            results = [self._branch(v, b, path) for b in s[key] if isinstance(b, dict)]
            valid = sum(1 for found, _ in results if not found)
            if key == "anyOf" and valid == 0:
                errors.append(FieldError("FieldValueInvalid", path,
                                         f'Invalid value: "": {quoted} must validate at least one schema (anyOf)'))
            elif key == "oneOf" and valid != 1:
                found_text = "none valid" if valid == 0 else f"{valid} valid alternatives"
                errors.append(FieldError("FieldValueInvalid", path, f'Invalid value: "": {quoted} must validate one '
                                         f"and only one schema (oneOf). Found {found_text}"))
            if valid == 0 and results:
                best = max(range(len(results)), key=lambda i: (results[i][1], -i))
                errors.extend(results[best][0])
        if isinstance(s.get("not"), dict) and not self._branch(v, s["not"], path)[0]:
            errors.append(FieldError("FieldValueInvalid", path,
                                     f'Invalid value: "": {quoted} must not validate the schema (not)'))

    def _branch(self, v: Any, branch: Schema, path: str) -> tuple[list[FieldError], int]:
        """A junction branch's errors on ``v``, and how many of its checks passed (kube-openapi's
        MatchCount, counted here per property present and for the branch's own keywords)."""
        found: list[FieldError] = []
        in_branch, self._in_branch = self._in_branch, True
        try:
            node = self._node(branch)
            self._walk(v, node, path, found)
        finally:
            self._in_branch = in_branch
        matches = int(not any(e.field == path for e in found))
        if isinstance(v, dict):
            for key in node.get("properties") or {}:
                if key in v:
                    at = child(path, key)
                    matches += not any(e.field == at or e.field.startswith((at + ".", at + "[")) for e in found)
        return found, matches

    def _int_or_string_errors(self, v: Any, s: Schema, path: str, errors: list[FieldError]) -> None:
        errors.append(type_error(path, "integer,string", json_type(v)))
        if s.get("anyOf"):
            errors.append(FieldError("FieldValueInvalid", path,
                                     f'Invalid value: "": "{path}" must validate at least one schema (anyOf)'))
            errors.append(type_error(path, "integer", json_type(v)))
            if isinstance(v, float):
                errors.append(checked_integer(path, "(default format)"))
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            check_number(v, s, path, errors)

    def _array(self, v: list[Any], s: Schema, path: str, errors: list[FieldError], old: Any, ratchets: bool,
               at: str | None) -> None:
        if "minItems" in s and len(v) < s["minItems"]:
            errors.append(FieldError("FieldValueInvalid", path,
                                     f"Invalid value: {len(v)}: {path} in body should have at least {s['minItems']} items"))
        if "maxItems" in s and len(v) > s["maxItems"]:
            errors.append(FieldError("FieldValueTooMany", path, too_many(len(v), s['maxItems'])))
        items = s.get("items")
        if isinstance(items, dict):
            node = self._node(items)
            partners = Partners(s, old)
            for i, item in enumerate(v):
                self._walk(item, node, child(path, i), errors, old=partners.get(item), ratchets=ratchets,
                           at=None if at is None else child(at, i))
        if not self._builtin and self._check_lists and not self._in_branch:
            self._kept.extend(list_type_errors(v, s, path))

    def _object(self, v: dict[str, Any], s: Schema, path: str, errors: list[FieldError], resource: bool,
                old: Any, ratchets: bool, at: str | None) -> None:
        if "minProperties" in s and len(v) < s["minProperties"]:
            errors.append(FieldError("FieldValueInvalid", path, f"Invalid value: {len(v)}: {path} in body should "
                                     f"have at least {s['minProperties']} properties"))
        if "maxProperties" in s and len(v) > s["maxProperties"]:
            errors.append(FieldError("FieldValueTooMany", path,
                                     too_many(len(v), s['maxProperties'])))
        for key in s.get("required") or ():
            if key not in v:
                errors.append(FieldError("FieldValueRequired", child(path, key), "Required value"))
        embedded = bool(s.get("x-kubernetes-embedded-resource"))
        for key, item in v.items():
            # a custom resource's metadata is ObjectMeta, decoded (above) rather than validated
            # against a schema; a built-in's is validated against ObjectMeta's published one
            if (resource or embedded) and key == "metadata" and not self._builtin:
                continue
            sub = self._known(s, key)
            if sub is not None:
                # the root's apiVersion and kind have no partner: both objects are of the same kind
                was = MISSING if resource and key in ("apiVersion", "kind") else partner(old, key)
                declared = key in (s.get("properties") or {})  # else a map value: CEL names it m[key]
                self._walk(item, sub, child(path, key), errors, old=was, ratchets=ratchets,
                           at=(None if at is None else child(at, key)) if declared else f"{path if at is None else at}[{key}]")
        if embedded and not self._in_branch:  # schemaobjectmeta's errors, which no update ratchets
            for key in ("apiVersion", "kind"):
                if key not in v:
                    self._kept.append(FieldError("FieldValueRequired", child(path, key), "Required value"))
                elif v[key] == "":
                    self._kept.append(FieldError("FieldValueInvalid", child(path, key),
                                                 'Invalid value: "": must not be empty'))
            meta = v.get("metadata")
            if isinstance(meta, dict):
                self._kept.extend(meta_errors(meta, child(path, "metadata")))
