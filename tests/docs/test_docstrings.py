"""Every public name of the runtime has a docstring that shows in the API reference (issue 16).

The API reference is rendered by mkdocstrings from what griffe reads of ``kgen.runtime``
statically, so "shows in the API reference" is "griffe sees a non-empty docstring". Public:

- a module: every module under ``kgen.runtime`` with no path component starting with ``_``;
  it needs a module docstring;
- a module's public names: its ``__all__`` when it has one (names re-exported from a private
  module included: the reference shows their docstrings on the package's page; another
  library's names re-exported, such as msgspec's ``field``, are that library's); otherwise each
  name not starting with ``_`` that the module itself defines (classes, functions, and
  module-level attributes: constants, type aliases, type variables; not imports);
- a public class's public members: the methods and properties it defines (not inherited),
  names not starting with ``_`` (so no dunder methods), and its public nested classes.
  Other class attributes (dataclass and msgspec fields) are described by the class docstring.

Attributes take their docstring from a string literal right below the assignment (griffe's
convention); a ``#:`` comment above it is not seen. ``python -m tests.docs.test_docstrings``
prints what is missing.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator

import griffe

import kgen.runtime

PACKAGE = "kgen.runtime"


def public_modules() -> list[str]:
    """The dotted names of the runtime's public modules, the package itself first."""
    found = (m.name for m in pkgutil.walk_packages(kgen.runtime.__path__, PACKAGE + "."))
    return [PACKAGE] + sorted(n for n in found if not any(p.startswith("_") for p in n.split(".")))


def _documented(obj: griffe.Object | griffe.Alias) -> bool:
    return obj.docstring is not None and bool(obj.docstring.value.strip())


def _member(root: griffe.Module, path: str) -> griffe.Object | griffe.Alias | None:
    """The member at dotted ``path`` under ``kgen.runtime``, an alias left unresolved."""
    parent, _, leaf = path.removeprefix(PACKAGE + ".").rpartition(".")
    try:
        return (root[parent] if parent else root).members.get(leaf)
    except KeyError:
        return None


def _public_names(root: griffe.Module, name: str) -> Iterator[tuple[str, griffe.Object | None]]:
    """(dotted name, griffe object or None when griffe cannot see it) for each public name."""
    module = _member(root, name) if name != PACKAGE else root
    assert isinstance(module, griffe.Module), name
    exports = getattr(importlib.import_module(name), "__all__", None)
    if exports is None:
        for member, obj in module.members.items():
            if not member.startswith("_") and not obj.is_alias and not obj.is_module:
                assert isinstance(obj, griffe.Object)
                yield f"{name}.{member}", obj
        return
    for member in exports:
        target = module.members.get(member)
        while isinstance(target, griffe.Alias):  # a re-export: follow it to the definition
            if not target.target_path.startswith(PACKAGE + "."):
                break  # another library's name (msgspec's field): its docs are that library's
            target = _member(root, target.target_path)
        else:
            yield f"{name}.{member}", target


def _class_members(cls: griffe.Class) -> Iterator[griffe.Object]:
    for member, obj in cls.members.items():
        if member.startswith("_") or obj.is_alias:
            continue
        assert isinstance(obj, griffe.Object)
        if obj.is_function or obj.is_class or (obj.is_attribute and "property" in obj.labels):
            yield obj


def _walk() -> Iterator[tuple[str, griffe.Object | None]]:
    """(dotted name as the reference shows it, griffe object or None when griffe cannot see it)
    for every public module and name, each definition once (under the first name met)."""
    root = griffe.load(PACKAGE)
    assert isinstance(root, griffe.Module)
    seen: set[str] = set()

    def visit(label: str, obj: griffe.Object) -> Iterator[tuple[str, griffe.Object | None]]:
        if obj.path in seen:
            return
        seen.add(obj.path)
        yield label, obj
        if isinstance(obj, griffe.Class):
            for member in _class_members(obj):
                yield from visit(f"{label}.{member.name}", member)

    for name in public_modules():
        module = _member(root, name) if name != PACKAGE else root
        assert isinstance(module, griffe.Module), name
        yield from visit(name, module)
        for label, obj in _public_names(root, name):
            if obj is None:
                yield label, None
            else:
                yield from visit(label, obj)


def missing_docstrings() -> tuple[int, list[str]]:
    """How many public modules and names were checked, and those without a docstring (or that
    griffe cannot find), each as ``kind dotted.name (file:line)``."""
    missing: list[str] = []
    checked = 0
    for label, obj in _walk():
        if obj is None:
            missing.append(f"unseen {label} (in __all__, but griffe finds no definition)")
            continue
        checked += 1
        if not _documented(obj):
            missing.append(f"{obj.kind.value} {label} ({obj.relative_package_filepath}:{obj.lineno})")
    return checked, missing


def public_names() -> list[tuple[str, str]]:
    """(dotted name as the API reference shows it, docstring) of every documented public module
    and name (tests/docs/test_site.py finds each in the built reference)."""
    return [(label, obj.docstring.value) for label, obj in _walk()
            if obj is not None and obj.docstring is not None]


def test_every_public_name_of_the_runtime_has_a_docstring() -> None:
    checked, missing = missing_docstrings()
    assert checked > 1000, checked  # the definition above still finds the runtime's names
    assert not missing, f"{len(missing)} of {checked} public names have no docstring:\n" + "\n".join(missing)


if __name__ == "__main__":
    total, absent = missing_docstrings()
    print("\n".join(absent))
    print(f"{len(absent)} of {total} public names have no docstring")
