"""``kgen.webhook.admission``: ``kgen.runtime.webhook.admission``'s public names (the same objects)."""

from kgen.runtime.webhook.admission import *  # noqa: F403 - the re-export is the whole point
from kgen.runtime.webhook.admission import __all__ as __all__
