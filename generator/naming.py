"""Every naming decision, made once: Python names for fields, classes, groups and versions.

Rules (documented in the README, stable across runs):

- Fields: camelCase wire names become snake_case (``podIPs`` -> ``pod_ips``,
  ``hostIPC`` -> ``host_ipc``); characters that cannot be in an identifier become ``_``
  (``x-foo`` -> ``x_foo``, ``$ref`` -> ``ref``); a leading digit gets ``n_`` (``3d`` -> ``n_3d``).
- The one escape: a trailing ``_`` for Python keywords (``continue_``, ``from_``, ``not_``)
  and names the generated classes or their modules already use (``reserved_field_names``,
  derived, never listed by hand: every member of the model base, of the apply-configuration
  base and of msgspec's ``Struct`` under them, so ``to_dict_``, ``extract_``, ``from_model_``,
  ``with_unknown_fields_``; every name a models or apply-configurations template imports for its
  class bodies, so ``field_``, ``builtins_``; and module aliases such as ``corev1_``). The wire
  name stays. Every other name is a legal attribute and stays as users expect it: ``type``,
  ``id``, ``format``, ``object``, ``list``, ``property``, ``match``. A class whose field
  shadows a builtin type its annotations use (``list``, ``dict``, ``str``, ...) spells that
  type ``builtins.list`` there.
- Collisions after conversion (``natOutgoing`` and ``nat-outgoing``; names differing in case)
  are resolved in wire-name order: the first keeps the name, the next get ``_2``, ``_3``...;
  except that ``apiVersion``, ``kind`` and ``metadata`` always keep theirs (the runtime reads
  ``api_version``, ``kind`` and ``metadata``): a CRD's ``API_VERSION`` is ``api_version_2``.
- Group modules: ``core`` for the legacy group; ``<label>`` for ``<label>.k8s.io`` (and
  ``<label>.apiserver.k8s.io``-style groups: the first label); any other group is the whole
  name with every run of non-alphanumerics as ``_`` (``cert-manager.io`` -> ``cert_manager_io``).
  If two groups would share a module name, every one of them takes the long form, then a
  numeric suffix, in sorted group order.
- Classes: a definition's class is its name's last segment (``io.k8s.api.apps.v1.Deployment``
  -> ``Deployment``); two in one module get ``2``, ``3``... in sorted definition order.
- Nested classes (an object schema inside a CRD or another definition, one class per identity,
  see nested.py) are named by their property path from the root class, read from the end: the
  property's name in CamelCase (``spec.template.spec.securityContext`` -> ``SecurityContext``;
  array items and map values take the array's or map's name: ``containers[]`` ->
  ``Containers``). A class right under a kind keeps the kind in front, as Go's ``FooSpec`` and
  ``FooStatus`` do (``Prometheus.spec`` -> ``PrometheusSpec``). Every class whose name is taken
  in its module (by a definition's class, by another nested class wanting the same name, or by
  a name the module imports) takes one more segment of its path, the parent's, until it is
  unique (``SecurityContext`` in a pod and in a container: ``SpecSecurityContext`` and
  ``ContainersSecurityContext``); all of the clashing classes extend, so no class's name
  depends on which was seen first. A path exhausted gets ``2``, ``3``... in sorted path order.
  A shared class is named from one of its uses: under the property name most of its uses have
  (ties: the one nearest a root, then alphabetical), the first such use in sorted (module,
  path) order; its name is unique in every module that defines or re-exports it. The result
  depends only on the set of schemas, never on the order of input files or keys.
- Names a user would guess: a kind's ``spec`` and ``status`` classes are also importable from
  the kind's own module as ``<Kind>Spec`` and ``<Kind>Status`` (``IssuerSpec = ClusterIssuerSpec``
  where cert-manager's Issuer and ClusterIssuer share one class), and their apply configurations
  as ``<Kind>SpecApplyConfiguration``, unless a different class already has that name there.
  ``<Kind>List`` is the list kind's own class, in the same module.
- Version modules: the version lower-cased, other characters as ``_``; a leading digit gets
  ``v_`` (``1`` -> ``v_1``).
"""

from __future__ import annotations

import builtins
import functools
import keyword
import re
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import TypeVar

_BUILTINS = {name for name in dir(builtins) if not name.startswith("_")}

#: The templates of the modules that define generated classes (models and their apply
#: configurations): the names they import are names their class bodies may use.
CLASS_TEMPLATES = ("models.py.jinja", "applyconfigurations.py.jinja")
_IMPORT = re.compile(r"^(?:from\s+([\w.]+)\s+)?import\s+(.+)$")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}")
#: Builtin types that generated annotations name: a field called so shadows the type in its class.
BUILTIN_TYPES = {"list", "dict", "str", "int", "float", "bool"}
#: Class names a models module cannot define because it imports them.
CLASS_RESERVED = {
    "Model", "Any", "ClassVar", "Literal", "Quantity", "Time", "MicroTime",
    "IntOrString", "annotations",
}

#: A kind's fields the runtime reads by these Python names: they win a collision.
TYPE_AND_OBJECT_META = ("apiVersion", "kind", "metadata")
#: A kind's fields whose class is also importable as ``<Kind><Field>`` (``IssuerSpec``).
KIND_PARTS = ("spec", "status")

K = TypeVar("K")
S = TypeVar("S")

_WORD = re.compile(r"[A-Z]+s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z0-9]+|[A-Z]+|[0-9]+")


def snake_case(wire: str) -> str:
    chunks = [c for c in re.split(r"[^A-Za-z0-9]+", wire) if c]
    words = [w.lower() for chunk in chunks for w in _WORD.findall(chunk)]
    name = "_".join(words)
    if not name:
        name = "field"
    if name[0].isdigit():
        name = "n_" + name
    return name


@functools.cache
def reserved_field_names() -> frozenset[str]:
    """Names a generated field may not take, read from what the generated classes are built on.

    - every member (``dir``: public, private and dunder) of the model base and of the
      apply-configuration base, and of every class under them (msgspec's ``Struct``): a field
      of that name would replace the method or attribute in its class (``extract`` on an apply
      configuration, ``with_unknown_fields`` on a model), for mypy and at run time alike;
    - every name the models and apply-configurations templates import at module level (not
      ``from __future__``, not under ``if TYPE_CHECKING:``), the names their class bodies call
      or resolve at run time: ``field(...)`` in a default, ``builtins.list`` in an annotation.
      Module aliases (``corev1``) depend on the package: ``ModelBuilder`` passes them.

    Imported here, on first use, so importing the generator does not load the runtime.
    """
    from kgen.runtime.apimachinery.apply import ApplyConfiguration
    from kgen.runtime.apimachinery.model import Model

    names: set[str] = set()
    for base in (Model, ApplyConfiguration):
        for cls in base.__mro__:
            if cls is not object:
                names.update(dir(cls))
    return frozenset(names | _template_imports())


def _template_imports() -> set[str]:
    """Names bound by the unindented import lines of ``CLASS_TEMPLATES``, Jinja tags dropped
    (``from x import Model{% if ... %}, field{% endif %}``: ``Model`` and ``field``)."""
    names: set[str] = set()
    templates = resources.files("kgen.templates")
    for template in CLASS_TEMPLATES:
        for line in templates.joinpath(template).read_text().splitlines():
            match = _IMPORT.match(_JINJA.sub("", line).rstrip())
            if match is None or match.group(1) == "__future__":
                continue
            for item in match.group(2).split(","):
                words = item.split()
                if words:
                    names.add(words[-1].split(".")[0])  # ``x as y``: y; ``import a.b``: a
    return {n for n in names if n.isidentifier() and not keyword.iskeyword(n)}


def needs_escape(name: str, reserved: Iterable[str] = ()) -> bool:
    return keyword.iskeyword(name) or name in reserved_field_names() or name in set(reserved)


def escape(name: str, reserved: Iterable[str] = ()) -> str:
    reserved = set(reserved)
    while needs_escape(name, reserved):
        name += "_"
    return name


def field_names(wire_names: Iterable[str], reserved: Iterable[str] = ()) -> dict[str, str]:
    """Python names for an object's fields, keyed by wire name; deterministic and unique."""
    reserved = set(reserved)
    taken: set[str] = set()
    result: dict[str, str] = {}
    for wire in sorted(wire_names, key=lambda w: (w not in TYPE_AND_OBJECT_META, w)):
        base = escape(snake_case(wire), reserved)
        name, n = base, 1
        while name in taken or name.lower() in {t.lower() for t in taken}:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        result[wire] = name
    return result


def class_name(raw: str) -> str:
    """A CamelCase class name from any text (kinds are already CamelCase)."""
    name = _camel(raw)
    while keyword.iskeyword(name) or name in CLASS_RESERVED or name in _BUILTINS:
        name += "_"
    return name


def _camel(raw: str) -> str:
    chunks = [c for c in re.split(r"[^A-Za-z0-9]+", raw) if c]
    name = "".join(c[:1].upper() + c[1:] for c in chunks) or "Object"
    return "N" + name if name[0].isdigit() else name


def _needs_class_escape(name: str) -> bool:
    return keyword.iskeyword(name) or name in CLASS_RESERVED or name in _BUILTINS


def nested_class_names(
    paths: Mapping[K, Sequence[str]], spaces: Mapping[K, Iterable[S]], taken: Mapping[S, Iterable[str]]
) -> dict[K, str]:
    """Class names for nested classes, by the rule in this module's docstring.

    ``paths``: each class's property path, its root class first (``("Prometheus", "spec",
    "affinity")``); ``spaces``: the modules each class is named in (where it is defined and
    where it is re-exported); ``taken``: names the modules already use.
    """
    used: dict[S, set[str]] = {space: set(names) for space, names in taken.items()}
    depth = {k: min(2 if len(p) == 2 else 1, len(p)) for k, p in paths.items()}
    names: dict[K, str] = {}
    while True:
        names = {k: _camel("_".join(paths[k][-depth[k]:])) for k in paths}
        seen: dict[tuple[S, str], list[K]] = {}
        for k in paths:
            for space in spaces[k]:
                seen.setdefault((space, names[k]), []).append(k)
        clashing = {
            k for k in paths
            if depth[k] < len(paths[k]) and (
                _needs_class_escape(names[k])
                or any(len(seen[(space, names[k])]) > 1 or names[k] in used.get(space, ()) for space in spaces[k])
            )
        }
        if not clashing:
            break
        for k in clashing:
            depth[k] += 1
    result: dict[K, str] = {}
    for k in sorted(paths, key=lambda k: (names[k], tuple(paths[k]))):
        base = class_name(names[k])
        name, n = base, 1
        while any(name in used.get(space, ()) for space in spaces[k]):
            n += 1
            name = f"{base}{n}"
        for space in spaces[k]:
            used.setdefault(space, set()).add(name)
        result[k] = name
    return result


def version_module(version: str) -> str:
    name = re.sub(r"[^a-z0-9_]", "_", version.lower()) or "v"
    return escape("v_" + name if name[0].isdigit() else name, ())


def _short_group(group: str) -> str | None:
    if group == "":
        return "core"
    if group.endswith(".k8s.io"):
        return group.split(".", 1)[0]
    return None


def _long_group(group: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", group.lower()).strip("_") or "group"


def group_modules(groups: Iterable[str]) -> dict[str, str]:
    """Module names for API groups; ``meta`` is kept for apimachinery's meta/v1."""
    ordered = sorted(set(groups))
    wanted = {g: _short_group(g) or _long_group(g) for g in ordered}
    counts: dict[str, int] = {}
    for name in [*wanted.values(), "meta"]:
        counts[name] = counts.get(name, 0) + 1
    result: dict[str, str] = {}
    taken = {"meta"}
    for group in ordered:
        name = wanted[group]
        if counts[name] > 1 and group != "":
            name = _long_group(group)
        name = escape(name if not name[0].isdigit() else "g_" + name)
        base, n = name, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        result[group] = name
    return result
