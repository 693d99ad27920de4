"""Field paths and sets of them, as structured-merge-diff's ``fieldpath`` package has them.

Server-side apply records who owns what as sets of paths into the object. A path is a tuple of
``PathElement``: a field name (``.spec``), the key of an item of an associative list
(``[name="c"]``), the value of an item of a set (``[="a"]``) or, for atomic lists only, an index.
A ``Set`` is a trie: the paths it holds end at its ``members``; its ``children`` hold the longer
paths, so ``.spec.replicas`` is a child ``.spec`` with a member ``.replicas``, and ``.spec``
itself is in the set only if it is also a member (serialized ``".": {}``, an *existence marker*).

The order of everything (iteration, serialization, conflict lists) is structured-merge-diff's
``PathElement.Compare``: field names, then keys, then values, then indexes; values ordered by
``value.Compare`` (numbers, strings, booleans, lists, maps, null). ``to_fields_v1`` writes the
apiserver's ``FieldsV1`` JSON (fieldpath/serialize.go ``emitContentsV1``) in that order, and
``from_fields_v1`` reads it back (``readIterV1``), dropping unknown element kinds as Go does.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from kgen.runtime.apimachinery.golang.gofmt import go_json, go_v

__all__ = ["PathElement", "Path", "Set", "path_string", "value_equal", "value_key"]


# -- values -------------------------------------------------------------------------------------


def value_key(v: Any) -> tuple[Any, ...]:
    """A key that orders JSON values as ``value.Compare`` does and is equal exactly when
    ``value.Equals`` holds (``1`` equals ``1.0``; ``true`` is not ``1``)."""
    if isinstance(v, bool):
        return (2, v)
    if isinstance(v, (int, float)):
        return (0, v)
    if isinstance(v, str):
        return (1, v.encode())
    if isinstance(v, list):
        return (3, tuple(value_key(i) for i in v))
    if isinstance(v, Mapping):
        return (4, tuple((k.encode(), value_key(v[k])) for k in sorted(v, key=str.encode)))
    return (5,)


def value_equal(a: Any, b: Any) -> bool:
    """``value.Equals``: numbers compare numerically, booleans are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) or isinstance(b, (int, float)):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b
    if isinstance(a, dict):
        return isinstance(b, dict) and len(a) == len(b) and all(k in b and value_equal(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(value_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _value_string(v: Any) -> str:
    """``value.ToString``, used in path strings (``[containerPort=80,protocol="TCP"]``)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return go_v(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ",".join(_value_string(i) for i in v) + "]"
    if isinstance(v, Mapping):
        return "".join(f"{k}={_value_string(i)}" for k, i in v.items())
    return "{{undefined}}"


# -- path elements ------------------------------------------------------------------------------

_FIELD, _KEY, _VALUE, _INDEX = 0, 1, 2, 3


@dataclass(frozen=True)
class PathElement:
    """One step of a path (fieldpath.PathElement). ``payload``: the field name; the key's
    ``(name, value)`` pairs sorted by name; the set item's value; or the index."""

    kind: int
    payload: Any = field(compare=False, hash=False)
    sort_key: tuple[Any, ...] = field(repr=False)

    @staticmethod
    def field(name: str) -> PathElement:
        """A struct field's step."""
        return PathElement(_FIELD, name, (_FIELD, name.encode()))

    @staticmethod
    def key(pairs: list[tuple[str, Any]]) -> PathElement:
        """An associative list item's key; ``pairs`` sorted by name as ``FieldList.Sort`` does."""
        if all(isinstance(v, (str, int, float)) for _, v in pairs):  # scalars: cached (types kept apart)
            return _scalar_key(tuple((n, type(v), v) for n, v in pairs))
        ordered = tuple(sorted(pairs, key=lambda p: p[0].encode()))
        return PathElement(_KEY, ordered, (_KEY, tuple((n.encode(), value_key(v)) for n, v in ordered)))

    @staticmethod
    def value(v: Any) -> PathElement:
        """A set item's step (a list with set semantics)."""
        return PathElement(_VALUE, v, (_VALUE, value_key(v)))

    @staticmethod
    def index(i: int) -> PathElement:
        """An atomic list's item's step, by index."""
        return PathElement(_INDEX, i, (_INDEX, i))

    @property
    def field_name(self) -> str | None:
        """The field name, for a field step; else None."""
        return self.payload if self.kind == _FIELD else None

    @property
    def key_fields(self) -> tuple[tuple[str, Any], ...] | None:
        """The key's ``(name, value)`` pairs, for an associative list item's step; else None."""
        return self.payload if self.kind == _KEY else None

    def __lt__(self, other: PathElement) -> bool:
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        """``PathElement.String``: ``.name``, ``[k=v,...]``, ``[=v]``, ``[i]``."""
        if self.kind == _FIELD:
            return "." + str(self.payload)
        if self.kind == _KEY:
            return "[" + ",".join(f"{n}={_value_string(v)}" for n, v in self.payload) + "]"
        if self.kind == _VALUE:
            return f"[={_value_string(self.payload)}]"
        return f"[{self.payload}]"

    def serialize(self) -> str:
        """``SerializePathElement``: ``f:name``, ``k:{...}``, ``v:...``, ``i:N``."""
        if self.kind == _FIELD:
            return "f:" + str(self.payload)
        if self.kind == _KEY:
            return "k:{" + ",".join(f"{go_json(n)}:{go_json(v)}" for n, v in self.payload) + "}"
        if self.kind == _VALUE:
            return "v:" + go_json(self.payload)
        return f"i:{self.payload}"

    @staticmethod
    def deserialize(text: str) -> PathElement | None:
        """``DeserializePathElement``; None for an unknown element kind (skipped, as Go does).
        Malformed elements raise ``ValueError``."""
        if len(text) < 2 or text[1] != ":":
            raise ValueError(f"invalid path element {text!r}")
        kind, rest = text[0], text[2:]
        if kind == "f":
            return PathElement.field(rest)
        if kind == "v":
            return PathElement.value(json.loads(rest))
        if kind == "k":
            decoded = json.loads(rest)
            if not isinstance(decoded, dict):
                raise ValueError(f"invalid key path element {text!r}")
            return PathElement.key(list(decoded.items()))
        if kind == "i":
            return PathElement.index(int(rest))
        return None


@functools.lru_cache(maxsize=4096)
def _scalar_key(typed_pairs: tuple[tuple[str, type, Any], ...]) -> PathElement:
    ordered = tuple(sorted(((n, v) for n, _, v in typed_pairs), key=lambda p: p[0].encode()))
    return PathElement(_KEY, ordered, (_KEY, tuple((n.encode(), value_key(v)) for n, v in ordered)))


Path = tuple[PathElement, ...]
"""A field path: the steps from the object's root."""


def path_string(path: Path) -> str:
    """``Path.String``: ``.spec.containers[name="c"].image``."""
    return "".join(str(pe) for pe in path)


# -- sets ---------------------------------------------------------------------------------------


class Set:
    """``fieldpath.Set``: ``members`` end here, ``children`` lead on (never empty sets)."""

    __slots__ = ("members", "children")

    def __init__(self, paths: list[Path] | None = None) -> None:
        self.members: set[PathElement] = set()
        self.children: dict[PathElement, Set] = {}
        for p in paths or ():
            self.insert(p)

    def insert(self, path: Path) -> None:
        """Add ``path`` (and so every path it ends below)."""
        if not path:
            return
        node = self
        for pe in path[:-1]:
            child = node.children.get(pe)
            if child is None:
                child = node.children[pe] = Set()
            node = child
        node.members.add(path[-1])

    def copy(self) -> Set:
        """A deep copy."""
        out = Set()
        out.members = set(self.members)
        out.children = {pe: c.copy() for pe, c in self.children.items()}
        return out

    def empty(self) -> bool:
        """Whether the set holds no path."""
        return not self.members and all(c.empty() for c in self.children.values())

    def has(self, path: Path) -> bool:
        """Whether ``path`` is a member."""
        node: Set | None = self
        for pe in path[:-1]:
            node = node.children.get(pe) if node is not None else None
        return bool(path) and node is not None and path[-1] in node.members

    def with_prefix(self, pe: PathElement) -> Set:
        """The paths below step ``pe``, relative to it (an empty set if none)."""
        return self.children.get(pe) or Set()

    def union(self, other: Set) -> Set:
        """The paths in either set."""
        out = Set()
        out.members = self.members | other.members
        out.children = dict(self.children)
        for pe, c in other.children.items():
            mine = out.children.get(pe)
            out.children[pe] = c if mine is None else mine.union(c)
        return out

    def intersection(self, other: Set) -> Set:
        """The paths in both sets."""
        out = Set()
        out.members = self.members & other.members
        for pe, c in self.children.items():
            theirs = other.children.get(pe)
            if theirs is not None:
                both = c.intersection(theirs)
                if not both.empty():
                    out.children[pe] = both
        return out

    def difference(self, other: Set) -> Set:
        """The paths in this set and not in ``other``."""
        out = Set()
        out.members = self.members - other.members
        for pe, c in self.children.items():
            theirs = other.children.get(pe)
            if theirs is None:
                out.children[pe] = c
            else:
                rest = c.difference(theirs)
                if not rest.empty():
                    out.children[pe] = rest
        return out

    def recursive_difference(self, other: Set) -> Set:
        """``RecursiveDifference``: a member of ``other`` removes everything below it too."""
        out = Set()
        out.members = self.members - other.members
        for pe, c in self.children.items():
            if pe in other.members:
                continue
            theirs = other.children.get(pe)
            if theirs is None:
                out.children[pe] = c
            else:
                rest = c.recursive_difference(theirs)
                if not rest.empty():
                    out.children[pe] = rest
        return out

    def equals(self, other: Set) -> bool:
        """Whether both sets hold the same paths."""
        return sorted(self) == sorted(other)

    def __iter__(self) -> Iterator[Path]:
        """``Iterate``: the members in order, then each child's paths in order."""
        return self._iterate(())

    def _iterate(self, prefix: Path) -> Iterator[Path]:
        for pe in sorted(self.members):
            yield (*prefix, pe)
        for pe in sorted(self.children):
            yield from self.children[pe]._iterate((*prefix, pe))

    def __repr__(self) -> str:
        return "Set(" + ", ".join(path_string(p) for p in self) + ")"

    # -- FieldsV1 ---------------------------------------------------------------------------

    def to_fields_v1(self) -> dict[str, Any]:
        """``Set.ToJSON`` as a dict in the order Go writes it (``emitContentsV1``)."""
        return self._emit(include_self=False)

    def _emit(self, include_self: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if include_self and (self.members or self.children):
            out["."] = {}
        for pe in sorted(self.members | set(self.children)):
            child = self.children.get(pe)
            if child is None:
                out[pe.serialize()] = {}
            else:
                out[pe.serialize()] = child._emit(include_self=pe in self.members)
        return out

    @staticmethod
    def from_fields_v1(tree: Mapping[str, Any]) -> Set:
        """``Set.FromJSON`` (``readIterV1``): a key whose object is empty or holds ``"."`` is a
        member; one with other keys has children."""
        found, _ = _read(tree)
        return found if found is not None else Set()


def _read(tree: Any) -> tuple[Set | None, bool]:
    children: Set | None = None
    is_member = False
    if not isinstance(tree, Mapping):
        raise ValueError(f"FieldsV1: expected an object, got {tree!r}")
    for key, sub in tree.items():
        if key == ".":
            is_member = True
            continue
        pe = PathElement.deserialize(key)
        if pe is None:
            continue
        grandchildren, child_is_member = _read(sub)
        if child_is_member:
            children = children or Set()
            children.members.add(pe)
        if grandchildren is not None:
            children = children or Set()
            existing = children.children.get(pe)
            children.children[pe] = grandchildren if existing is None else existing.union(grandchildren)
    if children is None:
        is_member = True
    return children, is_member
