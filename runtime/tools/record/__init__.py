"""client-go's tools/record for Python: an EventRecorder with client-go's EventCorrelator.

See docs/architecture.md for the layers and where this package sits in them.
"""

from kgen.runtime.tools.record.event import AsyncEventRecorder, EventRecorder, ObjectRef, make_event, record_to_sink
from kgen.runtime.tools.record.events_cache import CorrelatorOptions, EventCorrelateResult, EventCorrelator

__all__ = [
    "AsyncEventRecorder",
    "CorrelatorOptions",
    "EventCorrelateResult",
    "EventCorrelator",
    "EventRecorder",
    "ObjectRef",
    "make_event",
    "record_to_sink",
]
