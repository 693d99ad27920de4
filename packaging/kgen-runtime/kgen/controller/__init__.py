"""``kgen.controller``: controller-runtime's role (manager, builders, reconcilers, predicates,
finalizer and condition helpers), under the name DESIGN.md gives it.

The code lives in ``kgen.runtime.controller`` (runtime/controller/); this package re-exports its
public names, so ``kgen.controller.Manager is kgen.runtime.controller.Manager``: one module per
class, whichever name imports it (packaging/README.md, "The short names").
"""

from kgen.runtime.controller import *  # noqa: F403 - the re-export is the whole point
from kgen.runtime.controller import __all__ as __all__
