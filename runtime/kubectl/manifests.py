"""Manifests: multi-document YAML (or JSON) to Kubernetes objects and back, as ``kubectl -f`` reads them.

cli-runtime's resource builder reads what ``-f`` names: a file whatever its name; a folder's
``.yaml``, ``.yml`` and ``.json`` files, in ``filepath.Walk``'s lexical order (recursing as
``-R`` does); each file a stream of YAML documents, empty ones skipped; and it flattens every
``List`` (``kind: List``, ``kind: ConfigMapList``, ...) into its items. ``load_all_yaml`` does
the same, and gives each object as a typed model of a generated package when one is named and
has the kind, or as unstructured (a plain dict, kgen.runtime.apimachinery.unstructured's form)
when none is named or the package lacks the kind (a custom resource of a CRD it was not
generated with). ``dump_all_yaml`` writes objects back in their wire form.

A generated package keeps each kind in ``<package>.models.<group module>.<version module>``; the
group module is the generator's naming rule (``core`` for the legacy group, the first label of a
``*.k8s.io`` group, else the group with non-alphanumerics as ``_``; a collision gets the long
form or a number), so the candidates are tried in that order and the class is taken only when
its ``API_VERSION`` and ``KIND`` are the document's.

Plain scalars are read as kubectl reads them (go-yaml under sigs.k8s.io/yaml), not as YAML 1.1
has them: ``y`` is true, ``1:20`` a string, a timestamp its text (_goyaml.py lists the rules), so
what is applied is what ``kubectl apply`` would send. PyYAML is imported only here, when a
manifest is read or written: it is kgen-runtime's ``kubeconfig`` extra, not a hard dependency.
"""

from __future__ import annotations

import importlib
import io
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import IO, Any, TypeAlias, overload

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.kubectl import _goyaml

Manifest: TypeAlias = Model | dict[str, Any]
"""One object of a manifest: a generated package's typed model, or unstructured (a plain dict)."""

Source: TypeAlias = str | os.PathLike[str] | IO[str] | IO[bytes]
"""What ``load_all_yaml`` reads: a path (file or folder), a string of YAML, or an open file."""

EXTENSIONS = (".yaml", ".yml", ".json")
"""The files of a folder that are read (cli-runtime's FileExtensions); a file named alone is read whatever its name."""


class ManifestError(ValueError):
    """A manifest that cannot be read: ``where`` names the file (or ``<string>``) and the document
    (1-based, as editors count them; ``items[i]`` inside a List), ``problem`` what was wrong."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


def _yaml() -> Any:
    try:
        import yaml
    except ImportError:
        raise ImportError(
            "reading or writing YAML manifests needs PyYAML: install kgen-k8s[kubeconfig] (or pyyaml)"
        ) from None
    return yaml


def manifest_files(path: str | os.PathLike[str]) -> list[Path]:
    """The files ``kubectl -f PATH -R`` reads: PATH itself if a file, else the ``.yaml``/``.yml``/``.json``
    files under it in ``filepath.Walk``'s order (each folder's entries by name, sub-folders where they sort)."""
    root = Path(path)
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise ManifestError(str(root), "no such file or folder (expected a manifest file or a folder of them)")

    def walk(folder: Path) -> Iterator[Path]:
        for entry in sorted(folder.iterdir(), key=lambda p: p.name):
            if entry.is_dir():
                yield from walk(entry)
            elif entry.suffix in EXTENSIONS:
                yield entry

    return list(walk(root))


def _texts(source: Source) -> Iterator[tuple[str, str]]:
    """(where, text) for each file of ``source``."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and ":" not in source):
        # One line with no ``key: value`` cannot be a manifest: it is a path (which may not exist).
        for file in manifest_files(source):
            try:
                yield str(file), file.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                raise ManifestError(str(file), "not UTF-8 text (expected YAML or JSON)") from None
            except OSError as e:
                raise ManifestError(str(file), f"cannot read: {e.strerror or e}") from None
    elif isinstance(source, str):
        yield "<string>", source
    elif isinstance(source, io.IOBase) or hasattr(source, "read"):
        data = source.read()
        name = str(getattr(source, "name", "<stream>"))
        yield name, data.decode("utf-8") if isinstance(data, bytes) else data
    else:
        raise TypeError(f"load_all_yaml: expected a path, a string of YAML or an open file, not {type(source).__name__}")


def _documents(where: str, text: str) -> Iterator[tuple[str, Any]]:
    yaml = _yaml()
    loader, _ = _goyaml.classes(yaml)
    number = 0
    try:
        for number, doc in enumerate(yaml.load_all(text, Loader=loader), start=1):  # noqa: B007
            if doc is not None:
                try:
                    yield f"{where}: document {number}", _goyaml.to_json(doc)
                except ValueError as e:
                    raise ManifestError(f"{where}: document {number}", str(e)) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ManifestError(f"{where}: document {number + 1}", f"not valid YAML: {problem}{at}") from None


def _objects(where: str, doc: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """The object(s) of one document: a List's items (recursively), or the document itself."""
    if not isinstance(doc, dict):
        raise ManifestError(where, f"expected a Kubernetes object (a mapping), found {_describe(doc)}")
    for key in ("apiVersion", "kind"):
        if not isinstance(doc.get(key), str) or not doc[key]:
            raise ManifestError(where, f"{key}: expected a non-empty string, found {_describe(doc.get(key))}")
    if doc["kind"].endswith("List") and "items" in doc:
        items = doc["items"]
        if items is None:
            return
        if not isinstance(items, list):
            raise ManifestError(where, f"items: expected a list of objects, found {_describe(items)}")
        for i, item in enumerate(items):
            yield from _objects(f"{where}: items[{i}]", item)
        return
    yield where, doc


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    return {str: "a string", bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "a mapping"}.get(
        type(value), type(value).__name__
    ) + (f" ({value!r})" if isinstance(value, (str, int, float)) and len(repr(value)) < 40 else "")


# -- typed models of a generated package -------------------------------------------------------


def _group_module_candidates(group: str) -> list[str]:
    """The generator's group-module names for ``group``, most likely first (generator/naming.py's rule)."""
    long = re.sub(r"[^a-z0-9]+", "_", group.lower()).strip("_") or "group"
    short = "core" if group == "" else group.split(".", 1)[0] if group.endswith(".k8s.io") else long
    names = []
    for base in dict.fromkeys([short, long]):
        base = base if not base[0].isdigit() else "g_" + base
        names += [base, f"{base}_"] + [f"{base}_{n}" for n in range(2, 5)]
    return names


def _version_module(version: str) -> str:
    name = re.sub(r"[^a-z0-9_]", "_", version.lower()) or "v"
    return "v_" + name if name[0].isdigit() else name


class ModelResolver:
    """apiVersion/kind -> the model class of a generated package (None when it lacks the kind), cached."""

    def __init__(self, package: ModuleType | str) -> None:
        self.package = package if isinstance(package, str) else package.__name__
        self._found: dict[tuple[str, str], type[Model] | None] = {}

    def model_for(self, api_version: str, kind: str) -> type[Model] | None:
        """The class whose ``API_VERSION`` and ``KIND`` are these, or None."""
        key = (api_version, kind)
        if key not in self._found:
            self._found[key] = self._search(api_version, kind)
        return self._found[key]

    def _search(self, api_version: str, kind: str) -> type[Model] | None:
        group, _, version = api_version.rpartition("/")
        for name in _group_module_candidates(group):
            try:
                module = importlib.import_module(f"{self.package}.models.{name}.{_version_module(version)}")
            except ModuleNotFoundError:
                continue
            for cls in (getattr(module, kind, None), *vars(module).values()):
                if (isinstance(cls, type) and issubclass(cls, Model) and cls.__dict__.get("KIND") == kind
                        and cls.__dict__.get("API_VERSION") == api_version):
                    return cls
        return None


def _typed(where: str, obj: dict[str, Any], resolver: ModelResolver | None) -> Manifest:
    model = resolver.model_for(obj["apiVersion"], obj["kind"]) if resolver is not None else None
    if model is None:
        return obj
    try:
        return model.from_dict(obj)
    except Exception as e:  # msgspec's ValidationError names the field: "Expected `int`, got `str` - at `$.spec.replicas`"
        raise ManifestError(where, f"not a valid {obj['kind']} ({model.__module__}.{model.__name__}): {e}") from None


@overload
def load_all_yaml(source: Source, package: None = None) -> list[dict[str, Any]]: ...
@overload
def load_all_yaml(source: Source, package: ModuleType | str) -> list[Manifest]: ...
def load_all_yaml(source: Source, package: ModuleType | str | None = None) -> list[Manifest] | list[dict[str, Any]]:
    """Every object in ``source``, in ``kubectl -f``'s order, Lists flattened, empty documents skipped.

    ``source``: a file or folder path (``Path``, or a one-line string with no ``:``), a string of
    YAML or JSON, or an open file. ``package``: a generated package (module or name, e.g.
    ``kgen.kubernetes``): each object of a kind it has becomes its typed model; the others stay
    plain dicts. ``ManifestError`` names the file, document and what was wrong."""
    resolver = ModelResolver(package) if package is not None else None
    out: list[Manifest] = []
    for file, text in _texts(source):
        for where, doc in _documents(file, text):
            for at, obj in _objects(where, doc):
                out.append(_typed(at, obj, resolver))
    return out


def wire(obj: Manifest) -> dict[str, Any]:
    """An object's wire form: a model's ``to_dict()``, a dict as it is."""
    if isinstance(obj, Model):
        return obj.to_dict()
    if isinstance(obj, dict):
        return obj
    raise TypeError(f"expected a model or a dict (an unstructured object), not {type(obj).__name__}")


def dump_all_yaml(objects: Iterable[Manifest]) -> str:
    """Objects as multi-document YAML in their wire form (``---`` between documents), the inverse of
    ``load_all_yaml``: keys in the order the object holds them, strings never re-typed on reading."""
    yaml = _yaml()
    _, dumper = _goyaml.classes(yaml)
    text: str = yaml.dump_all(
        (wire(o) for o in objects), Dumper=dumper, sort_keys=False, default_flow_style=False, allow_unicode=True,
        explicit_start=False,
    )
    return text
