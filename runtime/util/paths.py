"""Where kgen keeps its caches: ``$KGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/kgen``, else ``~/.cache/kgen``."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """kgen's cache folder: ``$KGEN_CACHE_DIR``, else ``$XDG_CACHE_HOME/kgen``, else ``~/.cache/kgen``
    (not created)."""
    explicit = os.environ.get("KGEN_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "kgen"
