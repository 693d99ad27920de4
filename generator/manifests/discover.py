"""The user's root types: the modules named on the command line, imported, and the classes in
them marked with ``@resource``, as controller-gen finds the types its markers sit on in the
packages given by ``paths=``.

The modules are imported as ``python -m`` would import them, with the current folder first on
``sys.path``, so ``kgen manifests --module myproject.api.v1`` works from the project's root.
A module that cannot be imported is a bad input (exit 2), said in one line: which module and
the exception's message, never the user's traceback mixed with kgen's.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

from .crd import Root
from .crd_schema import is_root
from .errors import ManifestError


def find_roots(modules: Sequence[str]) -> list[Root]:
    cwd = os.getcwd()
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    roots: dict[int, Root] = {}
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            raise ManifestError(f"--module {name}", f"cannot import it: {e}", "an importable module, e.g. myproject.api.v1") from None
        except Exception as e:  # the user's module failed while importing: say so, in one line
            raise ManifestError(f"--module {name}", f"importing it raised {type(e).__name__}: {e}") from None
        found = [obj for obj in vars(module).values() if is_root(obj)]
        if not found:
            raise ManifestError(f"--module {name}", "has no class marked @resource",
                                "model classes decorated with kgen.runtime.apimachinery.markers.resource(...)")
        for cls in found:
            roots.setdefault(id(cls), Root(cls, getattr(cls, "__kgen_resource__")))
    return list(roots.values())
