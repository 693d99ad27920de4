"""Cache mutation detection (client-go mutation_detector.go), a debug mode.

Objects in an informer's cache are shared with every handler and lister caller; mutating one
corrupts the cache for all of them. Copy before modifying::

    pod = lister.pods("ns").get("web")
    changed = msgspec.structs.replace(pod, ...)   # or Pod.from_dict(pod.to_dict())

With ``KGEN_CACHE_MUTATION_DETECTOR=true`` (or an explicit detector), every object added to a
cache is fingerprinted and checked periodically; a mutation is reported through the
``on_mutation`` callback, which by default logs an error and raises in the checking thread.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any

import msgspec

log = logging.getLogger("kgen.runtime.tools.cache.mutation_detector")
"""The logger of mutations found."""


class CacheMutationError(RuntimeError):
    """An object in an informer cache was mutated (the default ``on_mutation`` raises it)."""


def _fingerprint(obj: Any) -> bytes:
    to_json = getattr(obj, "to_json", None)
    return bytes(to_json()) if callable(to_json) else msgspec.json.encode(obj)


class CacheMutationDetector:
    """Fingerprints each object added to a cache and, every ``period`` seconds once started, calls
    ``on_mutation`` with each one that changed."""

    def __init__(self, period: float = 10.0, on_mutation: Callable[[Any], None] | None = None) -> None:
        self.period = period
        self.on_mutation = on_mutation or self._fail
        self._cached: list[tuple[Any, bytes]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @classmethod
    def from_env(cls) -> "CacheMutationDetector | None":
        """A detector if ``KGEN_CACHE_MUTATION_DETECTOR`` is "1" or "true", else None."""
        return cls() if os.environ.get("KGEN_CACHE_MUTATION_DETECTOR", "").lower() in ("1", "true") else None

    @staticmethod
    def _fail(obj: Any) -> None:
        log.error("an object in an informer cache was mutated: copy before modifying")
        raise CacheMutationError("an object in an informer cache was mutated: copy before modifying")

    def add_object(self, obj: Any) -> None:
        """Fingerprint ``obj``, to check later."""
        with self._lock:
            self._cached.append((obj, _fingerprint(obj)))

    def compare_objects(self) -> None:
        """Check every fingerprinted object now; ``on_mutation`` for each that changed."""
        with self._lock:
            cached = list(self._cached)
        for obj, fingerprint in cached:
            if _fingerprint(obj) != fingerprint:
                self.on_mutation(obj)

    def start(self) -> None:
        """Check every ``period`` seconds on a daemon thread, until ``stop``."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, daemon=True, name="cache-mutation-detector")
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            try:
                self.compare_objects()
            except CacheMutationError:
                pass  # already logged; keep checking

    def stop(self) -> None:
        """Stop the periodic checks."""
        self._stop.set()
