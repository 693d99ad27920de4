"""What changed between two states of an object: kopf's diffs, for a level-based reconciler.

    for op, path, old, new in diff(event.object_old, event.object_new, ignore_metadata=True):
        ...                                             # ("change", ("spec", "replicas"), 2, 3)
    [c.dotted for c in diff(old, new)]                  # ["spec.replicas", 'metadata.labels["app.kubernetes.io/name"]']

A reconciler reads the current state and converges, so it rarely needs to know what changed;
where it does (a predicate that lets only some fields' changes through, a log line, an event
saying what moved, an old value a cleanup needs), ``diff`` gives the changes between two typed
objects (or their JSON dicts): each a ``Change`` ``(op, path, old, new)``, unpacked as kopf's
diff items are. ``op`` is ``"add"``, ``"remove"`` or ``"change"``; ``path`` a tuple of wire names
(the JSON keys: ``replicas``, ``matchLabels``) and list indices; ``dotted`` the same path as one
string (``spec.containers[0].image``, a key that is not a plain name in brackets and quotes).

The walk is the JSON documents' (the models' ``to_dict()``): objects member by member (the old
object's order, then what the new one adds), lists element by element over their common prefix,
then what one has beyond the other, each element its own add or remove (removals from the
end, so that the changes, applied in order as JSON patch operations, turn ``old`` into ``new``);
anything else that differs is one change. Values compare as JSON does (``1``, ``1.0`` and ``true`` are three values).
An insertion at a list's front therefore changes every element after it, as a JSON patch would;
kopf, which never looks inside lists, reports the whole list changed. ``diff(None, obj)`` is one
add at the empty path, ``diff(obj, None)`` one remove: what kopf hands a create and a delete.

``ignore_metadata`` leaves ``metadata`` out (resourceVersion, managedFields and generation move
on every write), ``ignore_status`` leaves ``status`` out; ``ignore`` takes further paths (tuples
or dotted strings) whose subtrees are left out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal, NamedTuple

from kgen.runtime.apimachinery.model import Model
from kgen.runtime.apimachinery.patch.jsonpatch import json_equal

__all__ = ["Change", "Path", "diff", "dotted", "parse_path"]

Path = tuple[str | int, ...]
"""A field's place in an object: wire names and list indices, from the top."""

_PLAIN = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$-]*$")
_TOKEN = re.compile(r'\.?([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


class Change(NamedTuple):
    """One changed field: ``op`` (``add``, ``remove``, ``change``), its ``path``, and its ``old`` and
    ``new`` JSON values (``None`` on the side where it is absent)."""

    op: Literal["add", "remove", "change"]
    path: Path
    old: Any
    new: Any

    @property
    def dotted(self) -> str:
        """The path as one string: ``spec.template.spec.containers[0].image``."""
        return dotted(self.path)

    def is_under(self, prefix: Path | str) -> bool:
        """Whether the change is at ``prefix`` (a path or a dotted string) or inside it."""
        wanted = parse_path(prefix) if isinstance(prefix, str) else tuple(prefix)
        return self.path[: len(wanted)] == wanted


def dotted(path: Path) -> str:
    """``path`` as kopf-style dotted text; indices as ``[i]``, keys that are not plain names
    (``app.kubernetes.io/name``) as ``["..."]``."""
    out: list[str] = []
    for token in path:
        if isinstance(token, int):
            out.append(f"[{token}]")
        elif _PLAIN.match(token):
            out.append(f".{token}" if out else token)
        else:
            out.append(f"[{json.dumps(token)}]")
    return "".join(out)


def parse_path(text: str) -> Path:
    """The path a dotted string names (``dotted``'s inverse): ``'a.b[0]["x.y"]'`` →
    ``("a", "b", 0, "x.y")``. Raises ``ValueError`` naming the text it cannot read."""
    path: list[str | int] = []
    at = 0
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None or (match.group(1) is not None and (text[at] == ".") != bool(path)):
            raise ValueError(f"cannot read the field path {text!r} at {text[at:]!r}: expected name, .name, [index] or [\"key\"]")
        name, index, quoted = match.groups()
        path.append(name if name is not None else int(index) if index is not None else json.loads(quoted))
        at = match.end()
    return tuple(path)


def _document(obj: Model | Mapping[str, Any] | None) -> Any:
    if obj is None or isinstance(obj, Mapping):
        return obj
    if isinstance(obj, Model):
        return obj.to_dict()
    raise TypeError(f"diff compares kgen models or JSON dicts, not {type(obj).__name__}")


def diff(
    old: Model | Mapping[str, Any] | None,
    new: Model | Mapping[str, Any] | None,
    *,
    ignore_metadata: bool = False,
    ignore_status: bool = False,
    ignore: Iterable[Path | str] = (),
) -> list[Change]:
    """The changes that turn ``old`` into ``new`` (see the module's docstring); ``[]`` when equal."""
    skipped = {parse_path(p) if isinstance(p, str) else tuple(p) for p in ignore}
    if ignore_metadata:
        skipped.add(("metadata",))
    if ignore_status:
        skipped.add(("status",))
    a, b = _document(old), _document(new)
    changes: list[Change] = []
    if a is None or b is None:
        if a is not None or b is not None:
            changes.append(Change("add" if a is None else "remove", (), a, b))
        return changes
    _walk(a, b, (), skipped, changes)
    return changes


def _walk(a: Any, b: Any, path: Path, skipped: set[Path], out: list[Change]) -> None:
    if path in skipped:
        return
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key, value in a.items():
            if key in b:
                _walk(value, b[key], (*path, key), skipped, out)
            elif (*path, key) not in skipped:
                out.append(Change("remove", (*path, key), value, None))
        for key, value in b.items():
            if key not in a and (*path, key) not in skipped:
                out.append(Change("add", (*path, key), None, value))
    elif isinstance(a, list) and isinstance(b, list):
        common = min(len(a), len(b))
        for i in range(common):
            _walk(a[i], b[i], (*path, i), skipped, out)
        out.extend(Change("remove", (*path, i), a[i], None) for i in range(len(a) - 1, common - 1, -1))
        out.extend(Change("add", (*path, i), None, b[i]) for i in range(common, len(b)))
    elif not (type(a) is type(b) and a == b) and not json_equal(a, b):
        out.append(Change("change", path, a, b))
