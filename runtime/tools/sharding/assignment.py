"""Which replica owns an object: rendezvous (highest-random-weight) hashing over live members.

Each (member, key) pair gets a weight from a fixed hash — BLAKE2b of the member's identity and
the object's ``namespace/name`` — and the key belongs to the member with the highest weight.
Why rendezvous hashing rather than ``hash(key) % N`` or a ring:

- stable across processes and restarts: the weight depends on the two strings only (never on
  Python's salted ``hash()``, never on the order members joined), so every replica and every
  new leader computes the same owner from the same member set;
- minimal movement: removing a member moves exactly that member's keys (each to its
  second-highest weight), and adding one moves to it only the keys it now wins — about 1/N of
  them, and none between the members that stay;
- balanced without virtual nodes: each member's share is binomial around 1/N.

Ties (equal 64-bit weights) go to the smaller identity, so the choice is a total order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

__all__ = ["owner", "weight"]


def weight(member: str, key: str) -> int:
    """The member's weight for ``key``: the first 8 bytes of BLAKE2b(member NUL key), big-endian."""
    digest = hashlib.blake2b(f"{member}\x00{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def owner(key: str, members: Iterable[str]) -> str | None:
    """The member that owns ``key`` among ``members`` (None when there is none)."""
    best: tuple[int, str] | None = None
    for member in members:
        candidate = (weight(member, key), member)
        if best is None or candidate[0] > best[0] or (candidate[0] == best[0] and member < best[1]):
            best = candidate
    return best[1] if best is not None else None
