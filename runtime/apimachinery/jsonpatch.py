"""JSON patch exactly as the apiserver applies it, deviations included (merge patch: ``mergepatch``).

k8s.io/apiserver v0.37.2 (``pkg/endpoints/handlers/patch.go``, ``jsonPatcher.applyJSPatch``)
applies ``application/json-patch+json`` with ``jsonpatch.DecodePatch`` + ``Patch.Apply`` from
``gopkg.in/evanphx/json-patch.v4`` v4.13.0 (the version its go.mod requires), at most 10000
operations, ``AccumulatedCopySizeLimit`` = ``JSONPatchMaxCopyBytes`` (3 MiB, ``server/config.go``).
That library is not RFC 6902, and a fake that follows the RFC answers differently from the server.
What it does instead (function names from json-patch.v4's ``patch.go``), and so this module:
- ``replace`` of a missing object member adds it (``Patch.replace``: ``partialDoc.get`` never fails).
- ``copy`` and ``move`` from a missing member read ``null`` (``partialDoc.get``); ``copy`` then adds
  ``null``, ``move`` fails at the remove. ``test`` of a missing member equals ``null`` and an
  absent ``value``.
- A path that does not start with ``/`` loses its first token (``findObject`` splits on ``/`` and
  drops element 0): ``a/b`` means ``/b``. A token is an index if ``strconv.Atoi`` takes it:
  ``01``, ``+1`` and negative indexes counted from the end (``SupportNegativeIndices``) work.
- ``move`` removes before it resolves ``path``, so moving into one's own child fails as a missing
  destination; moving onto itself is fine.
- ``add``/``replace`` without ``value`` write ``null``; a ``replace`` of the root needs an object
  or array value (absent ``value``: the library dereferences nil, the apiserver answers 500).
- ``test`` compares scalars by their JSON text (``lazyNode.equal``: ``bytes.Equal`` on compacted
  raw JSON): ``1`` is not ``true`` and not ``1.0``. Inputs reach this module decoded, so two
  spellings of one value (``1e0``/``1.0``, ``"\\u0041"``/``"A"``) compare equal here and not there.
- A ``null`` written by the patch and a ``null`` read from the document differ (a nil
  ``*json.RawMessage`` inside a node vs a nil node): ``test`` without ``value`` passes on the second
  only; a copied ``null`` becomes the text ``null``, which then ``test``-equals ``{}`` and, as a
  path's parent, is an empty object that panics on write (assignment to a nil Go map).
- ``test`` against an array holding ``null`` items dereferences nil: 500. When an object compare
  could both panic and fail, Go's random map order decides; here key order decides.
- Operations without an ``op`` fail as ``Unexpected kind: unknown``; a ``null`` patch is no operations.
- The 3 MiB copy budget counts msgspec's encoding of each copied value (Go counts its own
  marshalling, which escapes ``<>&``); the two differ only for copies that near the limit.
Errors carry the library's message text, so the fake's 422 bodies read like the server's.

Inputs are never modified: ``json_patch`` works on a private copy and returns a new value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

__all__ = ["MAX_COPY_BYTES", "MAX_OPERATIONS", "PatchBadRequest", "PatchError", "PatchInternal", "PatchPanic",
           "PatchTooLarge", "json_equal", "json_patch"]

MAX_OPERATIONS = 10000  # apiserver handlers/patch.go maxJSONPatchOperations
MAX_COPY_BYTES = 3 * 1024 * 1024  # apiserver server/config.go JSONPatchMaxCopyBytes default


class PatchError(ValueError):
    """A patch that cannot be applied (bad operation, missing path, failed ``test``); the
    apiserver answers 422 unless a subclass below says otherwise. Shared by every patch format
    (``kgen.runtime.apimachinery.patch`` re-exports it); it lives here, in the lowest patch
    module, so that module can import this one without an import cycle."""


class PatchBadRequest(PatchError):
    """The patch body is not a patch at all (the apiserver answers 400 BadRequest)."""


class PatchTooLarge(PatchError):
    """More than ``MAX_OPERATIONS`` operations (the apiserver answers 413)."""


class PatchPanic(PatchError):
    """The apiserver's library panics on this input (its panic recovery answers 500)."""


class PatchInternal(PatchError):
    """A merge-patch error the apiserver returns unwrapped (it answers 500)."""


def json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values as JSON sees them: ``1``, ``1.0`` and ``true`` are three values
    (Python's ``==`` makes them one)."""
    return bool(msgspec.json.encode(a, order="sorted") == msgspec.json.encode(b, order="sorted"))


def _fresh(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


# -- json-patch.v4's lazy nodes --------------------------------------------------------------
# A node is raw JSON until an operation looks inside it; what a node *was* (raw text, raw nil,
# parsed object, parsed array) changes answers, so the states are kept as the library keeps them.
# In containers, ``None`` is Go's nil node: what a JSON ``null`` decodes to.

_RAW, _DOC, _ARY = 0, 1, 2
_NO_RAW = object()  # a nil *json.RawMessage: a patch's ``"value": null``


class _Panic(Exception):
    """Go would panic here (nil pointer dereference, assignment to a nil map)."""


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
        raise _Panic("nil pointer dereference")
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


class _GoError(Exception):
    """An error value of the Go library; ``str`` is its text."""


_GO_ESCAPES = {'"': '\\"', "\\": "\\\\", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
               "\t": "\\t", "\v": "\\v"}


def _go_quote(s: str) -> str:
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
        raise _GoError(f"strconv.Atoi: parsing {_go_quote(token)}: invalid syntax")
    value = int(token)
    if not -(2**63) <= value < 2**63:
        raise _GoError(f"strconv.Atoi: parsing {_go_quote(token)}: value out of range")
    return value


def _invalid_index(idx: int) -> _GoError:
    return _GoError(f"Unable to access invalid index: {idx}: invalid index referenced")


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
        except _GoError as e:
            raise _GoError(f"value was not a proper array index: '{key}': {e}") from None
        size = len(con) + 1
        if idx >= size or idx < -size:
            raise _invalid_index(idx)
        con.insert(idx + size if idx < 0 else idx, value)
    elif con is None:
        raise _Panic("assignment to entry in nil map")
    else:
        con[key] = value


def _set(con: Any, key: str, value: _Node | None) -> None:
    if isinstance(con, list):
        con[_array_index(key, len(con))] = value
    elif con is None:
        raise _Panic("assignment to entry in nil map")
    else:
        con[key] = value


def _remove(con: Any, key: str) -> None:
    if isinstance(con, list):
        del con[_array_index(key, len(con))]
    elif con is None or key not in con:
        raise _GoError(f"Unable to remove nonexistent key: {key}: missing value")
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
        except _GoError:
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
            raise _GoError(f"{missing}: missing value")
        if not isinstance(value, str):
            raise _GoError(f"json: cannot unmarshal {_json_kind(value)} into Go value of type string")
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


def _json_kind(value: Any) -> str:
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
        try:
            path = op.path()
        except _GoError:
            raise _GoError("add operation failed to decode path: missing value") from None
        found = _find(self.root, path)
        if found is None:
            raise _GoError(f'add operation does not apply: doc is missing path: "{path}": missing value')
        try:
            _add(*found, op.value())
        except _GoError as e:
            raise _GoError(f"error in add for path: '{path}': {e}") from None

    def remove(self, op: _Op) -> None:
        try:
            path = op.path()
        except _GoError:
            raise _GoError("remove operation failed to decode path: missing value") from None
        found = _find(self.root, path)
        if found is None:
            raise _GoError(f'remove operation does not apply: doc is missing path: "{path}": missing value')
        try:
            _remove(*found)
        except _GoError as e:
            raise _GoError(f"error in remove for path: '{path}': {e}") from None

    def replace(self, op: _Op) -> None:
        path = _decoded(op.path, "replace operation failed to decode path")
        if path == "":
            value = op.value()
            if value is None:
                raise _Panic("nil pointer dereference")
            if value.which == _RAW and not value.try_doc() and not value.try_ary():
                raise _GoError("replace operation value must be object or array: %!w(<nil>)")
            self.root = value.ary if value.which == _ARY else value.doc
            return
        found = _find(self.root, path)
        if found is None:
            raise _GoError(f"replace operation does not apply: doc is missing path: {path}: missing value")
        try:
            _get(*found)
        except _GoError:
            raise _GoError(f"replace operation does not apply: doc is missing key: {path}: missing value") from None
        _set(*found, op.value())  # cannot fail once the get succeeded

    def move(self, op: _Op) -> None:
        source = _decoded(op.source, "move operation failed to decode from")
        found = _find(self.root, source)
        if found is None:
            raise _GoError(f"move operation does not apply: doc is missing from path: {source}: missing value")
        con, key = found
        try:
            value = _get(con, key)
            _remove(con, key)
        except _GoError as e:
            raise _GoError(f"error in move for path: '{key}': {e}") from None
        path = _decoded(op.path, "move operation failed to decode path")
        found = _find(self.root, path)
        if found is None:
            raise _GoError(f"move operation does not apply: doc is missing destination path: {path}: missing value")
        try:
            _add(*found, value)
        except _GoError as e:
            raise _GoError(f"error in move for path: '{path}': {e}") from None

    def test(self, op: _Op) -> None:
        path = _decoded(op.path, "test operation failed to decode path")
        if path == "":
            this = _Node(_NO_RAW)
            if isinstance(self.root, list):
                this.ary, this.which = self.root, _ARY
            else:
                this.doc, this.which = self.root, _DOC
            if not _equal(this, op.value()):
                raise _GoError(f"testing value {path} failed: test failed")
            return
        found = _find(self.root, path)
        if found is None:
            raise _GoError(f"test operation does not apply: is missing path: {path}: missing value")
        try:
            value = _get(*found)
        except _GoError as e:
            raise _GoError(f"error in test for path: '{path}': {e}") from None
        expected = op.value()
        if value is None:
            if expected is None or expected.raw is _NO_RAW:
                return
        elif expected is not None and _equal(value, expected):
            return
        raise _GoError(f"testing value {path} failed: test failed")

    def copy(self, op: _Op) -> None:
        source = _decoded(op.source, "copy operation failed to decode from")
        found = _find(self.root, source)
        if found is None:
            raise _GoError(f"copy operation does not apply: doc is missing from path: {source}: missing value")
        try:
            value = _get(*found)
        except _GoError as e:
            raise _GoError(f"error in copy for from: '{source}': {e}") from None
        try:
            path = op.path()
        except _GoError:
            raise _GoError("copy operation failed to decode path: missing value") from None
        found = _find(self.root, path)
        if found is None:
            raise _GoError(f"copy operation does not apply: doc is missing destination path: {path}: missing value")
        duplicate = None
        if value is not None:  # deepCopy: marshal, then a fresh raw node of that text
            plain = value.plain()
            self.copied += len(msgspec.json.encode(plain))
            duplicate = _Node(plain)
        if self.copied > MAX_COPY_BYTES:
            raise _GoError(f"Unable to complete the copy, the accumulated size increase of copy is {self.copied}, "
                           f"exceeding the limit {MAX_COPY_BYTES}")
        try:
            _add(*found, duplicate)
        except _GoError as e:
            raise _GoError(f"error while adding value during copy: {e}") from None


def _decoded(read: Callable[[], str], context: str) -> str:
    try:
        return read()
    except _GoError as e:
        raise _GoError(f"{context}: {e}") from None


def json_patch(doc: Any, operations: Any) -> Any:
    """``doc`` with the JSON patch ``operations`` applied as the apiserver applies them (see the
    module docstring), all or nothing. Raises ``PatchBadRequest`` (400), ``PatchTooLarge`` (413),
    ``PatchPanic`` (500) or ``PatchError`` (422, the library's message)."""
    if operations is not None and not isinstance(operations, list):
        raise PatchBadRequest(f"json: cannot unmarshal {_json_kind(operations)} into Go value of type jsonpatch.Patch")
    ops = [] if operations is None else _fresh(operations)
    for op in ops:
        if op is not None and not isinstance(op, dict):
            raise PatchBadRequest(
                f"json: cannot unmarshal {_json_kind(op)} into Go value of type jsonpatch.Operation")
    if len(ops) > MAX_OPERATIONS:
        raise PatchTooLarge(f"The allowed maximum operations in a JSON patch is {MAX_OPERATIONS}, got {len(ops)}")
    if doc is not None and not isinstance(doc, (dict, list)):
        raise PatchError(f"json: cannot unmarshal {_json_kind(doc)} into Go value of type jsonpatch.partialDoc")
    fresh = _fresh(doc)
    state = _Apply([_node(item) for item in fresh] if isinstance(fresh, list) else _members(fresh))
    try:
        for raw in ops:
            op = _Op(raw)
            step = {"add": state.add, "remove": state.remove, "replace": state.replace, "move": state.move,
                    "test": state.test, "copy": state.copy}.get(op.kind())
            if step is None:
                raise _GoError(f"Unexpected kind: {op.kind()}")
            step(op)
    except _GoError as e:
        raise PatchError(str(e)) from None
    except _Panic as e:
        raise PatchPanic(f"runtime error: {e}") from None
    root = state.root
    if isinstance(root, list):
        return _fresh([_plain(item) for item in root])  # fresh: copies share their raw values
    return None if root is None else _fresh({k: _plain(root[k]) for k in sorted(root)})
