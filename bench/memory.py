"""Retained memory: what holding a decoded PodList costs, per pod (tracemalloc)."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from typing import Any


def retained_bytes(decode: Callable[[bytes], Any], data: bytes) -> int:
    """Bytes still allocated, after a full collection, while the decoded result is held.

    One decode runs first, untraced, so one-time costs (lazily built decoders, list models,
    imported modules, caches) are not counted; the input bytes exist before tracing starts.
    """
    warm = decode(data)
    del warm
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        held = decode(data)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del held
    gc.collect()
    return after - before
