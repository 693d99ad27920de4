"""``kgen.controller.metrics``: ``kgen.runtime.controller.metrics``'s public names (the same objects),
as controller-runtime's ``pkg/metrics`` (``metrics.Registry``) is imported by its users."""

from kgen.runtime.controller.metrics import *  # noqa: F403 - the re-export is the whole point
from kgen.runtime.controller.metrics import __all__ as __all__
