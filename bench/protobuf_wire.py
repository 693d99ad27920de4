"""Kubernetes' protobuf wire format read from Python, for the scale bench: how fast a Python
client could fill a cache from the format client-go's typed informers ask for.

client-go's typed clients ask for ``application/vnd.kubernetes.protobuf`` for built-in kinds
(``rest.Request.UseProtobufAsDefault``), and the apiserver writes it 2.5-3 times faster than
JSON. The scale bench's ``kgen-protobuf`` row reads a watch-list that way and turns every object
into the dict ``json.Marshal`` would have written for the same Go object, then into kgen's typed
model (``Model.from_dict``), checked equal to what the JSON path gives. The parsing is the
``protobuf`` package's, in C (upb); walking the parsed messages into dicts is Python, and that
walk, at ~0.4 µs a field, is what the row measures against msgspec's one native JSON pass.

Two tables make the dicts exact, both built for the envtest release by ``build_tables``:

- a ``FileDescriptorSet`` of k8s.io/api's and k8s.io/apimachinery's ``generated.proto`` files
  from the Go module cache, compiled by grpcio-tools' protoc;
- hack/oracle/protofacts' table of what the protobuf schema cannot say and encoding/json needs:
  each field's JSON name (or inlined), ``omitempty``/``omitzero``, and whether Go can hold a nil
  there. A zero scalar is left out where ``omitempty`` leaves it out; an absent nil-able field
  is a ``null`` where Go writes one; ``Time``, ``MicroTime``, ``Duration``, ``Quantity``,
  ``IntOrString``, ``RawExtension`` and ``FieldsV1`` are written as their ``MarshalJSON``
  writes them; ``[]byte`` as base64.

The envelope is apimachinery's: the magic ``k8s\\x00``, then a ``runtime.Unknown`` holding the
``apiVersion``/``kind`` and the object's bytes; a watch stream is frames of a 4-byte big-endian
length and a bare ``WatchEvent`` whose object is such an envelope.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec

CONTENT_TYPE = "application/vnd.kubernetes.protobuf"
"""The media type of Kubernetes' protobuf (runtime.ContentTypeProtobuf)."""
WATCH_CONTENT_TYPE = CONTENT_TYPE + ";stream=watch"
"""What the apiserver answers a protobuf watch with: length-prefixed frames."""
MAGIC = b"k8s\x00"
"""The four bytes every protobuf-encoded Kubernetes object starts with."""

_META = "k8s.io.apimachinery.pkg.apis.meta.v1."
_UNKNOWN = "k8s.io.apimachinery.pkg.runtime.Unknown"
_WATCH_EVENT = _META + "WatchEvent"


class ProtobufUnsupported(ValueError):
    """What came back cannot be read exactly as the JSON it stands for: ask for JSON instead."""


class _Tables:
    """The descriptors (one upb pool) and the Go facts, loaded once, on first use."""

    def __init__(self) -> None:
        from google.protobuf import descriptor_pb2, descriptor_pool, message_factory  # type: ignore[import-untyped, unused-ignore]

        folder = build_tables()
        files = descriptor_pb2.FileDescriptorSet.FromString((folder / "k8s.desc").read_bytes())
        self.pool = descriptor_pool.DescriptorPool()
        for proto in files.file:
            self.pool.Add(proto)
        facts = json.loads((folder / "facts.json").read_text())
        self.kinds: dict[str, str] = facts["kinds"]
        self.types: dict[str, dict[str, list[str]]] = facts["types"]
        self.slices = frozenset(facts["slices"])
        self._classes: dict[str, Any] = {}
        self._factory = message_factory
        self.converters: dict[str, Callable[[Any], Any]] = {}

    def message_class(self, full_name: str) -> Any:
        cls = self._classes.get(full_name)
        if cls is None:
            cls = self._factory.GetMessageClass(self.pool.FindMessageTypeByName(full_name))
            self._classes[full_name] = cls
        return cls


@functools.cache
def _tables() -> _Tables:
    return _Tables()


REPO = Path(__file__).resolve().parent.parent


def build_tables() -> Path:
    """The descriptor set and the Go facts for the envtest release, built once into
    ``~/.cache/kgen/bench/protobuf-<version>/`` (k8s.io/api from the Go module proxy)."""
    version = "v0." + _kubernetes_version().split(".", 1)[1]
    cache = Path(os.environ.get("KGEN_CACHE_DIR") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kgen")
    folder = cache / "bench" / f"protobuf-{version}"
    if (folder / "facts.json").exists():
        return folder
    oracle = REPO / "hack" / "oracle"
    roots = []
    for module in ("k8s.io/api", "k8s.io/apimachinery"):
        out = subprocess.run(["go", "mod", "download", "-json", f"{module}@{version}"], cwd=oracle, check=True,
                             capture_output=True, text=True).stdout
        roots.append((module, Path(json.loads(out)["Dir"])))
    staging = folder.with_name(folder.name + ".tmp")
    subprocess.run(["rm", "-rf", str(staging)], check=True)
    include = staging / "include"
    protos = []
    for module, root in roots:
        for proto in sorted(root.rglob("generated.proto")):
            relative = Path(module) / proto.relative_to(root)
            (include / relative).parent.mkdir(parents=True, exist_ok=True)
            (include / relative).write_bytes(proto.read_bytes())
            protos.append(str(relative))
    compiled = subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{include}", "--include_imports",
                               f"--descriptor_set_out={staging / 'k8s.desc'}", *protos], capture_output=True, text=True)
    if compiled.returncode != 0:
        raise RuntimeError(f"protoc could not compile k8s.io/api's generated.proto files: {compiled.stderr[-500:]}")
    binary = subprocess.run([str(oracle / "build.sh"), "protofacts"], check=True, capture_output=True,
                            text=True).stdout.strip()
    (staging / "facts.json").write_bytes(subprocess.run([binary], check=True, capture_output=True).stdout)
    subprocess.run(["rm", "-rf", str(include), str(folder)], check=True)
    staging.rename(folder)
    return folder


def _kubernetes_version() -> str:
    for line in (REPO / "hack" / "envtest" / "versions.env").read_text().splitlines():
        if line.startswith("KUBERNETES_VERSION="):
            return line.split("=", 1)[1].strip()
    raise RuntimeError("hack/envtest/versions.env names no KUBERNETES_VERSION")


# --- the JSON forms of apimachinery's special types (their MarshalJSON) ----------------------


def _time(msg: Any) -> str | None:
    if not msg.ListFields():
        return None  # metav1.Time's zero value: Marshal writes no bytes, JSON writes null
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(msg.seconds))


def _micro_time(msg: Any) -> str | None:
    if not msg.ListFields():
        return None
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(msg.seconds))
    return f"{stamp}.{msg.nanos // 1000:06d}Z"


def go_duration(nanoseconds: int) -> str:
    """Go's ``time.Duration.String``: ``"1h2m3.5s"``, ``"1.5ms"``, ``"0s"``."""
    if nanoseconds == 0:
        return "0s"
    sign, n = ("-", -nanoseconds) if nanoseconds < 0 else ("", nanoseconds)
    if n < 1_000_000_000:
        for unit, scale in (("ms", 1_000_000), ("µs", 1_000), ("ns", 1)):
            if n >= scale:
                return sign + _fraction(n, scale) + unit
    hours, rest = divmod(n, 3_600_000_000_000)
    minutes, rest = divmod(rest, 60_000_000_000)
    out = _fraction(rest, 1_000_000_000) + "s"
    if hours or minutes:
        out = f"{minutes}m{out}"
    if hours:
        out = f"{hours}h{out}"
    return sign + out


def _fraction(value: int, scale: int) -> str:
    whole, frac = divmod(value, scale)
    if not frac:
        return str(whole)
    digits = len(str(scale)) - 1
    return f"{whole}.{frac:0{digits}d}".rstrip("0")


def _duration(msg: Any) -> str:
    return go_duration(msg.duration)


def _quantity(msg: Any) -> str:
    return msg.string or "0"


def _int_or_string(msg: Any) -> Any:
    return msg.strVal if msg.type == 1 else msg.intVal


def _raw_json(raw: bytes) -> Any:
    if raw.startswith(MAGIC):
        raise ProtobufUnsupported("an embedded object is itself protobuf")
    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError:
        raise ProtobufUnsupported("an embedded object is not JSON") from None


def _raw_extension(msg: Any) -> Any:
    return _raw_json(msg.raw) if msg.HasField("raw") else None


def _fields_v1(msg: Any) -> Any:
    return _raw_json(msg.Raw) if msg.HasField("Raw") else None


_SPECIAL: dict[str, Callable[[Any], Any]] = {
    _META + "Time": _time,
    _META + "MicroTime": _micro_time,
    _META + "Duration": _duration,
    _META + "FieldsV1": _fields_v1,
    "k8s.io.apimachinery.pkg.api.resource.Quantity": _quantity,
    "k8s.io.apimachinery.pkg.util.intstr.IntOrString": _int_or_string,
    "k8s.io.apimachinery.pkg.runtime.RawExtension": _raw_extension,
}


# --- messages into dicts ----------------------------------------------------------------------

# How a field's value becomes JSON; the loop in _converter dispatches on these.
_SCALAR, _BYTES, _MESSAGE, _INLINE, _LIST, _LIST_BYTES, _LIST_MESSAGE, _MAP, _MAP_BYTES, _MAP_MESSAGE = range(10)


def _converter(full_name: str) -> Callable[[Any], Any]:
    """The function turning a message of ``full_name`` into its JSON value (made once)."""
    tables = _tables()
    done = tables.converters.get(full_name)
    if done is not None:
        return done
    special = _SPECIAL.get(full_name)
    if special is not None:
        tables.converters[full_name] = special
        return special
    descriptor = tables.pool.FindMessageTypeByName(full_name)
    if full_name in tables.slices:  # a named Go slice, wrapped as {repeated items = 1}
        items = descriptor.fields_by_name["items"]
        sub = _converter(items.message_type.full_name) if items.message_type is not None else None

        def as_list(msg: Any) -> Any:
            values = msg.items
            return [sub(v) for v in values] if sub is not None else list(values)

        tables.converters[full_name] = as_list
        return as_list

    plan: dict[Any, tuple[str, int, bool, Any]] = {}
    absent: list[tuple[str, Any]] = []  # what Go writes for a field the message leaves out
    facts = tables.types.get(full_name, {})

    def convert(msg: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for fd, value in msg.ListFields():
            entry = plan.get(fd)
            if entry is None:
                raise ProtobufUnsupported(f"{full_name}: field {fd.number} ({fd.name}) is not in the Go facts")
            name, how, drop_zero, sub = entry
            if how == _SCALAR:
                if drop_zero and not value:
                    continue
                out[name] = value
            elif how == _MESSAGE:
                converted = sub(value)
                if drop_zero and converted is None:
                    continue
                out[name] = converted
            elif how == _LIST_MESSAGE:
                out[name] = [sub(v) for v in value]
            elif how == _LIST:
                out[name] = list(value)
            elif how == _MAP:
                out[name] = dict(value)
            elif how == _INLINE:
                out.update(sub(value))
            elif how == _MAP_MESSAGE:
                out[name] = {k: sub(v) for k, v in value.items()}
            elif how == _BYTES:
                if drop_zero and not value:
                    continue
                out[name] = base64.b64encode(value).decode("ascii")
            elif how == _LIST_BYTES:
                out[name] = [base64.b64encode(v).decode("ascii") for v in value]
            else:  # _MAP_BYTES
                out[name] = {k: base64.b64encode(v).decode("ascii") for k, v in value.items()}
        for name, default in absent:
            if name not in out:
                out[name] = default() if callable(default) else default
        return out

    tables.converters[full_name] = convert  # before the fields: types may nest themselves
    for fd in descriptor.fields:
        fact = facts.get(str(fd.number))
        json_name, flags = (fact[0], fact[1]) if fact is not None else (fd.name, "o")
        plan[fd] = _field_plan(fd, json_name, flags)
        default = _absent_default(fd, json_name, flags)
        if default is not _NO_DEFAULT:
            absent.append((json_name, default))
    return convert


_NO_DEFAULT = object()


def _field_plan(fd: Any, json_name: str, flags: str) -> tuple[str, int, bool, Any]:
    from google.protobuf.descriptor import FieldDescriptor  # type: ignore[import-untyped, unused-ignore]

    is_bytes = fd.type == FieldDescriptor.TYPE_BYTES
    message = fd.message_type
    if message is not None and message.GetOptions().map_entry:
        value = message.fields_by_name["value"]
        if value.message_type is not None:
            return json_name, _MAP_MESSAGE, False, _converter(value.message_type.full_name)
        return json_name, (_MAP_BYTES if value.type == FieldDescriptor.TYPE_BYTES else _MAP), False, None
    repeated = fd.is_repeated
    if message is not None:
        sub = _converter(message.full_name)
        if repeated:
            return json_name, _LIST_MESSAGE, False, sub
        if not json_name:
            return json_name, _INLINE, False, sub
        return json_name, _MESSAGE, "z" in flags, sub
    if repeated:
        return json_name, (_LIST_BYTES if is_bytes else _LIST), False, None
    # a zero scalar is left out by omitempty unless it is a pointer (a set *int32 of 0 is written)
    drop_zero = "o" in flags and "n" not in flags
    return json_name, (_BYTES if is_bytes else _SCALAR), drop_zero, None


def _absent_default(fd: Any, json_name: str, flags: str) -> Any:
    """What json.Marshal writes for a Go field the protobuf left out: nothing (omitempty on a
    nil-able or zero value), ``null`` (a nil without omitempty), or the zero value."""
    from google.protobuf.descriptor import FieldDescriptor

    if "n" in flags or fd.is_repeated:
        return _NO_DEFAULT if "o" in flags else None
    if not json_name:
        return _NO_DEFAULT  # an inlined struct: gogo always writes it; nothing to add
    if fd.message_type is not None:
        if "z" in flags:
            return _NO_DEFAULT
        empty = _tables().message_class(fd.message_type.full_name)()
        sub = _converter(fd.message_type.full_name)
        return lambda: sub(empty)
    if "o" in flags:
        return _NO_DEFAULT
    if fd.type == FieldDescriptor.TYPE_BYTES:
        return None  # a nil []byte
    return fd.default_value


# --- envelopes and frames ---------------------------------------------------------------------


def _unwrap(data: bytes) -> Any:
    if not data.startswith(MAGIC):
        raise ProtobufUnsupported("not a Kubernetes protobuf object (no k8s\\x00 prefix)")
    unknown = _tables().message_class(_UNKNOWN).FromString(data[len(MAGIC):])
    if unknown.contentEncoding:
        raise ProtobufUnsupported(f"content encoding {unknown.contentEncoding!r}")
    return unknown


def _parse(cls: Any, raw: bytes, what: str) -> Any:
    """``raw`` parsed as ``cls``; ``ProtobufUnsupported`` if it holds fields the descriptors do
    not have (upb keeps them aside; dropping them and weighing the rest finds them in C)."""
    try:
        msg = cls.FromString(raw)
    except Exception as e:  # noqa: BLE001 - upb's DecodeError
        raise ProtobufUnsupported(f"{what}: {e}") from None
    msg.DiscardUnknownFields()
    if msg.ByteSize() != len(raw):
        raise ProtobufUnsupported(f"{what}: the server sent fields this release's descriptors do not have")
    return msg


def decode(data: bytes, api_version: str = "", kind: str = "") -> dict[str, Any]:
    """One protobuf-encoded object as the dict its JSON would be, ``apiVersion`` and ``kind``
    included, as the apiserver writes them. ``data`` is an envelope (a ``get``, a list, a watch
    event's object), or a bare message of the ``api_version`` and ``kind`` given."""
    if data.startswith(MAGIC):
        unknown = _unwrap(data)
        api_version, kind, data = unknown.typeMeta.apiVersion, unknown.typeMeta.kind, unknown.raw
    tables = _tables()
    full_name = tables.kinds.get(f"{api_version}/{kind}")
    if full_name is None:
        raise ProtobufUnsupported(f"{api_version}/{kind} is not in the protobuf tables")
    msg = _parse(tables.message_class(full_name), data, f"{api_version}/{kind}")
    out: dict[str, Any] = {"kind": kind, "apiVersion": api_version}
    out.update(_converter(full_name)(msg))
    return out


class WatchFrames:
    """A protobuf watch stream (length-prefixed frames), fed in chunks cut anywhere: yields
    ``(event type, object bytes)``. A frame is a bare ``WatchEvent`` (the stream serializer
    writes no envelope); its object is an envelope, for ``decode``."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, chunk: bytes) -> Iterator[tuple[str, bytes]]:
        self._buffer += chunk
        return self._frames()

    def _frames(self) -> Iterator[tuple[str, bytes]]:
        buffer, start = self._buffer, 0
        event_class = _tables().message_class(_WATCH_EVENT)
        try:
            while len(buffer) - start >= 4:
                size = int.from_bytes(buffer[start:start + 4], "big")
                end = start + 4 + size
                if len(buffer) < end:
                    break
                event = event_class.FromString(bytes(buffer[start + 4:end]))
                start = end
                yield event.type, event.object.raw
        finally:
            del buffer[:start]

    def finish(self) -> None:
        """Raises if the stream ended inside a frame."""
        if self._buffer:
            raise ProtobufUnsupported(f"the watch stream ended {len(self._buffer)} bytes into a frame")
