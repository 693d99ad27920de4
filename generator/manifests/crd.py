"""Root types -> CustomResourceDefinition objects, one per group-kind, as controller-gen builds them.

controller-gen (``pkg/crd/spec.go``) gathers every version of a kind into one CRD named
``<plural>.<group>``; the names, scope and short names are the kind's (all versions must agree);
each version carries its own schema, printer columns and subresources; versions are sorted by
name; a kind with one version stores it, and a kind with several needs exactly one marked
``storage``. Defaults follow controller-gen's: plural is the kind pluralized by flect's English
rules and lower-cased (plural.py: ``Gizmo`` -> ``gizmoes``, ``Policy`` -> ``policies``),
singular the kind lower-cased, ``listKind`` ``<Kind>List``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kgen.runtime.apimachinery import markers as m
from kgen.runtime.apimachinery.model import Model

from .crd_schema import SchemaBuilder
from .errors import ManifestError
from .plural import plural_of

#: The annotation recording what wrote the CRD (controller-gen writes
#: ``controller-gen.kubebuilder.io/version``).
VERSION_ANNOTATION = "kgen.dev/version"
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_VERSION = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


@dataclass(frozen=True)
class Root:
    cls: type[Model]
    facts: m.ResourceMarkers

    @property
    def where(self) -> str:
        return f"{self.cls.__module__}.{self.cls.__qualname__}"


@dataclass(frozen=True)
class Options:
    """The crd generator's options, controller-gen's ``crd:...`` ones."""

    #: ``crd:allowDangerousTypes=true``: float fields are written as ``type: number`` (else refused).
    allow_dangerous_types: bool = False
    #: ``crd:maxDescLen=N``: descriptions cut to N characters (0: none written); None leaves them.
    max_desc_len: int | None = None


def build_crds(roots: list[Root], tool_version: str, options: Options = Options(),
               conversions: dict[tuple[str, str], dict[str, Any]] | None = None) -> dict[tuple[str, str], dict[str, Any]]:
    """(group, plural) -> the CRD object, for every group-kind among ``roots``; ``conversions``:
    (group, kind) -> the ``spec.conversion`` of a kind converted by a webhook."""
    conversions = dict(conversions or {})
    by_kind: dict[tuple[str, str], list[Root]] = {}
    for root in roots:
        _check_names(root)
        by_kind.setdefault((root.facts.group, root.facts.kind), []).append(root)
    crds: dict[tuple[str, str], dict[str, Any]] = {}
    for (group, kind), versions in sorted(by_kind.items()):
        crd = _crd(group, kind, sorted(versions, key=lambda r: r.facts.version), tool_version, options)
        key = (group, crd["spec"]["names"]["plural"])
        if key in crds:
            raise ManifestError(versions[0].where, f"plural {key[1]!r} of {group} is also another kind's",
                                "one kind per plural in a group")
        if (group, kind) in conversions:
            crd["spec"]["conversion"] = conversions.pop((group, kind))
        crds[key] = crd
    for group, kind in conversions:
        raise ManifestError(f"{group}/{kind}", "a conversion webhook for a kind no module declares",
                            "the kind's @resource classes among the --module modules")
    return crds


def _crd(group: str, kind: str, versions: list[Root], tool_version: str, options: Options) -> dict[str, Any]:
    first = versions[0]
    if len({r.facts.scope for r in versions}) > 1:
        listed = ", ".join(f"{r.where} ({r.facts.scope})" for r in versions)
        raise ManifestError(f"{group}/{kind}", f"its versions disagree on scope: {listed}", "the same scope on every version")
    seen: dict[str, Root] = {}
    for r in versions:
        if r.facts.version in seen:
            raise ManifestError(r.where, f"version {r.facts.version} of {group}/{kind} is also {seen[r.facts.version].where}",
                                "one class per version")
        seen[r.facts.version] = r
    storage = [r for r in versions if r.facts.storage]
    if len(versions) == 1 and first.facts.storage is not False:
        storage = [first]
    if not storage:
        raise ManifestError(f"{group}/{kind}", f"no storage version among {[r.facts.version for r in versions]}",
                            "exactly one version with @resource(storage=True)")
    if len(storage) > 1:
        raise ManifestError(f"{group}/{kind}", f"{len(storage)} storage versions: {[r.facts.version for r in storage]}",
                            "exactly one version with @resource(storage=True)")
    if not storage[0].facts.served and not any(r.facts.served for r in versions):
        raise ManifestError(f"{group}/{kind}", "no version is served", "at least one version with served=True")
    names = _names(group, kind, versions)
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {
            "annotations": {VERSION_ANNOTATION: tool_version},
            "name": f"{names['plural']}.{group}",
        },
        "spec": {
            "group": group,
            "names": names,
            "scope": first.facts.scope,
            "versions": [_version(r, r is storage[0], options) for r in versions],
        },
    }


def _names(group: str, kind: str, versions: list[Root]) -> dict[str, Any]:
    """The kind's names. Each may be given on one version only, as controller-gen applies the
    ``+kubebuilder:resource`` marker of whichever version carries it (short names and categories
    written once on a multi-version kind); versions that give one must give the same."""
    given: dict[str, tuple[Any, Root]] = {}
    for root in versions:
        facts = root.facts
        for key, value in (("plural", facts.plural), ("singular", facts.singular),
                           ("shortNames", list(facts.short_names)), ("categories", list(facts.categories))):
            if not value:
                continue
            if key in given and given[key][0] != value:
                raise ManifestError(f"{group}/{kind}", f"its versions disagree on {key}: {given[key][1].where} gives "
                                    f"{given[key][0]!r}, {root.where} {value!r}",
                                    f"{key} given on one version, or the same on every version giving it")
            given.setdefault(key, (value, root))
    names: dict[str, Any] = {
        "kind": kind,
        "listKind": f"{kind}List",
        "plural": given["plural"][0] if "plural" in given else plural_of(kind),
        "singular": given["singular"][0] if "singular" in given else kind.lower(),
    }
    for key in ("shortNames", "categories"):
        if key in given:
            names[key] = given[key][0]
    for key in ("plural", "singular"):
        if not _DNS_LABEL.match(names[key]):
            where = given[key][1].where if key in given else versions[0].where
            raise ManifestError(where, f"{key} {names[key]!r} is not a lower-case DNS label",
                                "lower-case letters, digits and '-', e.g. 'cronjobs'")
    return names


def _check_names(root: Root) -> None:
    facts = root.facts
    if not isinstance(root.cls, type) or not issubclass(root.cls, Model):
        raise ManifestError(root.where, "@resource on a class that is not a Model", "a kgen Model (msgspec Struct) subclass")
    if not _DNS_SUBDOMAIN.match(facts.group) or "." not in facts.group:
        raise ManifestError(root.where, f"group {facts.group!r} is not a DNS subdomain with a dot",
                            "a group like 'batch.example.com'")
    if not _VERSION.match(facts.version):
        raise ManifestError(root.where, f"version {facts.version!r}", "a version like v1, v1beta1, v2alpha1")
    if not re.match(r"^[A-Z][A-Za-z0-9]*$", facts.kind):
        raise ManifestError(root.where, f"kind {facts.kind!r}", "a CamelCase kind starting with a capital letter")
    if facts.scope not in ("Namespaced", "Cluster"):
        raise ManifestError(root.where, f"scope {facts.scope!r}", "Namespaced or Cluster")
    for column in facts.printer_columns:
        if column.type not in ("integer", "number", "string", "boolean", "date"):
            raise ManifestError(root.where, f"printer column {column.name!r} has type {column.type!r}",
                                "integer, number, string, boolean or date")
        if not column.json_path.startswith("."):
            raise ManifestError(root.where, f"printer column {column.name!r} has JSON path {column.json_path!r}",
                                "a path starting with '.', e.g. '.spec.schedule'")
    for path in facts.selectable_fields:
        if not path.startswith("."):
            raise ManifestError(root.where, f"selectable field {path!r}", "a JSON path starting with '.', e.g. '.spec.size'")


def _version(root: Root, storage: bool, options: Options) -> dict[str, Any]:
    facts = root.facts
    version: dict[str, Any] = {
        "name": facts.version,
        "schema": {"openAPIV3Schema": SchemaBuilder(allow_dangerous_types=options.allow_dangerous_types).root(root.cls, facts)},
        "served": facts.served,
        "storage": storage,
    }
    if options.max_desc_len is not None:
        truncate_descriptions(version["schema"]["openAPIV3Schema"], options.max_desc_len)
    if facts.deprecated or facts.deprecation_warning:
        version["deprecated"] = True
        if facts.deprecation_warning:
            version["deprecationWarning"] = facts.deprecation_warning
    if facts.printer_columns:
        version["additionalPrinterColumns"] = [_column(c) for c in facts.printer_columns]
    if facts.selectable_fields:
        version["selectableFields"] = [{"jsonPath": path} for path in facts.selectable_fields]
    subresources: dict[str, Any] = {}
    if facts.scale is not None:
        scale = {"specReplicasPath": facts.scale.spec_replicas_path, "statusReplicasPath": facts.scale.status_replicas_path}
        if facts.scale.label_selector_path:
            scale["labelSelectorPath"] = facts.scale.label_selector_path
        subresources["scale"] = scale
    if facts.status:
        subresources["status"] = {}
    if subresources:
        version["subresources"] = subresources
    return version


def _column(column: m.PrinterColumn) -> dict[str, Any]:
    out: dict[str, Any] = {"jsonPath": column.json_path, "name": column.name, "type": column.type}
    if column.description:
        out["description"] = column.description
    if column.format:
        out["format"] = column.format
    if column.priority is not None:
        out["priority"] = column.priority
    return out


# Unicode's Sentence_Terminal characters most text uses (Go's unicode.STerm holds ~150, all outside ASCII
# but these); and White_Space's.
_SENTENCE_END = ".!?\u0589\u061f\u06d4\u0964\u0965\u203c\u203d\u2047\u2048\u2049\u3002\ufe52\ufe56\ufe57\uff01\uff0e\uff1f\uff61"
_WHITE_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


def truncate_descriptions(schema: dict[str, Any], max_len: int) -> None:
    """controller-gen's ``crd:maxDescLen`` (pkg/crd/desc_visitor.go): every description in the
    schema cut to ``max_len`` bytes of UTF-8 (0: none left), at the last sentence end within them,
    else at the last white space with ``...``, else hard with ``...``."""
    description = schema.get("description")
    if isinstance(description, str):
        if max_len == 0:
            del schema["description"]
        else:
            schema["description"] = _truncate(description, max_len)
    for sub in schema.get("properties", {}).values():
        truncate_descriptions(sub, max_len)
    for key in ("items", "additionalProperties", "not"):
        if isinstance(schema.get(key), dict):
            truncate_descriptions(schema[key], max_len)
    for key in ("anyOf", "allOf", "oneOf"):
        for sub in schema.get(key, []):
            truncate_descriptions(sub, max_len)


def _truncate(text: str, max_len: int) -> str:
    raw = text.encode("utf-8")
    if len(raw) <= max_len:
        return text
    head = raw[:max_len].decode("utf-8", errors="ignore")  # Go slices bytes; a rune cut in two is dropped here
    end = max((head.rfind(c) for c in _SENTENCE_END), default=-1)
    if end > 0:
        return head[: end + 1]
    space = max((head.rfind(c) for c in _WHITE_SPACE), default=-1)
    if space > 0:
        return head[:space] + "..."
    return head + "..."
