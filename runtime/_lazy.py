"""Package namespaces that import a submodule only when one of its names is first used.

A package ``__init__`` re-exports its public names for users and for ``mypy`` (under
``TYPE_CHECKING``), and maps each name to the module that defines it. Importing one submodule
then costs only that submodule: ``kgen.runtime.rest.config`` reads a kubeconfig without
importing httpx.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, exports: dict[str, list[str]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``exports`` maps a submodule (relative to
    ``package``) to the names it provides."""
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        importlib.import_module(package).__dict__[name] = value
        return value

    return __getattr__
