"""``kgen.webhook``: admission and conversion webhooks and the server that serves them
(controller-runtime's ``pkg/webhook``), under the name DESIGN.md gives it.

The code lives in ``kgen.runtime.webhook`` (runtime/webhook/); this package and its
``admission`` and ``conversion`` re-export their public names, the same objects
(packaging/README.md, "The short names").
"""

from kgen.runtime.webhook import *  # noqa: F403 - the re-export is the whole point
from kgen.runtime.webhook import __all__ as __all__
