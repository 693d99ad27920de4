"""Decode, encode and retained memory of one client, in a fresh interpreter.

``python -m bench.codec PEER FIXTURE DECODE_REPEATS ENCODE_REPEATS`` prints one JSON object. Each client runs in its
own process so that no other library's objects are alive: a full garbage collection walks every
tracked object, so with the official client's ~800 model classes loaded, a GC-heavy decode
(lightkube's) would pay about 20% more. Exit status 3: the client failed the correctness checks;
4: the client is not installed (the bench reports it and goes on).
"""

from __future__ import annotations

import functools
import gc
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .memory import retained_bytes
from .peers import SPOT_INDEX, Peer, Spot, expected_spot, peer_by_name
from .timing import samples_seconds

#: Exit status of ``python -m bench.codec`` when the peer's library cannot be imported.
NOT_INSTALLED = 4


class VerificationError(Exception):
    """The client did not decode or encode what was sent: its timings would be meaningless."""


@dataclass(frozen=True)
class Codec:
    #: The client's version, as imported by the interpreter that measured it.
    version: str
    #: Wall time of each timed call (seconds); run.py pools them over rounds.
    decode_samples: list[float]
    encode_samples: list[float]
    retained_per_pod: float
    #: encode(decode(x)) compared with x as JSON values: "exact", "nulls" (equal once the
    #: explicit nulls of x are dropped, which is how the apiserver's Go types read a null on a
    #: field that is not nullable: no client here keeps them) or "differs".
    round_trip: str
    #: Explicit nulls in x that encode(decode(x)) left out.
    dropped_nulls: int


def _verify(peer: Peer, decoded: Any, encoded: bytes, pods: int, expected: Spot) -> None:
    if peer.count(decoded) != pods:
        raise VerificationError(f"{peer.name}: decoded {peer.count(decoded)} pods, expected {pods}")
    got = peer.spot(decoded)
    if got != expected:
        raise VerificationError(f"{peer.name}: pod fields differ after decode: {got} != {expected}")
    items = json.loads(encoded)["items"]
    if len(items) != pods or items[SPOT_INDEX]["metadata"]["name"] != expected.name:
        raise VerificationError(f"{peer.name}: the encoded list does not hold the decoded pods")


def without_nulls(value: Any) -> tuple[Any, int]:
    """``value`` without the object members that are ``null``, and how many there were."""
    if isinstance(value, dict):
        out, dropped = {}, 0
        for key, item in value.items():
            if item is None:
                dropped += 1
                continue
            out[key], n = without_nulls(item)
            dropped += n
        return out, dropped
    if isinstance(value, list):
        items = [without_nulls(item) for item in value]
        return [item for item, _ in items], sum(n for _, n in items)
    return value, 0


def round_trip(sent: Any, encoded: Any) -> tuple[str, int]:
    """How ``encoded`` (decoded JSON) compares with ``sent``: see ``Codec.round_trip``."""
    if encoded == sent:
        return "exact", 0
    stripped, dropped = without_nulls(sent)
    if encoded == stripped:
        return "nulls", dropped
    return "differs", 0


def measure(peer: Peer, data: bytes, decode_repeats: int, encode_repeats: int) -> Codec:
    """Measures retained memory, times decode and encode, then checks both.

    Memory comes first: its untraced warm-up decode also keeps what a process pays once (kgen
    inspects a class's type graph on its first ``from_json``, about 0.8 s for PodList; lightkube
    builds its list model) out of the per-call timings, as a long-running client has paid it.
    """
    raw = json.loads(data)
    pods, expected = len(raw["items"]), expected_spot(raw)
    del raw
    gc.collect()
    retained = retained_bytes(peer.decode, data) / pods
    decode = samples_seconds(lambda: peer.decode(data), decode_repeats)
    decoded = peer.decode(data)
    encodable = peer.encodable(decoded)
    encode = samples_seconds(functools.partial(peer.encode, encodable), encode_repeats)
    encoded = peer.encode(encodable)
    del encodable
    _verify(peer, decoded, encoded, pods, expected)
    del decoded
    how, dropped = round_trip(json.loads(data), json.loads(encoded))
    return Codec(peer.version, decode, encode, retained, how, dropped)


def main(argv: list[str]) -> int:
    name, fixture, decode_repeats, encode_repeats = argv
    try:
        peer = peer_by_name(name)
    except ImportError as e:
        print(f"{name}: not installed ({e})", file=sys.stderr)
        return NOT_INSTALLED
    try:
        result = measure(peer, Path(fixture).read_bytes(), int(decode_repeats), int(encode_repeats))
    except VerificationError as e:
        print(f"VERIFICATION FAILED: {e}", file=sys.stderr)
        return 3
    print(json.dumps(asdict(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
