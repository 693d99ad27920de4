"""The cyclic garbage collector held off while informers fill their caches (no client-go rule:
Go's collector is concurrent and never walks the heap on the allocating goroutine).

Why: a cache of models is millions of GC-tracked containers (msgspec Structs are untracked,
but every list inside them is tracked: ~19 per realistic Pod, 1.9 M at 100,000 Pods). CPython
collects its oldest generation whenever the objects that reached it since the last full
collection exceed a quarter of those it held then, so a cache growing from nothing to N objects
pays ~log1.25(N) full collections, each walking everything alive: at 100,000 Pods ~14 of them,
~2 s each, more than the decoding itself. None of them can free anything the sync made (a cache
holds what it decodes).

What: the first informer to start an initial sync calls ``gc.disable()`` (only if automatic
collection was on); the last one to end restores it. Overlapping syncs (a factory starting
several informers) share one hold, counted. Each hold ends, in every case, when its informer's
cache has synced, when its list fails (the reflector backs off before it lists again: collection
is never held across a backoff, so a list that keeps failing cannot hold it for ever), and when
the informer stops. Then the sync's survivors are moved to the oldest generation without a
collection (``gc.freeze()`` then ``gc.unfreeze()``: in CPython 3.11's gcmodule.c, freeze moves
every generation into the permanent one and zeroes generation 0's count, unfreeze moves the
permanent one into the oldest; neither touches ``long_lived_pending``, so the objects that
arrive there this way do not count towards the next full collection). Without that step the
first young collection after the hold would walk all of them, and so would the next middle
one. Cyclic garbage made during the hold is found by the next full collection.

That next full collection walks the cache once, and comes soon: its trigger compares with what
the collection before the sync counted. Measured by ``python -m bench.sync_gc`` at 100,000
Pods: 14 full collections during the sync without the hold, none with it, then one (~1.7 s) in
the steady state that follows. One ``gc.collect()`` at the end of the sync costs the same once
but inside the sync; ``gc.freeze()`` alone would spare even that walk, but nothing alive at that
moment could ever be collected again as part of a garbage cycle: a leak, so not an option.

The hold is process-wide state (``gc.isenabled()``), which is why it is an informer option
that can be turned off (``hold_gc_during_sync=False`` on an informer or a factory): a process
that manages the collector itself, or that needs cycles collected while a large cache fills,
leaves it untouched. A process that disabled automatic collection itself keeps it disabled: a
hold then does nothing at all. ``python -m bench.sync_gc`` measures the effect.
"""

from __future__ import annotations

import gc
import threading

__all__ = ["SyncGCHold", "holders"]

_lock = threading.Lock()
_holders = 0
_disabled_here = False  # whether the first hold turned automatic collection off


def _begin() -> bool:
    """At the first hold: automatic collection off; True if this turned it off."""
    if gc.isenabled():
        gc.disable()
        return True
    return False


def _end(disabled_here: bool) -> None:
    """At the last hold's end: the survivors to the oldest generation, collection back on."""
    if disabled_here:
        gc.freeze()
        gc.unfreeze()
        gc.enable()


def _acquire() -> None:
    global _holders, _disabled_here
    with _lock:
        if _holders == 0:
            _disabled_here = _begin()
        _holders += 1


def _release() -> None:
    global _holders, _disabled_here
    with _lock:
        _holders -= 1
        if _holders == 0:
            disabled_here, _disabled_here = _disabled_here, False
            _end(disabled_here)


def holders() -> int:
    """How many holds are open in this process (for tests and diagnostics)."""
    with _lock:
        return _holders


class SyncGCHold:
    """One informer's hold: ``open()`` at the start of each initial list or watch-list,
    ``close()`` at its end; both may be called again, and a closed hold does nothing more.
    ``enabled=False`` (the opt-out) makes both do nothing."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._held = False
        self._lock = threading.Lock()

    @property
    def held(self) -> bool:
        """Whether this hold is open."""
        return self._held

    def open(self) -> None:
        """Open the hold (if enabled and not open)."""
        with self._lock:
            if self.enabled and not self._held:
                _acquire()
                self._held = True

    def close(self) -> None:
        """Close the hold, if open."""
        with self._lock:
            if self._held:
                self._held = False
                _release()
