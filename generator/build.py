"""SourceSet -> IR package: which module each definition lives in, then its classes."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from . import naming
from .errors import InputError
from .ir import Module, Package, StockClass
from .models import _ALIASES, META_PREFIX, Definition, ModelBuilder
from .nested import is_class
from .sources import RawDefinition, SourceSet

META_GROUP = "meta.k8s.io (apimachinery)"  # a key no real API group can be
_VERSION = re.compile(r"^v\d+((alpha|beta)\d+)?$")


def _gvks(d: RawDefinition) -> list[dict[str, str]]:
    value = d.schema.get("x-kubernetes-group-version-kind")
    if value is None:
        return []
    where = d.ptr + "/x-kubernetes-group-version-kind"
    if not isinstance(value, list):
        raise InputError(d.source, where, "a list of objects with group, version and kind strings")
    for i, gvk in enumerate(value):
        if not (
            isinstance(gvk, dict)
            and isinstance(gvk.get("group", ""), str)
            and all(isinstance(gvk.get(key), str) and gvk[key] for key in ("version", "kind"))
        ):
            raise InputError(d.source, f"{where}/{i}", "an object with group, version and kind strings")
    return value


def _place(definitions: dict[str, RawDefinition]) -> dict[str, tuple[str, str]]:
    """(group, version) for every definition: by its GVK, else by its package's, else by name."""
    prefix_gv: dict[str, tuple[str, str]] = {}
    for name, d in sorted(definitions.items()):
        gvks = _gvks(d)
        if len(gvks) == 1 and not name.startswith(META_PREFIX):
            prefix_gv.setdefault(name.rsplit(".", 1)[0], (gvks[0].get("group", ""), gvks[0]["version"]))
    known_groups = sorted({g for g, _ in prefix_gv.values()})
    placed = {}
    for name in definitions:
        prefix = name.rsplit(".", 1)[0]
        if name.startswith(META_PREFIX):
            placed[name] = (META_GROUP, "v1")
        elif prefix in prefix_gv:
            placed[name] = prefix_gv[prefix]
        else:
            parts = prefix.split(".")
            versions = [i for i, p in enumerate(parts) if _VERSION.match(p)]
            if versions and versions[-1] > 0:
                i = versions[-1]
                package = parts[i - 1]
                # A package with no kind of its own (types another group refers to): its group
                # is the known group named after it (io.k8s.api.scheduling -> scheduling.k8s.io).
                same = [g for g in known_groups if g.split(".")[0] == package]
                group = "" if package == "core" else same[0] if len(same) == 1 else package
                placed[name] = (group, parts[i])
            else:
                placed[name] = (parts[-1] if parts else "unversioned", "unversioned")
    return placed


def _wanted(selector: str) -> tuple[str, str]:
    group, _, version = selector.strip().rpartition("/")
    return ("" if group in ("", "core") else group, version)


def stock_classes(sources: SourceSet) -> dict[str, StockClass]:
    """Where the stock package (generated from ``sources``, the embedded snapshot) has each
    class definition's class, as ``build`` placed and named it there; apimachinery's are left out (a
    CRD package holds them itself), and so is a name two definitions of one module share (the
    second class took a suffix there)."""
    placed = _place(sources.definitions)
    placed = {name: gv for name, gv in placed.items() if name not in _ALIASES}
    group_module = naming.group_modules(g for g, _ in placed.values() if g != META_GROUP)
    short = {name: name.rsplit(".", 1)[-1] for name in placed}
    counts = Counter((placed[name], short[name]) for name in placed)
    return {
        name: StockClass(f"{group_module[gv[0]]}.{naming.version_module(gv[1])}", short[name])
        for name, gv in sorted(placed.items())
        if gv[0] != META_GROUP and not name.startswith("io.k8s.apimachinery.") and counts[(gv, short[name])] == 1
        and is_class(sources.definitions[name].schema)
    }


def build(sources: SourceSet, package: str, groups: Iterable[str] | None = None) -> Package:
    placed = _place(sources.definitions)
    keys = {gv for name, gv in placed.items() if name not in _ALIASES}
    group_module = naming.group_modules(g for g, _ in keys if g != META_GROUP)
    group_module[META_GROUP] = "meta"
    modules = {
        gv: Module(
            group="" if gv[0] == META_GROUP else gv[0],
            version=gv[1],
            group_module=group_module[gv[0]],
            version_module=naming.version_module(gv[1]),
            resources=sources.resources.get(gv, []) if gv[0] != META_GROUP else [],
        )
        for gv in sorted(keys)
    }
    definitions = {
        name: Definition(name, d.schema, d.source, d.ptr, placed[name], _gvks(d))
        for name, d in sources.definitions.items()
    }
    builder = ModelBuilder(definitions, modules, sources.stock_classes)
    builder.declare()
    builder.build()
    chosen = [m for m in modules.values() if m.models]
    if groups is not None:
        chosen = _with_dependencies(chosen, [_wanted(g) for g in groups])
    return Package(name=package, modules=sorted(chosen, key=lambda m: m.key), kubernetes_version=sources.kubernetes_version)


#: Subresources whose typed-client methods use a model of another API group (group, version): scale (autoscaling/v1
#: Scale), a Pod's eviction (policy/v1 Eviction) and a ServiceAccount's token
#: (authentication/v1 TokenRequest); see render.py.
_SUBRESOURCE_MODELS = {"scale": ("autoscaling", "v1"), "eviction": ("policy", "v1"), "token": ("authentication.k8s.io", "v1")}


def _with_dependencies(modules: list[Module], wanted: list[tuple[str, str]]) -> list[Module]:
    # apimachinery's meta/v1 has group "" like core/v1: it is always kept, never selected.
    by_key = {(m.group, m.version): m for m in modules if m.group_module != "meta"}
    by_path = {f"{m.group_module}.{m.version_module}": m for m in modules}
    for gv in wanted:
        if gv not in by_key:
            served = ", ".join(sorted(f"{g or 'core'}/{v}" for g, v in by_key))
            raise InputError(
                "--groups", "", f"one of {served}" if served else "none: the sources define no group/version",
                problem=f"unknown group/version {gv[0] or 'core'}/{gv[1]}",
            )
    keep: dict[str, Module] = {}
    todo = [by_key[gv] for gv in wanted] + [m for m in modules if m.group_module == "meta"]
    while todo:
        m = todo.pop()
        path = f"{m.group_module}.{m.version_module}"
        if path not in keep:
            keep[path] = m
            todo += [by_path[p] for p in m.imports.values()]
            # Its typed client's subresources use other groups' models, as client-go's do.
            uses = {_SUBRESOURCE_MODELS[s] for r in m.resources for s in r.subresources if s in _SUBRESOURCE_MODELS}
            todo += [by_key[gv] for gv in sorted(uses) if gv in by_key]
    return list(keep.values())
