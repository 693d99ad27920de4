"""Another project's `kgen/__init__.py` in the folder this project's `kgen` modules live in.

`kgen` is an implicit namespace package that kgen-k8s and kgen-runtime share: neither wheel has a
`kgen/__init__.py`. PyPI's `kgen` (seawater chemistry) is a regular package of the same name, and
pip installs its files into the same site-packages/kgen/ folder, so its `__init__.py` turns `kgen`
into its package. This project's modules still import (they are in that folder), but every
`import kgen...` first runs that `__init__`, which imports numpy, pandas, scipy, scikit-learn and
matplotlib (1.4 s on a warm start). Without its dependencies every `kgen` import fails with
"No module named 'numpy'" before any code of this project runs; the install docs say so, as
nothing here can.
"""

from __future__ import annotations

import sys
from importlib.metadata import Distribution, distributions
from pathlib import Path


def foreign_kgen_warning() -> str | None:
    """One line telling the user which distribution owns a `kgen/__init__.py` and how to remove
    it, or None when `kgen` is the namespace package it should be."""
    # `kgen` is imported: this module is kgen.generator.foreign_kgen. Its __file__ is None (or
    # unset) when it is a namespace package.
    init = getattr(sys.modules["kgen"], "__file__", None)
    if not init:
        return None
    owner = _owner(Path(init))
    if owner is None:
        return (f"{init} makes `kgen` a regular package that no installed distribution claims; "
                f"kgen-k8s and kgen-runtime need `kgen` to be a namespace package: remove that file")
    name, version = owner.metadata["Name"], owner.version
    summary = owner.metadata["Summary"]
    about = f' ("{summary}")' if summary else ""
    return (f"{init} belongs to {name} {version}{about}, another project than kgen-k8s: it makes `kgen` "
            f"its package, so every `import kgen...` runs it first. Uninstall it (pip uninstall {name}) "
            f"or keep the two in separate virtualenvs")


def _owner(init: Path) -> Distribution | None:
    """The installed distribution whose RECORD lists ``init``."""
    for dist in distributions():
        for file in dist.files or ():
            if file.as_posix() == "kgen/__init__.py" and Path(str(dist.locate_file(file))).resolve() == init.resolve():
                return dist
    return None
