"""Decode, encode and retained memory of one client, in a fresh interpreter.

``python -m bench.codec PEER FIXTURE DECODE_REPEATS ENCODE_REPEATS`` prints one JSON object. Each client runs in its
own process so that no other library's objects are alive: a full garbage collection walks every
tracked object, so with the official client's ~800 model classes loaded, a GC-heavy decode
(lightkube's) would pay about 20% more. Exit status 3: the client failed the correctness checks.
"""

from __future__ import annotations

import gc
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .memory import retained_bytes
from .peers import SPOT_INDEX, Peer, Spot, expected_spot, peer_by_name
from .timing import median_seconds


class VerificationError(Exception):
    """The client did not decode or encode what was sent: its timings would be meaningless."""


@dataclass(frozen=True)
class Codec:
    decode: float
    encode: float
    retained_per_pod: float
    #: encode(decode(x)) == x, as JSON values.
    lossless: bool


def _verify(peer: Peer, decoded: Any, encoded: bytes, pods: int, expected: Spot) -> None:
    if peer.count(decoded) != pods:
        raise VerificationError(f"{peer.name}: decoded {peer.count(decoded)} pods, expected {pods}")
    got = peer.spot(decoded)
    if got != expected:
        raise VerificationError(f"{peer.name}: pod fields differ after decode: {got} != {expected}")
    items = json.loads(encoded)["items"]
    if len(items) != pods or items[SPOT_INDEX]["metadata"]["name"] != expected.name:
        raise VerificationError(f"{peer.name}: the encoded list does not hold the decoded pods")


def measure(peer: Peer, data: bytes, decode_repeats: int, encode_repeats: int) -> Codec:
    """Times decode and encode, checks both, then measures retained memory."""
    raw = json.loads(data)
    pods, expected = len(raw["items"]), expected_spot(raw)
    del raw
    gc.collect()
    decode = median_seconds(lambda: peer.decode(data), decode_repeats)
    decoded = peer.decode(data)
    encodable = peer.encodable(decoded)
    encode = median_seconds(lambda: peer.encode(encodable), encode_repeats)
    encoded = peer.encode(encodable)
    del encodable
    _verify(peer, decoded, encoded, pods, expected)
    del decoded
    lossless = json.loads(encoded) == json.loads(data)
    del encoded
    gc.collect()
    retained = retained_bytes(peer.decode, data) / pods
    return Codec(decode, encode, retained, lossless)


def main(argv: list[str]) -> int:
    name, fixture, decode_repeats, encode_repeats = argv
    try:
        result = measure(peer_by_name(name), Path(fixture).read_bytes(), int(decode_repeats), int(encode_repeats))
    except VerificationError as e:
        print(f"VERIFICATION FAILED: {e}", file=sys.stderr)
        return 3
    print(json.dumps(asdict(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
