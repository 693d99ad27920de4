"""``Patch.Apply`` of gopkg.in/evanphx/json-patch.v4 v4.13.0, state for state: the JSON patch
engine of k8s.io/apiserver v0.37.2. ``kgen.runtime.apimachinery.patch.jsonpatch`` is the entry point
(decoding, limits, the apiserver's answers) and lists what this engine does that RFC 6902 does not.

The library keeps each value as raw JSON until an operation looks inside it (``lazyNode``), and
what a value *was* changes answers: a ``null`` from the document is a nil node, a ``null`` from a
patch's ``value`` a node with nil raw text, a copied one the raw text ``null`` (an empty object to
``test``, a nil map that panics on write). So this module keeps the same states rather than plain
Python values, and reproduces the library's error texts word for word.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

__all__ = ["MAX_COPY_BYTES", "GoError", "GoPanic", "apply", "go_quote", "json_kind"]

MAX_COPY_BYTES = 3 * 1024 * 1024
"""The most bytes a JSON patch's copy operations may copy (the apiserver's JSONPatchMaxCopyBytes
default)."""


# -- json-patch.v4's lazy nodes --------------------------------------------------------------
# A node is raw JSON until an operation looks inside it; what a node *was* (raw text, raw nil,
# parsed object, parsed array) changes answers, so the states are kept as the library keeps them.
# In containers, ``None`` is Go's nil node: what a JSON ``null`` decodes to.

_RAW, _DOC, _ARY = 0, 1, 2
_NO_RAW = object()  # a nil *json.RawMessage: a patch's ``"value": null``


class GoPanic(Exception):
    """Go would panic here (nil pointer dereference, assignment to a nil map); the apiserver then
    drops the connection without a response."""


class _Node:
    __slots__ = ("raw", "doc", "ary", "which")

    def __init__(self, raw: Any) -> None:
        self.raw = raw  # a decoded JSON value standing for the raw text, or _NO_RAW
        self.doc: dict[str, _Node | None] | None = None
        self.ary: list[_Node | None] | None = None
        self.which = _RAW

    def try_doc(self) -> bool:
        if self.raw is _NO_RAW or not (self.raw is None or isinstance(self.raw, dict)):
            return False
        self.doc = _members(self.raw)  # the text ``null`` decodes to a nil map
        self.which = _DOC
        return True

    def try_ary(self) -> bool:
        if self.raw is _NO_RAW or not (self.raw is None or isinstance(self.raw, list)):
            return False
        self.ary = None if self.raw is None else [_node(item) for item in self.raw]
        self.which = _ARY
        return True

    def plain(self) -> Any:
        if self.which == _RAW:
            return None if self.raw is _NO_RAW else self.raw
        if self.which == _DOC:
            return None if self.doc is None else {k: _plain(self.doc[k]) for k in sorted(self.doc)}
        return None if self.ary is None else [_plain(item) for item in self.ary]


def _node(value: Any) -> _Node | None:
    return None if value is None else _Node(value)


def _members(value: dict[str, Any] | None) -> dict[str, _Node | None] | None:
    return None if value is None else {k: _node(v) for k, v in value.items()}


def _plain(node: _Node | None) -> Any:
    return None if node is None else node.plain()


def _text(node: _Node) -> bytes | None:
    return None if node.raw is _NO_RAW else msgspec.json.encode(node.raw)


def _equal(n: _Node | None, o: _Node | None) -> bool:
    """``lazyNode.equal``: objects by members, arrays by items, anything else by JSON text."""
    if n is None or o is None:
        raise GoPanic("nil pointer dereference")
    if n.which == _RAW and not n.try_doc() and not n.try_ary():
        return o.which == _RAW and _text(n) == _text(o)
    if n.which == _DOC:
        if o.which == _RAW and not o.try_doc():
            return False
        if o.which != _DOC:
            return False
        mine, theirs = n.doc or {}, o.doc or {}
        if len(mine) != len(theirs):
            return False
        for key, value in mine.items():
            if key not in theirs or (value is None) != (theirs[key] is None):
                return False
            if value is not None and not _equal(value, theirs[key]):
                return False
        return True
    if o.which != _ARY and not o.try_ary():
        return False
    mine_items, their_items = n.ary or [], o.ary or []
    if len(mine_items) != len(their_items):
        return False
    return all(_equal(a, b) for a, b in zip(mine_items, their_items))


# -- containers: a parsed object (dict, None for a nil map) or a parsed array (list) -----------


class GoError(Exception):
    """An error the library returns; ``str`` is its text (the apiserver answers 422)."""


_GO_ESCAPES = {'"': '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
               "\t": "\\t", "\v": "\\v"}


def go_quote(s: str) -> str:
    """``strconv.Quote``, as ``strconv.Atoi``'s errors print the token."""
    def one(ch: str) -> str:
        code = ord(ch)
        if ch in _GO_ESCAPES or ch.isprintable():
            return _GO_ESCAPES.get(ch, ch)
        return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
    return '"' + "".join(map(one, s)) + '"'


def _atoi(token: str) -> int:
    """``strconv.Atoi``: one optional sign, ASCII decimal digits, int64 range."""
    digits = token[1:] if token[:1] in ("+", "-") else token
    if not (digits.isascii() and digits.isdigit()):
        raise GoError(f"strconv.Atoi: parsing {go_quote(token)}: invalid syntax")
    value = int(token)
    if not -(2**63) <= value < 2**63:
        raise GoError(f"strconv.Atoi: parsing {go_quote(token)}: value out of range")
    return value


def _invalid_index(idx: int) -> GoError:
    return GoError(f"Unable to access invalid index: {idx}: invalid index referenced")


def _array_index(key: str, size: int) -> int:
    idx = _atoi(key)
    if idx >= size or idx < -size:
        raise _invalid_index(idx)
    return idx + size if idx < 0 else idx


def _get(con: Any, key: str) -> _Node | None:
    if isinstance(con, list):
        item: _Node | None = con[_array_index(key, len(con))]
        return item
    return None if con is None else dict.get(con, key)


def _add(con: Any, key: str, value: _Node | None) -> None:
    if isinstance(con, list):
        if key == "-":
            con.append(value)
            return
        try:
            idx = _atoi(key)
        except GoError as e:
            raise GoError(f"value was not a proper array index: '{key}': {e}") from None
        size = len(con) + 1
        if idx >= size or idx < -size:
            raise _invalid_index(idx)
        con.insert(idx + size if idx < 0 else idx, value)
    elif con is None:
        raise GoPanic("assignment to entry in nil map")
    else:
        con[key] = value


def _set(con: Any, key: str, value: _Node | None) -> None:
    if isinstance(con, list):
        con[_array_index(key, len(con))] = value
    elif con is None:
        raise GoPanic("assignment to entry in nil map")
    else:
        con[key] = value


def _remove(con: Any, key: str) -> None:
    if isinstance(con, list):
        del con[_array_index(key, len(con))]
    elif con is None or key not in con:
        raise GoError(f"Unable to remove nonexistent key: {key}: missing value")
    else:
        del con[key]


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _find(root: Any, path: str) -> tuple[Any, str] | None:
    """``findObject``: the container holding the pointer's last token, and that token."""
    split = path.split("/")
    if len(split) < 2:
        return None
    con = root
    for part in split[1:-1]:
        try:
            nxt = _get(con, _unescape(part))
        except GoError:
            return None
        if nxt is None or nxt.raw is _NO_RAW:
            return None
        if isinstance(nxt.raw, list):
            if nxt.which != _ARY and not nxt.try_ary():
                return None
            con = nxt.ary
        else:
            if nxt.which != _DOC and not nxt.try_doc():
                return None
            con = nxt.doc
    return con, _unescape(split[-1])


# -- the operations -----------------------------------------------------------------------------


class _Op:
    """One operation object (``Operation``: member name → raw JSON, ``None`` for ``null``)."""

    def __init__(self, members: dict[str, Any] | None) -> None:
        self.members = members or {}

    def kind(self) -> str:
        op = self.members.get("op")
        return op if isinstance(op, str) else "unknown"

    def _string(self, name: str, missing: str) -> str:
        value = self.members.get(name)
        if value is None:
            raise GoError(f"{missing}: missing value")
        if not isinstance(value, str):
            raise GoError(f"json: cannot unmarshal {json_kind(value)} into Go value of type string")
        return value

    def path(self) -> str:
        return self._string("path", "operation missing path field")

    def source(self) -> str:
        return self._string("from", "operation, missing from field")

    def value(self) -> _Node | None:
        if "value" not in self.members:
            return None
        value = self.members["value"]
        return _Node(_NO_RAW if value is None else value)


def json_kind(value: Any) -> str:
    """The kind of a JSON value as json-patch's errors name it: "bool", "number", "string", "array",
    "object"."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    kinds: dict[type, str] = {str: "string", list: "array", dict: "object"}
    return kinds.get(type(value), "value")


class _Apply:
    """``Patch.ApplyIndent``'s loop over one document; ``root`` is the container being patched."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.copied = 0

    def add(self, op: _Op) -> None:
        self._in_place("add", op, lambda con, key: _add(con, key, op.value()))

    def remove(self, op: _Op) -> None:
        self._in_place("remove", op, _remove)

    def _in_place(self, verb: str, op: _Op, change: Callable[[Any, str], None]) -> None:
        """``add`` and ``remove``: the same path checks and error wording, one change apart."""
        try:
            path = op.path()
        except GoError:
            raise GoError(f"{verb} operation failed to decode path: missing value") from None
        found = _find(self.root, path)
        if found is None:
            raise GoError(f'{verb} operation does not apply: doc is missing path: "{path}": missing value')
        try:
            change(*found)
        except GoError as e:
            raise GoError(f"error in {verb} for path: '{path}': {e}") from None

    def replace(self, op: _Op) -> None:
        path = _decoded(op.path, "replace operation failed to decode path")
        if path == "":
            value = op.value()
            if value is None:
                raise GoPanic("nil pointer dereference")
            if value.which == _RAW and not value.try_doc() and not value.try_ary():
                raise GoError("replace operation value must be object or array: %!w(<nil>)")
            self.root = value.ary if value.which == _ARY else value.doc
            return
        found = _find(self.root, path)
        if found is None:
            raise GoError(f"replace operation does not apply: doc is missing path: {path}: missing value")
        try:
            _get(*found)
        except GoError:
            raise GoError(f"replace operation does not apply: doc is missing key: {path}: missing value") from None
        _set(*found, op.value())  # cannot fail once the get succeeded

    def move(self, op: _Op) -> None:
        source = _decoded(op.source, "move operation failed to decode from")
        found = _find(self.root, source)
        if found is None:
            raise GoError(f"move operation does not apply: doc is missing from path: {source}: missing value")
        con, key = found
        try:
            value = _get(con, key)
            _remove(con, key)
        except GoError as e:
            raise GoError(f"error in move for path: '{key}': {e}") from None
        path = _decoded(op.path, "move operation failed to decode path")
        found = _find(self.root, path)
        if found is None:
            raise GoError(f"move operation does not apply: doc is missing destination path: {path}: missing value")
        try:
            _add(*found, value)
        except GoError as e:
            raise GoError(f"error in move for path: '{path}': {e}") from None

    def test(self, op: _Op) -> None:
        path = _decoded(op.path, "test operation failed to decode path")
        if path == "":
            this = _Node(_NO_RAW)
            if isinstance(self.root, list):
                this.ary, this.which = self.root, _ARY
            else:
                this.doc, this.which = self.root, _DOC
            if not _equal(this, op.value()):
                raise GoError(f"testing value {path} failed: test failed")
            return
        found = _find(self.root, path)
        if found is None:
            raise GoError(f"test operation does not apply: is missing path: {path}: missing value")
        try:
            value = _get(*found)
        except GoError as e:
            raise GoError(f"error in test for path: '{path}': {e}") from None
        expected = op.value()
        if value is None:
            if expected is None or expected.raw is _NO_RAW:
                return
        elif expected is not None and _equal(value, expected):
            return
        raise GoError(f"testing value {path} failed: test failed")

    def copy(self, op: _Op) -> None:
        source = _decoded(op.source, "copy operation failed to decode from")
        found = _find(self.root, source)
        if found is None:
            raise GoError(f"copy operation does not apply: doc is missing from path: {source}: missing value")
        try:
            value = _get(*found)
        except GoError as e:
            raise GoError(f"error in copy for from: '{source}': {e}") from None
        try:
            path = op.path()
        except GoError:
            raise GoError("copy operation failed to decode path: missing value") from None
        found = _find(self.root, path)
        if found is None:
            raise GoError(f"copy operation does not apply: doc is missing destination path: {path}: missing value")
        duplicate = None
        if value is not None:  # deepCopy: marshal, then a fresh raw node of that text
            plain = value.plain()
            self.copied += len(msgspec.json.encode(plain))
            duplicate = _Node(plain)
        if self.copied > MAX_COPY_BYTES:
            raise GoError(f"Unable to complete the copy, the accumulated size increase of copy is {self.copied}, "
                           f"exceeding the limit {MAX_COPY_BYTES}")
        try:
            _add(*found, duplicate)
        except GoError as e:
            raise GoError(f"error while adding value during copy: {e}") from None


def _decoded(read: Callable[[], str], context: str) -> str:
    try:
        return read()
    except GoError as e:
        raise GoError(f"{context}: {e}") from None


def apply(doc: Any, operations: list[Any]) -> Any:
    """``Patch.Apply``: ``doc`` (a fresh value this function may keep) with ``operations`` (decoded
    operation objects, or ``None`` for a JSON ``null`` item) applied. Raises ``GoError`` or ``GoPanic``."""
    if doc is not None and not isinstance(doc, (dict, list)):
        raise GoError(f"json: cannot unmarshal {json_kind(doc)} into Go value of type jsonpatch.partialDoc")
    state = _Apply([_node(item) for item in doc] if isinstance(doc, list) else _members(doc))
    for raw in operations:
        op = _Op(raw)
        step = {"add": state.add, "remove": state.remove, "replace": state.replace, "move": state.move,
                "test": state.test, "copy": state.copy}.get(op.kind())
        if step is None:
            raise GoError(f"Unexpected kind: {op.kind()}")
        step(op)
    root = state.root
    if isinstance(root, list):
        return [_plain(item) for item in root]
    return None if root is None else {k: _plain(root[k]) for k in sorted(root)}
