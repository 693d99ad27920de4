"""``kgen.webhook.conversion``: ``kgen.runtime.webhook.conversion``'s public names (the same objects)."""

from kgen.runtime.webhook.conversion import *  # noqa: F403 - the re-export is the whole point
from kgen.runtime.webhook.conversion import __all__ as __all__
